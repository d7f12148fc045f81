/*
 * pathconfig/result.h -- reading a result: its JSON text, its keys, raw
 * values as the configuration wrote them, typed values as the apps read them.
 *
 * Part of libpathconfig's C API: include <pathconfig.h>, not this file. The
 * conventions stated there (handles, ownership, text, errors) hold here.
 *
 * Everything a result gives is worked out once per distinct answer, the
 * first time any of it is read, and shared by every result of that answer:
 * a read is a lookup in a table, and every pointer it gives is borrowed from
 * the result (valid while the caller holds a reference on it).
 */
#ifndef PATHCONFIG_RESULT_H
#define PATHCONFIG_RESULT_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * DESTRUCTOR. Drops a reference to a result; the result and every string
 * borrowed from it are freed with the last one. NULL is a no-op.
 */
PATHCONFIG_API void pathconfig_result_release(pathconfig_result *res);

/**
 * CONSTRUCTOR. Adds a reference to a result (thread-safe), e.g. to keep it
 * beyond the scope that resolved it. The caller must itself hold a reference
 * during the call.
 * @return res itself, which the caller must pass to pathconfig_result_release
 *         once more; NULL (PATHCONFIG_E_ARGUMENT) when res is NULL.
 */
PATHCONFIG_API pathconfig_result *pathconfig_result_retain(pathconfig_result *res);

/**
 * READER of pathconfig_result. The answer's identity, for a host that keeps
 * what it derives from an answer (a decoded map, a native object) and finds
 * it again on the next lookup that gives the same answer: results with the
 * same id hold the same properties (the converse does not hold: two answers
 * of different rules may merge to equal properties). Ids are unique within
 * the process and never reused, so a host may keep one without a reference
 * on the result.
 * @return the id, never 0; 0 when res is NULL (PATHCONFIG_E_ARGUMENT).
 */
PATHCONFIG_API uint64_t pathconfig_result_id(const pathconfig_result *res);

/**
 * READER of pathconfig_result. The merged properties as a compact JSON
 * object ("{}" when no rule matched), keys in the order they first appeared
 * in the matching rules.
 * @return borrowed from res; NULL on failure (PATHCONFIG_E_ARGUMENT, _NOMEM).
 */
PATHCONFIG_API const char *pathconfig_result_json(const pathconfig_result *res);

/**
 * READER of pathconfig_result. The number of keys in the merged properties.
 * @return the count; 0 also when res is NULL (PATHCONFIG_E_ARGUMENT).
 */
PATHCONFIG_API size_t pathconfig_result_count(const pathconfig_result *res);

/**
 * READER of pathconfig_result. The i-th key, in the order of
 * pathconfig_result_json (0 <= i < pathconfig_result_count).
 * @return borrowed from res; NULL on failure (PATHCONFIG_E_ARGUMENT: res NULL
 *         or i out of range; _NOMEM).
 */
PATHCONFIG_API const char *pathconfig_result_key(const pathconfig_result *res, size_t i);

/* ---------------------------------------------------------------------------
 * Raw values
 *
 * The value of one key exactly as the configuration wrote it (after the
 * profile's storage rules: turbo-android keeps every value as a string).
 * Each getter returns a status:
 *   PATHCONFIG_OK            the key holds a value of the asked type; *out is written;
 *   PATHCONFIG_NOT_FOUND     the key is absent (not an error: last error cleared);
 *   PATHCONFIG_E_TYPE        the key holds another type (JSON null included);
 *   PATHCONFIG_E_ARGUMENT    res or key is NULL, or key is not UTF-8;
 *   PATHCONFIG_E_NOMEM       a string could not be allocated.
 * A key is found when its bytes are the answer's key's: no Unicode
 * normalization ("caf\xC3\xA9" and "cafe\xCC\x81" are two keys, as the
 * Android apps keep them; an iOS profile's answer has merged such keys).
 * `out` may be NULL to test for the key only. The pointer getters set *out to
 * NULL unless they return PATHCONFIG_OK; the scalar getters leave *out
 * untouched unless they do, so a default may be stored in it beforehand.
 * pathconfig_result_type says which getter a key's value needs.
 * ------------------------------------------------------------------------- */

/* pathconfig_result_type: the JSON type of a value. */
#define PATHCONFIG_TYPE_NULL    1  /**< JSON null. */
#define PATHCONFIG_TYPE_BOOL    2  /**< true or false: pathconfig_result_get_bool. */
#define PATHCONFIG_TYPE_INT     3  /**< A number written without fraction or exponent that fits in int64_t: pathconfig_result_get_int64 (and _get_double). */
#define PATHCONFIG_TYPE_DOUBLE  4  /**< Any other number: pathconfig_result_get_double. An integer beyond int64_t (12345678901234567890) is one too, where JSON readers keep an integer: C has no wider integer to return it in; pathconfig_result_get_double gives the nearest double and pathconfig_result_get_json the digits as written. */
#define PATHCONFIG_TYPE_STRING  5  /**< A string: pathconfig_result_get_string. */
#define PATHCONFIG_TYPE_ARRAY   6  /**< An array: pathconfig_result_get_json. */
#define PATHCONFIG_TYPE_OBJECT  7  /**< An object: pathconfig_result_get_json. */

/**
 * READER of pathconfig_result. The JSON type of the i-th key's value
 * (0 <= i < pathconfig_result_count), so that a host converting a result to
 * its own map calls the right getter for each key without parsing JSON.
 * @return a PATHCONFIG_TYPE_* constant; 0 on failure (PATHCONFIG_E_ARGUMENT:
 *         res NULL or i out of range).
 */
PATHCONFIG_API int pathconfig_result_type(const pathconfig_result *res, size_t i);

/**
 * METHOD of pathconfig_result. A string value.
 * @param out  receives a pointer borrowed from res: *len bytes of UTF-8, then
 *             a NUL (a string holding U+0000 holds that byte too: read it
 *             with len); may be NULL.
 * @param len  receives the length in bytes, without the final NUL; set to 0
 *             unless the getter returns PATHCONFIG_OK; may be NULL.
 * @return a status (see above).
 */
PATHCONFIG_API int pathconfig_result_get_string(const pathconfig_result *res, const char *key,
                                                const char **out, size_t *len);

/**
 * METHOD of pathconfig_result. A JSON boolean (true/false; the string "true"
 * is not a boolean here, see pathconfig_result_typed_bool).
 * @param out  receives 1 or 0.
 * @return a status (see above).
 */
PATHCONFIG_API int pathconfig_result_get_bool(const pathconfig_result *res, const char *key,
                                              int *out);

/**
 * METHOD of pathconfig_result. A JSON number written without fraction or
 * exponent that fits in int64_t; any other number is PATHCONFIG_E_TYPE
 * (read it with pathconfig_result_get_double).
 * @return a status (see above).
 */
PATHCONFIG_API int pathconfig_result_get_int64(const pathconfig_result *res, const char *key,
                                               int64_t *out);

/**
 * METHOD of pathconfig_result. Any JSON number, as the nearest double.
 * @return a status (see above).
 */
PATHCONFIG_API int pathconfig_result_get_double(const pathconfig_result *res, const char *key,
                                                double *out);

/**
 * METHOD of pathconfig_result. Any value (objects, arrays and null included)
 * as compact JSON text; never PATHCONFIG_E_TYPE.
 * @param out  receives a pointer borrowed from res.
 * @return a status (see above).
 */
PATHCONFIG_API int pathconfig_result_get_json(const pathconfig_result *res, const char *key,
                                              const char **out);

/* ---------------------------------------------------------------------------
 * Typed values
 *
 * The well-known keys read as the profile's app reads them, defaults applied
 * when the key is missing, of the wrong type or an unknown value. A key is
 * named by its PATHCONFIG_KEY_* constant, which is also its index in the
 * catalog (pathconfig_typed_key_name(PATHCONFIG_KEY_CONTEXT) is "context");
 * the table is in that order:
 *
 *   key                             kind     iOS default  Android default
 *   context                         enum     "default"    "default"     default | modal
 *   presentation                    enum     "default"    "default"     default | pop | replace | refresh | clear_all |
 *                                                                        replace_root | none (Android adds push)
 *   modal_style                     enum     "large"      "large"       medium | large | full | page_sheet | form_sheet
 *   pull_to_refresh_enabled         bool     1            0
 *   modal_dismiss_gesture_enabled   bool     1            1
 *   view_controller                 string   "web"        NULL
 *   animated                        bool     1            1
 *   query_string_presentation       enum     "default"    "default"     default | replace
 *   title                           string   NULL         NULL
 *   uri                             string   NULL         NULL
 *   fallback_uri                    string   NULL         NULL
 *   historical_location             bool     0            0
 *
 * iOS profiles read strictly (exact strings, JSON booleans only). Android
 * profiles compare enumerations case-insensitively and return them in lower
 * case ("POP" reads as "pop"), and read the strings "true"/"false" (any case)
 * as booleans. The catalog (pathconfig/catalog.h) lists this table: kinds,
 * allowed values and defaults per profile.
 * ------------------------------------------------------------------------- */

#define PATHCONFIG_KEY_CONTEXT                        0
#define PATHCONFIG_KEY_PRESENTATION                   1
#define PATHCONFIG_KEY_MODAL_STYLE                    2
#define PATHCONFIG_KEY_PULL_TO_REFRESH_ENABLED        3
#define PATHCONFIG_KEY_MODAL_DISMISS_GESTURE_ENABLED  4
#define PATHCONFIG_KEY_VIEW_CONTROLLER                5
#define PATHCONFIG_KEY_ANIMATED                       6
#define PATHCONFIG_KEY_QUERY_STRING_PRESENTATION      7
#define PATHCONFIG_KEY_TITLE                          8
#define PATHCONFIG_KEY_URI                            9
#define PATHCONFIG_KEY_FALLBACK_URI                  10
#define PATHCONFIG_KEY_HISTORICAL_LOCATION           11

/**
 * READER of pathconfig_result. The typed value of an enum or string key.
 * @param key  a PATHCONFIG_KEY_* constant of an enum or string key.
 * @return borrowed from res (an enum's value is static); never NULL for an
 *         enum key. NULL when a string key has no value and no default (last
 *         error cleared: code 0), or on failure: PATHCONFIG_E_ARGUMENT (res
 *         NULL, key unknown), PATHCONFIG_E_TYPE (a bool key), _NOMEM,
 *         PATHCONFIG_E_CRASH (the profile's app throws reading the key).
 */
PATHCONFIG_API const char *pathconfig_result_typed_string(const pathconfig_result *res, int key);

/**
 * READER of pathconfig_result. The typed value of a bool key.
 * @param key  a PATHCONFIG_KEY_* constant of a bool key.
 * @return 1 or 0; 0 on failure, with the last error set:
 *         PATHCONFIG_E_ARGUMENT (res NULL, key unknown), PATHCONFIG_E_TYPE
 *         (an enum or string key), PATHCONFIG_E_CRASH (the profile's app
 *         throws reading the key: hotwire-android on a string or number).
 *         Never negative: after a failed lookup
 *         (res NULL) it reads as false, not true.
 */
PATHCONFIG_API int pathconfig_result_typed_bool(const pathconfig_result *res, int key);

#ifdef __cplusplus
}
#endif

#endif /* PATHCONFIG_RESULT_H */
