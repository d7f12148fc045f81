/* pathconfig/rules.h on its own: the header's auth-token example end to end,
 * method filters, what a callback sees and may change, callback failures,
 * free_context, callbacks that call back into the library, and
 * pathconfig_explain_request. */
#include "tests.h"

#include <cJSON.h>
#include <stdio.h>
#include <string.h>

#define LOAD(text, options, err) pathconfig_load_json((text), strlen(text), (options), (err))

static const char api_options[] = "{\"profile\": \"siesta\", \"base_url\": \"https://api.example.com\", \"merge\": \"deep\"}";

/* The JSON value at `key` of `res` as text ("" when absent: never valid JSON). */
static const char *value_of(const pathconfig_result *res, const char *key)
{
    const char *json = NULL;
    return pathconfig_result_get_json(res, key, &json) == PATHCONFIG_FOUND ? json : "";
}

/* The string at headers.NAME of the properties of `url_or_path` requested
 * with `method`, copied into `out` ("" when absent); 0, or -1 when the lookup
 * failed. */
static int header_of(pathconfig *cfg, const char *url_or_path, const char *method, const char *name, char *out, size_t size)
{
    pathconfig_error err;
    pathconfig_result *res = pathconfig_resolve_request(cfg, url_or_path, method, &err);
    cJSON *props, *value;
    out[0] = '\0';
    if (!CHECK(res != NULL, "resolve %s: %s", url_or_path, err.message)) return -1;
    props = cJSON_Parse(pathconfig_result_json(res));
    value = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(props, "headers"), name);
    if (cJSON_IsString(value)) snprintf(out, size, "%s", value->valuestring);
    cJSON_Delete(props);
    pathconfig_result_free(res);
    return 0;
}

/* ---- The header's example: an auth token in every request to the API ---- */

struct token_store {
    char token[64];
    int calls;
};

static int add_token(void *context, pathconfig_request *request)
{
    struct token_store *store = context;
    char patch[256];
    store->calls++;
    snprintf(patch, sizeof patch, "{\"headers\":{\"X-HappyApp-Auth-Token\":\"%s\"}}", store->token);
    return pathconfig_request_merge_properties(request, patch) == 0 ? 0 : -1;
}

static void test_auth_token(void)
{
    static const char doc[] =
        "{\"rules\": [{\"globs\": [\"/users/**\"], \"properties\": {\"headers\": {\"Accept\": \"application/json\"}}}]}";
    static const char *const elsewhere[] = {
        "https://api.example.com.evil.com/", "https://api.example.com.evil.com/users/1", "https://api.example.com@evil.com/",
        "https://api.example.com@evil.com/users/1", "https://evil.com/users/1", "http://api.example.com/users/1",
        "https://api.example.com:8443/users/1", "https://evil.com/?https://api.example.com/", NULL
    };
    struct token_store store = { "token-1", 0 };
    char header[128];
    pathconfig_error err;
    pathconfig *api = LOAD(doc, api_options, &err);
    pathconfig_result *res;
    int i, index, calls;

    test_set_context("auth token");
    if (!CHECK(api != NULL, "load: %s", err.message)) return;
    index = pathconfig_add_rule(api, "{\"globs\": [\"**\"], \"description\": \"auth token\"}", NULL, add_token, &store, NULL, &err);
    CHECK(index == (int)pathconfig_rule_count(api) - 1 && err.code == PATHCONFIG_OK, "added as rule %d, the last (%s)", index, err.message);

    /* A path, and the same URL written out, get the token; the document's
     * header is kept (deep merge). */
    res = pathconfig_resolve_request(api, "/users/1", "POST", &err);
    if (CHECK(res != NULL, "resolve: %s", err.message))
        CHECK(strcmp(value_of(res, "headers"), "{\"Accept\":\"application/json\",\"X-HappyApp-Auth-Token\":\"token-1\"}") == 0,
              "headers %s", value_of(res, "headers"));
    pathconfig_result_free(res);
    header_of(api, "https://api.example.com/users/1", NULL, "X-HappyApp-Auth-Token", header, sizeof header);
    CHECK(strcmp(header, "token-1") == 0, "the same URL written out: %s", header);
    header_of(api, "https://API.Example.COM/search?q=1", "GET", "X-HappyApp-Auth-Token", header, sizeof header);
    CHECK(strcmp(header, "token-1") == 0, "the host compares case-insensitively: %s", header);

    /* Never to another host, scheme or port, however it is spelled. */
    calls = store.calls;
    for (i = 0; elsewhere[i] != NULL; i++) {
        if (header_of(api, elsewhere[i], "GET", "X-HappyApp-Auth-Token", header, sizeof header) == 0)
            CHECK(header[0] == '\0', "%s got the token %s", elsewhere[i], header);
        header_of(api, elsewhere[i], "POST", "X-HappyApp-Auth-Token", header, sizeof header);
        CHECK(header[0] == '\0', "POST %s got the token %s", elsewhere[i], header);
    }
    CHECK(store.calls == calls, "the configurer never ran for another host (%d runs)", store.calls - calls);

    /* A new token: memoised results keep the old one until invalidate. */
    snprintf(store.token, sizeof store.token, "token-2");
    calls = store.calls;
    header_of(api, "/users/1", "POST", "X-HappyApp-Auth-Token", header, sizeof header);
    CHECK(strcmp(header, "token-1") == 0 && store.calls == calls, "before invalidate: %s, %d runs", header, store.calls - calls);
    CHECK(pathconfig_invalidate(api) == 0 && test_last_code() == PATHCONFIG_OK, "invalidate");
    header_of(api, "/users/1", "POST", "X-HappyApp-Auth-Token", header, sizeof header);
    CHECK(strcmp(header, "token-2") == 0 && store.calls == calls + 1, "after invalidate: %s, %d runs", header, store.calls - calls);
    header_of(api, "/users/1", "POST", "X-HappyApp-Auth-Token", header, sizeof header);
    CHECK(strcmp(header, "token-2") == 0 && store.calls == calls + 1, "memoised again: %d runs", store.calls - calls);
    header_of(api, "/users/1", "GET", "X-HappyApp-Auth-Token", header, sizeof header);
    CHECK(strcmp(header, "token-2") == 0 && store.calls == calls + 2, "memoised per method: %d runs", store.calls - calls);

    CHECK(pathconfig_invalidate(NULL) == -1 && test_last_code() == PATHCONFIG_E_ARGUMENT, "invalidate(NULL)");
    pathconfig_release(api);
}

/* ---- Methods ---- */

/* What a predicate saw: the request's URL and method, and what the
 * property functions answered there. */
struct seen {
    char url[256];
    char method[32];
    int calls;
    int properties_null, properties_code, set_rc, merge_rc;
};

static int record(void *context, pathconfig_request *request)
{
    struct seen *s = context;
    s->calls++;
    snprintf(s->url, sizeof s->url, "%s", test_show(pathconfig_request_url(request)));
    snprintf(s->method, sizeof s->method, "%s", test_show(pathconfig_request_method(request)));
    s->properties_null = pathconfig_request_properties(request) == NULL;
    s->properties_code = test_last_code();
    s->set_rc = pathconfig_request_set_properties(request, "{}");
    s->merge_rc = pathconfig_request_merge_properties(request, "{}");
    return 1;
}

static void test_methods(void)
{
    static const char doc[] = "{\"rules\": [{\"globs\": [\"**\"], \"methods\": [\"POST\"], \"properties\": {\"post\": true}}]}";
    static const char *const posts[] = { "POST", "post", "Post", NULL };
    static const char *const others[] = { "GET", "PUT", "PROPFIND", "POST2", NULL };
    static const char *const invalid[] = { "GE T", "", "GET\n", "G\xc3\xa9T", "POST(", NULL };
    struct seen seen;
    pathconfig_error err;
    pathconfig *cfg = LOAD(doc, "{\"profile\": \"siesta\", \"base_url\": \"https://x.dev/v1\"}", &err);
    pathconfig_result *res;
    char *props;
    int i;

    test_set_context("methods");
    if (!CHECK(cfg != NULL, "load: %s", err.message)) return;
    for (i = 0; posts[i] != NULL; i++) {
        res = pathconfig_resolve_request(cfg, "/a", posts[i], &err);
        CHECK(res != NULL && strcmp(value_of(res, "post"), "true") == 0, "%s applies the POST rule", posts[i]);
        pathconfig_result_free(res);
    }
    for (i = 0; others[i] != NULL; i++) {
        res = pathconfig_resolve_request(cfg, "/a", others[i], &err);
        CHECK(res != NULL && pathconfig_result_count(res) == 0, "%s does not", others[i]);
        pathconfig_result_free(res);
    }
    res = pathconfig_resolve_request(cfg, "/a", NULL, &err);
    CHECK(res != NULL && pathconfig_result_count(res) == 0 && err.code == PATHCONFIG_OK, "NULL is GET");
    pathconfig_result_free(res);
    props = pathconfig_properties(cfg, "/a");
    CHECK(props != NULL && strcmp(props, "{}") == 0, "pathconfig_properties is a GET lookup: %s", test_show(props));
    pathconfig_free_string(props);

    for (i = 0; invalid[i] != NULL; i++) {
        char *explained;
        memset(&err, 0, sizeof err);
        CHECK(pathconfig_resolve_request(cfg, "/a", invalid[i], &err) == NULL && err.code == PATHCONFIG_E_ARGUMENT &&
                  test_last_code() == PATHCONFIG_E_ARGUMENT && err.message[0] != '\0',
              "resolve with method \"%s\": code %d (%s)", invalid[i], err.code, err.message);
        explained = pathconfig_explain_request(cfg, "/a", invalid[i], &err);
        CHECK(explained == NULL && err.code == PATHCONFIG_E_ARGUMENT, "explain with method \"%s\": code %d", invalid[i], err.code);
        pathconfig_free_string(explained);
    }
    CHECK(pathconfig_resolve_request(NULL, "/a", "GET", &err) == NULL && err.code == PATHCONFIG_E_ARGUMENT, "cfg NULL");
    CHECK(pathconfig_resolve_request(cfg, NULL, "GET", &err) == NULL && err.code == PATHCONFIG_E_ARGUMENT, "url NULL");
    CHECK(pathconfig_resolve_request(cfg, "/\xff", "GET", &err) == NULL && err.code == PATHCONFIG_E_ARGUMENT, "url not UTF-8");

    /* A rule from code with methods, and what its predicate is told. */
    memset(&seen, 0, sizeof seen);
    CHECK(pathconfig_add_rule(cfg, "{\"methods\": [\"put\", \"PATCH\"], \"properties\": {\"write\": true}}", record, NULL, &seen,
                              NULL, &err) >= 0,
          "add: %s", err.message);
    /* A query needs the absolute URL: a relative input's "?" is part of its path. */
    res = pathconfig_resolve_request(cfg, "https://x.dev/v1/b/c?q=1", "put", &err);
    CHECK(res != NULL && strcmp(value_of(res, "write"), "true") == 0, "put applies the PUT rule");
    pathconfig_result_free(res);
    CHECK(seen.calls == 1 && strcmp(seen.method, "PUT") == 0, "the predicate sees %s (%d calls)", seen.method, seen.calls);
    CHECK(strcmp(seen.url, "https://x.dev/v1/b/c?q=1") == 0, "the predicate sees the URL against the base: %s", seen.url);
    CHECK(seen.properties_null && seen.properties_code == PATHCONFIG_E_ARGUMENT, "no properties in a predicate (code %d)",
          seen.properties_code);
    CHECK(seen.set_rc == -1 && seen.merge_rc == -1, "a predicate changes no properties (%d, %d)", seen.set_rc, seen.merge_rc);
    res = pathconfig_resolve_request(cfg, "https://x.dev/v1/b/c?q=1", "GET", &err);
    CHECK(res != NULL && pathconfig_result_count(res) == 0 && seen.calls == 1, "GET: not asked (%d calls)", seen.calls);
    pathconfig_result_free(res);
    CHECK(pathconfig_add_rule(cfg, "{\"globs\": [\"**\"], \"methods\": [\"GE T\"]}", NULL, NULL, NULL, NULL, &err) == -1 &&
              err.code == PATHCONFIG_E_SCHEMA,
          "a rule with an invalid method: code %d (%s)", err.code, err.message);
    pathconfig_release(cfg);
}

/* ---- What a configurer sees and may change ---- */

/* What a configurer saw of the properties around each change it tried (the
 * text), what each call returned, and the last error after each failure. */
struct edits {
    char before[256], after_bad[256], after_set[256], after_merge[256];
    int bad_json, not_object, null_json, bad_patch, set_rc, merge_rc, fail_null, fail_bad;
    int codes[4];
};

static int edit(void *context, pathconfig_request *request)
{
    struct edits *e = context;
    snprintf(e->before, sizeof e->before, "%s", test_show(pathconfig_request_properties(request)));
    e->bad_json = pathconfig_request_set_properties(request, "{\"a\": ");
    e->codes[0] = test_last_code();
    e->not_object = pathconfig_request_set_properties(request, "[1, 2]");
    e->codes[1] = test_last_code();
    e->null_json = pathconfig_request_merge_properties(request, NULL);
    e->codes[2] = test_last_code();
    e->bad_patch = pathconfig_request_merge_properties(request, "{\"a\": \xff}");
    e->codes[3] = test_last_code();
    snprintf(e->after_bad, sizeof e->after_bad, "%s", test_show(pathconfig_request_properties(request)));
    e->set_rc = pathconfig_request_set_properties(request, "{\"fixed\": 2, \"nested\": {\"a\": 1, \"b\": 2}, \"gone\": 0}");
    snprintf(e->after_set, sizeof e->after_set, "%s", test_show(pathconfig_request_properties(request)));
    e->merge_rc = pathconfig_request_merge_properties(request, "{\"nested\": {\"b\": null, \"c\": 3}, \"gone\": null}");
    snprintf(e->after_merge, sizeof e->after_merge, "%s", test_show(pathconfig_request_properties(request)));
    e->fail_null = pathconfig_request_fail(NULL, "x");
    e->fail_bad = pathconfig_request_fail(request, "\xff");
    return 0;
}

static void test_configurer_edits(void)
{
    static const char doc[] = "{\"rules\": [{\"patterns\": [\".\"], \"properties\": {\"file\": 1}}]}";
    struct edits e;
    pathconfig_error err;
    pathconfig *cfg = LOAD(doc, "{\"profile\": \"siesta\"}", &err);
    pathconfig_result *res;

    test_set_context("configurer edits");
    if (!CHECK(cfg != NULL, "load: %s", err.message)) return;
    memset(&e, 0, sizeof e);
    CHECK(pathconfig_add_rule(cfg, "{\"patterns\": [\"^/x\"], \"properties\": {\"fixed\": 1}}", NULL, edit, &e, NULL, &err) >= 0,
          "add: %s", err.message);
    res = pathconfig_resolve_request(cfg, "/x", NULL, &err);
    CHECK(res != NULL && err.code == PATHCONFIG_OK, "resolve: %s", err.message);
    CHECK(strcmp(e.before, "{\"file\":1,\"fixed\":1}") == 0, "the properties so far, this rule's included: %s", e.before);
    CHECK(e.bad_json == -1 && e.codes[0] == PATHCONFIG_E_JSON, "set, not JSON: %d, code %d", e.bad_json, e.codes[0]);
    CHECK(e.not_object == -1 && e.codes[1] == PATHCONFIG_E_ARGUMENT, "set, not an object: code %d", e.codes[1]);
    CHECK(e.null_json == -1 && e.codes[2] == PATHCONFIG_E_ARGUMENT, "merge NULL: code %d", e.codes[2]);
    CHECK(e.bad_patch == -1 && e.codes[3] == PATHCONFIG_E_ARGUMENT, "merge, not UTF-8: code %d", e.codes[3]);
    CHECK(strcmp(e.after_bad, e.before) == 0, "unchanged by the failures: %s", e.after_bad);
    CHECK(e.set_rc == 0 && strcmp(e.after_set, "{\"fixed\":2,\"nested\":{\"a\":1,\"b\":2},\"gone\":0}") == 0, "set: %s",
          e.after_set);
    CHECK(e.merge_rc == 0 && strcmp(e.after_merge, "{\"fixed\":2,\"nested\":{\"a\":1,\"c\":3}}") == 0, "merge patch: %s",
          e.after_merge);
    CHECK(e.fail_null == -1 && e.fail_bad == -1, "pathconfig_request_fail: NULL request, message not UTF-8");
    CHECK(res != NULL && strcmp(pathconfig_result_json(res), e.after_merge) == 0, "the result is what the configurer left: %s",
          res ? pathconfig_result_json(res) : "(null)");
    pathconfig_result_free(res);
    CHECK(pathconfig_request_url(NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "request_url(NULL)");
    CHECK(pathconfig_request_method(NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "request_method(NULL)");
    CHECK(pathconfig_request_properties(NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "request_properties(NULL)");
    CHECK(pathconfig_request_set_properties(NULL, "{}") == -1 && pathconfig_request_merge_properties(NULL, "{}") == -1,
          "set/merge on NULL");
    pathconfig_release(cfg);
}

/* Relative inputs under base_url resolve as Siesta's resource(_:) does: a `?`
 * is part of the path (encoded), so a glob for /items does not match
 * /items?x=1; the absolute URL carries the query. A base URL's host beyond
 * ASCII is IDNA-encoded (issue 27, items 4 and 6). */
static void test_relative_inputs(void)
{
    static const char doc[] = "{\"rules\": [{\"globs\": [\"/items\"], \"properties\": {\"m\": true}}]}";
    static const struct { const char *base, *input, *expected; } cases[] = {
        { "https://api.example.com", "/items?x=1", "{}" },
        { "https://api.example.com", "https://api.example.com/items?x=1", "{\"m\":true}" },
        { "https://api.example.com", "/items", "{\"m\":true}" },
        { "https://b\xc3\xbc" "cher.de", "https://xn--bcher-kva.de/items", "{\"m\":true}" },
    };
    char options[256], *explained;
    pathconfig_error err;
    size_t i;

    test_set_context("relative inputs");
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pathconfig *cfg;
        pathconfig_result *res;
        snprintf(options, sizeof options, "{\"profile\": \"siesta\", \"base_url\": \"%s\"}", cases[i].base);
        cfg = LOAD(doc, options, &err);
        if (!CHECK(cfg != NULL, "load under %s: %s", cases[i].base, err.message)) continue;
        res = pathconfig_resolve_request(cfg, cases[i].input, NULL, &err);
        CHECK(res != NULL && strcmp(pathconfig_result_json(res), cases[i].expected) == 0, "%s under %s: %s, expected %s",
              cases[i].input, cases[i].base, res ? pathconfig_result_json(res) : err.message, cases[i].expected);
        pathconfig_result_free(res);
        if (i == 0) {
            explained = pathconfig_explain_request(cfg, cases[i].input, NULL, &err);
            CHECK(explained != NULL && strstr(explained, "\"url\":\"https://api.example.com/items%3Fx=1\"") != NULL,
                  "explain shows the encoded URL: %s", test_show(explained));
            pathconfig_free_string(explained);
        }
        pathconfig_release(cfg);
    }
}

void run_rule_tests(void)
{
    test_auth_token();
    test_methods();
    test_configurer_edits();
    test_relative_inputs();
    test_set_context("");
}
