/* Every case of Tests/Fixtures/conformance/ios.json and android.json, through the
 * C ABI only: load the fixture with the case's profile and options, resolve
 * the input, compare with what the reference apps' tests expect. */
#include "tests.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The typed key (its PATHCONFIG_KEY_* constant) the catalog names `name`,
 * or -1 when it has none. */
static int typed_key(const char *name)
{
    int key, n = (int)pathconfig_typed_key_count();
    for (key = 0; key < n; key++)
        if (strcmp(pathconfig_typed_key_name(key), name) == 0) return key;
    return -1;
}

void *conformance_file(const char *dir, const char *name)
{
    char path[4096];
    size_t len = 0;
    char *text;
    cJSON *root;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    text = test_read_file(path, &len);
    if (!CHECK(text != NULL, "cannot read %s", path)) return NULL;
    root = cJSON_ParseWithLength(text, len);
    free(text);
    CHECK(root != NULL, "%s is not JSON", path);
    return root;
}

static const char *string_field(const cJSON *object, const char *key)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
    return cJSON_IsString(item) ? item->valuestring : NULL;
}

/* Loads `fixture` (a cJSON object) under `profile` and `match_query_strings`
 * (-1: leave it to the profile). */
pathconfig *conformance_load_fixture(const void *fixture, const char *profile, int mqs, pathconfig_error *err)
{
    char options[256];
    char *text = cJSON_PrintUnformatted(fixture);
    pathconfig *cfg;
    if (mqs < 0)
        snprintf(options, sizeof options, "{\"profile\":\"%s\"}", profile);
    else
        snprintf(options, sizeof options, "{\"profile\":\"%s\",\"match_query_strings\":%s}", profile, mqs ? "true" : "false");
    cfg = pathconfig_load_json(text, strlen(text), options, err);
    free(text);
    return cfg;
}

/* `value` as compact JSON text, for messages (a static buffer). */
static const char *show(const cJSON *value)
{
    static char buf[4096];
    if (value == NULL) return "(missing)";
    if (!cJSON_PrintPreallocated((cJSON *)value, buf, (int)sizeof buf, 0)) return "(too long)";
    return buf;
}

/* True when the JSON text equals `expected` as a JSON value (key order ignored). */
static int json_equals(const char *text, const cJSON *expected)
{
    cJSON *actual;
    int same;
    if (text == NULL) return 0;
    actual = cJSON_Parse(text);
    same = actual != NULL && cJSON_Compare(actual, expected, 1);
    cJSON_Delete(actual);
    return same;
}

/* The checks every resolving case shares: properties as JSON, the same
 * answer for the method named "GET", key enumeration, get_json per key, and
 * the matched string. (differential.c reads every value every way.) */
static void check_resolution(pathconfig *cfg, const char *input, const cJSON *expected, const char *matched)
{
    pathconfig_error err;
    pathconfig_result *res = pathconfig_resolve(cfg, input, NULL, &err);
    char *ms;
    const cJSON *item;
    size_t i, count;

    if (!CHECK(res != NULL, "resolve failed: %s", err.message)) return;
    CHECK(err.code == PATHCONFIG_OK, "err.code %d after a successful resolve", err.code);
    CHECK(json_equals(pathconfig_result_json(res), expected), "properties %s, expected %s",
          pathconfig_result_json(res), show(expected));

    {
        pathconfig_result *get = pathconfig_resolve(cfg, input, "GET", NULL);
        CHECK(get != NULL && strcmp(pathconfig_result_json(get), pathconfig_result_json(res)) == 0 &&
                  pathconfig_result_id(get) == pathconfig_result_id(res),
              "for \"GET\": %s differs from the result's JSON", get ? pathconfig_result_json(get) : "(null)");
        pathconfig_result_release(get);
    }

    count = pathconfig_result_count(res);
    CHECK(count == (size_t)cJSON_GetArraySize(expected), "count %zu, expected %d", count, cJSON_GetArraySize(expected));
    for (i = 0; i < count; i++) {
        const char *key = pathconfig_result_key(res, i);
        if (CHECK(key != NULL, "key %zu is NULL", i))
            CHECK(cJSON_GetObjectItemCaseSensitive(expected, key) != NULL, "unexpected key %s", key);
    }
    cJSON_ArrayForEach(item, expected) {
        const char *json = NULL;
        int rc = pathconfig_result_get_json(res, item->string, &json);
        CHECK(rc == PATHCONFIG_OK && json_equals(json, item), "get_json(%s) = %d %s", item->string, rc, json ? json : "(null)");
    }

    if (matched != NULL) {
        ms = pathconfig_matched_string(cfg, input, NULL);
        CHECK(ms != NULL && strcmp(ms, matched) == 0, "matched string \"%s\", expected \"%s\"", ms ? ms : "(null)", matched);
        pathconfig_string_free(ms);
    }
    pathconfig_result_release(res);
}

/* Checks a typed accessor value: a JSON bool through typed_bool, a string
 * through typed_string, null as "no value and no default". */
static void check_typed(const pathconfig_result *res, const char *name, const cJSON *value)
{
    int key = typed_key(name);
    if (!CHECK(key >= 0, "%s is not a typed key of the catalog", name)) return;
    if (cJSON_IsBool(value)) {
        int b = pathconfig_result_typed_bool(res, key);
        CHECK(b == (cJSON_IsTrue(value) ? 1 : 0), "typed_bool(%s) = %d, expected %d", name, b, cJSON_IsTrue(value));
    } else if (cJSON_IsString(value)) {
        const char *s = pathconfig_result_typed_string(res, key);
        CHECK(s != NULL && strcmp(s, value->valuestring) == 0, "typed_string(%s) = %s, expected %s",
              name, s ? s : "(null)", value->valuestring);
    } else if (cJSON_IsNull(value)) {
        const char *s = pathconfig_result_typed_string(res, key);
        CHECK(s == NULL && pathconfig_last_error()->code == PATHCONFIG_OK, "typed_string(%s) = %s, expected NULL",
              name, s ? s : "(null)");
    } else {
        CHECK(0, "typed value of %s has an unexpected JSON type", name);
    }
}

const char *conformance_ios_profile(const char *library)
{
    if (strcmp(library, "turbo-ios") == 0) return "turbo-ios";
    if (strcmp(library, "hotwire-native-ios") == 0) return "hotwire-ios";
    return NULL;
}

const char *conformance_android_profile(const char *implementation)
{
    if (strcmp(implementation, "hotwire-native-android") == 0) return "hotwire-android";
    if (strcmp(implementation, "turbo-android") == 0 || strcmp(implementation, "turbo-native") == 0) return "turbo-android";
    return NULL;
}

/* Runs ios.json; returns how many cases ran to completion, *total the number in the file. */
static int run_ios(const char *dir, int *total)
{
    cJSON *root = conformance_file(dir, "ios.json");
    const cJSON *fixtures, *c;
    int cases = 0, n = 0;
    if (root == NULL) return 0;
    fixtures = cJSON_GetObjectItemCaseSensitive(root, "fixtures");
    *total = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(root, "cases")) +
             cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(root, "settings_cases"));

    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(root, "cases")) {
        const char *profile = conformance_ios_profile(string_field(c, "library"));
        const char *fixture_name = string_field(c, "fixture");
        const char *input = string_field(c, "input");
        const cJSON *mqs = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(c, "options"), "matchQueryStrings");
        const cJSON *typed = cJSON_GetObjectItemCaseSensitive(c, "expected_typed");
        const cJSON *accessor = cJSON_GetObjectItemCaseSensitive(c, "expected_string_accessor");
        const cJSON *rule_match = cJSON_GetObjectItemCaseSensitive(c, "expected_rule_match");
        const cJSON *item;
        pathconfig_error err;
        pathconfig *cfg;
        pathconfig_result *res;

        test_set_context("ios case %d: %s %s %s", n++, string_field(c, "library"), fixture_name, input);
        if (!CHECK(profile != NULL && fixture_name != NULL && input != NULL, "malformed case")) continue;
        cfg = conformance_load_fixture(cJSON_GetObjectItemCaseSensitive(fixtures, fixture_name), profile,
                           cJSON_IsBool(mqs) ? cJSON_IsTrue(mqs) : -1, &err);
        if (!CHECK(cfg != NULL, "load failed: %s", err.message)) continue;
        cases++;

        check_resolution(cfg, input, cJSON_GetObjectItemCaseSensitive(c, "expected_properties"),
                         string_field(c, "matched_string"));

        res = pathconfig_resolve(cfg, input, NULL, NULL);
        if (CHECK(res != NULL, "resolve failed")) {
            cJSON_ArrayForEach(item, typed) check_typed(res, item->string, item);
            cJSON_ArrayForEach(item, accessor) {
                const char *s = "unset";
                int rc = pathconfig_result_get_string(res, item->string, &s, NULL);
                if (cJSON_IsString(item))
                    CHECK(rc == PATHCONFIG_OK && s != NULL && strcmp(s, item->valuestring) == 0,
                          "get_string(%s) = %d %s, expected %s", item->string, rc, s ? s : "(null)", item->valuestring);
                else
                    CHECK(rc != PATHCONFIG_OK && s == NULL, "get_string(%s) = %d, expected no string", item->string, rc);
            }
            pathconfig_result_release(res);
        }
        if (cJSON_IsBool(rule_match)) {
            char *explain = pathconfig_explain(cfg, input, NULL, NULL);
            cJSON *e = explain ? cJSON_Parse(explain) : NULL;
            int matched = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(e, "rules")) > 0;
            CHECK(e != NULL && matched == cJSON_IsTrue(rule_match), "explain %s, expected rule match %d",
                  explain ? explain : "(null)", cJSON_IsTrue(rule_match));
            cJSON_Delete(e);
            pathconfig_string_free(explain);
        }
        pathconfig_release(cfg);
    }

    n = 0;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(root, "settings_cases")) {
        const char *profile = conformance_ios_profile(string_field(c, "library"));
        const char *fixture_name = string_field(c, "fixture");
        const char *source = string_field(c, "source");
        const char *note = string_field(c, "note");
        const cJSON *expected_error = cJSON_GetObjectItemCaseSensitive(c, "expected_error");
        const cJSON *rule_count = cJSON_GetObjectItemCaseSensitive(c, "expected_rule_count");
        pathconfig_error err;
        pathconfig *cfg;

        test_set_context("ios settings case %d: %s %s", n++, string_field(c, "library"), fixture_name);
        if (!CHECK(profile != NULL && fixture_name != NULL, "malformed case")) continue;
        cfg = conformance_load_fixture(cJSON_GetObjectItemCaseSensitive(fixtures, fixture_name), profile, -1, &err);
        cases++;
        if (expected_error != NULL && !cJSON_IsNull(expected_error)) {
            CHECK(cfg == NULL, "loaded, expected %s", cJSON_IsString(expected_error) ? expected_error->valuestring : "an error");
            CHECK(err.code == PATHCONFIG_E_JSON || err.code == PATHCONFIG_E_SCHEMA, "code %d (%s)", err.code, err.message);
            CHECK(err.line >= 1 && err.column >= 1, "no position: %d:%d", err.line, err.column);
            CHECK(err.message[0] != '\0', "empty message");
            pathconfig_release(cfg);
            continue;
        }
        if (!CHECK(cfg != NULL, "load failed: %s", err.message)) continue;
        {
            const char *settings = pathconfig_settings(cfg);
            CHECK(json_equals(settings, cJSON_GetObjectItemCaseSensitive(c, "expected_settings")), "settings %s",
                  settings ? settings : "(null)");
        }
        if (cJSON_IsNumber(rule_count)) {
            /* Decoder- and loader-level tests count the document's rules; the
             * others count what PathConfiguration holds, built-ins included. */
            int document_level = (note != NULL && (strstr(note, "decoder-level") || strstr(note, "loader-level"))) ||
                                 (source != NULL && strstr(source, "LoaderTests"));
            size_t count = document_level ? pathconfig_document_rule_count(cfg) : pathconfig_rule_count(cfg);
            CHECK(count == (size_t)rule_count->valueint, "%s rule count %zu, expected %d",
                  document_level ? "document" : "total", count, rule_count->valueint);
        }
        pathconfig_release(cfg);
    }
    cJSON_Delete(root);
    return cases;
}

/* Runs android.json; returns how many cases ran, *total the number in the file. */
static int run_android(const char *dir, int *total)
{
    cJSON *root = conformance_file(dir, "android.json");
    const cJSON *fixtures, *c;
    int cases = 0, n = 0;
    if (root == NULL) return 0;
    fixtures = cJSON_GetObjectItemCaseSensitive(root, "fixtures");
    *total = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(root, "cases"));

    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(root, "cases")) {
        const char *profile = conformance_android_profile(string_field(c, "implementation"));
        const char *fixture_name = string_field(c, "fixture");
        const char *input = string_field(c, "input");
        const char *kind = string_field(c, "kind");
        const cJSON *mqs = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(c, "options"), "matchQueryStrings");
        const cJSON *property = cJSON_GetObjectItemCaseSensitive(c, "expected_property");
        pathconfig_error err;
        pathconfig *cfg;

        test_set_context("android case %d: %s %s %s", n++, string_field(c, "implementation"), fixture_name,
                         input ? input : "(settings)");
        if (!CHECK(profile != NULL && fixture_name != NULL, "malformed case")) continue;
        cfg = conformance_load_fixture(cJSON_GetObjectItemCaseSensitive(fixtures, fixture_name), profile,
                           cJSON_IsBool(mqs) ? cJSON_IsTrue(mqs) : -1, &err);
        if (!CHECK(cfg != NULL, "load failed: %s", err.message)) continue;
        cases++;

        if (kind != NULL && strcmp(kind, "settings") == 0) {
            const cJSON *expected = cJSON_GetObjectItemCaseSensitive(c, "expected_setting");
            const char *assertion = string_field(expected, "assertion");
            const cJSON *value = cJSON_GetObjectItemCaseSensitive(expected, "value");
            const char *text = pathconfig_settings(cfg);
            cJSON *settings = text ? cJSON_Parse(text) : NULL;
            if (CHECK(settings != NULL && cJSON_IsObject(settings), "settings %s", text ? text : "(null)")) {
                if (assertion != NULL && strcmp(assertion, "size") == 0) {
                    CHECK(cJSON_GetArraySize(settings) == value->valueint, "settings size %d, expected %d",
                          cJSON_GetArraySize(settings), value->valueint);
                } else {
                    const char *key = string_field(expected, "key");
                    const cJSON *actual = cJSON_GetObjectItemCaseSensitive(settings, key);
                    if (cJSON_IsNull(value))
                        CHECK(actual == NULL, "setting %s present, expected absent", key);
                    else
                        CHECK(actual != NULL && cJSON_Compare(actual, value, 1), "setting %s = %s", key, show(actual));
                }
            }
            cJSON_Delete(settings);
            pathconfig_release(cfg);
            continue;
        }

        if (!CHECK(input != NULL, "case without input")) {
            pathconfig_release(cfg);
            continue;
        }
        check_resolution(cfg, input, cJSON_GetObjectItemCaseSensitive(c, "expected_properties"),
                         string_field(c, "matched_string"));

        if (cJSON_IsObject(property)) {
            const char *key = string_field(property, "key");
            const cJSON *value = cJSON_GetObjectItemCaseSensitive(property, "value");
            const cJSON *raw = cJSON_GetObjectItemCaseSensitive(property, "raw_value");
            pathconfig_result *res = pathconfig_resolve(cfg, input, NULL, NULL);
            if (CHECK(res != NULL && key != NULL, "resolve failed")) {
                const char *json = NULL;
                int rc = pathconfig_result_get_json(res, key, &json);
                if (typed_key(key) >= 0) {
                    check_typed(res, key, value);
                } else {
                    CHECK(rc == PATHCONFIG_OK && json_equals(json, value), "raw %s = %s", key, json ? json : "(null)");
                }
                if (raw == NULL || cJSON_IsNull(raw))
                    CHECK(rc == PATHCONFIG_NOT_FOUND || (json != NULL && strcmp(json, "null") == 0),
                          "raw %s = %s, expected absent", key, json ? json : "(null)");
                else
                    CHECK(rc == PATHCONFIG_OK && json_equals(json, raw), "raw %s = %s", key, json ? json : "(null)");
                pathconfig_result_release(res);
            }
        }
        pathconfig_release(cfg);
    }
    cJSON_Delete(root);
    return cases;
}

void run_conformance(const char *dir)
{
    int ios_total = -1, android_total = -1;
    int ios = run_ios(dir, &ios_total);
    int android = run_android(dir, &android_total);
    test_set_context("conformance");
    CHECK(ios > 0 && ios == ios_total, "ran %d of %d ios cases", ios, ios_total);
    CHECK(android > 0 && android == android_total, "ran %d of %d android cases", android, android_total);
    test_set_context("");
    printf("conformance: %d of %d ios cases, %d of %d android cases\n", ios, ios_total, android, android_total);
}
