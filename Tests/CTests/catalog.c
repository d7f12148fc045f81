/* What the library lists about itself (profiles, backends, typed keys, warning
 * kinds) and warnings as structs. Every check walks the library's own lists,
 * so a profile, key or kind added to the core is tested here without an edit:
 * each listed name must load, resolve or name what it says. */
#include "tests.h"

#include <cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOAD(text, options, err) pathconfig_load_json((text), strlen(text), (options), (err))
#define STATIC_CHECK(name, cond) typedef char static_check_##name[(cond) ? 1 : -1]

/* The layout libpathconfig writes (Sources/PathConfigurationC/Inspect.swift). */
STATIC_CHECK(warning_version, offsetof(pathconfig_warning, version) == 0);
STATIC_CHECK(warning_kind, offsetof(pathconfig_warning, kind) == 4);
STATIC_CHECK(warning_line, offsetof(pathconfig_warning, line) == 8);
STATIC_CHECK(warning_column, offsetof(pathconfig_warning, column) == 12);
STATIC_CHECK(warning_rule, offsetof(pathconfig_warning, rule_index) == 16);
STATIC_CHECK(warning_pattern, offsetof(pathconfig_warning, pattern_index) == 20);
STATIC_CHECK(warning_message, offsetof(pathconfig_warning, message) == 24);

const char *test_profile_of(const pathconfig *cfg)
{
    static char profile[64];
    cJSON *options = cJSON_Parse(test_show(pathconfig_options(cfg)));
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(options, "profile");
    snprintf(profile, sizeof profile, "%s", cJSON_IsString(name) ? name->valuestring : "");
    cJSON_Delete(options);
    return profile;
}

static int same(const char *a, const char *b)
{
    return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* Profiles: each listed name loads and is reported back; 0 is the default. */
static void test_profiles(void)
{
    size_t i, n = pathconfig_profile_count();
    pathconfig *cfg;

    test_set_context("profiles");
    CHECK(n >= 1, "profile count %zu", n);
    for (i = 0; i < n; i++) {
        const char *name = pathconfig_profile_name(i), *platform = pathconfig_profile_platform(i);
        char options[128];
        if (!CHECK(name != NULL && test_last_code() == 0, "profile %zu has a name", i)) continue;
        CHECK(platform != NULL && (strcmp(platform, "ios") == 0 || strcmp(platform, "android") == 0),
              "%s: platform %s", name, test_show(platform));
        CHECK(pathconfig_profile_name(i) == name, "%s: static (the same pointer each time)", name);
        snprintf(options, sizeof options, "{\"profile\": \"%s\"}", name);
        cfg = LOAD("{\"rules\": []}", options, NULL);
        CHECK(cfg != NULL && strcmp(test_profile_of(cfg), name) == 0, "%s loads and is reported back", name);
        pathconfig_release(cfg);
    }
    cfg = LOAD("{\"rules\": []}", NULL, NULL);
    CHECK(cfg != NULL && strcmp(test_profile_of(cfg), pathconfig_profile_name(0)) == 0, "profile 0 is the default");
    pathconfig_release(cfg);
    CHECK(pathconfig_profile_name(n) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "name past the end");
    CHECK(strstr(pathconfig_last_error()->message, "out of range") != NULL, "says why: %s", pathconfig_last_error()->message);
    CHECK(pathconfig_profile_platform(n) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "platform past the end");
    CHECK(pathconfig_profile_name((size_t)-1) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "SIZE_MAX");
}

/* Backends: each listed one loads; 0 is the default; "foundation" is not built in. */
static void test_backends(void)
{
    size_t i, n = pathconfig_backend_count();
    pathconfig_error err;

    test_set_context("backends");
    CHECK(n >= 1, "backend count %zu", n);
    for (i = 0; i < n; i++) {
        const char *name = pathconfig_backend_name(i);
        char options[128];
        pathconfig *cfg;
        if (!CHECK(name != NULL && test_last_code() == 0, "backend %zu has a name", i)) continue;
        CHECK(strcmp(name, "foundation") != 0, "the Foundation engine is never built in");
        snprintf(options, sizeof options, "{\"backend\": \"%s\"}", name);
        cfg = LOAD("{\"rules\": [{\"patterns\": [\"^/a\"], \"properties\": {\"k\": 1}}]}", options, &err);
        CHECK(cfg != NULL, "%s loads: %s", name, err.message);
        if (cfg) {
            char *props = test_properties(cfg, "/a");
            CHECK(props != NULL && strcmp(props, "{\"k\":1}") == 0, "%s matches", name);
            free(props);
        }
        pathconfig_release(cfg);
    }
    CHECK(strcmp(pathconfig_backend_name(0), "pcre2") == 0, "pcre2 is the default");
    CHECK(pathconfig_backend_name(n) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "past the end");
    CHECK(LOAD("{\"rules\": []}", "{\"backend\": \"foundation\"}", &err) == NULL && err.code == PATHCONFIG_E_BACKEND,
          "a backend not built in: %s", err.message);
}

/* One typed key under one profile: the default on an empty result, and every
 * allowed value (or the other boolean) read back from a document that sets it. */
static void check_key(int key, const char *profile)
{
    const char *name = pathconfig_typed_key_name(key);
    int kind = pathconfig_typed_key_kind(key);
    size_t j, values = pathconfig_typed_key_value_count(key, profile);
    char options[128], doc[512];
    pathconfig *cfg;
    pathconfig_result *res;

    snprintf(options, sizeof options, "{\"profile\": \"%s\"}", profile);
    cfg = LOAD("{\"rules\": []}", options, NULL);
    res = pathconfig_resolve(cfg, "/nothing", NULL, NULL);
    if (!CHECK(res != NULL, "%s: setup", profile)) return;
    if (kind == PATHCONFIG_TYPED_BOOL) {
        int def = pathconfig_typed_key_default_bool(key, profile);
        CHECK(def == 0 || def == 1, "%s %s: default %d", profile, name, def);
        CHECK(pathconfig_result_typed_bool(res, key) == def, "%s %s: the result gives the default", profile, name);
        CHECK(values == 0 && test_last_code() == 0, "%s %s: no values", profile, name);
        CHECK(pathconfig_typed_key_default_string(key, profile) == NULL && test_last_code() == PATHCONFIG_E_TYPE,
              "%s: default_string of a bool key", name);
        CHECK(pathconfig_result_typed_string(res, key) == NULL && test_last_code() == PATHCONFIG_E_TYPE,
              "%s: typed_string of a bool key", name);
        pathconfig_result_release(res);
        pathconfig_release(cfg);
        snprintf(doc, sizeof doc, "{\"rules\": [{\"patterns\": [\".*\"], \"properties\": {\"%s\": %s}}]}", name,
                 def ? "false" : "true");
        cfg = LOAD(doc, options, NULL);
        res = pathconfig_resolve(cfg, "/x", NULL, NULL);
        CHECK(pathconfig_result_typed_bool(res, key) == !def, "%s %s: the other value reads back", profile, name);
    } else {
        const char *def = pathconfig_typed_key_default_string(key, profile);
        int def_code = test_last_code();
        CHECK(kind == PATHCONFIG_TYPED_STRING || kind == PATHCONFIG_TYPED_ENUM, "%s: kind %d", name, kind);
        CHECK(def_code == 0, "%s %s: default without error", profile, name);
        CHECK(same(pathconfig_result_typed_string(res, key), def), "%s %s: the result gives the default %s", profile,
              name, test_show(def));
        CHECK(pathconfig_typed_key_default_bool(key, profile) == 0 && test_last_code() == PATHCONFIG_E_TYPE,
              "%s: default_bool of a string key: 0, E_TYPE", name);
        CHECK(pathconfig_result_typed_bool(res, key) == 0 && test_last_code() == PATHCONFIG_E_TYPE, "%s: typed_bool of a string key",
              name);
        CHECK((kind == PATHCONFIG_TYPED_ENUM) == (values > 0), "%s %s: values only for an enum (%zu)", profile, name, values);
        if (kind == PATHCONFIG_TYPED_ENUM) {
            int listed = 0;
            for (j = 0; j < values; j++) listed |= same(pathconfig_typed_key_value(key, profile, j), def);
            CHECK(def != NULL && listed, "%s %s: the default %s is an allowed value", profile, name, test_show(def));
        }
        pathconfig_result_release(res);
        pathconfig_release(cfg);
        /* Each allowed value in a rule of its own, read back through its path. */
        for (j = 0; j < values; j++) {
            const char *value = pathconfig_typed_key_value(key, profile, j);
            snprintf(doc, sizeof doc, "{\"rules\": [{\"patterns\": [\".*\"], \"properties\": {\"%s\": \"%s\"}}]}", name, value);
            cfg = LOAD(doc, options, NULL);
            res = pathconfig_resolve(cfg, "/x", NULL, NULL);
            CHECK(same(pathconfig_result_typed_string(res, key), value), "%s %s = %s reads back", profile, name, value);
            pathconfig_result_release(res);
            pathconfig_release(cfg);
        }
        CHECK(pathconfig_typed_key_value(key, profile, values) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT,
              "%s %s: value past the end", profile, name);
        cfg = NULL;
        res = NULL;
    }
    pathconfig_result_release(res);
    pathconfig_release(cfg);
}

static void test_typed_keys(void)
{
    /* The header's constants and the names the catalog gives them: the
     * constant is the key's index in the catalog. */
    static const struct { int key; const char *name; } constants[] = {
        { PATHCONFIG_KEY_CONTEXT, "context" },
        { PATHCONFIG_KEY_PRESENTATION, "presentation" },
        { PATHCONFIG_KEY_MODAL_STYLE, "modal_style" },
        { PATHCONFIG_KEY_QUERY_STRING_PRESENTATION, "query_string_presentation" },
        { PATHCONFIG_KEY_VIEW_CONTROLLER, "view_controller" },
        { PATHCONFIG_KEY_TITLE, "title" },
        { PATHCONFIG_KEY_URI, "uri" },
        { PATHCONFIG_KEY_FALLBACK_URI, "fallback_uri" },
        { PATHCONFIG_KEY_PULL_TO_REFRESH_ENABLED, "pull_to_refresh_enabled" },
        { PATHCONFIG_KEY_MODAL_DISMISS_GESTURE_ENABLED, "modal_dismiss_gesture_enabled" },
        { PATHCONFIG_KEY_ANIMATED, "animated" },
        { PATHCONFIG_KEY_HISTORICAL_LOCATION, "historical_location" },
    };
    int key, n = (int)pathconfig_typed_key_count();
    size_t c, p;
    pathconfig *cfg = LOAD("{\"rules\": []}", NULL, NULL);
    pathconfig_result *res = pathconfig_resolve(cfg, "/x", NULL, NULL);

    test_set_context("typed keys");
    CHECK(n >= 1, "typed key count %d", n);
    for (c = 0; c < sizeof constants / sizeof constants[0]; c++)
        CHECK(same(pathconfig_typed_key_name(constants[c].key), constants[c].name), "PATHCONFIG_KEY_ %d names %s, not %s",
              constants[c].key, test_show(pathconfig_typed_key_name(constants[c].key)), constants[c].name);
    CHECK(n == (int)(sizeof constants / sizeof constants[0]), "%d keys in the catalog, the header has a constant for each", n);
    for (key = 0; key < n; key++) {
        const char *name = pathconfig_typed_key_name(key);
        if (!CHECK(name != NULL && test_last_code() == 0, "key %d has a name", key)) continue;
        CHECK(pathconfig_typed_key_kind(key) > 0, "%s has a kind", name);
        for (p = 0; p < pathconfig_profile_count(); p++) check_key(key, pathconfig_profile_name(p));
    }
    {
        /* Keys out of range: the first past the end, negative, huge. */
        const int unknown[] = { n, -1, INT_MAX, INT_MIN };
        for (c = 0; c < sizeof unknown / sizeof unknown[0]; c++) {
            key = unknown[c];
            CHECK(pathconfig_typed_key_name(key) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "name of %d", key);
            CHECK(pathconfig_typed_key_kind(key) == 0 && test_last_code() == PATHCONFIG_E_ARGUMENT, "kind of %d: 0", key);
            CHECK(pathconfig_typed_key_value_count(key, "hotwire-ios") == 0 && test_last_code() == PATHCONFIG_E_ARGUMENT,
                  "value count of %d", key);
            CHECK(pathconfig_typed_key_value(key, "hotwire-ios", 0) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT,
                  "value of %d", key);
            CHECK(pathconfig_typed_key_default_bool(key, "hotwire-ios") == 0 && test_last_code() == PATHCONFIG_E_ARGUMENT,
                  "default_bool of %d: 0", key);
            CHECK(pathconfig_typed_key_default_string(key, "hotwire-ios") == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT,
                  "default_string of %d", key);
            CHECK(pathconfig_result_typed_string(res, key) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT,
                  "typed_string of %d", key);
            CHECK(pathconfig_result_typed_bool(res, key) == 0 && test_last_code() == PATHCONFIG_E_ARGUMENT, "typed_bool of %d", key);
        }
    }
    CHECK(pathconfig_typed_key_value_count(0, NULL) == 0 && test_last_code() == PATHCONFIG_E_ARGUMENT, "NULL profile");
    CHECK(pathconfig_typed_key_default_bool(PATHCONFIG_KEY_ANIMATED, "nowhere") == 0 && test_last_code() == PATHCONFIG_E_ARGUMENT,
          "default_bool of an unknown profile: 0");
    CHECK(pathconfig_typed_key_default_string(0, "ios") == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT,
          "a platform is not a profile");
    CHECK(strstr(pathconfig_last_error()->message, "unknown profile") != NULL, "says why: %s", pathconfig_last_error()->message);
    CHECK(pathconfig_typed_key_value(0, "hotwire-ios\xff", 0) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "not UTF-8");
    pathconfig_result_release(res);
    pathconfig_release(cfg);
}

/* Warnings as structs. The document produces one warning of each kind:
 * ignored settings, a skipped pattern, a duplicate key, and "globs" (a
 * Siesta key) under the default mobile profile; each is where the document
 * says, in document order. */
static void test_warning_structs(void)
{
    static const char doc[] =
        "{\"settings\": [1],\n"
        " \"rules\": [{\"patterns\": [\"([\", \"^/a\"], \"properties\": {\"k\": 1, \"k\": 2}},\n"
        "           {\"patterns\": [\"^/b\"], \"globs\": [\"/b/**\"], \"properties\": {}}]}";
    /* kind: line, column (of the offending value or key), rule, pattern. */
    static const struct { int kind, line, column, rule, pattern; } expected[] = {
        { PATHCONFIG_WARNING_IGNORED_SETTINGS, 1, 14, -1, -1 },
        { PATHCONFIG_WARNING_SKIPPED_PATTERN, 2, 26, 0, 0 },
        { PATHCONFIG_WARNING_DUPLICATE_KEY, 2, 63, 0, -1 },
        { PATHCONFIG_WARNING_NOT_PORTABLE, 3, 43, 1, -1 },
    };
    pathconfig *cfg = LOAD(doc, "{\"lenient\": true}", NULL);
    pathconfig_warning w;
    size_t i, e, n = pathconfig_warning_count(cfg);
    int k, kinds = 0, seen = 0;

    test_set_context("warning structs");
    if (!CHECK(cfg != NULL, "setup")) return;
    CHECK(n == 4, "%zu warnings", n);
    for (i = 0; i < n; i++) {
        const char *message;
        memset(&w, 0x5A, sizeof w);
        w.version = PATHCONFIG_WARNING_VERSION;
        if (!CHECK(pathconfig_warning_get(cfg, i, &w) == PATHCONFIG_OK && test_last_code() == 0, "get %zu", i)) continue;
        CHECK(w.version == PATHCONFIG_WARNING_VERSION, "version %d", w.version);
        CHECK(pathconfig_warning_kind_name(w.kind) != NULL, "%zu: kind %d has a name", i, w.kind);
        CHECK(w.message != NULL && w.message[0] != '\0', "%zu: a message", i);
        for (e = 0; e < sizeof expected / sizeof expected[0] && expected[e].kind != w.kind; e++) {}
        if (CHECK(e < sizeof expected / sizeof expected[0], "%zu: unexpected kind %d", i, w.kind))
            CHECK(w.line == expected[e].line && w.column == expected[e].column && w.rule_index == expected[e].rule &&
                      w.pattern_index == expected[e].pattern,
                  "%s: at %d:%d rule %d pattern %d, expected %d:%d rule %d pattern %d (%s)", pathconfig_warning_kind_name(w.kind),
                  w.line, w.column, w.rule_index, w.pattern_index, expected[e].line, expected[e].column, expected[e].rule,
                  expected[e].pattern, w.message);
        seen |= 1 << w.kind;
        message = w.message;
        w.version = 1000; /* a newer caller gets what this library has */
        CHECK(pathconfig_warning_get(cfg, i, &w) == PATHCONFIG_OK && w.version == PATHCONFIG_WARNING_VERSION && w.message == message,
              "%zu: filled again, the message borrowed from cfg (the same pointer)", i);
    }
    /* The header's constants name the kinds the library names. */
    CHECK(same(pathconfig_warning_kind_name(PATHCONFIG_WARNING_DUPLICATE_KEY), "duplicate-key"), "DUPLICATE_KEY");
    CHECK(same(pathconfig_warning_kind_name(PATHCONFIG_WARNING_SKIPPED_PATTERN), "skipped-pattern"), "SKIPPED_PATTERN");
    CHECK(same(pathconfig_warning_kind_name(PATHCONFIG_WARNING_IGNORED_SETTINGS), "ignored-settings"), "IGNORED_SETTINGS");
    CHECK(same(pathconfig_warning_kind_name(PATHCONFIG_WARNING_NOT_PORTABLE), "not-portable"), "NOT_PORTABLE");
    for (k = 1; pathconfig_warning_kind_name(k) != NULL; k++) kinds |= 1 << k;
    CHECK(test_last_code() == PATHCONFIG_E_ARGUMENT && k > 1, "the list ends with NULL and PATHCONFIG_E_ARGUMENT");
    CHECK(seen == kinds, "the document produced every kind the library lists (%#x of %#x)", seen, kinds);
    CHECK(pathconfig_warning_kind_name(0) == NULL && pathconfig_warning_kind_name(-1) == NULL, "no kind 0 or below");

    memset(&w, 0x5A, sizeof w);
    w.version = 0;
    CHECK(pathconfig_warning_get(cfg, 0, &w) == PATHCONFIG_E_ARGUMENT && w.kind == 0x5A5A5A5A && test_last_code() == PATHCONFIG_E_ARGUMENT,
          "version 0: refused (a positive code), untouched");
    w.version = PATHCONFIG_WARNING_VERSION;
    CHECK(pathconfig_warning_get(cfg, n, &w) == PATHCONFIG_E_ARGUMENT && w.kind == 0x5A5A5A5A, "past the end: untouched");
    CHECK(pathconfig_warning_get(cfg, 0, NULL) == PATHCONFIG_E_ARGUMENT, "out NULL");
    CHECK(pathconfig_warning_get(NULL, 0, &w) == PATHCONFIG_E_ARGUMENT, "cfg NULL");
    CHECK(pathconfig_warning_count(NULL) == 0 && test_last_code() == PATHCONFIG_E_ARGUMENT, "count of NULL");

    /* Another reference to the same configuration reads the same warnings. */
    {
        pathconfig *other = pathconfig_retain(cfg);
        pathconfig_release(cfg);
        w.version = PATHCONFIG_WARNING_VERSION;
        CHECK(pathconfig_warning_get(other, 0, &w) == PATHCONFIG_OK && strlen(w.message) > 0, "through another reference");
        pathconfig_release(other);
    }
    cfg = LOAD("{\"rules\": []}", NULL, NULL);
    CHECK(pathconfig_warning_count(cfg) == 0 && test_last_code() == 0, "no warnings: 0, no error");
    CHECK(pathconfig_warning_get(cfg, 0, &w) == PATHCONFIG_E_ARGUMENT, "nothing to get");
    pathconfig_release(cfg);
}

void run_catalog_tests(void)
{
    test_profiles();
    test_backends();
    test_typed_keys();
    test_warning_structs();
    test_set_context("");
}
