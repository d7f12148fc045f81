/*
 * pathconfig/rules.h -- request lookups: resolving for an HTTP method, rules
 * added from code (host predicates and configurers), and invalidation, as
 * Siesta's Service.configure(...) and invalidateConfiguration() work.
 *
 * Part of libpathconfig's C API: include <pathconfig.h>, not this file. The
 * conventions stated there (handles, ownership, text, errors) hold here.
 *
 *     static int add_token(void *ctx, pathconfig_request *req) {
 *         const char *token = ctx;    (whatever the host holds now)
 *         return pathconfig_request_set_header(req, "X-HappyApp-Auth-Token", token)
 *                == PATHCONFIG_OK ? 0 : -1;
 *     }
 *     ...
 *     pathconfig *api = pathconfig_load_json(doc, len,
 *         "{\"profile\":\"siesta\",\"base_url\":\"https://api.example.com\"}", &err);
 *     pathconfig_add_rule(api, "{\"globs\":[\"**\"],\"description\":\"auth token\"}",
 *                         NULL, add_token, token, NULL, NULL, &err);
 *     pathconfig_result *res = pathconfig_resolve(api, "/users/1", "POST", &err);
 *     ...
 *     strcpy(token, new_token);     (or point ctx at wherever the host keeps it)
 *     pathconfig_invalidate(api);   (the next lookup runs add_token again)
 *
 * The setters take values, not JSON text: a token such as
 * `abc", "X-Admin": "true` is stored as that string, in one header.
 */
#ifndef PATHCONFIG_RULES_H
#define PATHCONFIG_RULES_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------
 * Rules for requests
 *
 * A rule in the document (or added from code) may carry, besides or instead
 * of "patterns":
 *   "globs"        Siesta globs, matched against the whole URL: "*" within one
 *                  path segment, "**" across segments, "/ ** /" (without the
 *                  spaces) zero or more whole segments, "?" one character
 *                  other than "/"; the query string is ignored. A glob
 *                  without a scheme is relative to the "base_url" option (and
 *                  then never matches another scheme, host or port); without
 *                  a base URL it is matched against the input as Foundation's
 *                  URL(string:) reads it ("/a b" as "/a%20b"). Schemes
 *                  and hosts compare case-insensitively, paths case-sensitively.
 *   "methods"      the HTTP methods the rule applies to ("GET", "POST", ...;
 *                  any method when absent).
 *   "description"  free text, shown by explain and in messages.
 * pathconfig_resolve and pathconfig_explain take the request's method.
 * ------------------------------------------------------------------------- */

/* ---------------------------------------------------------------------------
 * Rules added from code
 *
 * A host adds a rule to a configuration as Siesta's configure(...) does: it
 * joins the end of the configuration's ordered rules (after the document's
 * rules and the profile's built-ins, numbered after them), and the memoised
 * results are dropped. The rule matches through its patterns or globs (and
 * methods), through a host predicate, or both (the predicate then refines the
 * patterns). When it applies, its fixed "properties" are merged into the
 * result (by the "merge" option), then its configurer, if any, receives the
 * properties merged so far and may change them, reading whatever the host
 * holds at that moment (an auth token).
 *
 * Results stay memoised until pathconfig_invalidate: predicates and
 * configurers run once per (method, URL) until then.
 *
 * Threads. Adding rules, invalidating and resolving may happen on any
 * threads at once. A lookup uses the rules that existed when it started.
 * Callbacks run on the thread that resolves, possibly on several threads at
 * once, never while the library holds a lock: they may call any function of
 * this library, on this configuration too (resolve, add a rule, invalidate).
 * After pathconfig_invalidate returns, no lookup that starts later returns a
 * result computed before it; a lookup running across the call returns what
 * it computed from the values its callbacks read.
 * ------------------------------------------------------------------------- */

/**
 * One lookup, as a host callback sees it: opaque, valid only until the
 * callback returns; every string borrowed from it dies with it.
 */
typedef struct pathconfig_request pathconfig_request;

/**
 * A host predicate or configurer.
 * @param context  the context given to pathconfig_add_rule.
 * @param request  the lookup (borrowed for the call).
 * @return for a predicate: 1 (or any positive value) when the rule applies,
 *         0 when it does not; for a configurer: 0 (or any positive value).
 *         A negative value reports failure: the lookup
 *         fails with PATHCONFIG_E_CALLBACK (and is not memoised); call
 *         pathconfig_request_fail first to say why. (The callback's own
 *         convention, not a status of this library.)
 * It must return normally (no longjmp, no C++ exception, no host's
 * non-local exit out of it): the lookup's frames are on the stack.
 */
typedef int (*pathconfig_rule_fn)(void *context, pathconfig_request *request);

/**
 * METHOD of pathconfig. Adds a rule from code at the end of the ordered rules
 * and drops memoised results.
 * @param rule_json     a JSON object with the keys of a document's rule, each
 *                      optional: "patterns", "globs", "methods",
 *                      "properties" (fixed values), "description"; NULL for
 *                      {}. It needs patterns, globs or a predicate.
 * @param predicate     decides whether the rule applies, or NULL.
 * @param configurer    changes the properties merged so far, or NULL.
 * @param context       passed to both callbacks; the library never reads it.
 * @param free_context  if not NULL, called with context exactly once: when
 *                      the configuration is freed (its last reference
 *                      released), or before this function returns if it
 *                      fails. It may run on whichever thread releases last.
 * @param index         receives the rule's index (explain reports it); may
 *                      be NULL.
 * @param err           filled on failure, cleared on success; may be NULL.
 * @return a status: PATHCONFIG_OK; PATHCONFIG_E_ARGUMENT, _JSON or _SCHEMA
 *         for rule_json, with line and column in it; PATHCONFIG_E_REGEX for a
 *         pattern; _LIMIT.
 */
PATHCONFIG_API int pathconfig_add_rule(pathconfig *cfg, const char *rule_json,
                                       pathconfig_rule_fn predicate,
                                       pathconfig_rule_fn configurer,
                                       void *context, void (*free_context)(void *context),
                                       size_t *index, pathconfig_error *err);

/**
 * METHOD of pathconfig. Drops every memoised result, so that the next lookup
 * of each URL runs predicates and configurers again (Siesta's
 * invalidateConfiguration()). See "Threads" above.
 * @return a status: PATHCONFIG_OK; PATHCONFIG_E_ARGUMENT when cfg is NULL.
 */
PATHCONFIG_API int pathconfig_invalidate(pathconfig *cfg);

/**
 * READER of pathconfig_request. The URL of the lookup as a request would be
 * made: an input without a scheme appended to "base_url" as Siesta's
 * resource(_:) appends it, the scheme lower-cased, characters a URL may not
 * hold percent-encoded, a host beyond ASCII IDNA-encoded, as Foundation's
 * URL(string:) writes it; ":" for a URL that URL(string:) rejects.
 * @return borrowed from request; NULL only when request is NULL (or _NOMEM).
 */
PATHCONFIG_API const char *pathconfig_request_url(const pathconfig_request *request);

/**
 * READER of pathconfig_request. The HTTP method, upper-cased ("GET" when the
 * lookup named none).
 * @return borrowed from request; NULL only when request is NULL (or _NOMEM).
 */
PATHCONFIG_API const char *pathconfig_request_method(const pathconfig_request *request);

/**
 * READER of pathconfig_request. In a configurer, the properties merged so far
 * (including this rule's fixed "properties") as a JSON object.
 * @return borrowed from request, valid until the callback returns or the
 *         next change (a later call gives a new string reflecting changes);
 *         NULL in a predicate (PATHCONFIG_E_MISUSE).
 */
PATHCONFIG_API const char *pathconfig_request_properties(const pathconfig_request *request);

/* ---------------------------------------------------------------------------
 * Changing the properties, in a configurer
 *
 * Each setter changes the properties merged so far, in place. Each returns a
 * status: PATHCONFIG_OK; PATHCONFIG_E_ARGUMENT (a NULL or non-UTF-8
 * argument, a non-finite double); PATHCONFIG_E_MISUSE (called from a
 * predicate, which may not change anything). On failure the properties are
 * unchanged. Keys and values are copied. A key that exists keeps its place
 * in the key order; a new one goes last.
 * ------------------------------------------------------------------------- */

/** METHOD of pathconfig_request. Sets key to a string value. */
PATHCONFIG_API int pathconfig_request_set_string(pathconfig_request *request, const char *key,
                                                 const char *value);

/** METHOD of pathconfig_request. Sets key to an integer. */
PATHCONFIG_API int pathconfig_request_set_int64(pathconfig_request *request, const char *key,
                                                int64_t value);

/** METHOD of pathconfig_request. Sets key to a number (finite). */
PATHCONFIG_API int pathconfig_request_set_double(pathconfig_request *request, const char *key,
                                                 double value);

/** METHOD of pathconfig_request. Sets key to true (value != 0) or false. */
PATHCONFIG_API int pathconfig_request_set_bool(pathconfig_request *request, const char *key,
                                               int value);

/**
 * METHOD of pathconfig_request. Sets one HTTP header: the string value under
 * name in the object "headers" (Siesta's request headers), keeping the other
 * headers; "headers" is made an object first when it is absent or not one.
 */
PATHCONFIG_API int pathconfig_request_set_header(pathconfig_request *request, const char *name,
                                                 const char *value);

/**
 * METHOD of pathconfig_request. Removes key (PATHCONFIG_OK also when it was
 * absent).
 */
PATHCONFIG_API int pathconfig_request_remove(pathconfig_request *request, const char *key);

/**
 * METHOD of pathconfig_request. Replaces the properties merged so far with
 * json_object (copied): for a host that holds a whole JSON document. Never
 * build it by pasting values into text; set them with the setters above.
 * @return PATHCONFIG_OK; PATHCONFIG_E_JSON (not JSON: line and column in the
 *         last error), PATHCONFIG_E_ARGUMENT (not an object, NULL),
 *         PATHCONFIG_E_MISUSE.
 */
PATHCONFIG_API int pathconfig_request_set_properties(pathconfig_request *request,
                                                     const char *json_object);

/**
 * METHOD of pathconfig_request. Applies json_patch to the properties merged
 * so far as a JSON Merge Patch (RFC 7396): nested objects merge key by key,
 * null removes a key. For a host that holds a patch as a JSON document;
 * never build it by pasting values into text.
 * @return as pathconfig_request_set_properties.
 */
PATHCONFIG_API int pathconfig_request_merge_properties(pathconfig_request *request,
                                                       const char *json_patch);

/**
 * METHOD of pathconfig_request. Records why the callback is about to return
 * a negative value; the lookup's error message quotes it.
 * @param message  NUL-terminated UTF-8 (copied), or NULL for a generic text.
 * @return a status: PATHCONFIG_OK; PATHCONFIG_E_ARGUMENT when request is
 *         NULL or message is not UTF-8.
 */
PATHCONFIG_API int pathconfig_request_fail(pathconfig_request *request, const char *message);

#ifdef __cplusplus
}
#endif

#endif /* PATHCONFIG_RULES_H */
