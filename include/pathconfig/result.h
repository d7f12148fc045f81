/*
 * pathconfig/result.h -- the values of a result: raw values as the
 * configuration wrote them, typed accessors as the apps read them.
 *
 * Part of libpathconfig's C API: include <pathconfig.h>, not this file. The
 * conventions stated there (handles, ownership, text, errors) hold here.
 */
#ifndef PATHCONFIG_RESULT_H
#define PATHCONFIG_RESULT_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------
 * Raw values of a result
 *
 * The value of one key exactly as the configuration wrote it (after the
 * profile's storage rules: turbo-android keeps every value as a string).
 * Each getter returns
 *   PATHCONFIG_FOUND (1)        the key holds a value of the asked type; *out is written;
 *   PATHCONFIG_NOT_FOUND (0)    the key is absent (not an error);
 *   -PATHCONFIG_E_TYPE          the key holds another type (JSON null included);
 *   -PATHCONFIG_E_ARGUMENT      res or key is NULL, or key is not UTF-8;
 *   -PATHCONFIG_E_NOMEM         a string could not be allocated.
 * `out` may be NULL to test for the key only. The pointer getters set *out to
 * NULL unless they return PATHCONFIG_FOUND; the scalar getters leave *out
 * untouched unless they do, so a default may be stored in it beforehand.
 * ------------------------------------------------------------------------- */

/**
 * METHOD of pathconfig_result. A string value.
 * @param out  receives a pointer borrowed from res (stable: the same key gives
 *             the same pointer). A string containing U+0000 ends there as a C
 *             string; pathconfig_result_get_string_len gives all of it.
 */
PATHCONFIG_API int pathconfig_result_get_string(const pathconfig_result *res, const char *key,
                                                const char **out);

/**
 * METHOD of pathconfig_result. A string value and its length, so that a
 * string containing U+0000 arrives whole.
 * @param out  receives the pointer pathconfig_result_get_string gives,
 *             borrowed from res: len bytes of UTF-8 (U+0000 included), then a
 *             NUL; may be NULL.
 * @param len  receives the length in bytes, without the final NUL; set to 0
 *             unless the getter returns PATHCONFIG_FOUND; may be NULL.
 */
PATHCONFIG_API int pathconfig_result_get_string_len(const pathconfig_result *res, const char *key,
                                                    const char **out, size_t *len);

/**
 * METHOD of pathconfig_result. A JSON boolean (true/false; the string "true"
 * is not a boolean here, see pathconfig_result_typed_bool).
 * @param out  receives 1 or 0.
 */
PATHCONFIG_API int pathconfig_result_get_bool(const pathconfig_result *res, const char *key,
                                              int *out);

/**
 * METHOD of pathconfig_result. A JSON number written without fraction or
 * exponent that fits in int64_t; any other number is -PATHCONFIG_E_TYPE
 * (read it with pathconfig_result_get_double).
 */
PATHCONFIG_API int pathconfig_result_get_int64(const pathconfig_result *res, const char *key,
                                               int64_t *out);

/**
 * METHOD of pathconfig_result. Any JSON number, as the nearest double.
 */
PATHCONFIG_API int pathconfig_result_get_double(const pathconfig_result *res, const char *key,
                                                double *out);

/**
 * METHOD of pathconfig_result. Any value (objects, arrays and null included)
 * as compact JSON text; never -PATHCONFIG_E_TYPE.
 * @param out  receives a pointer borrowed from res.
 */
PATHCONFIG_API int pathconfig_result_get_json(const pathconfig_result *res, const char *key,
                                              const char **out);

/* ---------------------------------------------------------------------------
 * Typed accessors of a result
 *
 * The well-known keys read as the profile's app reads them, defaults applied
 * when the key is missing, of the wrong type or an unknown value:
 *
 *   key                             kind     iOS default  Android default
 *   context                         enum     "default"    "default"     default | modal
 *   presentation                    enum     "default"    "default"     default | pop | replace | refresh | clear_all |
 *                                                                        replace_root | none (Android adds push)
 *   modal_style                     enum     "large"      "large"       medium | large | full | page_sheet | form_sheet
 *   query_string_presentation       enum     "default"    "default"     default | replace
 *   view_controller                 string   "web"        NULL
 *   title                           string   NULL         NULL
 *   uri                             string   NULL         NULL
 *   fallback_uri                    string   NULL         NULL
 *   pull_to_refresh_enabled         bool     1            0
 *   modal_dismiss_gesture_enabled   bool     1            1
 *   animated                        bool     1            1
 *   historical_location             bool     0            0
 *
 * iOS profiles read strictly (exact strings, JSON booleans only). Android
 * profiles compare enumerations case-insensitively and return them in lower
 * case ("POP" reads as "pop"), and read the strings "true"/"false" (any case)
 * as booleans. The library lists this table itself: see
 * pathconfig_typed_key_count under "What this library knows".
 * ------------------------------------------------------------------------- */

/**
 * METHOD of pathconfig_result. The typed value of an enum or string key.
 * @param key  one of the enum or string keys above.
 * @return borrowed from res; NULL when the key has no value and no default
 *         (last error cleared: code 0), or on failure: PATHCONFIG_E_ARGUMENT
 *         (NULL argument, unknown key), _TYPE (a bool key), _NOMEM.
 */
PATHCONFIG_API const char *pathconfig_result_typed_string(const pathconfig_result *res, const char *key);

/**
 * METHOD of pathconfig_result. The typed value of a bool key.
 * @param key  one of the bool keys above.
 * @return 1 or 0; on failure -PATHCONFIG_E_ARGUMENT (NULL argument, unknown
 *         key) or -PATHCONFIG_E_TYPE (an enum or string key).
 */
PATHCONFIG_API int pathconfig_result_typed_bool(const pathconfig_result *res, const char *key);

/**
 * METHODS of pathconfig_result: pathconfig_result_typed_string for one key.
 * @return borrowed from res; never NULL for context, presentation,
 *         modal_style and query_string_presentation unless res is NULL
 *         (PATHCONFIG_E_ARGUMENT) or out of memory.
 */
PATHCONFIG_API const char *pathconfig_result_context(const pathconfig_result *res);
PATHCONFIG_API const char *pathconfig_result_presentation(const pathconfig_result *res);
PATHCONFIG_API const char *pathconfig_result_modal_style(const pathconfig_result *res);
PATHCONFIG_API const char *pathconfig_result_query_string_presentation(const pathconfig_result *res);
PATHCONFIG_API const char *pathconfig_result_view_controller(const pathconfig_result *res);
PATHCONFIG_API const char *pathconfig_result_title(const pathconfig_result *res);
PATHCONFIG_API const char *pathconfig_result_uri(const pathconfig_result *res);
PATHCONFIG_API const char *pathconfig_result_fallback_uri(const pathconfig_result *res);

/**
 * METHODS of pathconfig_result: pathconfig_result_typed_bool for one key.
 * @return 1 or 0; -PATHCONFIG_E_ARGUMENT when res is NULL.
 */
PATHCONFIG_API int pathconfig_result_pull_to_refresh_enabled(const pathconfig_result *res);
PATHCONFIG_API int pathconfig_result_modal_dismiss_gesture_enabled(const pathconfig_result *res);
PATHCONFIG_API int pathconfig_result_animated(const pathconfig_result *res);
PATHCONFIG_API int pathconfig_result_historical_location(const pathconfig_result *res);

#ifdef __cplusplus
}
#endif

#endif /* PATHCONFIG_RESULT_H */
