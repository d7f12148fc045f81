/*
 * pathconfig/config.h -- a configuration: loading it, resolving URLs against
 * it, inspecting it.
 *
 * Part of libpathconfig's C API: include <pathconfig.h>, not this file. The
 * conventions stated there (handles, ownership, text, errors) hold here.
 */
#ifndef PATHCONFIG_CONFIG_H
#define PATHCONFIG_CONFIG_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------
 * Loading
 *
 * options_json is NULL (or blank) for the defaults, or a JSON object with any
 * of these keys; unknown keys and bad values fail with PATHCONFIG_E_OPTIONS:
 *   "profile"             "hotwire-ios" (default), "turbo-ios",
 *                         "hotwire-android", "turbo-android", "siesta": the
 *                         app whose reading of the file is reproduced
 *                         (pathconfig_profile_name lists them; "siesta"
 *                         runs patterns over the whole URL, as Siesta does).
 *   "match_query_strings" true, false or null (the profile's default: on for
 *                         all but turbo-ios): append "?query" to URL paths.
 *   "backend"             "pcre2" (the default and the only backend built in,
 *                         see pathconfig_backend_name; "foundation" fails with
 *                         PATHCONFIG_E_BACKEND).
 *   "lenient"             false (default): an invalid pattern fails the load;
 *                         true: it is skipped with a warning, as the apps do.
 *   "base_url"            null (default) or an absolute URL with a host and
 *                         no query, fragment, user information or "*":
 *                         relative globs and inputs without a scheme resolve
 *                         against it, and a relative glob never matches a
 *                         URL on another scheme, host or port. Kept as
 *                         Siesta's Service keeps it: the host IDNA-encoded,
 *                         the path's escapes decoded and encoded again, a
 *                         "/" appended; refused when Foundation's
 *                         URL(string:) would reject it.
 *   "merge"               "shallow" (default: later rules replace whole
 *                         top-level keys, as the apps do) or "deep" (each
 *                         rule's properties apply as a JSON Merge Patch,
 *                         RFC 7396: nested objects merge, null removes a key).
 *   "result_cache_size"   entries of the per-lookup result cache (default
 *                         512; 0 turns it off, for honest benchmarks and for
 *                         hosts that never repeat a URL). It serves
 *                         configurations with globs or rules from code;
 *                         lookups of patterns alone skip it, matching being
 *                         cheaper than a lookup in it.
 *   "max_url_bytes"       the longest url_or_path a lookup takes, in bytes
 *                         (default 65536; 1 to 2147483647): a longer one
 *                         fails with PATHCONFIG_E_LIMIT before any pattern
 *                         runs.
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
 * pathconfig_matched_string); a string without a scheme is appended to the
 * "base_url" option when there is one, as Siesta's resource(_:) appends a
 * path (every character a path may not hold percent-encoded, "?", "#" and
 * "%" included: a query needs the absolute URL), and matched as given
 * otherwise (under "siesta", as Foundation's URL(string:) reads it, as
 * Siesta's resource(absoluteURL:) does: "/a b" as "/a%20b", "" as ":").
 *
 * method is an HTTP method token ("GET", "post", "PROPFIND"; compared
 * upper-cased), or NULL for "GET": rules whose "methods" leave it out do not
 * apply (pathconfig/rules.h). Lookups that match the same rules give the
 * same answer (pathconfig_result_id); with globs or rules from code, lookups
 * are also memoised per method and URL ("result_cache_size").
 * ------------------------------------------------------------------------- */

/**
 * CONSTRUCTOR of pathconfig_result. The merged properties of every rule
 * matching url_or_path for method, in rule order (no property when nothing
 * matches). The one way to look a URL up: read the result with the
 * functions of pathconfig/result.h.
 * @param method  an HTTP method token, or NULL for "GET".
 * @param err     filled on failure, cleared on success; may be NULL.
 * @return a new reference, caller frees with pathconfig_result_release; NULL
 *         on failure: PATHCONFIG_E_ARGUMENT (NULL or non-UTF-8 argument, a
 *         method that is not a token), PATHCONFIG_E_LIMIT (url_or_path longer
 *         than "max_url_bytes"), PATHCONFIG_E_URL (a URL the profile's app
 *         crashes on: turbo-android on one java.net.URL rejects),
 *         PATHCONFIG_E_CALLBACK (a rule added from code failed).
 */
PATHCONFIG_API pathconfig_result *pathconfig_resolve(const pathconfig *cfg,
                                                     const char *url_or_path,
                                                     const char *method,
                                                     pathconfig_error *err);

/* ---------------------------------------------------------------------------
 * Inspecting a configuration
 * ------------------------------------------------------------------------- */

/**
 * METHOD of pathconfig. Why url_or_path resolves as it does for method, as a
 * JSON object. Never memoised: predicates and configurers run again.
 *   "input"           the argument;
 *   "method"          the method, upper-cased;
 *   "url"             the URL as a request would be made (see
 *                     pathconfig_request_url);
 *   "matched_string"  the string the patterns ran against;
 *   "rules"           the matching rules in order, each {"index", "pattern"
 *                     or "glob" or "predicate", "pattern_index", "description"
 *                     (when the rule has a string "description" or
 *                     "comment"), "builtin": true (for a profile's built-in
 *                     rule)};
 *   "properties"      the merged properties;
 *   "limit_exceeded"  (only when any) [{"rule", "pattern_index"}] for searches
 *                     that ran out of their match budget (counted as no match).
 * @param method  as pathconfig_resolve; NULL for "GET".
 * @param err     filled on failure, cleared on success; may be NULL.
 * @return caller frees with pathconfig_string_free; NULL on failure (the
 *         codes of pathconfig_resolve, or PATHCONFIG_E_NOMEM).
 */
PATHCONFIG_API char *pathconfig_explain(const pathconfig *cfg, const char *url_or_path,
                                        const char *method, pathconfig_error *err);

/**
 * METHOD of pathconfig. The string the patterns see for url_or_path under the
 * configuration's profile and options (e.g. "/messages/new?x=1"). It may hold
 * U+0000 where the profile decodes "%00" (turbo-ios decodes the path): the
 * patterns see it, but a reader of this C string stops there; explain's JSON
 * writes it escaped, in full. "" for a URL the profile's app crashes on
 * (whose lookups fail with PATHCONFIG_E_URL).
 * @param err  filled on failure, cleared on success; may be NULL.
 * @return caller frees with pathconfig_string_free; NULL on failure
 *         (PATHCONFIG_E_ARGUMENT, _NOMEM; PATHCONFIG_E_LIMIT
 *         for a url_or_path longer than "max_url_bytes", as a lookup of it).
 */
PATHCONFIG_API char *pathconfig_matched_string(const pathconfig *cfg, const char *url_or_path,
                                               pathconfig_error *err);

/**
 * READER of pathconfig. The document's top-level "settings" as a JSON object
 * ("{}" when absent or not an object).
 * @return borrowed from cfg (made on first call); NULL on failure
 *         (PATHCONFIG_E_ARGUMENT, _NOMEM).
 */
PATHCONFIG_API const char *pathconfig_settings(const pathconfig *cfg);

/**
 * READER of pathconfig. The options the configuration was loaded with, every
 * key of "Loading" with the value in effect (defaults written out), as a
 * JSON object, e.g. {"profile":"hotwire-ios","match_query_strings":true,
 * "backend":"pcre2","lenient":false,"base_url":null,"merge":"shallow",
 * "result_cache_size":512,"max_url_bytes":65536}. Loading the same document
 * with these options gives the same configuration.
 * @return borrowed from cfg (made on first call); NULL on failure
 *         (PATHCONFIG_E_ARGUMENT, _NOMEM).
 */
PATHCONFIG_API const char *pathconfig_options(const pathconfig *cfg);

/* ---------------------------------------------------------------------------
 * Warnings: what the load noticed but accepted. The library never prints
 * them: a host reads them with pathconfig_warning_count and
 * pathconfig_warning_get.
 * ------------------------------------------------------------------------- */

/* pathconfig_warning.kind: what a load noticed. Numbered from 1 without gaps
 * and only ever appended, so pathconfig_warning_kind_name(k) for k = 1, 2, ...
 * lists every kind the library has until it returns NULL. */
#define PATHCONFIG_WARNING_DUPLICATE_KEY     1  /**< An object repeats a key; the message says which value the profile's app keeps. */
#define PATHCONFIG_WARNING_SKIPPED_PATTERN   2  /**< A lenient load skipped a pattern the engine rejected. */
#define PATHCONFIG_WARNING_IGNORED_SETTINGS  3  /**< "settings" is not an object and was read as {}. */
#define PATHCONFIG_WARNING_NOT_PORTABLE      4  /**< A rule uses "globs" or "methods", which the profile's mobile app does not read: it would reject the file or answer differently. */

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
 * READER of pathconfig. The number of warnings.
 * @return the count; 0 also when cfg is NULL (PATHCONFIG_E_ARGUMENT).
 */
PATHCONFIG_API size_t pathconfig_warning_count(const pathconfig *cfg);

/**
 * METHOD of pathconfig. Fills *out with the i-th warning
 * (0 <= i < pathconfig_warning_count), in the order the load noticed them
 * (each carries its own position).
 * @param out  caller-allocated, its `version` set to PATHCONFIG_WARNING_VERSION.
 * @return a status: PATHCONFIG_OK; PATHCONFIG_E_ARGUMENT when cfg or out is
 *         NULL, out->version is below 1 or i is out of range (*out is then
 *         untouched).
 */
PATHCONFIG_API int pathconfig_warning_get(const pathconfig *cfg, size_t i, pathconfig_warning *out);

/**
 * READER. The name of a warning kind, e.g. "duplicate-key" for
 * PATHCONFIG_WARNING_DUPLICATE_KEY (what the command line and the bindings
 * print).
 * @return static; NULL for a number this library does not know
 *         (PATHCONFIG_E_ARGUMENT).
 */
PATHCONFIG_API const char *pathconfig_warning_kind_name(int kind);

/**
 * READER of pathconfig. The number of rules, the profile's built-in rules
 * included (hotwire-ios and hotwire-android append three), and the rules
 * added from code so far (pathconfig_add_rule): one more than the highest
 * rule index explain can report.
 * @return the count; 0 also when cfg is NULL (PATHCONFIG_E_ARGUMENT).
 */
PATHCONFIG_API size_t pathconfig_rule_count(const pathconfig *cfg);

/**
 * READER of pathconfig. The number of rules the document itself has
 * (built-ins excluded).
 * @return the count; 0 also when cfg is NULL (PATHCONFIG_E_ARGUMENT).
 */
PATHCONFIG_API size_t pathconfig_document_rule_count(const pathconfig *cfg);


#ifdef __cplusplus
}
#endif

#endif /* PATHCONFIG_CONFIG_H */
