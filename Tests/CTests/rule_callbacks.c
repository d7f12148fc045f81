/* Callbacks of rules added from code (pathconfig/rules.h): a predicate or
 * configurer that fails, free_context exactly once on every path, callbacks
 * that call back into the library on the same configuration, and
 * pathconfig_explain with a method naming what matched. */
#include "tests.h"

#include <cJSON.h>
#include <stdio.h>
#include <string.h>

#define LOAD(text, options, err) pathconfig_load_json((text), strlen(text), (options), (err))

static const char api_options[] = "{\"profile\": \"siesta\", \"base_url\": \"https://api.example.com\", \"merge\": \"deep\"}";

/* ---- Failures ---- */

/* A callback that fails while `fail` is set, saying `message` first (or
 * nothing when it is NULL). */
struct flaky {
    int calls;
    int fail;
    const char *message;
};

static int flaky_run(struct flaky *f, pathconfig_request *request, int success)
{
    f->calls++;
    if (!f->fail) return success;
    if (f->message != NULL && pathconfig_request_fail(request, f->message) != 0) return -2;
    return -1;
}

static int flaky_predicate(void *context, pathconfig_request *request)
{
    return flaky_run(context, request, 1);
}

static int flaky_configurer(void *context, pathconfig_request *request)
{
    return flaky_run(context, request, 0);
}

/* Every lookup of "/a" fails with PATHCONFIG_E_CALLBACK naming rule `index`
 * and quoting the message, runs the callback again each time, and succeeds
 * (then memoised) once the callback does. */
static void check_failing_rule(pathconfig *cfg, size_t index, struct flaky *f, const char *what)
{
    pathconfig_error err;
    pathconfig_result *res;
    char *text;
    int calls = f->calls;

    test_set_context("failing %s", what);
    f->fail = 1;
    f->message = "token store locked";
    memset(&err, 0, sizeof err);
    res = pathconfig_resolve(cfg, "/a", "GET", &err);
    CHECK(res == NULL && err.code == PATHCONFIG_E_CALLBACK && err.rule_index == (int)index, "code %d, rule %d (expected %d): %s",
          err.code, err.rule_index, (int)index, err.message);
    CHECK(strstr(err.message, "token store locked") != NULL, "the message quotes the callback's: %s", err.message);
    CHECK(test_last_code() == PATHCONFIG_E_CALLBACK && strcmp(pathconfig_last_error()->message, err.message) == 0 &&
              pathconfig_last_error()->rule_index == (int)index,
          "the last error says the same");
    CHECK(pathconfig_resolve(cfg, "/a", NULL, &err) == NULL && err.code == PATHCONFIG_E_CALLBACK && f->calls == calls + 2,
          "not memoised: the callback ran again (%d runs)", f->calls - calls);
    CHECK(pathconfig_resolve(cfg, "/a", "get", NULL) == NULL && test_last_code() == PATHCONFIG_E_CALLBACK,
          "for \"get\" too, err NULL: the last error says why");
    text = pathconfig_explain(cfg, "/a", "GET", &err);
    CHECK(text == NULL && err.code == PATHCONFIG_E_CALLBACK && err.rule_index == (int)index, "explain fails too: %d", err.code);
    pathconfig_string_free(text);

    f->message = NULL;
    res = pathconfig_resolve(cfg, "/a", "GET", &err);
    CHECK(res == NULL && err.code == PATHCONFIG_E_CALLBACK && err.message[0] != '\0', "-1 without a message: %s", err.message);

    f->fail = 0;
    calls = f->calls;
    res = pathconfig_resolve(cfg, "/a", "GET", &err);
    CHECK(res != NULL && err.code == PATHCONFIG_OK && err.rule_index == -1 && test_last_code() == PATHCONFIG_OK,
          "succeeds once the callback does: %s", err.message);
    CHECK(res != NULL && strcmp(pathconfig_result_json(res), "{\"file\":1,\"code\":1}") == 0, "properties %s",
          res ? pathconfig_result_json(res) : "(null)");
    pathconfig_result_release(res);
    res = pathconfig_resolve(cfg, "/a", "GET", &err);
    CHECK(res != NULL && f->calls == calls + 1, "then memoised (%d runs)", f->calls - calls);
    pathconfig_result_release(res);
}

static void test_failures(void)
{
    static const char doc[] = "{\"rules\": [{\"patterns\": [\"/\"], \"properties\": {\"file\": 1}}]}";
    struct flaky predicate = { 0, 0, NULL }, configurer = { 0, 0, NULL };
    pathconfig_error err;
    pathconfig *a = LOAD(doc, "{\"profile\": \"siesta\"}", &err), *b = LOAD(doc, "{\"profile\": \"siesta\"}", &err);
    size_t index;

    test_set_context("failures");
    if (!CHECK(a != NULL && b != NULL, "load: %s", err.message)) return;
    CHECK(pathconfig_add_rule(a, "{\"properties\": {\"code\": 1}}", flaky_predicate, NULL, &predicate, NULL, &index, &err) ==
              PATHCONFIG_OK && index == 1,
          "the predicate's rule is %zu", index);
    check_failing_rule(a, index, &predicate, "predicate");
    CHECK(pathconfig_add_rule(b, "{\"globs\": [\"**\"], \"properties\": {\"code\": 1}}", NULL, flaky_configurer, &configurer,
                              NULL, &index, &err) == PATHCONFIG_OK && index == 1,
          "the configurer's rule is %zu", index);
    check_failing_rule(b, index, &configurer, "configurer");
    pathconfig_release(a);
    pathconfig_release(b);
}

/* ---- free_context ---- */

static void count_free(void *context)
{
    ++*(int *)context;
}

static int yes(void *context, pathconfig_request *request)
{
    (void)context;
    return request != NULL;
}

static void test_free_context(void)
{
    static const char *const bad_rules[] = {
        "{", "{\"globs\": [\"**\"], \"junk\": }", "[1]", "{\"patterns\": [\"(\"]}", "{\"globs\": \"**\"}", "{\"methods\": [1]}",
        "{\"patterns\": [\"a\"], \"properties\": 3}", "{\"\xff\": 1}", NULL
    };
    int freed[3] = { 0, 0, 0 }, failed, i;
    size_t index;
    pathconfig_error err;
    pathconfig *cfg = LOAD("{\"rules\": []}", "{\"profile\": \"siesta\"}", &err), *other;

    test_set_context("free_context");
    if (!CHECK(cfg != NULL, "load: %s", err.message)) return;
    other = pathconfig_retain(cfg);
    index = 99;
    CHECK(pathconfig_add_rule(cfg, NULL, yes, NULL, &freed[0], count_free, &index, &err) == PATHCONFIG_OK && index == 0,
          "rule_json NULL is {}: %s", err.message);
    CHECK(pathconfig_add_rule(cfg, "{\"globs\": [\"**\"]}", NULL, NULL, &freed[1], count_free, &index, &err) == PATHCONFIG_OK &&
              index == 1,
          "a second rule");
    CHECK(pathconfig_add_rule(cfg, "{\"globs\": [\"/x\"]}", NULL, NULL, &freed[2], NULL, NULL, &err) == PATHCONFIG_OK &&
              pathconfig_rule_count(cfg) == 3,
          "no free_context, index NULL");

    /* Each failing add frees its context before returning, and takes no index. */
    for (i = 0; bad_rules[i] != NULL; i++) {
        failed = 0;
        memset(&err, 0, sizeof err);
        index = 99;
        CHECK(pathconfig_add_rule(cfg, bad_rules[i], yes, NULL, &failed, count_free, &index, &err) == err.code && err.code > 0 &&
                  index == 99,
              "%s is refused", bad_rules[i]);
        CHECK(failed == 1, "%s: free_context ran %d times", bad_rules[i], failed);
    }
    failed = 0;
    CHECK(pathconfig_add_rule(cfg, "{", yes, NULL, &failed, count_free, NULL, &err) == PATHCONFIG_E_JSON && err.code == PATHCONFIG_E_JSON &&
              err.line == 1 && err.column >= 1,
          "not JSON: code %d at %d:%d", err.code, err.line, err.column);
    failed = 0;
    CHECK(pathconfig_add_rule(cfg, "{\"patterns\": [\"(\"]}", NULL, NULL, &failed, count_free, NULL, &err) == PATHCONFIG_E_REGEX &&
              err.code == PATHCONFIG_E_REGEX,
          "a bad pattern: code %d (%s)", err.code, err.message);
    failed = 0;
    CHECK(pathconfig_add_rule(cfg, "{}", NULL, yes, &failed, count_free, NULL, &err) == PATHCONFIG_E_SCHEMA && err.code == PATHCONFIG_E_SCHEMA &&
              failed == 1,
          "neither patterns, globs nor a predicate: code %d (%s)", err.code, err.message);
    failed = 0;
    CHECK(pathconfig_add_rule(NULL, "{}", yes, NULL, &failed, count_free, NULL, &err) == PATHCONFIG_E_ARGUMENT && err.code == PATHCONFIG_E_ARGUMENT &&
              failed == 1,
          "cfg NULL: code %d, freed %d", err.code, failed);
    failed = 0;
    CHECK(pathconfig_add_rule(cfg, "{\"globs\": [\"/y\"]}", yes, NULL, &failed, count_free, &index, &err) == PATHCONFIG_OK &&
              index == 3 && failed == 0,
          "the next rule is 3: the failures took no index");

    CHECK(freed[0] == 0 && freed[1] == 0, "nothing freed while the configuration lives (%d, %d)", freed[0], freed[1]);
    pathconfig_release(cfg);
    CHECK(freed[0] == 0 && freed[1] == 0 && failed == 0, "nor after releasing one of two references");
    {
        pathconfig_result *res = pathconfig_resolve(other, "/y", NULL, &err);
        CHECK(res != NULL, "the other reference resolves: %s", err.message);
        pathconfig_result_release(res);
    }
    pathconfig_release(other);
    CHECK(freed[0] == 1 && freed[1] == 1 && failed == 1, "the last release frees each context once (%d, %d, %d)", freed[0],
          freed[1], failed);
    CHECK(freed[2] == 0, "a context without free_context is left alone");
}

/* ---- Callbacks calling back into the library ---- */

struct reentry {
    pathconfig *cfg;
    int added;             /* how many times the predicate added a rule */
    int added_freed;       /* free_context of that rule */
    int nested_ok, nested_failed_code, nested_explain_ok, url_kept, invalidate_rc;
};

/* A configurer for /outer/...: resolves /inner on the same configuration
 * and merges that result under "inner"; a failing nested call leaves the
 * outer lookup alone; the request stays valid after the nested lookups. */
static int nest(void *context, pathconfig_request *request)
{
    struct reentry *r = context;
    pathconfig_error err;
    pathconfig_result *inner = pathconfig_resolve(r->cfg, "/inner", "GET", &err);
    char patch[512], *explained;
    const char *url_before = pathconfig_request_url(request);
    char url[128];
    int rc;

    snprintf(url, sizeof url, "%s", test_show(url_before));
    r->nested_ok = inner != NULL;
    if (inner == NULL) return -1;
    snprintf(patch, sizeof patch, "{\"inner\": %s}", pathconfig_result_json(inner));
    pathconfig_result_release(inner);
    r->nested_failed_code = pathconfig_resolve(r->cfg, "/inner", "GE T", NULL) == NULL ? test_last_code() : 0;
    explained = pathconfig_explain(r->cfg, "/inner", NULL, NULL);
    r->nested_explain_ok = explained != NULL && strstr(explained, "\"inner_value\":7") != NULL;
    pathconfig_string_free(explained);
    r->url_kept = strcmp(test_show(pathconfig_request_url(request)), url) == 0;
    rc = pathconfig_request_merge_properties(request, patch);
    return rc == 0 ? 0 : -1;
}

static void count_added(void *context)
{
    ++((struct reentry *)context)->added_freed;
}

/* A predicate for /grow: the first time, adds a rule and invalidates. */
static int grow(void *context, pathconfig_request *request)
{
    struct reentry *r = context;
    const char *url = pathconfig_request_url(request);
    if (url == NULL || strstr(url, "/grow") == NULL) return 0;
    if (r->added == 0) {
        r->added = 1;
        if (pathconfig_add_rule(r->cfg, "{\"globs\": [\"/grow\"], \"properties\": {\"grown\": true}}", NULL, NULL, r, count_added, NULL,
                                NULL) != PATHCONFIG_OK)
            return -1;
        r->invalidate_rc = pathconfig_invalidate(r->cfg);
    }
    return 1;
}

static void test_reentrancy(void)
{
    static const char doc[] = "{\"rules\": [{\"globs\": [\"/inner\"], \"properties\": {\"inner_value\": 7}}]}";
    struct reentry r;
    pathconfig_error err;
    pathconfig_result *res;
    size_t rules, index;

    test_set_context("reentrancy");
    memset(&r, 0, sizeof r);
    r.cfg = LOAD(doc, api_options, &err);
    if (!CHECK(r.cfg != NULL, "load: %s", err.message)) return;
    CHECK(pathconfig_add_rule(r.cfg, "{\"globs\": [\"/outer/**\"]}", NULL, nest, &r, NULL, NULL, &err) == PATHCONFIG_OK, "add: %s",
          err.message);
    CHECK(pathconfig_add_rule(r.cfg, "{\"properties\": {\"asked\": true}}", grow, NULL, &r, NULL, &rules, &err) == PATHCONFIG_OK,
          "add: %s", err.message);

    res = pathconfig_resolve(r.cfg, "/outer/1", "GET", &err);
    CHECK(res != NULL && err.code == PATHCONFIG_OK && test_last_code() == PATHCONFIG_OK, "a configurer resolving: %s", err.message);
    CHECK(res != NULL && strcmp(pathconfig_result_json(res), "{\"inner\":{\"inner_value\":7}}") == 0, "properties %s",
          res ? pathconfig_result_json(res) : "(null)");
    CHECK(r.nested_ok && r.nested_failed_code == PATHCONFIG_E_ARGUMENT && r.nested_explain_ok && r.url_kept,
          "nested lookups: ok %d, failed with %d, explain %d, request kept %d", r.nested_ok, r.nested_failed_code,
          r.nested_explain_ok, r.url_kept);
    pathconfig_result_release(res);

    /* The lookup that adds a rule runs with the rules it started with; the next one sees it. */
    res = pathconfig_resolve(r.cfg, "/grow", "GET", &err);
    CHECK(res != NULL && strcmp(pathconfig_result_json(res), "{\"asked\":true}") == 0 && r.added == 1 && r.invalidate_rc == 0,
          "a predicate adding a rule and invalidating: %s (%s)", res ? pathconfig_result_json(res) : "(null)", err.message);
    pathconfig_result_release(res);
    res = pathconfig_resolve(r.cfg, "/grow", "GET", &err);
    CHECK(res != NULL && strcmp(pathconfig_result_json(res), "{\"asked\":true,\"grown\":true}") == 0,
          "the next lookup has the new rule: %s", res ? pathconfig_result_json(res) : "(null)");
    pathconfig_result_release(res);
    CHECK(pathconfig_add_rule(r.cfg, "{\"globs\": [\"/z\"]}", NULL, NULL, NULL, NULL, &index, &err) == PATHCONFIG_OK &&
              index == rules + 2,
          "the rule added from the callback took index %zu", rules + 1);
    pathconfig_release(r.cfg);
    CHECK(r.added_freed == 1, "its context freed once with the configuration (%d)", r.added_freed);
}

/* ---- pathconfig_explain with a method ---- */

static const cJSON *rule_entry(const cJSON *explained, int index)
{
    const cJSON *rule;
    cJSON_ArrayForEach(rule, cJSON_GetObjectItemCaseSensitive(explained, "rules")) {
        const cJSON *i = cJSON_GetObjectItemCaseSensitive(rule, "index");
        if (cJSON_IsNumber(i) && i->valueint == index) return rule;
    }
    return NULL;
}

static int has(const cJSON *object, const char *key, const char *json)
{
    cJSON *expected = cJSON_Parse(json);
    int same = cJSON_Compare(cJSON_GetObjectItemCaseSensitive(object, key), expected, 1);
    cJSON_Delete(expected);
    return same;
}

static int counting_yes(void *context, pathconfig_request *request)
{
    ++*(int *)context;
    return request != NULL;
}

static int stamp(void *context, pathconfig_request *request)
{
    (void)context;
    return pathconfig_request_merge_properties(request, "{\"stamped\": true}");
}

static void test_explain(void)
{
    static const char doc[] =
        "{\"rules\": [{\"patterns\": [\"/nope\", \"/users/\"], \"properties\": {\"a\": 1}},"
        "            {\"globs\": [\"/users/*\"], \"description\": \"users\", \"properties\": {\"b\": 2}},"
        "            {\"globs\": [\"**\"], \"methods\": [\"DELETE\"], \"properties\": {\"c\": 3}}]}";
    int asked = 0;
    size_t predicate = 0, configurer = 0;
    pathconfig_error err;
    pathconfig *cfg = LOAD(doc, api_options, &err);
    char *text;
    cJSON *e;
    const cJSON *r;

    test_set_context("explain with a method");
    if (!CHECK(cfg != NULL, "load: %s", err.message)) return;
    CHECK(pathconfig_add_rule(cfg, "{\"description\": \"host check\"}", counting_yes, NULL, &asked, NULL, &predicate, &err) ==
                  PATHCONFIG_OK &&
              pathconfig_add_rule(cfg, "{\"globs\": [\"**\"]}", NULL, stamp, NULL, NULL, &configurer, &err) == PATHCONFIG_OK,
          "add: %s", err.message);
    text = pathconfig_explain(cfg, "/users/1", "post", &err);
    e = text ? cJSON_Parse(text) : NULL;
    if (CHECK(e != NULL && err.code == PATHCONFIG_OK, "explain: %s", err.message)) {
        CHECK(has(e, "input", "\"/users/1\"") && has(e, "method", "\"POST\"") &&
                  has(e, "url", "\"https://api.example.com/users/1\""),
              "input, method and url: %s", text);
        CHECK(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(e, "rules")) == 4, "four rules applied: %s", text);
        r = rule_entry(e, 0);
        CHECK(has(r, "pattern", "\"/users/\"") && has(r, "pattern_index", "1") && !cJSON_HasObjectItem(r, "from_code"),
              "rule 0 by its second pattern");
        r = rule_entry(e, 1);
        CHECK(has(r, "glob", "\"/users/*\"") && has(r, "pattern_index", "0") && has(r, "description", "\"users\"") &&
                  !cJSON_HasObjectItem(r, "pattern"),
              "rule 1 by its glob");
        CHECK(rule_entry(e, 2) == NULL, "rule 2 is for DELETE only");
        r = rule_entry(e, (int)predicate);
        CHECK(has(r, "predicate", "true") && has(r, "from_code", "true") && has(r, "description", "\"host check\"") &&
                  !cJSON_HasObjectItem(r, "configurer"),
              "rule %zu by its predicate", predicate);
        r = rule_entry(e, (int)configurer);
        CHECK(has(r, "glob", "\"**\"") && has(r, "from_code", "true") && has(r, "configurer", "true"),
              "rule %zu with its configurer", configurer);
        CHECK(has(e, "properties", "{\"a\": 1, \"b\": 2, \"stamped\": true}"), "properties: %s", text);
    }
    cJSON_Delete(e);
    pathconfig_string_free(text);

    text = pathconfig_explain(cfg, "https://api.example.com/users/1", NULL, &err);
    e = text ? cJSON_Parse(text) : NULL;
    CHECK(e != NULL && has(e, "method", "\"GET\""), "NULL is GET: %s", test_show(text));
    CHECK(asked == 2, "never memoised: the predicate ran for each explain (%d)", asked);
    cJSON_Delete(e);
    pathconfig_string_free(text);
    text = pathconfig_explain(cfg, "/users/1", "DELETE", &err);
    e = text ? cJSON_Parse(text) : NULL;
    CHECK(e != NULL && rule_entry(e, 2) != NULL && has(rule_entry(e, 2), "glob", "\"**\""), "DELETE applies rule 2: %s",
          test_show(text));
    cJSON_Delete(e);
    pathconfig_string_free(text);
    CHECK(pathconfig_explain(NULL, "/x", NULL, &err) == NULL && err.code == PATHCONFIG_E_ARGUMENT, "cfg NULL");
    CHECK(pathconfig_explain(cfg, NULL, NULL, &err) == NULL && err.code == PATHCONFIG_E_ARGUMENT, "url NULL");
    pathconfig_release(cfg);
}

void run_rule_callback_tests(void)
{
    test_failures();
    test_free_context();
    test_reentrancy();
    test_explain();
    test_set_context("");
}
