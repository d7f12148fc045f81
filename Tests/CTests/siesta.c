/* Every case of Tests/Fixtures/conformance/siesta.json that is about choosing and
 * merging configuration, through the C ABI only (pathconfig/rules.h), as
 * Tests/PathConfigurationTests/Siesta/SiestaConformanceTests.swift maps them:
 *
 *   pattern_cases   glob -> a rule {"globs": [pattern]} under the siesta
 *                   profile with the case's base URL (none when null); regex
 *                   -> {"patterns": [pattern]} ("(?i)" first for
 *                   caseInsensitive); resource -> a C predicate comparing the
 *                   request's URL with the pattern; predicate -> a C
 *                   predicate for "the URL ends with foo".
 *   ordering_cases  those whose entries set plain values: Siesta's defaults
 *                   as a rule from code first, then each entry as a rule from
 *                   code, merged deep, resolved for the case's method. Those
 *                   with "steps": a configurer reading a C variable, memoised
 *                   until pathconfig_invalidate.
 * The other ordering cases pin Siesta's request pipeline, not rule selection. */
#include "tests.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Siesta's Configuration() defaults, as the first rule of every service. */
static const char defaults_rule[] =
    "{\"description\": \"Siesta defaults\", \"properties\": {\"expirationTime\": 30, \"retryTime\": 1, \"headers\": {}}}";

static const char *string_field(const cJSON *object, const char *key)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
    return cJSON_IsString(item) ? item->valuestring : NULL;
}

/* `value` as compact JSON, for messages (one of four static buffers, so that
 * one message can show a few values). */
static const char *show(const cJSON *value)
{
    static char bufs[4][1024];
    static int next;
    char *buf = bufs[next++ % 4];
    if (value == NULL) return "(missing)";
    if (!cJSON_PrintPreallocated((cJSON *)value, buf, (int)sizeof bufs[0], 0)) return "(too long)";
    return buf;
}

/* Predicates. The context is the text they compare with (borrowed from the
 * case file, which outlives the configuration). */
static int url_equals(void *context, pathconfig_request *request)
{
    const char *url = pathconfig_request_url(request);
    return url != NULL && strcmp(url, (const char *)context) == 0;
}

static int url_ends_with(void *context, pathconfig_request *request)
{
    const char *url = pathconfig_request_url(request), *suffix = context;
    size_t n = url ? strlen(url) : 0, m = strlen(suffix);
    return url != NULL && n >= m && strcmp(url + n - m, suffix) == 0;
}

static int always(void *context, pathconfig_request *request)
{
    (void)context;
    return request != NULL;
}

/* Loads {"rules": [rule]} (no rules when rule is NULL) under the siesta
 * profile, with base_url when not NULL and merge when not NULL. */
static pathconfig *load_siesta(const cJSON *rule, const char *base_url, const char *merge, pathconfig_error *err)
{
    cJSON *doc = cJSON_CreateObject(), *options = cJSON_CreateObject();
    cJSON *rules = cJSON_AddArrayToObject(doc, "rules");
    char *doc_text, *options_text;
    pathconfig *cfg;
    if (rule != NULL) cJSON_AddItemToArray(rules, cJSON_Duplicate(rule, 1));
    cJSON_AddStringToObject(options, "profile", "siesta");
    if (base_url != NULL) cJSON_AddStringToObject(options, "base_url", base_url);
    if (merge != NULL) cJSON_AddStringToObject(options, "merge", merge);
    doc_text = cJSON_PrintUnformatted(doc);
    options_text = cJSON_PrintUnformatted(options);
    cfg = pathconfig_load_json(doc_text, strlen(doc_text), options_text, err);
    cJSON_free(doc_text);
    cJSON_free(options_text);
    cJSON_Delete(doc);
    cJSON_Delete(options);
    return cfg;
}

/* A configuration holding one rule for pattern case `c`, whose properties are {"hit": true}. */
static pathconfig *pattern_configuration(const cJSON *c, pathconfig_error *err)
{
    const char *kind = string_field(c, "pattern_kind"), *pattern = string_field(c, "pattern");
    const char *base_url = string_field(c, "baseURL");
    const cJSON *options = cJSON_GetObjectItemCaseSensitive(c, "regex_options"), *option;
    cJSON *rule = cJSON_CreateObject();
    pathconfig *cfg = NULL;
    int case_insensitive = 0;

    cJSON_ArrayForEach(option, options)
        case_insensitive |= cJSON_IsString(option) && strcmp(option->valuestring, "caseInsensitive") == 0;
    cJSON_AddTrueToObject(cJSON_AddObjectToObject(rule, "properties"), "hit");
    if (strcmp(kind, "glob") == 0) {
        cJSON_AddItemToArray(cJSON_AddArrayToObject(rule, "globs"), cJSON_CreateString(pattern));
        cfg = load_siesta(rule, base_url, NULL, err);
    } else if (strcmp(kind, "regex") == 0) {
        char regex[512];
        snprintf(regex, sizeof regex, "%s%s", case_insensitive ? "(?i)" : "", pattern);
        cJSON_AddItemToArray(cJSON_AddArrayToObject(rule, "patterns"), cJSON_CreateString(regex));
        cfg = load_siesta(rule, base_url, NULL, err);
    } else if (strcmp(kind, "resource") == 0 || strcmp(kind, "predicate") == 0) {
        char *text = cJSON_PrintUnformatted(rule);
        int resource = strcmp(kind, "resource") == 0;
        cfg = load_siesta(NULL, base_url, NULL, err);
        if (cfg != NULL &&
            pathconfig_add_rule(cfg, text, resource ? url_equals : url_ends_with, NULL, (void *)(resource ? pattern : "foo"),
                                NULL, NULL, err) != PATHCONFIG_OK) {
            pathconfig_release(cfg);
            cfg = NULL;
        }
        cJSON_free(text);
    } else {
        snprintf(err->message, sizeof err->message, "unknown pattern kind %s", kind);
    }
    cJSON_Delete(rule);
    return cfg;
}

static int run_pattern_cases(const cJSON *cases)
{
    const cJSON *c;
    int n = 0, ran = 0;
    cJSON_ArrayForEach(c, cases) {
        const char *url = string_field(c, "url");
        const cJSON *matches = cJSON_GetObjectItemCaseSensitive(c, "matches");
        pathconfig_error err;
        pathconfig *cfg;
        pathconfig_result *res;
        const char *hit = NULL;

        test_set_context("siesta pattern case %d: %s %s %s", n++, string_field(c, "pattern_kind"),
                         show(cJSON_GetObjectItemCaseSensitive(c, "pattern")), url ? url : "(null)");
        if (!CHECK(url != NULL && cJSON_IsBool(matches) && string_field(c, "pattern_kind") != NULL, "malformed case")) continue;
        memset(&err, 0, sizeof err);
        cfg = pattern_configuration(c, &err);
        if (!CHECK(cfg != NULL, "setup: %s", err.message)) continue;
        res = pathconfig_resolve(cfg, url, NULL, &err);
        if (CHECK(res != NULL, "resolve: %s", err.message)) {
            int found = pathconfig_result_get_json(res, "hit", &hit) == PATHCONFIG_OK && strcmp(hit, "true") == 0;
            char *why = pathconfig_explain(cfg, url, NULL, NULL);
            CHECK(found == cJSON_IsTrue(matches), "matched %d, expected %d; explain: %s", found, cJSON_IsTrue(matches),
                  why ? why : "(null)");
            pathconfig_string_free(why);
            pathconfig_result_release(res);
            ran++;
        }
        pathconfig_release(cfg);
    }
    return ran;
}

/* True when ordering case `c` sets only plain values (no "steps"; every
 * entry's methods null or a list; its "sets" only expirationTime, retryTime
 * and headers, none of them a string, which the file uses for prose). */
static int is_value_case(const cJSON *c)
{
    const cJSON *entry, *item;
    if (cJSON_GetObjectItemCaseSensitive(c, "steps") != NULL) return 0;
    cJSON_ArrayForEach(entry, cJSON_GetObjectItemCaseSensitive(c, "entries")) {
        const cJSON *methods = cJSON_GetObjectItemCaseSensitive(entry, "methods");
        if (methods != NULL && !cJSON_IsNull(methods) && !cJSON_IsArray(methods)) return 0;
        cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(entry, "sets")) {
            if (strcmp(item->string, "expirationTime") != 0 && strcmp(item->string, "retryTime") != 0 &&
                strcmp(item->string, "headers") != 0)
                return 0;
            if (cJSON_IsString(item)) return 0;
        }
    }
    return 1;
}

/* A service as the ordering cases build one: the siesta profile, the case's
 * base URL, deep merge, and the defaults rule first. */
static pathconfig *service(const char *base_url, pathconfig_error *err)
{
    pathconfig *cfg = load_siesta(NULL, base_url, "deep", err);
    if (cfg != NULL && pathconfig_add_rule(cfg, defaults_rule, always, NULL, NULL, NULL, NULL, err) != PATHCONFIG_OK) {
        pathconfig_release(cfg);
        return NULL;
    }
    return cfg;
}

/* Adds ordering entry `e` as a rule from code with `properties` and the
 * optional configurer; returns the rule's index or -1. */
static int add_entry(pathconfig *cfg, const cJSON *e, const cJSON *properties, pathconfig_rule_fn configurer, void *context,
                     pathconfig_error *err)
{
    const char *kind = string_field(e, "pattern_kind"), *pattern = string_field(e, "pattern");
    const cJSON *methods = cJSON_GetObjectItemCaseSensitive(e, "methods");
    cJSON *rule = cJSON_CreateObject();
    pathconfig_rule_fn predicate = NULL;
    void *predicate_context = NULL;
    char *text;
    int index;

    if (strcmp(kind, "global") == 0) {
        cJSON_AddItemToArray(cJSON_AddArrayToObject(rule, "globs"), cJSON_CreateString("**"));
    } else if (strcmp(kind, "glob") == 0) {
        cJSON_AddItemToArray(cJSON_AddArrayToObject(rule, "globs"), cJSON_CreateString(pattern));
    } else if (strcmp(kind, "resource") == 0) {
        predicate = url_equals;
        predicate_context = (void *)pattern;
    } else if (strcmp(kind, "predicate") == 0) {
        predicate = url_ends_with;
        predicate_context = (void *)"foo";
    } else {
        snprintf(err->message, sizeof err->message, "unknown entry kind %s", kind);
        cJSON_Delete(rule);
        return -1;
    }
    if (cJSON_IsArray(methods)) cJSON_AddItemToObject(rule, "methods", cJSON_Duplicate(methods, 1));
    if (string_field(e, "description") != NULL) cJSON_AddStringToObject(rule, "description", string_field(e, "description"));
    if (properties != NULL) cJSON_AddItemToObject(rule, "properties", cJSON_Duplicate(properties, 1));
    text = cJSON_PrintUnformatted(rule);
    if (predicate != NULL && configurer != NULL) {
        /* One context serves both callbacks; none of the cases needs it. */
        snprintf(err->message, sizeof err->message, "an entry with both a predicate and a configurer");
        index = -1;
    } else {
        size_t added;
        index = pathconfig_add_rule(cfg, text, predicate, configurer, predicate ? predicate_context : context, NULL, &added, err) ==
                        PATHCONFIG_OK
                    ? (int)added
                    : -1;
    }
    cJSON_free(text);
    cJSON_Delete(rule);
    return index;
}

/* The case's expectations against the resolved properties (`props`). */
static void check_expected(const cJSON *c, const cJSON *props)
{
    const cJSON *expected, *entry, *item, *set;
    cJSON_ArrayForEach(expected, cJSON_GetObjectItemCaseSensitive(c, "expected")) {
        if (strcmp(expected->string, "request_headers_include") == 0 || strcmp(expected->string, "repeated_request_header") == 0) {
            const cJSON *headers = cJSON_GetObjectItemCaseSensitive(props, "headers");
            cJSON_ArrayForEach(item, expected)
                CHECK(cJSON_Compare(cJSON_GetObjectItemCaseSensitive(headers, item->string), item, 1), "header %s in %s",
                      item->string, show(props));
        } else if (strcmp(expected->string, "loadIfNeeded_at_t+2s_loads") == 0) {
            /* Data (or an error) from t = 1000 is reloaded at t = 1002 when the
             * configured age limit is under 2 s: the entry's value is in force. */
            cJSON_ArrayForEach(entry, cJSON_GetObjectItemCaseSensitive(c, "entries")) {
                cJSON_ArrayForEach(set, cJSON_GetObjectItemCaseSensitive(entry, "sets")) {
                    CHECK(cJSON_Compare(cJSON_GetObjectItemCaseSensitive(props, set->string), set, 1), "%s in %s", set->string,
                          show(props));
                    CHECK((set->valuedouble < 2) == cJSON_IsTrue(expected), "%s = %g reloads after 2 s", set->string,
                          set->valuedouble);
                }
            }
        } else {
            CHECK(cJSON_Compare(cJSON_GetObjectItemCaseSensitive(props, expected->string), expected, 1), "%s in %s",
                  expected->string, show(props));
        }
    }
}

/* Resolves `url` for `method` on `cfg`; the properties as cJSON (caller
 * deletes), NULL (after a failed check) on failure. A second lookup gives
 * the same answer (id and text). */
static cJSON *resolve_json(pathconfig *cfg, const char *url, const char *method)
{
    pathconfig_error err;
    pathconfig_result *res = pathconfig_resolve(cfg, url, method, &err);
    pathconfig_result *again;
    cJSON *props;
    if (!CHECK(res != NULL, "resolve %s %s: %s", method ? method : "(GET)", url, err.message)) return NULL;
    again = pathconfig_resolve(cfg, url, method, NULL);
    CHECK(again != NULL && strcmp(pathconfig_result_json(again), pathconfig_result_json(res)) == 0 &&
              pathconfig_result_id(again) == pathconfig_result_id(res),
          "a second lookup of %s %s differs", method ? method : "(GET)", url);
    pathconfig_result_release(again);
    props = cJSON_Parse(pathconfig_result_json(res));
    pathconfig_result_release(res);
    CHECK(props != NULL, "the result is JSON");
    return props;
}

static int run_value_case(const cJSON *c)
{
    const char *url = string_field(c, "url"), *method = string_field(c, "method");
    const cJSON *e;
    pathconfig_error err;
    pathconfig *cfg = service(string_field(c, "baseURL"), &err);
    cJSON *props;
    if (!CHECK(cfg != NULL && url != NULL && method != NULL, "setup: %s", err.message)) return 0;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(c, "entries"))
        CHECK(add_entry(cfg, e, cJSON_GetObjectItemCaseSensitive(e, "sets"), NULL, NULL, &err) >= 0, "add %s: %s", show(e),
              err.message);
    props = resolve_json(cfg, url, method);
    if (props != NULL) check_expected(c, props);
    cJSON_Delete(props);
    pathconfig_release(cfg);
    return props != NULL;
}

/* RFC 7396 on cJSON: applies `patch` to `target` (both owned by the caller). */
static void merge_patch(cJSON *target, const cJSON *patch)
{
    const cJSON *item;
    cJSON_ArrayForEach(item, patch) {
        cJSON *existing = cJSON_GetObjectItemCaseSensitive(target, item->string);
        if (cJSON_IsNull(item)) {
            cJSON_DeleteItemFromObjectCaseSensitive(target, item->string);
        } else if (cJSON_IsObject(item) && cJSON_IsObject(existing)) {
            merge_patch(existing, item);
        } else {
            cJSON_DeleteItemFromObjectCaseSensitive(target, item->string);
            cJSON_AddItemToObject(target, item->string, cJSON_Duplicate(item, 1));
        }
    }
}

/* `sets` with every "$name ..." string replaced by `value` (a new object). */
static cJSON *substituted(const cJSON *sets, const cJSON *value)
{
    cJSON *out = cJSON_Duplicate(sets, 1), *item, *next;
    for (item = out->child; item != NULL; item = next) {
        next = item->next; /* replacing frees item */
        if (cJSON_IsString(item) && item->valuestring[0] == '$')
            cJSON_ReplaceItemInObjectCaseSensitive(out, item->string, cJSON_Duplicate(value, 1));
        else if (cJSON_IsObject(item))
            cJSON_ReplaceItemInObjectCaseSensitive(out, item->string, substituted(item, value));
    }
    return out;
}

/* The host's variable of an invalidate case, and what the configurer does. */
struct host_variable {
    const cJSON *sets;  /* the entry's "sets", "$name" where the variable goes */
    cJSON *value;       /* the variable's current value */
    int calls;          /* configurer runs */
};

static int configure_from_variable(void *context, pathconfig_request *request)
{
    struct host_variable *v = context;
    cJSON *patch = substituted(v->sets, v->value);
    char *text = cJSON_PrintUnformatted(patch);
    int rc = pathconfig_request_merge_properties(request, text);
    v->calls++;
    cJSON_free(text);
    cJSON_Delete(patch);
    return rc == 0 ? 0 : -1;
}

/* The value a step assigns: "set x=3", "flavor='text'", "flavor=nil; ...". */
static cJSON *assigned_value(const char *step)
{
    const char *eq = strchr(step, '=');
    char text[256];
    size_t n;
    if (eq == NULL) return NULL;
    eq++;
    n = strcspn(eq, ";");
    if (n >= sizeof text) return NULL;
    memcpy(text, eq, n);
    text[n] = '\0';
    if (strcmp(text, "nil") == 0) return cJSON_CreateNull();
    if (text[0] == '\'' && n >= 2 && text[n - 1] == '\'') {
        text[n - 1] = '\0';
        return cJSON_CreateString(text + 1);
    }
    return cJSON_Parse(text);
}

/* One invalidate case as it runs: the configuration, the host's variable,
 * the value memoised since the last invalidate, the last properties read. */
struct invalidate_run {
    pathconfig *cfg;
    const char *url, *method;
    const cJSON *defaults;
    struct host_variable v;
    cJSON *memo, *props;
    int reads, fills;
};

/* Reads once: the defaults patched with the memoised value (the variable as
 * the first read after the last invalidate saw it). */
static void read_step(struct invalidate_run *r, int step, const char *what)
{
    cJSON *expected, *patch;
    if (r->memo == NULL) {
        r->memo = cJSON_Duplicate(r->v.value, 1);
        r->fills++;
    }
    cJSON_Delete(r->props);
    r->props = resolve_json(r->cfg, r->url, r->method);
    r->reads++;
    if (r->props == NULL) return;
    expected = cJSON_Duplicate(r->defaults, 1);
    patch = substituted(r->v.sets, r->memo);
    merge_patch(expected, patch);
    CHECK(cJSON_Compare(r->props, expected, 1), "step %d (%s): %s, expected %s", step, what, show(r->props), show(expected));
    cJSON_Delete(patch);
    cJSON_Delete(expected);
}

/* A case with "steps": one entry whose configurer reads a host variable.
 * Each step assigns the variable ("set x=3", "flavor='text'", "flavor=nil"),
 * invalidates, or reads (a step naming a request: "read", originalRequest(),
 * repeated()), as read_step says. After an assignment, once a value is
 * memoised, an extra read checks that the change is not seen before an
 * invalidate; the configurer runs once per invalidation. The step's "expect"
 * values hold at its read, the case's "expected" after the last step. */
static int run_invalidate_case(const cJSON *c)
{
    const cJSON *entry = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(c, "entries"), 0), *step, *item;
    cJSON *defaults_root = cJSON_Parse(defaults_rule);
    struct invalidate_run r;
    pathconfig_error err;
    int i = 0, ok = 0;

    memset(&r, 0, sizeof r);
    r.url = string_field(c, "url");
    r.method = string_field(c, "method");
    r.defaults = cJSON_GetObjectItemCaseSensitive(defaults_root, "properties");
    r.v.sets = cJSON_GetObjectItemCaseSensitive(entry, "sets");
    r.v.value = cJSON_CreateNull();
    r.cfg = service(string_field(c, "baseURL"), &err);
    if (!CHECK(r.cfg != NULL && r.url != NULL && cJSON_IsObject(r.v.sets), "setup: %s", err.message) ||
        !CHECK(add_entry(r.cfg, entry, NULL, configure_from_variable, &r.v, &err) >= 0, "add: %s", err.message))
        goto done;
    cJSON_ArrayForEach(step, cJSON_GetObjectItemCaseSensitive(c, "steps")) {
        const char *what = string_field(step, "do");
        const cJSON *expect = cJSON_GetObjectItemCaseSensitive(step, "expect");
        cJSON *value = what ? assigned_value(what) : NULL;
        int invalidate = what != NULL && strcmp(what, "invalidateConfiguration()") == 0;
        int read = what != NULL && (strcmp(what, "read") == 0 || strstr(what, "Request()") || strstr(what, "repeated()"));
        i++;
        if (!CHECK(value != NULL || invalidate || read, "step %d: %s is understood", i, what ? what : "(null)")) continue;
        if (value != NULL) {
            cJSON_Delete(r.v.value);
            r.v.value = value;
            if (r.memo != NULL && !read) read_step(&r, i, "read again after the assignment");
        }
        if (invalidate) {
            CHECK(pathconfig_invalidate(r.cfg) == 0, "invalidate");
            cJSON_Delete(r.memo);
            r.memo = NULL;
        }
        if (!read) continue;
        read_step(&r, i, what);
        if (!cJSON_IsObject(expect)) continue;
        cJSON_ArrayForEach(item, expect)
            CHECK(cJSON_Compare(cJSON_GetObjectItemCaseSensitive(r.props, item->string), item, 1), "step %d: %s in %s", i,
                  item->string, show(r.props));
    }
    CHECK(r.reads >= 3 && r.v.calls == r.fills && r.fills >= 2, "%d reads; the configurer ran %d times for %d invalidations",
          r.reads, r.v.calls, r.fills);
    if (r.props != NULL) check_expected(c, r.props);
    ok = r.props != NULL;
done:
    cJSON_Delete(r.props);
    cJSON_Delete(r.memo);
    cJSON_Delete(r.v.value);
    cJSON_Delete(defaults_root);
    pathconfig_release(r.cfg);
    return ok;
}

/* The value cases with "step" k of one source share one configuration: each
 * step adds the entries beyond the previous step's, so the memoised result of
 * step k-1 must be dropped by pathconfig_add_rule ("changes when service
 * config added"). Returns how many steps ran. */
static int run_step_cases(const cJSON *cases)
{
    const cJSON *c;
    const char *source = NULL;
    pathconfig *cfg = NULL;
    pathconfig_error err;
    int added = 0, ran = 0;
    cJSON_ArrayForEach(c, cases) {
        const cJSON *step = cJSON_GetObjectItemCaseSensitive(c, "step"), *e;
        int k = 0;
        cJSON *props;
        if (!cJSON_IsNumber(step)) continue;
        test_set_context("siesta step %d of %s", step->valueint, string_field(c, "source"));
        if (step->valueint == 1 || source == NULL || strcmp(source, string_field(c, "source")) != 0) {
            pathconfig_release(cfg);
            cfg = service(string_field(c, "baseURL"), &err);
            source = string_field(c, "source");
            added = 0;
            if (!CHECK(cfg != NULL, "setup: %s", err.message)) continue;
        }
        cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(c, "entries"))
            if (k++ >= added)
                CHECK(add_entry(cfg, e, cJSON_GetObjectItemCaseSensitive(e, "sets"), NULL, NULL, &err) >= 0, "add: %s",
                      err.message);
        added = k;
        props = resolve_json(cfg, string_field(c, "url"), string_field(c, "method"));
        if (props != NULL) check_expected(c, props);
        ran += props != NULL;
        cJSON_Delete(props);
    }
    pathconfig_release(cfg);
    return ran;
}

void run_siesta_conformance(const char *dir)
{
    char path[4096];
    size_t len = 0;
    char *text;
    cJSON *root;
    const cJSON *c, *ordering;
    int patterns, values = 0, value_total = 0, invalidates = 0, invalidate_total = 0, steps, n = 0;

    snprintf(path, sizeof path, "%s/siesta.json", dir);
    text = test_read_file(path, &len);
    test_set_context("siesta.json");
    if (!CHECK(text != NULL, "cannot read %s", path)) return;
    root = cJSON_ParseWithLength(text, len);
    free(text);
    if (!CHECK(root != NULL, "%s is not JSON", path)) return;

    patterns = run_pattern_cases(cJSON_GetObjectItemCaseSensitive(root, "pattern_cases"));
    ordering = cJSON_GetObjectItemCaseSensitive(root, "ordering_cases");
    cJSON_ArrayForEach(c, ordering) {
        test_set_context("siesta ordering case %d: %s %s %s", n++, string_field(c, "source"),
                         show(cJSON_GetObjectItemCaseSensitive(c, "method")), show(cJSON_GetObjectItemCaseSensitive(c, "url")));
        if (is_value_case(c)) {
            value_total++;
            values += run_value_case(c);
        } else if (cJSON_GetObjectItemCaseSensitive(c, "steps") != NULL) {
            invalidate_total++;
            invalidates += run_invalidate_case(c);
        }
    }
    steps = run_step_cases(ordering);

    test_set_context("siesta.json");
    CHECK(patterns == 97 && patterns == cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(root, "pattern_cases")),
          "ran %d pattern cases", patterns);
    CHECK(value_total == 17 && values == value_total, "ran %d of %d value cases (17 expected)", values, value_total);
    CHECK(invalidate_total == 2 && invalidates == invalidate_total, "ran %d of %d invalidate cases", invalidates, invalidate_total);
    CHECK(steps == 3, "ran %d steps of \"changes when service config added\"", steps);
    printf("siesta conformance: %d pattern cases, %d of %d value cases, %d invalidate cases, %d added-later steps\n", patterns,
           values, value_total, invalidates, steps);
    test_set_context("");
    cJSON_Delete(root);
}
