/* pathconfig/rules.h on its own: the header's auth-token example end to end,
 * method filters, what a callback sees and may change, callback failures,
 * free_context, callbacks that call back into the library, and
 * pathconfig_explain with a method; the typed setters, and hostile header
 * values through them. */
#include "tests.h"

#include <cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOAD(text, options, err) pathconfig_load_json((text), strlen(text), (options), (err))

static const char api_options[] = "{\"profile\": \"siesta\", \"base_url\": \"https://api.example.com\", \"merge\": \"deep\"}";

/* The JSON value at `key` of `res` as text ("" when absent: never valid JSON). */
static const char *value_of(const pathconfig_result *res, const char *key)
{
    const char *json = NULL;
    return pathconfig_result_get_json(res, key, &json) == PATHCONFIG_OK ? json : "";
}

/* The string at headers.NAME of the properties of `url_or_path` requested
 * with `method`, copied into `out` ("" when absent); 0, or -1 when the lookup
 * failed. */
static int header_of(pathconfig *cfg, const char *url_or_path, const char *method, const char *name, char *out, size_t size)
{
    pathconfig_error err;
    pathconfig_result *res = pathconfig_resolve(cfg, url_or_path, method, &err);
    cJSON *props, *value;
    out[0] = '\0';
    if (!CHECK(res != NULL, "resolve %s: %s", url_or_path, err.message)) return -1;
    props = cJSON_Parse(pathconfig_result_json(res));
    value = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(props, "headers"), name);
    if (cJSON_IsString(value)) snprintf(out, size, "%s", value->valuestring);
    cJSON_Delete(props);
    pathconfig_result_release(res);
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
    store->calls++;
    return pathconfig_request_set_header(request, "X-HappyApp-Auth-Token", store->token) == PATHCONFIG_OK ? 0 : -1;
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
    int i, calls;
    size_t index = 0;

    test_set_context("auth token");
    if (!CHECK(api != NULL, "load: %s", err.message)) return;
    CHECK(pathconfig_add_rule(api, "{\"globs\": [\"**\"], \"description\": \"auth token\"}", NULL, add_token, &store, NULL, &index,
                              &err) == PATHCONFIG_OK,
          "add: %s", err.message);
    CHECK(index == pathconfig_rule_count(api) - 1 && err.code == PATHCONFIG_OK, "added as rule %zu, the last (%s)", index, err.message);

    /* A path, and the same URL written out, get the token; the document's
     * header is kept (deep merge). */
    res = pathconfig_resolve(api, "/users/1", "POST", &err);
    if (CHECK(res != NULL, "resolve: %s", err.message))
        CHECK(strcmp(value_of(res, "headers"), "{\"Accept\":\"application/json\",\"X-HappyApp-Auth-Token\":\"token-1\"}") == 0,
              "headers %s", value_of(res, "headers"));
    pathconfig_result_release(res);
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

    CHECK(pathconfig_invalidate(NULL) == PATHCONFIG_E_ARGUMENT && test_last_code() == PATHCONFIG_E_ARGUMENT, "invalidate(NULL)");
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
    int setters[6]; /* set_string, _int64, _double, _bool, _header, remove */
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
    s->setters[0] = pathconfig_request_set_string(request, "k", "v");
    s->setters[1] = pathconfig_request_set_int64(request, "k", 1);
    s->setters[2] = pathconfig_request_set_double(request, "k", 1.5);
    s->setters[3] = pathconfig_request_set_bool(request, "k", 1);
    s->setters[4] = pathconfig_request_set_header(request, "X-K", "v");
    s->setters[5] = pathconfig_request_remove(request, "write");
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
        res = pathconfig_resolve(cfg, "/a", posts[i], &err);
        CHECK(res != NULL && strcmp(value_of(res, "post"), "true") == 0, "%s applies the POST rule", posts[i]);
        pathconfig_result_release(res);
    }
    for (i = 0; others[i] != NULL; i++) {
        res = pathconfig_resolve(cfg, "/a", others[i], &err);
        CHECK(res != NULL && pathconfig_result_count(res) == 0, "%s does not", others[i]);
        pathconfig_result_release(res);
    }
    res = pathconfig_resolve(cfg, "/a", NULL, &err);
    CHECK(res != NULL && pathconfig_result_count(res) == 0 && err.code == PATHCONFIG_OK, "NULL is GET");
    pathconfig_result_release(res);
    props = test_properties(cfg, "/a");
    CHECK(props != NULL && strcmp(props, "{}") == 0, "a lookup without a method is a GET: %s", test_show(props));
    free(props);

    for (i = 0; invalid[i] != NULL; i++) {
        char *explained;
        memset(&err, 0, sizeof err);
        CHECK(pathconfig_resolve(cfg, "/a", invalid[i], &err) == NULL && err.code == PATHCONFIG_E_ARGUMENT &&
                  test_last_code() == PATHCONFIG_E_ARGUMENT && err.message[0] != '\0',
              "resolve with method \"%s\": code %d (%s)", invalid[i], err.code, err.message);
        explained = pathconfig_explain(cfg, "/a", invalid[i], &err);
        CHECK(explained == NULL && err.code == PATHCONFIG_E_ARGUMENT, "explain with method \"%s\": code %d", invalid[i], err.code);
        pathconfig_string_free(explained);
    }
    CHECK(pathconfig_resolve(NULL, "/a", "GET", &err) == NULL && err.code == PATHCONFIG_E_ARGUMENT, "cfg NULL");
    CHECK(pathconfig_resolve(cfg, NULL, "GET", &err) == NULL && err.code == PATHCONFIG_E_ARGUMENT, "url NULL");
    CHECK(pathconfig_resolve(cfg, "/\xff", "GET", &err) == NULL && err.code == PATHCONFIG_E_ARGUMENT, "url not UTF-8");

    /* A rule from code with methods, and what its predicate is told. */
    memset(&seen, 0, sizeof seen);
    CHECK(pathconfig_add_rule(cfg, "{\"methods\": [\"put\", \"PATCH\"], \"properties\": {\"write\": true}}", record, NULL, &seen,
                              NULL, NULL, &err) == PATHCONFIG_OK,
          "add: %s", err.message);
    /* A query needs the absolute URL: a relative input's "?" is part of its path. */
    res = pathconfig_resolve(cfg, "https://x.dev/v1/b/c?q=1", "put", &err);
    CHECK(res != NULL && strcmp(value_of(res, "write"), "true") == 0, "put applies the PUT rule");
    CHECK(res != NULL && strcmp(pathconfig_result_json(res), "{\"write\":true}") == 0,
          "the predicate's setters changed nothing: %s", res ? pathconfig_result_json(res) : "(null)");
    pathconfig_result_release(res);
    CHECK(seen.calls == 1 && strcmp(seen.method, "PUT") == 0, "the predicate sees %s (%d calls)", seen.method, seen.calls);
    CHECK(strcmp(seen.url, "https://x.dev/v1/b/c?q=1") == 0, "the predicate sees the URL against the base: %s", seen.url);
    CHECK(seen.properties_null && seen.properties_code == PATHCONFIG_E_MISUSE, "no properties in a predicate (code %d)",
          seen.properties_code);
    CHECK(seen.set_rc == PATHCONFIG_E_MISUSE && seen.merge_rc == PATHCONFIG_E_MISUSE, "a predicate changes no properties (%d, %d)",
          seen.set_rc, seen.merge_rc);
    {
        int i;
        for (i = 0; i < 6; i++)
            CHECK(seen.setters[i] == PATHCONFIG_E_MISUSE, "typed setter %d in a predicate: %d, expected E_MISUSE", i, seen.setters[i]);
    }
    res = pathconfig_resolve(cfg, "https://x.dev/v1/b/c?q=1", "GET", &err);
    CHECK(res != NULL && pathconfig_result_count(res) == 0 && seen.calls == 1, "GET: not asked (%d calls)", seen.calls);
    pathconfig_result_release(res);
    CHECK(pathconfig_add_rule(cfg, "{\"globs\": [\"**\"], \"methods\": [\"GE T\"]}", NULL, NULL, NULL, NULL, NULL, &err) == PATHCONFIG_E_SCHEMA &&
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
    CHECK(pathconfig_add_rule(cfg, "{\"patterns\": [\"^/x\"], \"properties\": {\"fixed\": 1}}", NULL, edit, &e, NULL, NULL, &err) == PATHCONFIG_OK,
          "add: %s", err.message);
    res = pathconfig_resolve(cfg, "/x", NULL, &err);
    CHECK(res != NULL && err.code == PATHCONFIG_OK, "resolve: %s", err.message);
    CHECK(strcmp(e.before, "{\"file\":1,\"fixed\":1}") == 0, "the properties so far, this rule's included: %s", e.before);
    CHECK(e.bad_json == PATHCONFIG_E_JSON && e.codes[0] == PATHCONFIG_E_JSON, "set, not JSON: %d, code %d", e.bad_json, e.codes[0]);
    CHECK(e.not_object == PATHCONFIG_E_ARGUMENT && e.codes[1] == PATHCONFIG_E_ARGUMENT, "set, not an object: code %d", e.codes[1]);
    CHECK(e.null_json == PATHCONFIG_E_ARGUMENT && e.codes[2] == PATHCONFIG_E_ARGUMENT, "merge NULL: code %d", e.codes[2]);
    CHECK(e.bad_patch == PATHCONFIG_E_ARGUMENT && e.codes[3] == PATHCONFIG_E_ARGUMENT, "merge, not UTF-8: code %d", e.codes[3]);
    CHECK(strcmp(e.after_bad, e.before) == 0, "unchanged by the failures: %s", e.after_bad);
    CHECK(e.set_rc == PATHCONFIG_OK && strcmp(e.after_set, "{\"fixed\":2,\"nested\":{\"a\":1,\"b\":2},\"gone\":0}") == 0, "set: %s",
          e.after_set);
    CHECK(e.merge_rc == PATHCONFIG_OK && strcmp(e.after_merge, "{\"fixed\":2,\"nested\":{\"a\":1,\"c\":3}}") == 0, "merge patch: %s",
          e.after_merge);
    CHECK(e.fail_null == PATHCONFIG_E_ARGUMENT && e.fail_bad == PATHCONFIG_E_ARGUMENT,
          "pathconfig_request_fail: NULL request, message not UTF-8: %d %d", e.fail_null, e.fail_bad);
    CHECK(res != NULL && strcmp(pathconfig_result_json(res), e.after_merge) == 0, "the result is what the configurer left: %s",
          res ? pathconfig_result_json(res) : "(null)");
    pathconfig_result_release(res);
    CHECK(pathconfig_request_url(NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "request_url(NULL)");
    CHECK(pathconfig_request_method(NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "request_method(NULL)");
    CHECK(pathconfig_request_properties(NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "request_properties(NULL)");
    CHECK(pathconfig_request_set_properties(NULL, "{}") == PATHCONFIG_E_ARGUMENT &&
              pathconfig_request_merge_properties(NULL, "{}") == PATHCONFIG_E_ARGUMENT,
          "set/merge on NULL");
    CHECK(pathconfig_request_set_string(NULL, "k", "v") == PATHCONFIG_E_ARGUMENT &&
              pathconfig_request_set_int64(NULL, "k", 1) == PATHCONFIG_E_ARGUMENT &&
              pathconfig_request_set_double(NULL, "k", 1.0) == PATHCONFIG_E_ARGUMENT &&
              pathconfig_request_set_bool(NULL, "k", 1) == PATHCONFIG_E_ARGUMENT &&
              pathconfig_request_set_header(NULL, "X-K", "v") == PATHCONFIG_E_ARGUMENT &&
              pathconfig_request_remove(NULL, "k") == PATHCONFIG_E_ARGUMENT && test_last_code() == PATHCONFIG_E_ARGUMENT,
          "typed setters on NULL");
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
        res = pathconfig_resolve(cfg, cases[i].input, NULL, &err);
        CHECK(res != NULL && strcmp(pathconfig_result_json(res), cases[i].expected) == 0, "%s under %s: %s, expected %s",
              cases[i].input, cases[i].base, res ? pathconfig_result_json(res) : err.message, cases[i].expected);
        pathconfig_result_release(res);
        if (i == 0) {
            explained = pathconfig_explain(cfg, cases[i].input, NULL, &err);
            CHECK(explained != NULL && strstr(explained, "\"url\":\"https://api.example.com/items%3Fx=1\"") != NULL,
                  "explain shows the encoded URL: %s", test_show(explained));
            pathconfig_string_free(explained);
        }
        pathconfig_release(cfg);
    }
}

/* ---- Typed setters ---- */

/* What the configurer's setters returned, and the properties around the
 * refused ones. */
struct setters {
    int ok[12];
    int refused[10];
    char before_refused[512], after_refused[512];
};

static int set_everything(void *context, pathconfig_request *request)
{
    struct setters *s = context;
    int n = 0, r = 0;
    s->ok[n++] = pathconfig_request_set_string(request, "file", "replaced"); /* an existing key keeps its place */
    s->ok[n++] = pathconfig_request_set_string(request, "s", "caf\xc3\xa9 \"q\" \\ \n");
    s->ok[n++] = pathconfig_request_set_int64(request, "min", INT64_MIN);
    s->ok[n++] = pathconfig_request_set_int64(request, "max", INT64_MAX);
    s->ok[n++] = pathconfig_request_set_double(request, "d", 1.5);
    s->ok[n++] = pathconfig_request_set_double(request, "big", 1e300);
    s->ok[n++] = pathconfig_request_set_bool(request, "b", 7); /* any non-zero is true */
    s->ok[n++] = pathconfig_request_set_bool(request, "f", 0);
    s->ok[n++] = pathconfig_request_set_header(request, "X-A", "1"); /* "headers" is a string: made an object */
    s->ok[n++] = pathconfig_request_set_header(request, "X-B", "2"); /* keeps X-A */
    s->ok[n++] = pathconfig_request_remove(request, "keep");
    s->ok[n++] = pathconfig_request_remove(request, "absent"); /* OK also when absent */
    snprintf(s->before_refused, sizeof s->before_refused, "%s", test_show(pathconfig_request_properties(request)));
    s->refused[r++] = pathconfig_request_set_double(request, "nan", NAN);
    s->refused[r++] = pathconfig_request_set_double(request, "inf", INFINITY);
    s->refused[r++] = pathconfig_request_set_double(request, "d", -INFINITY);
    s->refused[r++] = pathconfig_request_set_string(request, NULL, "v");
    s->refused[r++] = pathconfig_request_set_string(request, "k", NULL);
    s->refused[r++] = pathconfig_request_set_string(request, "k", "\xff");
    s->refused[r++] = pathconfig_request_set_int64(request, "\xc3", 1);
    s->refused[r++] = pathconfig_request_set_header(request, NULL, "v");
    s->refused[r++] = pathconfig_request_set_header(request, "X-C", NULL);
    s->refused[r++] = pathconfig_request_remove(request, NULL);
    snprintf(s->after_refused, sizeof s->after_refused, "%s", test_show(pathconfig_request_properties(request)));
    return 0;
}

static void test_typed_setters(void)
{
    static const char doc[] = "{\"rules\": [{\"patterns\": [\".\"], \"properties\": {\"file\": 1, \"keep\": \"x\", \"headers\": \"no\"}}]}";
    static const char *const keys[] = { "file", "headers", "s", "min", "max", "d", "big", "b", "f" };
    struct setters s;
    pathconfig_error err;
    pathconfig *cfg = LOAD(doc, "{\"profile\": \"siesta\"}", &err);
    pathconfig_result *res;
    const char *text = NULL;
    int64_t i64 = 0;
    double d = 0;
    int b = -1;
    size_t i, count, len = 0;

    test_set_context("typed setters");
    if (!CHECK(cfg != NULL, "load: %s", err.message)) return;
    memset(&s, 0x5A, sizeof s);
    CHECK(pathconfig_add_rule(cfg, "{\"patterns\": [\"^/x\"]}", NULL, set_everything, &s, NULL, NULL, &err) == PATHCONFIG_OK, "add: %s",
          err.message);
    res = pathconfig_resolve(cfg, "/x", NULL, &err);
    if (!CHECK(res != NULL, "resolve: %s", err.message)) {
        pathconfig_release(cfg);
        return;
    }
    for (i = 0; i < 12; i++) CHECK(s.ok[i] == PATHCONFIG_OK, "setter %zu: %d", i, s.ok[i]);
    for (i = 0; i < 10; i++) CHECK(s.refused[i] == PATHCONFIG_E_ARGUMENT, "refused setter %zu: %d, expected E_ARGUMENT", i, s.refused[i]);
    CHECK(strcmp(s.before_refused, s.after_refused) == 0, "the refused setters changed nothing: %s, then %s", s.before_refused,
          s.after_refused);

    /* The result: keys in order (an existing key in its place, new ones
     * last, the removed one gone), each value of its type. */
    count = pathconfig_result_count(res);
    CHECK(count == sizeof keys / sizeof keys[0], "%zu keys: %s", count, pathconfig_result_json(res));
    for (i = 0; i < count && i < sizeof keys / sizeof keys[0]; i++)
        CHECK(strcmp(pathconfig_result_key(res, i), keys[i]) == 0, "key %zu: %s, expected %s", i, pathconfig_result_key(res, i), keys[i]);
    CHECK(pathconfig_result_get_string(res, "file", &text, NULL) == PATHCONFIG_OK && strcmp(text, "replaced") == 0, "file");
    CHECK(pathconfig_result_get_string(res, "s", &text, &len) == PATHCONFIG_OK && len == strlen("caf\xc3\xa9 \"q\" \\ \n") &&
              strcmp(text, "caf\xc3\xa9 \"q\" \\ \n") == 0,
          "a string with quotes, a backslash and a newline, stored as given: %s", test_show(text));
    CHECK(pathconfig_result_get_int64(res, "min", &i64) == PATHCONFIG_OK && i64 == INT64_MIN, "INT64_MIN");
    CHECK(pathconfig_result_get_int64(res, "max", &i64) == PATHCONFIG_OK && i64 == INT64_MAX, "INT64_MAX");
    CHECK(pathconfig_result_get_double(res, "d", &d) == PATHCONFIG_OK && d == 1.5 && pathconfig_result_type(res, 5) == PATHCONFIG_TYPE_DOUBLE,
          "1.5: %g", d);
    CHECK(pathconfig_result_get_double(res, "big", &d) == PATHCONFIG_OK && d == 1e300, "1e300: %g", d);
    CHECK(pathconfig_result_get_bool(res, "b", &b) == PATHCONFIG_OK && b == 1, "bool 7 is true");
    CHECK(pathconfig_result_get_bool(res, "f", &b) == PATHCONFIG_OK && b == 0, "bool 0 is false");
    CHECK(pathconfig_result_get_json(res, "headers", &text) == PATHCONFIG_OK && strcmp(text, "{\"X-A\":\"1\",\"X-B\":\"2\"}") == 0,
          "headers: %s", test_show(text));
    CHECK(pathconfig_result_get_json(res, "keep", &text) == PATHCONFIG_NOT_FOUND, "removed");
    {
        cJSON *json = cJSON_Parse(pathconfig_result_json(res));
        CHECK(cJSON_IsObject(json) && cJSON_GetArraySize(json) == (int)count, "the JSON text: %s", pathconfig_result_json(res));
        cJSON_Delete(json);
    }
    pathconfig_result_release(res);
    pathconfig_release(cfg);
}

/* ---- Hostile header values ---- */

/* What a later rule's configurer read of the properties (text). */
struct readback {
    char properties[1024];
};

static int set_token(void *context, pathconfig_request *request)
{
    return pathconfig_request_set_header(request, "X-Auth-Token", context) == PATHCONFIG_OK ? 0 : -1;
}

static int read_back(void *context, pathconfig_request *request)
{
    struct readback *r = context;
    snprintf(r->properties, sizeof r->properties, "%s", test_show(pathconfig_request_properties(request)));
    return 0;
}

/* `text` (JSON) is an object whose "headers" are exactly `expected`, as
 * JSON values (cJSON reads both, independently of the library). */
static int headers_are(const char *text, const cJSON *expected)
{
    cJSON *json = text ? cJSON_Parse(text) : NULL;
    const cJSON *headers = cJSON_GetObjectItemCaseSensitive(json, "headers");
    int same = cJSON_IsObject(headers) && cJSON_Compare(headers, expected, 1);
    cJSON_Delete(json);
    return same;
}

static void test_hostile_headers(void)
{
    /* Values that would break out of a JSON string pasted into text. */
    static const char *const tokens[] = {
        "abc\", \"X-Admin\": \"true",
        "abc\\\", \\\"X-Admin\\\": \\\"true",
        "\"},\"X-Admin\":\"true\",\"x\":{\"",
        "}",
        "{\"X-Admin\": \"true\"}",
        "\\",
        "\\u0022,\\u0022X-Admin\\u0022:\\u0022true",
        "line\nX-Admin: true\r\n",
        "\x01\x02\x08\x0b\x0c\x1b\x1f\x7f",
        "t\xc3\xb6k\xc3\xa9n \xe2\x9c\x93 \xf0\x9f\x98\x80 \xe2\x80\xa8\xe2\x80\xa9",
        "</script><script>",
        "",
        "null",
        "\ttab\\\"",
    };
    static const char doc[] = "{\"rules\": [{\"globs\": [\"/with/**\"], \"properties\": {\"headers\": {\"Accept\": \"application/json\"}}}]}";
    size_t t;

    test_set_context("hostile header values");
    for (t = 0; t < sizeof tokens / sizeof tokens[0]; t++) {
        const char *token = tokens[t];
        pathconfig_error err;
        pathconfig *api = LOAD(doc, "{\"profile\": \"siesta\", \"base_url\": \"https://api.example.com\"}", &err);
        struct readback later;
        cJSON *alone = cJSON_CreateObject(), *with_accept = cJSON_CreateObject();
        pathconfig_result *res;
        const char *headers = NULL, *value = NULL;
        char *explained;
        size_t len = 0;

        test_set_context("hostile header value %zu", t);
        if (!CHECK(api != NULL, "load: %s", err.message)) continue;
        /* The expected headers, built by cJSON. */
        cJSON_AddStringToObject(alone, "X-Auth-Token", token);
        cJSON_AddStringToObject(with_accept, "Accept", "application/json");
        cJSON_AddStringToObject(with_accept, "X-Auth-Token", token);
        memset(&later, 0, sizeof later);
        CHECK(pathconfig_add_rule(api, "{\"globs\": [\"**\"]}", NULL, set_token, (void *)token, NULL, NULL, &err) == PATHCONFIG_OK &&
                  pathconfig_add_rule(api, "{\"globs\": [\"**\"]}", NULL, read_back, &later, NULL, NULL, &err) == PATHCONFIG_OK,
              "add: %s", err.message);

        /* Exactly one header, holding exactly the token. */
        res = pathconfig_resolve(api, "/users/1", "POST", &err);
        if (CHECK(res != NULL, "resolve: %s", err.message)) {
            CHECK(pathconfig_result_count(res) == 1 && strcmp(pathconfig_result_key(res, 0), "headers") == 0,
                  "one key, \"headers\": %s", pathconfig_result_json(res));
            CHECK(pathconfig_result_type(res, 0) == PATHCONFIG_TYPE_OBJECT, "headers is an object");
            CHECK(pathconfig_result_get_json(res, "headers", &headers) == PATHCONFIG_OK && headers != NULL, "get_json(headers)");
            {
                cJSON *h = headers ? cJSON_Parse(headers) : NULL;
                const cJSON *v = cJSON_GetObjectItemCaseSensitive(h, "X-Auth-Token");
                CHECK(cJSON_IsObject(h) && cJSON_GetArraySize(h) == 1, "exactly one header: %s", test_show(headers));
                CHECK(cJSON_IsString(v) && strcmp(v->valuestring, token) == 0, "the header holds the token: %s", test_show(headers));
                CHECK(cJSON_Compare(h, alone, 1), "headers %s", test_show(headers));
                CHECK(cJSON_GetObjectItem(h, "X-Admin") == NULL, "no X-Admin header: %s", test_show(headers));
                cJSON_Delete(h);
            }
            CHECK(headers_are(pathconfig_result_json(res), alone), "the result's JSON: %s", pathconfig_result_json(res));
            /* Read back by a later rule's configurer, as the library hands it on. */
            CHECK(headers_are(later.properties, alone), "a later rule reads %s", later.properties);
            pathconfig_result_release(res);
        }

        /* Beside a header of the document: that one kept, the token added. */
        res = pathconfig_resolve(api, "https://api.example.com/with/x", NULL, &err);
        if (CHECK(res != NULL, "resolve: %s", err.message)) {
            CHECK(pathconfig_result_get_json(res, "headers", &headers) == PATHCONFIG_OK && headers_are(pathconfig_result_json(res), with_accept),
                  "with Accept: %s", pathconfig_result_json(res));
            pathconfig_result_release(res);
        }

        /* explain's properties say the same. */
        explained = pathconfig_explain(api, "/users/1", "POST", &err);
        {
            cJSON *e = explained ? cJSON_Parse(explained) : NULL;
            char *props = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(e, "properties"));
            CHECK(props != NULL && headers_are(props, alone), "explain: %s", test_show(explained));
            cJSON_free(props);
            cJSON_Delete(e);
        }
        pathconfig_string_free(explained);

        /* The header as a string value of its own: the bytes of the token. */
        {
            static const char *const rule = "{\"globs\": [\"**\"]}";
            pathconfig *plain = LOAD("{\"rules\": []}", "{\"profile\": \"siesta\"}", &err);
            CHECK(plain != NULL && pathconfig_add_rule(plain, rule, NULL, set_token, (void *)token, NULL, NULL, &err) == PATHCONFIG_OK, "setup");
            res = pathconfig_resolve(plain, "https://x.dev/", NULL, NULL);
            if (CHECK(res != NULL, "resolve")) {
                cJSON *h;
                CHECK(pathconfig_result_get_json(res, "headers", &headers) == PATHCONFIG_OK, "headers");
                h = cJSON_Parse(headers);
                value = cJSON_IsString(cJSON_GetObjectItemCaseSensitive(h, "X-Auth-Token"))
                            ? cJSON_GetObjectItemCaseSensitive(h, "X-Auth-Token")->valuestring
                            : NULL;
                len = value ? strlen(value) : 0;
                CHECK(value != NULL && len == strlen(token) && memcmp(value, token, len) == 0, "%zu bytes, the token's %zu", len,
                      strlen(token));
                cJSON_Delete(h);
                pathconfig_result_release(res);
            }
            pathconfig_release(plain);
        }
        cJSON_Delete(alone);
        cJSON_Delete(with_accept);
        pathconfig_release(api);
    }
}

void run_rule_tests(void)
{
    test_auth_token();
    test_methods();
    test_configurer_edits();
    test_typed_setters();
    test_hostile_headers();
    test_relative_inputs();
    test_set_context("");
}
