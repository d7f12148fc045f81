/*
 * pathconfig.h -- the C API of libpathconfig.
 *
 * libpathconfig maps URLs to path properties the way Turbo and Hotwire Native
 * apps read a path configuration: load the JSON once, then ask for the
 * properties of each URL the app visits.
 *
 *     pathconfig_error err;
 *     pathconfig *cfg = pathconfig_load_file("path-configuration.json",
 *                                            "{\"profile\":\"hotwire-ios\"}", &err);
 *     if (cfg == NULL) {
 *         fprintf(stderr, "%d:%d: %s\n", err.line, err.column, err.message);
 *         return 1;
 *     }
 *     pathconfig_result *res = pathconfig_resolve(cfg, "https://example.com/messages/new", NULL);
 *     if (res != NULL) {
 *         printf("context=%s json=%s\n", pathconfig_result_context(res),
 *                pathconfig_result_json(res));
 *         pathconfig_result_free(res);
 *     }
 *     pathconfig_release(cfg);
 *
 * Build with `pkg-config --cflags --libs pathconfig`.
 *
 * CONVENTIONS (they hold for every function below)
 *
 *   Handles.   `pathconfig` (a loaded configuration) and `pathconfig_result`
 *   (the properties of one lookup) are opaque. A configuration is immutable:
 *   any number of threads may use one handle at once, and retain/release are
 *   atomic. A result is immutable too and may be read from several threads.
 *   A `pathconfig_loader` keeps a configuration current from several sources
 *   (see "Loader" below); it is thread-safe too.
 *
 *   Ownership.  Every pointer is marked in its function's documentation:
 *     - "caller frees with X": the caller owns it and must pass it to X once.
 *     - "borrowed from Y": owned by Y; valid until Y is freed/released; never
 *       free it.
 *     - "static": valid for the life of the process; never free it.
 *   Strings returned as `char *` are allocated with malloc(3) and are freed
 *   with pathconfig_free_string() (which is free(3)).
 *
 *   Text.  Every string in and out is NUL-terminated UTF-8. An argument that is
 *   not valid UTF-8 is rejected with PATHCONFIG_E_ARGUMENT (it is never
 *   silently repaired). JSON text out is compact (no spaces), keeps the key
 *   order of the document and the literal text of numbers.
 *
 *   Errors.  No function crashes on a NULL handle or string argument: NULL is
 *   reported as PATHCONFIG_E_ARGUMENT. Functions that take a
 *   `pathconfig_error *err` fill it when they fail and clear it (code 0) when
 *   they succeed; `err` may be NULL. Every function that can fail also
 *   records its outcome in a thread-local error read with
 *   pathconfig_last_error(), so functions without an `err` parameter can be
 *   diagnosed. Destructors (pathconfig_release, pathconfig_result_free,
 *   pathconfig_free_string, pathconfig_loader_free) accept NULL and never
 *   touch the last error.
 *
 *   Out of memory.  Where the library itself allocates (C strings), failure
 *   is reported as PATHCONFIG_E_NOMEM. Memory exhaustion inside the Swift
 *   runtime cannot be reported and aborts the process, as in most runtimes.
 *
 *   Linking.  libpathconfig.so carries its own copy of the Swift runtime
 *   (hidden: only pathconfig_* symbols are exported), so hosts need no Swift
 *   installation. Once loaded it stays loaded: dlclose(3) does not unmap it.
 */
#ifndef PATHCONFIG_H
#define PATHCONFIG_H

#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------------------------------------
 * Version
 * ------------------------------------------------------------------------- */

/** The version of this header, "MAJOR.MINOR.PATCH". */
#define PATHCONFIG_VERSION "0.1.0"
#define PATHCONFIG_VERSION_MAJOR 0
#define PATHCONFIG_VERSION_MINOR 1
#define PATHCONFIG_VERSION_PATCH 0
/** MAJOR * 1000000 + MINOR * 1000 + PATCH; compare with pathconfig_version_number(). */
#define PATHCONFIG_VERSION_NUMBER 1000

/* ---------------------------------------------------------------------------
 * Linkage
 * ------------------------------------------------------------------------- */

#if defined(__GNUC__) && __GNUC__ >= 4
#  define PATHCONFIG_API extern __attribute__((visibility("default")))
#else
#  define PATHCONFIG_API extern
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------
 * Status codes
 *
 * `pathconfig_error.code` holds one of these. The value getters return
 * PATHCONFIG_FOUND / PATHCONFIG_NOT_FOUND, or a code negated (e.g.
 * -PATHCONFIG_E_TYPE). The numbers are stable; new codes are only appended.
 * Codes 1 to 7 are load failures, 8 to 11 failures of any call, 12 to 14
 * the loader's (its events and pathconfig_loader_load/_refresh also report
 * codes 1 to 7 for a source that does not load).
 * ------------------------------------------------------------------------- */

#define PATHCONFIG_OK          0  /**< Success. */
#define PATHCONFIG_E_JSON      1  /**< The document is not JSON (or not UTF-8); line/column say where. */
#define PATHCONFIG_E_SCHEMA    2  /**< JSON, but not a path configuration (missing or mistyped key); line/column, and rule_index/pattern_index when a rule is at fault. */
#define PATHCONFIG_E_REGEX     3  /**< A pattern the regex engine rejects; rule_index, pattern_index, line/column of the pattern string; the message gives the offset in the pattern. */
#define PATHCONFIG_E_OPTIONS   4  /**< options_json is malformed, has an unknown key or a bad value (e.g. an unknown profile). */
#define PATHCONFIG_E_IO        5  /**< The file could not be opened or read; os_error holds errno. */
#define PATHCONFIG_E_LIMIT     6  /**< The input exceeds a limit: document size, nesting depth, rule or pattern counts, pattern length. */
#define PATHCONFIG_E_BACKEND   7  /**< The requested regex backend is not built into this library ("foundation" never is). */
#define PATHCONFIG_E_ARGUMENT  8  /**< A NULL, non-UTF-8 or out-of-range argument, or an unknown typed key. */
#define PATHCONFIG_E_NOMEM     9  /**< The library could not allocate a string it returns. */
#define PATHCONFIG_E_INTERNAL 10  /**< A bug in libpathconfig; please report it. */
#define PATHCONFIG_E_TYPE     11  /**< A value getter found the key with another JSON type (or a typed accessor of the other kind was used). */
#define PATHCONFIG_E_DOWNLOAD 12  /**< A download brought no usable response: libcurl missing, connection, timeout, a status other than 200/304, a body too large or cut short; the loader event's `reason` and `http_status` say which. */
#define PATHCONFIG_E_CACHE    13  /**< A cache file was ignored (corrupt, unreadable) or could not be written; a warning, never fatal. */
#define PATHCONFIG_E_MISUSE   14  /**< A call the object's state forbids: pathconfig_loader_load/_refresh from inside that loader's own callback (refused before doing or starting anything). */

/** A value getter found the key (the out value is written). */
#define PATHCONFIG_FOUND       1
/** A value getter did not find the key (not an error: the last error is cleared). */
#define PATHCONFIG_NOT_FOUND   0

/* ---------------------------------------------------------------------------
 * Types
 * ------------------------------------------------------------------------- */

/**
 * A loaded configuration: immutable, thread-safe, reference-counted.
 * CONSTRUCTORS pathconfig_load_json, pathconfig_load_file, pathconfig_retain;
 * DESTRUCTOR pathconfig_release.
 */
typedef struct pathconfig pathconfig;

/**
 * The merged properties of one URL: immutable, independent of the
 * configuration it came from (it may outlive pathconfig_release of it).
 * CONSTRUCTOR pathconfig_resolve; DESTRUCTOR pathconfig_result_free.
 */
typedef struct pathconfig_result pathconfig_result;

/**
 * Why a call failed. Caller-allocated (e.g. on the stack); the library fills
 * it on failure and clears it (code 0, message "", positions 0, indices -1,
 * os_error 0) on success. Nothing in it needs freeing. Fields are only ever
 * appended.
 */
typedef struct pathconfig_error {
    int  code;           /**< 0 = ok, else a PATHCONFIG_E_* constant. */
    int  line, column;   /**< 1-based position in the JSON document (column in Unicode scalars), 0 when not applicable. */
    char message[512];   /**< NUL-terminated UTF-8, human readable; does not repeat line and column (print "LINE:COLUMN: MESSAGE" when line > 0). Cut at a character boundary if longer. */
    int  rule_index;     /**< 0-based index of the rule at fault, -1 when not applicable. */
    int  pattern_index;  /**< 0-based index of the pattern within that rule, -1 when not applicable. */
    int  os_error;       /**< For PATHCONFIG_E_IO, the errno(3) value of the failed system call (ENOENT, EACCES, EISDIR, ...), to classify the failure without reading the message; 0 otherwise. */
} pathconfig_error;

/* ---------------------------------------------------------------------------
 * Version and errors
 * ------------------------------------------------------------------------- */

/**
 * The library's version string, e.g. "0.1.0".
 * @return static; never NULL. Compare with PATHCONFIG_VERSION to detect a
 *         header/library mismatch.
 */
PATHCONFIG_API const char *pathconfig_version(void);

/**
 * The library's version as MAJOR * 1000000 + MINOR * 1000 + PATCH.
 * @return the number PATHCONFIG_VERSION_NUMBER had when the library was built.
 */
PATHCONFIG_API int pathconfig_version_number(void);

/**
 * The outcome of the calling thread's last call that can fail.
 * Every such call sets it (on failure) or clears it to code 0 (on success),
 * so read it right after the call you want to diagnose.
 * @return borrowed from the calling thread: valid until the thread's next
 *         pathconfig_* call or its exit. Never NULL.
 */
PATHCONFIG_API const pathconfig_error *pathconfig_last_error(void);

/**
 * The name of a status code, e.g. "PATHCONFIG_E_JSON" for 1.
 * @param code a PATHCONFIG_* code, or its negation as the getters return it.
 * @return static; never NULL; "PATHCONFIG_E_UNKNOWN" for a code this library
 *         does not know.
 */
PATHCONFIG_API const char *pathconfig_error_name(int code);

/* ---------------------------------------------------------------------------
 * Loading
 *
 * options_json is NULL (or blank) for the defaults, or a JSON object with any
 * of these keys; unknown keys and bad values fail with PATHCONFIG_E_OPTIONS:
 *   "profile"             "hotwire-ios" (default), "turbo-ios",
 *                         "hotwire-android", "turbo-android": the app whose
 *                         reading of the file is reproduced
 *                         (pathconfig_profile_name lists them).
 *   "match_query_strings" true, false or null (the profile's default: on for
 *                         all but turbo-ios): append "?query" to URL paths.
 *   "backend"             "pcre2" (the default and the only backend built in,
 *                         see pathconfig_backend_name; "foundation" fails with
 *                         PATHCONFIG_E_BACKEND).
 *   "lenient"             false (default): an invalid pattern fails the load;
 *                         true: it is skipped with a warning, as the apps do.
 * ------------------------------------------------------------------------- */

/**
 * CONSTRUCTOR. Loads a configuration from JSON text in memory.
 * @param json          the document, UTF-8; need not be NUL-terminated. Not
 *                      retained: the caller may free it when this returns.
 * @param len           its length in bytes.
 * @param options_json  NUL-terminated options (see above), or NULL.
 * @param err           filled on failure, cleared on success; may be NULL.
 * @return a new handle (reference count 1), caller frees with
 *         pathconfig_release; NULL on failure with code PATHCONFIG_E_JSON,
 *         _SCHEMA, _REGEX, _OPTIONS, _LIMIT, _BACKEND or _ARGUMENT (json NULL,
 *         options_json not UTF-8).
 */
PATHCONFIG_API pathconfig *pathconfig_load_json(const char *json, size_t len,
                                                const char *options_json,
                                                pathconfig_error *err);

/**
 * CONSTRUCTOR. Loads a configuration from a file.
 * @param path          the file's path, NUL-terminated UTF-8.
 * @param options_json  NUL-terminated options (see above), or NULL.
 * @param err           filled on failure, cleared on success; may be NULL.
 * @return a new handle (reference count 1), caller frees with
 *         pathconfig_release; NULL on failure with the codes of
 *         pathconfig_load_json, or PATHCONFIG_E_IO (err->os_error holds
 *         the errno of the open(2) or read(2) that failed).
 */
PATHCONFIG_API pathconfig *pathconfig_load_file(const char *path,
                                                const char *options_json,
                                                pathconfig_error *err);

/**
 * CONSTRUCTOR. Adds a reference to a configuration (thread-safe), e.g. to
 * hand it to another thread or object that releases it independently. The
 * caller must itself hold a reference to cfg during the call.
 * @return cfg itself, which the caller must pass to pathconfig_release once
 *         more; NULL (PATHCONFIG_E_ARGUMENT) when cfg is NULL.
 */
PATHCONFIG_API pathconfig *pathconfig_retain(pathconfig *cfg);

/**
 * DESTRUCTOR. Drops a reference; the configuration is freed with the last
 * one. Results resolved from it stay valid. NULL is a no-op.
 */
PATHCONFIG_API void pathconfig_release(pathconfig *cfg);

/* ---------------------------------------------------------------------------
 * Resolving
 *
 * url_or_path is an absolute URL ("https://example.com/messages/new?x=1") or
 * a path ("/messages/new"), NUL-terminated UTF-8. A URL is reduced to the
 * string the patterns see as the profile's app does (see
 * pathconfig_matched_string); a string without a scheme is matched as given.
 * Lookups are cached per matched string, so repeating a URL is cheap.
 * ------------------------------------------------------------------------- */

/**
 * METHOD of pathconfig. The merged properties of every rule matching
 * url_or_path, in rule order, as a JSON object ("{}" when nothing matches).
 * @return caller frees with pathconfig_free_string; NULL on failure
 *         (PATHCONFIG_E_ARGUMENT, _NOMEM; see pathconfig_last_error).
 */
PATHCONFIG_API char *pathconfig_properties(const pathconfig *cfg, const char *url_or_path);

/**
 * CONSTRUCTOR of pathconfig_result. Resolves url_or_path to a result object
 * whose values are read one key at a time without serialising the whole map.
 * @param err  filled on failure, cleared on success; may be NULL.
 * @return caller frees with pathconfig_result_free; NULL on failure
 *         (PATHCONFIG_E_ARGUMENT).
 */
PATHCONFIG_API pathconfig_result *pathconfig_resolve(const pathconfig *cfg,
                                                     const char *url_or_path,
                                                     pathconfig_error *err);

/**
 * DESTRUCTOR. Frees a result and every string borrowed from it. NULL is a no-op.
 */
PATHCONFIG_API void pathconfig_result_free(pathconfig_result *res);

/**
 * METHOD of pathconfig_result. The merged properties as a JSON object,
 * the same text pathconfig_properties returns.
 * @return borrowed from res (made on first call); NULL on failure
 *         (PATHCONFIG_E_ARGUMENT, _NOMEM).
 */
PATHCONFIG_API const char *pathconfig_result_json(const pathconfig_result *res);

/**
 * METHOD of pathconfig_result. The number of keys in the merged properties.
 * @return the count; 0 also when res is NULL (PATHCONFIG_E_ARGUMENT).
 */
PATHCONFIG_API size_t pathconfig_result_count(const pathconfig_result *res);

/**
 * METHOD of pathconfig_result. The i-th key, in the order keys first
 * appeared in the matching rules (0 <= i < pathconfig_result_count).
 * @return borrowed from res; NULL on failure (PATHCONFIG_E_ARGUMENT: res NULL
 *         or i out of range; _NOMEM).
 */
PATHCONFIG_API const char *pathconfig_result_key(const pathconfig_result *res, size_t i);

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

/* ---------------------------------------------------------------------------
 * What this library knows: profiles, backends, typed keys
 *
 * The names options_json accepts and the typed keys with their kinds, allowed
 * values and defaults, listed by the library itself, so that a host needs no
 * copy of its own (as sqlite3_compileoption_get lists compile options):
 *
 *     for (size_t i = 0; i < pathconfig_typed_key_count(); i++)
 *         printf("%s %s\n", pathconfig_typed_key_name(i),
 *                pathconfig_typed_key_kind(i) == PATHCONFIG_TYPED_BOOL ? "bool" : "string");
 *
 * An index runs from 0 to the count minus one; one out of range is
 * PATHCONFIG_E_ARGUMENT. A `profile` argument is a name pathconfig_profile_name
 * returns; NULL or another name is PATHCONFIG_E_ARGUMENT. Every string
 * returned is static. The counts never fail and leave the last error alone.
 * ------------------------------------------------------------------------- */

/** pathconfig_typed_key_kind: how a typed key is read. */
#define PATHCONFIG_TYPED_STRING 1  /**< Any string (pathconfig_result_typed_string); may have no value. */
#define PATHCONFIG_TYPED_BOOL   2  /**< A boolean (pathconfig_result_typed_bool). */
#define PATHCONFIG_TYPED_ENUM   3  /**< One of the allowed values (pathconfig_result_typed_string); always has one. */

/**
 * The number of profiles.
 * @return at least 1; profile 0 is the default.
 */
PATHCONFIG_API size_t pathconfig_profile_count(void);

/**
 * The i-th profile's name, as options_json's "profile" takes it, e.g.
 * "hotwire-ios".
 * @return static; NULL when i is out of range (PATHCONFIG_E_ARGUMENT).
 */
PATHCONFIG_API const char *pathconfig_profile_name(size_t i);

/**
 * The platform whose typed accessors and defaults the i-th profile uses:
 * "ios" or "android".
 * @return static; NULL when i is out of range (PATHCONFIG_E_ARGUMENT).
 */
PATHCONFIG_API const char *pathconfig_profile_platform(size_t i);

/**
 * The number of regex backends built into this library.
 * @return at least 1; backend 0 is the default.
 */
PATHCONFIG_API size_t pathconfig_backend_count(void);

/**
 * The i-th backend built into this library, as options_json's "backend"
 * takes it, e.g. "pcre2".
 * @return static; NULL when i is out of range (PATHCONFIG_E_ARGUMENT).
 */
PATHCONFIG_API const char *pathconfig_backend_name(size_t i);

/**
 * The number of typed keys (the table under "Typed accessors of a result").
 */
PATHCONFIG_API size_t pathconfig_typed_key_count(void);

/**
 * The i-th typed key's name, as pathconfig_result_typed_string and
 * pathconfig_result_typed_bool take it, e.g. "presentation".
 * @return static; NULL when i is out of range (PATHCONFIG_E_ARGUMENT).
 */
PATHCONFIG_API const char *pathconfig_typed_key_name(size_t i);

/**
 * How the i-th typed key is read.
 * @return PATHCONFIG_TYPED_STRING, _BOOL or _ENUM (a newer library may add
 *         kinds); -PATHCONFIG_E_ARGUMENT when i is out of range.
 */
PATHCONFIG_API int pathconfig_typed_key_kind(size_t i);

/**
 * The number of values the i-th typed key allows under profile (an enum key's
 * values; 0 for the other kinds).
 * @return the count; 0 also on failure (PATHCONFIG_E_ARGUMENT).
 */
PATHCONFIG_API size_t pathconfig_typed_key_value_count(size_t i, const char *profile);

/**
 * The j-th value the i-th typed key allows under profile, in lower case as the
 * typed accessors return it, e.g. "modal".
 * @return static; NULL when i or j is out of range or profile unknown
 *         (PATHCONFIG_E_ARGUMENT).
 */
PATHCONFIG_API const char *pathconfig_typed_key_value(size_t i, const char *profile, size_t j);

/**
 * The value pathconfig_result_typed_string gives the i-th typed key (a string
 * or enum key) under profile when the key is missing, mistyped or unknown.
 * @return static; NULL when the key has no default (last error cleared: code
 *         0), or on failure: PATHCONFIG_E_ARGUMENT (i out of range, profile
 *         unknown), _TYPE (a bool key).
 */
PATHCONFIG_API const char *pathconfig_typed_key_default_string(size_t i, const char *profile);

/**
 * The value pathconfig_result_typed_bool gives the i-th typed key (a bool
 * key) under profile when the key is missing, mistyped or unknown.
 * @return 1 or 0; -PATHCONFIG_E_ARGUMENT (i out of range, profile unknown) or
 *         -PATHCONFIG_E_TYPE (a string or enum key).
 */
PATHCONFIG_API int pathconfig_typed_key_default_bool(size_t i, const char *profile);

/* ---------------------------------------------------------------------------
 * Inspecting a configuration
 * ------------------------------------------------------------------------- */

/**
 * METHOD of pathconfig. Why url_or_path resolves as it does, as a JSON object:
 *   "input"           the argument;
 *   "matched_string"  the string the patterns ran against;
 *   "rules"           the matching rules in order, each {"index", "pattern",
 *                     "pattern_index", "description" (when the rule has a
 *                     string "description" or "comment"), "builtin": true
 *                     (for a profile's built-in rule)};
 *   "properties"      the merged properties;
 *   "limit_exceeded"  (only when any) [{"rule", "pattern_index"}] for searches
 *                     that ran out of their match budget (counted as no match).
 * @return caller frees with pathconfig_free_string; NULL on failure
 *         (PATHCONFIG_E_ARGUMENT, _NOMEM).
 */
PATHCONFIG_API char *pathconfig_explain(const pathconfig *cfg, const char *url_or_path);

/**
 * METHOD of pathconfig. The string the patterns see for url_or_path under the
 * configuration's profile and options (e.g. "/messages/new?x=1").
 * @return caller frees with pathconfig_free_string; NULL on failure
 *         (PATHCONFIG_E_ARGUMENT, _NOMEM).
 */
PATHCONFIG_API char *pathconfig_matched_string(const pathconfig *cfg, const char *url_or_path);

/**
 * METHOD of pathconfig. The document's top-level "settings" as a JSON object
 * ("{}" when absent or not an object).
 * @return caller frees with pathconfig_free_string; NULL on failure
 *         (PATHCONFIG_E_ARGUMENT, _NOMEM).
 */
PATHCONFIG_API char *pathconfig_settings(const pathconfig *cfg);

/**
 * METHOD of pathconfig. What the load noticed but accepted, as a JSON array
 * ("[]" when nothing) of objects with every one of these keys:
 *   "kind"           the kind's name (pathconfig_warning_kind_name):
 *                    "duplicate-key", "skipped-pattern" (lenient only) or
 *                    "ignored-settings";
 *   "message"        human readable, without the position;
 *   "line", "column" 1-based position in the document, or null;
 *   "rule_index", "pattern_index"  0-based, or null.
 * The same as structs: pathconfig_warning_count and pathconfig_warning_get.
 * The library never prints warnings.
 * @return caller frees with pathconfig_free_string; NULL on failure
 *         (PATHCONFIG_E_ARGUMENT, _NOMEM).
 */
PATHCONFIG_API char *pathconfig_warnings(const pathconfig *cfg);

/* pathconfig_warning.kind: what a load noticed. Numbered from 1 without gaps
 * and only ever appended, so pathconfig_warning_kind_name(k) for k = 1, 2, ...
 * lists every kind the library has until it returns NULL. */
#define PATHCONFIG_WARNING_DUPLICATE_KEY     1  /**< An object repeats a key; the first value is kept. */
#define PATHCONFIG_WARNING_SKIPPED_PATTERN   2  /**< A lenient load skipped a pattern the engine rejected. */
#define PATHCONFIG_WARNING_IGNORED_SETTINGS  3  /**< "settings" is not an object and was read as {}. */

/** The `version` of the warning struct this header describes. */
#define PATHCONFIG_WARNING_VERSION 1

/**
 * One warning of a load, filled by pathconfig_warning_get into a struct the
 * caller allocates (e.g. on the stack) with `version` set to
 * PATHCONFIG_WARNING_VERSION. Fields are only ever appended; a field added in
 * version N is written when both the caller's and the library's version are
 * N or more.
 */
typedef struct pathconfig_warning {
    int version;         /**< In: the caller's PATHCONFIG_WARNING_VERSION. Out: the version filled (the smaller of the caller's and the library's). */
    int kind;            /**< A PATHCONFIG_WARNING_* constant; a newer library may report a kind this header lacks (pathconfig_warning_kind_name names it). */
    int line, column;    /**< 1-based position in the document (column in Unicode scalars), 0 when not applicable. */
    int rule_index;      /**< 0-based index of the rule concerned, -1 when not applicable. */
    int pattern_index;   /**< 0-based index of the pattern within that rule, -1 when not applicable. */
    const char *message; /**< Human readable, without the position. Borrowed from cfg: valid until its last pathconfig_release. Never NULL. */
} pathconfig_warning;

/**
 * METHOD of pathconfig. The number of warnings (pathconfig_warnings' array
 * length).
 * @return the count; 0 also when cfg is NULL (PATHCONFIG_E_ARGUMENT).
 */
PATHCONFIG_API size_t pathconfig_warning_count(const pathconfig *cfg);

/**
 * METHOD of pathconfig. Fills *out with the i-th warning
 * (0 <= i < pathconfig_warning_count), in the order of pathconfig_warnings.
 * @param out  caller-allocated, its `version` set to PATHCONFIG_WARNING_VERSION.
 * @return 0; -PATHCONFIG_E_ARGUMENT when cfg or out is NULL, out->version is
 *         below 1 or i is out of range (*out is then untouched);
 *         -PATHCONFIG_E_NOMEM.
 */
PATHCONFIG_API int pathconfig_warning_get(const pathconfig *cfg, size_t i, pathconfig_warning *out);

/**
 * The name of a warning kind, as pathconfig_warnings spells it, e.g.
 * "duplicate-key" for PATHCONFIG_WARNING_DUPLICATE_KEY.
 * @return static; NULL for a number this library does not know
 *         (PATHCONFIG_E_ARGUMENT).
 */
PATHCONFIG_API const char *pathconfig_warning_kind_name(int kind);

/**
 * METHOD of pathconfig. The number of rules, the profile's built-in rules
 * included (hotwire-ios and hotwire-android append three).
 * @return the count; 0 also when cfg is NULL (PATHCONFIG_E_ARGUMENT).
 */
PATHCONFIG_API size_t pathconfig_rule_count(const pathconfig *cfg);

/**
 * METHOD of pathconfig. The number of rules the document itself has
 * (built-ins excluded).
 * @return the count; 0 also when cfg is NULL (PATHCONFIG_E_ARGUMENT).
 */
PATHCONFIG_API size_t pathconfig_document_rule_count(const pathconfig *cfg);

/**
 * METHOD of pathconfig. The profile the configuration was loaded with, e.g.
 * "hotwire-ios".
 * @return static; NULL on failure (PATHCONFIG_E_ARGUMENT).
 */
PATHCONFIG_API const char *pathconfig_profile(const pathconfig *cfg);

/**
 * DESTRUCTOR. Frees a string returned as `char *` by this library
 * (pathconfig_properties, _settings, _explain, _warnings, _matched_string).
 * It is free(3); NULL is a no-op. Never pass a borrowed `const char *`.
 */
PATHCONFIG_API void pathconfig_free_string(char *s);

/* ---------------------------------------------------------------------------
 * Loader: sources, cache and live updates
 *
 * A loader keeps a configuration current from an ordered list of sources:
 * JSON in memory, files, and server URLs downloaded over HTTP(S) (libcurl,
 * loaded at first use), each server copy cached on disk. pathconfig_loader_load
 * runs the chain once: each data or file source, then for each server source
 * its cached copy (if any) and its download. A later source's good
 * configuration replaces an earlier one, never merging with it. Bad news never
 * replaces good news: a failed download, a status other than 200, a body that
 * does not load leaves the current configuration and the cache file untouched
 * and is reported to the callback. A download sends If-None-Match /
 * If-Modified-Since when a copy is known; 304 keeps the copy.
 *
 *     static void on_event(const pathconfig_loader_event *ev, void *payload)
 *     {
 *         fprintf(payload, "%s\n", ev->description);
 *     }
 *
 *     pathconfig_error err;
 *     pathconfig_loader *loader = pathconfig_loader_new(
 *         "[{\"file\": \"bundle/path-configuration.json\"},"
 *         " {\"server\": \"https://example.com/path-configuration.json\","
 *         "  \"headers\": {\"Accept\": \"application/json\"}}]",
 *         "{\"cache_dir\": \"/var/cache/app\", \"timeout_ms\": 10000}", &err);
 *     if (loader == NULL) { fprintf(stderr, "%s\n", err.message); return 1; }
 *     pathconfig_loader_set_callback(loader, on_event, stderr);
 *     pathconfig_loader_load(loader, &err);      // file, cached copy, download
 *     pathconfig *cfg = pathconfig_loader_current(loader);
 *     ... pathconfig_resolve(cfg, url, NULL) ...
 *     pathconfig_release(cfg);
 *     pathconfig_loader_free(loader);
 *
 * sources_json is a JSON array, in order, of objects of one of these forms
 * (anything else fails with PATHCONFIG_E_OPTIONS, naming the source's index):
 *   {"file": PATH}                         a JSON file, read each time the
 *                                          chain runs;
 *   {"data": TEXT, "name": NAME}           the configuration as a JSON string
 *                                          (e.g. bundled); "name" (optional,
 *                                          default "data") names it in events;
 *   {"server": URL, "headers": {NAME: VALUE, ...}}
 *                                          an absolute http:// or https:// URL,
 *                                          with extra request headers
 *                                          (optional, sent in the order given).
 *
 * options_json is NULL (or blank) for the defaults, or a JSON object with any
 * key of the load options (see "Loading": profile, match_query_strings,
 * backend, lenient; they apply to every source) and any of these; unknown
 * keys and bad values fail with PATHCONFIG_E_OPTIONS:
 *   "cache_dir"            a directory for server copies, one file per URL,
 *                          created (mode 0700) when missing; null (default):
 *                          no cache;
 *   "timeout_ms"           positive integer, the longest one download may take,
 *                          connecting included (default 30000);
 *   "max_body_bytes"       positive integer, the largest body accepted
 *                          (default 8388608);
 *   "refresh_interval_ms"  positive integer: pathconfig_loader_load starts a
 *                          thread that refreshes at this interval until
 *                          pathconfig_loader_free; null (default): no polling;
 *   "user_agent"           the User-Agent header (default
 *                          "libpathconfig/VERSION", see pathconfig_version);
 *   "ca_file"              a PEM file of CA certificates to trust for HTTPS
 *                          instead of the system's; null (default).
 *
 * Threads. Every function below may be called from any thread, the loader's
 * operations (load, refresh, polling) run one at a time, and
 * pathconfig_loader_current never waits for the network: it returns the last
 * whole configuration, which stays valid for the caller holding it while
 * another is installed.
 * ------------------------------------------------------------------------- */

/**
 * Keeps a configuration current from several sources: thread-safe.
 * CONSTRUCTOR pathconfig_loader_new; DESTRUCTOR pathconfig_loader_free.
 */
typedef struct pathconfig_loader pathconfig_loader;

/* pathconfig_loader_event.kind: what one step of the chain did. */
#define PATHCONFIG_EVENT_APPLIED       1  /**< The source's configuration is now the current one. */
#define PATHCONFIG_EVENT_SUPERSEDED    2  /**< The source's configuration loaded, but a later source's stays current. */
#define PATHCONFIG_EVENT_NOT_MODIFIED  3  /**< The server answered 304 (or sent the same bytes): the copy stays, nothing changed. */
#define PATHCONFIG_EVENT_FAILED        4  /**< The source gave no configuration; the current one stays. `error` says why. */
#define PATHCONFIG_EVENT_WARNING       5  /**< Something was skipped or not saved (a corrupt cache file ignored, a cache write that failed); `error` says what. */

/* pathconfig_loader_event.source_kind: which kind of source. */
#define PATHCONFIG_SOURCE_DATA    0  /**< A {"data": ...} source. */
#define PATHCONFIG_SOURCE_FILE    1  /**< A {"file": ...} source. */
#define PATHCONFIG_SOURCE_CACHE   2  /**< The cached copy of a {"server": ...} source. */
#define PATHCONFIG_SOURCE_SERVER  3  /**< The download of a {"server": ...} source. */

/* pathconfig_loader_event.reason when error->code is PATHCONFIG_E_DOWNLOAD. */
#define PATHCONFIG_DOWNLOAD_UNAVAILABLE  1  /**< libcurl could not be loaded (not installed, or too old). */
#define PATHCONFIG_DOWNLOAD_TRANSPORT    2  /**< Connection refused, DNS, TLS or protocol failure. */
#define PATHCONFIG_DOWNLOAD_TIMEOUT      3  /**< No complete response within timeout_ms. */
#define PATHCONFIG_DOWNLOAD_TOO_LARGE    4  /**< The body was larger than max_body_bytes. */
#define PATHCONFIG_DOWNLOAD_TRUNCATED    5  /**< The connection closed before the announced body was complete. */
#define PATHCONFIG_DOWNLOAD_HTTP_STATUS  6  /**< A status other than 200 (or 304 answering a conditional request); see http_status. */
#define PATHCONFIG_DOWNLOAD_NOMEM        7  /**< Memory ran out while receiving. */

/* pathconfig_loader_event.reason when error->code is PATHCONFIG_E_CACHE. */
#define PATHCONFIG_CACHE_CORRUPT     1  /**< The cache file is not a complete copy for the URL; it was ignored. */
#define PATHCONFIG_CACHE_UNREADABLE  2  /**< The cache file could not be read; it was ignored. */
#define PATHCONFIG_CACHE_UNWRITABLE  3  /**< A new copy could not be written; the previous file is unchanged. */

/** The `version` of the events this header describes. */
#define PATHCONFIG_LOADER_EVENT_VERSION 1

/**
 * One step of a loader's chain, as its callback receives it. Made by the
 * library: the struct and every pointer in it are borrowed from the callback
 * call and invalid once it returns (copy what you keep; pathconfig_retain the
 * configuration). Fields are only ever appended; a field added in version N is
 * present when `version >= N`.
 */
typedef struct pathconfig_loader_event {
    int version;          /**< PATHCONFIG_LOADER_EVENT_VERSION of the library that made it (1 or more). */
    int kind;             /**< A PATHCONFIG_EVENT_* constant. */
    int source_kind;      /**< A PATHCONFIG_SOURCE_* constant. */
    int source_index;     /**< 0-based index of the source in sources_json. */
    int64_t byte_count;   /**< Bytes read or downloaded, -1 when no body was. */
    int http_status;      /**< The HTTP status of a failed download when one arrived, else 0. */
    int reason;           /**< A PATHCONFIG_DOWNLOAD_* or PATHCONFIG_CACHE_* constant when error->code is PATHCONFIG_E_DOWNLOAD or _CACHE, else 0. */
    const char *location; /**< The data's name, the file's path, the cache file's path or the URL; never NULL. */
    const char *url;      /**< The server URL for cache and server events, else NULL. */
    const pathconfig_error *error; /**< Why, for FAILED and WARNING (code, message, and line/column/rule_index/pattern_index when the configuration did not load); NULL otherwise. */
    pathconfig *configuration; /**< The configuration the source produced (APPLIED, SUPERSEDED, and NOT_MODIFIED when one is known), else NULL. Borrowed: pathconfig_retain it to keep it. */
    const char *description;   /**< One line for logs, e.g. "server https://example.com/p.json: applied (412 bytes)"; never NULL. */
} pathconfig_loader_event;

/**
 * Receives a loader's events. See pathconfig_loader_set_callback for the
 * thread it runs on and what it may do.
 * @param event    borrowed for the call; never NULL.
 * @param payload  what was passed to pathconfig_loader_set_callback.
 */
typedef void (*pathconfig_loader_callback)(const pathconfig_loader_event *event, void *payload);

/**
 * Frees a callback's payload, when the library no longer needs it: see
 * pathconfig_loader_set_callback_v2.
 * @param payload  what was passed with the callback.
 */
typedef void (*pathconfig_loader_payload_free)(void *payload);

/**
 * CONSTRUCTOR. Creates a loader; loads nothing yet (call
 * pathconfig_loader_load).
 * @param sources_json  NUL-terminated JSON array of sources (see above).
 * @param options_json  NUL-terminated options (see above), or NULL.
 * @param err           filled on failure, cleared on success; may be NULL.
 * @return a new loader, caller frees with pathconfig_loader_free; NULL on
 *         failure with code PATHCONFIG_E_OPTIONS (malformed sources or
 *         options, an unknown key, a bad value, a URL that is not absolute
 *         http(s), a header that cannot be sent), _BACKEND or _ARGUMENT
 *         (sources_json NULL, either argument not UTF-8).
 */
PATHCONFIG_API pathconfig_loader *pathconfig_loader_new(const char *sources_json,
                                                        const char *options_json,
                                                        pathconfig_error *err);

/**
 * METHOD of pathconfig_loader. Sets the function called after every step of
 * the chain (one event per source step, in order), replacing the previous
 * one; cb NULL removes it. The same as pathconfig_loader_set_callback_v2
 * with free_payload NULL, which new code should call instead.
 *
 * The callback runs on the thread that called pathconfig_loader_load or
 * _refresh, or on the loader's polling thread (refresh_interval_ms), one
 * event at a time, never two at once and never nested. Inside it, on its
 * loader, pathconfig_loader_current, _cache_file, _set_callback(_v2) and
 * _free work (see below); _load and _refresh fail with PATHCONFIG_E_MISUSE,
 * having done nothing and started nothing (no polling thread). It may retain
 * event->configuration and use any configuration. It must return normally
 * (no longjmp, no C++ exception out of it).
 *
 * When the old payload is no longer used:
 *   - called from any thread but the one running the old callback, this
 *     returns only after a call of the old callback in progress (on another
 *     thread) has returned; the old callback is then never called again, and
 *     its payload may be freed as soon as this returns. Do not call it while
 *     holding a lock that the running callback waits for;
 *   - called from inside the old callback (it replaces or removes itself),
 *     it returns at once and the next event goes to cb; the running call
 *     goes on, so its payload must stay valid until that call has returned.
 * @param payload  handed to cb as is; not owned by the library.
 * @return 0; -PATHCONFIG_E_ARGUMENT when loader is NULL.
 */
PATHCONFIG_API int pathconfig_loader_set_callback(pathconfig_loader *loader,
                                                  pathconfig_loader_callback cb, void *payload);

/**
 * METHOD of pathconfig_loader. pathconfig_loader_set_callback, with the
 * payload handed to the library: it calls free_payload(payload) exactly once,
 * when the payload is no longer used, so a host needs no bookkeeping of its
 * own (a binding's boxed closure is freed there):
 *   - when cb is replaced or removed from another thread (or from no
 *     callback at all), by that thread, before that call returns: after a
 *     call of cb in progress elsewhere has returned;
 *   - when cb replaces or removes itself, by its thread, right after the
 *     running call has returned;
 *   - by pathconfig_loader_free (likewise: after its own callback returned,
 *     when called from inside it).
 * free_payload may use the loader as the callback may, free it included (a
 * binding's closure may own the last reference to the loader's owner);
 * except when called by pathconfig_loader_free, when the loader is going.
 * @param cb            the callback; NULL removes it (free_payload and
 *                      payload are then ignored).
 * @param payload       handed to cb and then to free_payload; owned by the
 *                      library from a successful call on.
 * @param free_payload  frees payload; NULL when nothing needs freeing.
 * @return 0; -PATHCONFIG_E_ARGUMENT when loader is NULL (free_payload is not
 *         called: the payload is still the caller's).
 */
PATHCONFIG_API int pathconfig_loader_set_callback_v2(pathconfig_loader *loader,
                                                     pathconfig_loader_callback cb, void *payload,
                                                     pathconfig_loader_payload_free free_payload);

/**
 * METHOD of pathconfig_loader. Runs the whole chain once, synchronously
 * (downloads included, each bounded by timeout_ms), reporting every step to
 * the callback; then starts polling when refresh_interval_ms is set.
 * @param err  cleared on success; on failure filled from the last failed
 *             step, its message starting with the source ("server URL: ...");
 *             may be NULL.
 * @return 0 when a configuration is current, even if some sources failed
 *         (they were reported to the callback); otherwise the negated code of
 *         the last failure: -PATHCONFIG_E_DOWNLOAD, _IO, _JSON, _SCHEMA,
 *         _REGEX, _LIMIT; -PATHCONFIG_E_ARGUMENT when loader is NULL;
 *         -PATHCONFIG_E_MISUSE from inside the loader's callback, on the
 *         thread running the chain: nothing is loaded or reported, and
 *         polling is not started.
 */
PATHCONFIG_API int pathconfig_loader_load(pathconfig_loader *loader, pathconfig_error *err);

/**
 * METHOD of pathconfig_loader. Downloads every server source again,
 * synchronously, conditionally when a copy with ETag/Last-Modified is known;
 * before the first pathconfig_loader_load, runs load's chain instead (without
 * starting to poll). A failure leaves the current configuration and the
 * cache file as they were.
 * @param err  cleared on success, filled from the last failed download
 *             otherwise; may be NULL.
 * @return 0 when no step failed (new configurations applied, or not
 *         modified; also with no server source); otherwise the negated code
 *         of the last failure (-PATHCONFIG_E_DOWNLOAD, _JSON, _SCHEMA, _REGEX,
 *         _LIMIT, ...); -PATHCONFIG_E_ARGUMENT when loader is NULL;
 *         -PATHCONFIG_E_MISUSE from inside the loader's callback, on the
 *         thread running the chain: nothing is downloaded or reported.
 */
PATHCONFIG_API int pathconfig_loader_refresh(pathconfig_loader *loader, pathconfig_error *err);

/**
 * CONSTRUCTOR of pathconfig. The current configuration: the newest good one.
 * Never waits for the network; each call returns a new reference to the
 * configuration current at that moment.
 * @return caller frees with pathconfig_release (it stays valid after the
 *         loader moves on or is freed); NULL when nothing has loaded yet
 *         (last error cleared: code 0), or on failure (PATHCONFIG_E_ARGUMENT:
 *         loader NULL).
 */
PATHCONFIG_API pathconfig *pathconfig_loader_current(const pathconfig_loader *loader);

/**
 * METHOD of pathconfig_loader. The path of the cache file that holds (or would
 * hold) url's copy; the file name is a hash of the whole URL.
 * @param url  NUL-terminated UTF-8, any URL (need not be one of the sources).
 * @return caller frees with pathconfig_free_string; NULL when the loader has
 *         no cache_dir (last error cleared: code 0), or on failure
 *         (PATHCONFIG_E_ARGUMENT, _NOMEM).
 */
PATHCONFIG_API char *pathconfig_loader_cache_file(const pathconfig_loader *loader, const char *url);

/**
 * DESTRUCTOR. Stops polling (waiting for a refresh in progress and its
 * callback to end), removes the callback (freeing its payload, see
 * pathconfig_loader_set_callback_v2), then frees the loader; no callback runs
 * after it returns. Configurations obtained from it stay valid until
 * released. No other call on the loader may be in progress or start, except
 * the one whose callback this is called from.
 *
 * From inside the loader's own callback it does not wait for that callback:
 * it returns at once, the running call goes on, and no later event is
 * delivered. The operation running the callback ends normally (a
 * pathconfig_loader_load or _refresh returns to its caller, who must not use
 * the loader again; a polling thread stops, with no refresh after), and the
 * loader's memory is released when it has. NULL is a no-op.
 */
PATHCONFIG_API void pathconfig_loader_free(pathconfig_loader *loader);

#ifdef __cplusplus
}
#endif

#endif /* PATHCONFIG_H */
