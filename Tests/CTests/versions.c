/* App versions (1.1.0): profiles named "APP@VERSION", the release lines the
 * catalog lists, and typed reads the profile's app crashes on
 * (PATHCONFIG_E_CRASH). docs/app-versions.md describes them. The release
 * checks walk the library's own lists, so a release line added to the core
 * is tested here without an edit. */
#include "tests.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOAD(text, options, err) pathconfig_load_json((text), strlen(text), (options), (err))

/* "{"profile": "NAME"}" in a static buffer. */
static const char *profile_option(const char *name)
{
    static char options[160];
    snprintf(options, sizeof options, "{\"profile\": \"%s\"}", name);
    return options;
}

/* One typed read as text, for comparing two configurations' answers: the
 * value, or "crash:CODE" where it fails (the last error's code). */
static void typed_text(const pathconfig_result *res, int key, char *out, size_t size)
{
    if (pathconfig_typed_key_kind(key) == PATHCONFIG_TYPED_BOOL) {
        int b = pathconfig_result_typed_bool(res, key);
        if (test_last_code() != 0) snprintf(out, size, "error:%d", test_last_code());
        else snprintf(out, size, "%d", b);
    } else {
        const char *s = pathconfig_result_typed_string(res, key);
        if (test_last_code() != 0) snprintf(out, size, "error:%d", test_last_code());
        else snprintf(out, size, "%s", test_show(s));
    }
}

/* hotwire-ios@1.2.2 matches url.path (decoded, the trailing slash dropped),
 * hotwire-ios@main the percent-encoded path with its slash; the bare name is
 * the latest stable release; pathconfig_options reports the name as given. */
static void test_versioned_profiles(void)
{
    static const char doc[] = "{\"rules\":[{\"patterns\":[\"/numbers$\"],\"properties\":{\"view_controller\":\"numbers\"}}]}";
    static const char url[] = "https://hotwire-native-demo.dev/numbers/";
    static const struct { const char *profile, *numbers, *matched_cafe; } cases[] = {
        { "hotwire-ios@1.2.2", "{\"view_controller\":\"numbers\"}", "/caf\xc3\xa9" },
        { "hotwire-ios@main", "{}", "/caf%C3%A9" },
        { "hotwire-ios", "{\"view_controller\":\"numbers\"}", "/caf\xc3\xa9" },
        { "hotwire-ios@1.0.0", "{\"view_controller\":\"numbers\"}", "/caf\xc3\xa9" },
    };
    pathconfig_error err;
    size_t c;

    test_set_context("versioned profiles");
    for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        pathconfig *cfg = LOAD(doc, profile_option(cases[c].profile), &err);
        char *props, *matched;
        pathconfig_result *res;
        if (!CHECK(cfg != NULL, "%s loads: %s", cases[c].profile, err.message)) continue;
        CHECK(strcmp(test_profile_of(cfg), cases[c].profile) == 0, "pathconfig_options reports %s as given: %s", cases[c].profile,
              pathconfig_options(cfg));
        props = test_properties(cfg, url);
        CHECK(props != NULL && strcmp(props, cases[c].numbers) == 0, "%s: %s is %s, expected %s", cases[c].profile, url,
              test_show(props), cases[c].numbers);
        free(props);
        res = pathconfig_resolve(cfg, url, NULL, NULL);
        CHECK(res != NULL && strcmp(test_show(pathconfig_result_typed_string(res, PATHCONFIG_KEY_VIEW_CONTROLLER)),
                                    strcmp(cases[c].numbers, "{}") == 0 ? "web" : "numbers") == 0,
              "%s: typed view_controller", cases[c].profile);
        pathconfig_result_release(res);
        matched = pathconfig_matched_string(cfg, "https://x.dev/caf%C3%A9", NULL);
        CHECK(matched != NULL && strcmp(matched, cases[c].matched_cafe) == 0, "%s: matched string %s, expected %s", cases[c].profile,
              test_show(matched), cases[c].matched_cafe);
        pathconfig_string_free(matched);
        pathconfig_release(cfg);
    }
    /* The versioned name round-trips through pathconfig_options. */
    {
        pathconfig *cfg = LOAD(doc, profile_option("hotwire-android@1.1.3"), &err), *again;
        char *copy;
        if (!CHECK(cfg != NULL, "hotwire-android@1.1.3 loads: %s", err.message)) return;
        copy = strdup(pathconfig_options(cfg));
        again = LOAD(doc, copy, &err);
        CHECK(again != NULL && strcmp(pathconfig_options(again), copy) == 0 &&
                  strcmp(test_profile_of(again), "hotwire-android@1.1.3") == 0,
              "options %s load again: %s", copy, again ? pathconfig_options(again) : err.message);
        free(copy);
        pathconfig_release(again);
        pathconfig_release(cfg);
    }
}

/* A version that is not a release of the app is PATHCONFIG_E_OPTIONS, its
 * message listing the app's releases. */
static void test_unknown_versions(void)
{
    static const char *const bad[] = { "hotwire-ios@1.4.0", "hotwire-ios@9", "hotwire-android@1.1.9", "siesta@2.0.0",
                                       "turbo-ios@latest" };
    pathconfig_error err;
    size_t i;

    test_set_context("unknown versions");
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pathconfig *cfg = LOAD("{\"rules\": []}", profile_option(bad[i]), &err);
        const char *version = strchr(bad[i], '@') + 1;
        CHECK(cfg == NULL && err.code == PATHCONFIG_E_OPTIONS, "%s: code %d %s", bad[i], err.code, err.message);
        CHECK(strstr(err.message, version) != NULL && strstr(err.message, "releases") != NULL && strstr(err.message, "main") != NULL,
              "%s: the message names the version and lists the releases: %s", bad[i], err.message);
        pathconfig_release(cfg);
    }
    {
        pathconfig *cfg = LOAD("{\"rules\": []}", profile_option("hotwire-ios@1.4.0"), &err);
        CHECK(cfg == NULL && strstr(err.message, "1.0.0") != NULL && strstr(err.message, "1.2.2") != NULL &&
                  strstr(err.message, "1.3.0-beta") != NULL,
              "hotwire-ios's releases listed: %s", err.message);
        pathconfig_release(cfg);
        cfg = LOAD("{\"rules\": []}", profile_option("nowhere@1.0.0"), &err);
        CHECK(cfg == NULL && err.code == PATHCONFIG_E_OPTIONS, "an unknown app with a version: %d %s", err.code, err.message);
        pathconfig_release(cfg);
    }
    /* The catalog's functions that take a profile: a versioned name is the
     * app's; an unknown version is PATHCONFIG_E_ARGUMENT. */
    CHECK(pathconfig_typed_key_default_bool(PATHCONFIG_KEY_ANIMATED, "hotwire-android@1.1.3") ==
                  pathconfig_typed_key_default_bool(PATHCONFIG_KEY_ANIMATED, "hotwire-android") &&
              test_last_code() == PATHCONFIG_OK,
          "default_bool under hotwire-android@1.1.3");
    CHECK(strcmp(test_show(pathconfig_typed_key_default_string(PATHCONFIG_KEY_VIEW_CONTROLLER, "hotwire-ios@main")), "web") == 0 &&
              test_last_code() == PATHCONFIG_OK,
          "default_string under hotwire-ios@main");
    CHECK(pathconfig_typed_key_value_count(PATHCONFIG_KEY_PRESENTATION, "hotwire-android@1.2.0") ==
              pathconfig_typed_key_value_count(PATHCONFIG_KEY_PRESENTATION, "hotwire-android"),
          "value_count under hotwire-android@1.2.0");
    CHECK(pathconfig_typed_key_value_count(PATHCONFIG_KEY_PRESENTATION, "hotwire-ios@1.4.0") == 0 &&
              test_last_code() == PATHCONFIG_E_ARGUMENT,
          "an unknown version in the catalog: E_ARGUMENT");
    CHECK(strstr(pathconfig_last_error()->message, "1.4.0") != NULL, "says which: %s", pathconfig_last_error()->message);
}

/* hotwire-android 1.2 and later read booleans with `as Boolean`: a string or
 * a number throws ClassCastException where the app reads the key, so
 * typed_bool is 0 with PATHCONFIG_E_CRASH, every time; string keys read
 * Java's toString(). turbo-android's missing "uri" is Uri.parse(null). */
static void test_crashes(void)
{
    static const char doc[] =
        "{\"rules\": ["
        "{\"patterns\": [\"^/string$\"], \"properties\": {\"pull_to_refresh_enabled\": \"true\", \"animated\": false,"
        " \"context\": \"modal\"}},"
        "{\"patterns\": [\"^/number$\"], \"properties\": {\"pull_to_refresh_enabled\": 1, \"title\": 5}},"
        "{\"patterns\": [\"^/double$\"], \"properties\": {\"title\": 5.0}},"
        "{\"patterns\": [\"^/huge$\"], \"properties\": {\"title\": 12345678901234567890}},"
        "{\"patterns\": [\"^/bool$\"], \"properties\": {\"pull_to_refresh_enabled\": true, \"uri\": \"app://x\"}}"
        "]}";
    static const char crash_message[] =
        "the app crashes reading \"pull_to_refresh_enabled\": java.lang.ClassCastException: java.lang.String cannot be cast to "
        "java.lang.Boolean";
    static const struct { const char *path, *title; } titles[] = {
        { "/number", "5" }, { "/double", "5.0" }, { "/huge", "1.2345678901234567E19" } };
    pathconfig_error err;
    pathconfig *android = LOAD(doc, profile_option("hotwire-android"), &err), *turbo;
    pathconfig_result *res, *other;
    const char *s;
    int round;
    size_t t;

    test_set_context("typed reads that crash the app");
    if (!CHECK(android != NULL, "setup: %s", err.message)) return;
    CHECK(strcmp(pathconfig_error_name(PATHCONFIG_E_CRASH), "PATHCONFIG_E_CRASH") == 0 && PATHCONFIG_E_CRASH == 17, "the code");

    res = pathconfig_resolve(android, "https://example.com/string", NULL, &err);
    if (!CHECK(res != NULL, "resolve: %s", err.message)) {
        pathconfig_release(android);
        return;
    }
    /* Each read crashes again: nothing is remembered as a value. */
    for (round = 0; round < 3; round++) {
        CHECK(pathconfig_result_typed_bool(res, PATHCONFIG_KEY_PULL_TO_REFRESH_ENABLED) == 0 && test_last_code() == PATHCONFIG_E_CRASH,
              "round %d: \"true\" as a boolean: 0, E_CRASH (%d)", round, test_last_code());
        CHECK(strcmp(pathconfig_last_error()->message, crash_message) == 0, "the message: %s", pathconfig_last_error()->message);
        CHECK(pathconfig_last_error()->line == 0 && pathconfig_last_error()->rule_index == -1, "no position, no rule");
        /* The keys the app reads without crashing answer, and clear the error. */
        CHECK(pathconfig_result_typed_bool(res, PATHCONFIG_KEY_ANIMATED) == 0 && test_last_code() == PATHCONFIG_OK, "animated false");
        CHECK(pathconfig_result_typed_bool(res, PATHCONFIG_KEY_MODAL_DISMISS_GESTURE_ENABLED) == 1 && test_last_code() == PATHCONFIG_OK,
              "a missing boolean: the default");
        s = pathconfig_result_typed_string(res, PATHCONFIG_KEY_CONTEXT);
        CHECK(s != NULL && strcmp(s, "modal") == 0 && test_last_code() == PATHCONFIG_OK, "context");
    }
    /* The raw value is there, as the file wrote it. */
    CHECK(pathconfig_result_get_string(res, "pull_to_refresh_enabled", &s, NULL) == PATHCONFIG_OK && strcmp(s, "true") == 0, "raw");
    /* Another result of the same answer crashes alike. */
    other = pathconfig_resolve(android, "https://example.org/string#f", NULL, NULL);
    CHECK(other != NULL && pathconfig_result_typed_bool(other, PATHCONFIG_KEY_PULL_TO_REFRESH_ENABLED) == 0 &&
              test_last_code() == PATHCONFIG_E_CRASH,
          "another result of the answer");
    pathconfig_result_release(other);
    pathconfig_result_release(res);

    res = pathconfig_resolve(android, "https://example.com/number", NULL, NULL);
    CHECK(pathconfig_result_typed_bool(res, PATHCONFIG_KEY_PULL_TO_REFRESH_ENABLED) == 0 && test_last_code() == PATHCONFIG_E_CRASH,
          "a number as a boolean: E_CRASH");
    CHECK(strstr(pathconfig_last_error()->message, "java.lang.ClassCastException") != NULL &&
              strstr(pathconfig_last_error()->message, "\"pull_to_refresh_enabled\"") != NULL,
          "names the exception and the key: %s", pathconfig_last_error()->message);
    pathconfig_result_release(res);

    res = pathconfig_resolve(android, "https://example.com/bool", NULL, NULL);
    CHECK(pathconfig_result_typed_bool(res, PATHCONFIG_KEY_PULL_TO_REFRESH_ENABLED) == 1 && test_last_code() == PATHCONFIG_OK,
          "a JSON boolean reads");
    pathconfig_result_release(res);

    /* String keys read Java's toString() of what Gson kept. */
    for (t = 0; t < sizeof titles / sizeof titles[0]; t++) {
        res = pathconfig_resolve(android, titles[t].path, NULL, NULL);
        s = pathconfig_result_typed_string(res, PATHCONFIG_KEY_TITLE);
        CHECK(s != NULL && strcmp(s, titles[t].title) == 0 && test_last_code() == PATHCONFIG_OK, "%s: title %s, expected %s",
              titles[t].path, test_show(s), titles[t].title);
        pathconfig_result_release(res);
    }
    pathconfig_release(android);

    /* turbo-android: a missing "uri" is Uri.parse(null). */
    turbo = LOAD(doc, profile_option("turbo-android"), &err);
    if (!CHECK(turbo != NULL, "turbo-android: %s", err.message)) return;
    res = pathconfig_resolve(turbo, "/nothing", NULL, NULL);
    CHECK(pathconfig_result_typed_string(res, PATHCONFIG_KEY_URI) == NULL && test_last_code() == PATHCONFIG_E_CRASH,
          "turbo-android's missing uri: NULL, E_CRASH (%d)", test_last_code());
    CHECK(strstr(pathconfig_last_error()->message, "\"uri\"") != NULL &&
              strstr(pathconfig_last_error()->message, "java.lang.NullPointerException") != NULL,
          "the message: %s", pathconfig_last_error()->message);
    CHECK(pathconfig_result_typed_string(res, PATHCONFIG_KEY_FALLBACK_URI) == NULL && test_last_code() == PATHCONFIG_OK,
          "fallback_uri: none, no error");
    pathconfig_result_release(res);
    res = pathconfig_resolve(turbo, "/bool", NULL, NULL);
    s = pathconfig_result_typed_string(res, PATHCONFIG_KEY_URI);
    CHECK(s != NULL && strcmp(s, "app://x") == 0 && test_last_code() == PATHCONFIG_OK, "a uri given reads");
    pathconfig_result_release(res);
    /* turbo-android keeps every value as a string: "true" is toBoolean(). */
    res = pathconfig_resolve(turbo, "/string", NULL, NULL);
    CHECK(pathconfig_result_typed_bool(res, PATHCONFIG_KEY_PULL_TO_REFRESH_ENABLED) == 1 && test_last_code() == PATHCONFIG_OK,
          "turbo-android reads \"true\" as true");
    pathconfig_result_release(res);
    pathconfig_release(turbo);

    /* iOS never crashes: a string is not a boolean there, the default applies. */
    android = LOAD(doc, profile_option("hotwire-ios"), &err);
    res = pathconfig_resolve(android, "/string", NULL, NULL);
    CHECK(pathconfig_result_typed_bool(res, PATHCONFIG_KEY_PULL_TO_REFRESH_ENABLED) == 1 && test_last_code() == PATHCONFIG_OK,
          "hotwire-ios: \"true\" is no boolean, the default");
    pathconfig_result_release(res);
    pathconfig_release(android);
}

/* Before 1.2, hotwire-android keeps every value as a string: booleans read
 * with toBoolean(), so "true" is 1 and a number is 0, never a crash. */
static void test_android_strings(void)
{
    static const char doc[] =
        "{\"rules\": ["
        "{\"patterns\": [\"^/string$\"], \"properties\": {\"pull_to_refresh_enabled\": \"true\", \"animated\": \"FALSE\","
        " \"title\": 5}},"
        "{\"patterns\": [\"^/upper$\"], \"properties\": {\"pull_to_refresh_enabled\": \"TRUE\", \"title\": 12345678901234567890}},"
        "{\"patterns\": [\"^/number$\"], \"properties\": {\"pull_to_refresh_enabled\": 1, \"title\": 5.0}}"
        "]}";
    static const struct { const char *path; int pull; const char *title; } cases[] = {
        { "/string", 1, "5" }, { "/upper", 1, "12345678901234567890" }, { "/number", 0, "5.0" } };
    pathconfig_error err;
    pathconfig *cfg = LOAD(doc, profile_option("hotwire-android@1.1.3"), &err);
    size_t c;

    test_set_context("hotwire-android@1.1.3 reads strings");
    if (!CHECK(cfg != NULL, "setup: %s", err.message)) return;
    for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        pathconfig_result *res = pathconfig_resolve(cfg, cases[c].path, NULL, NULL);
        const char *title;
        CHECK(pathconfig_result_typed_bool(res, PATHCONFIG_KEY_PULL_TO_REFRESH_ENABLED) == cases[c].pull &&
                  test_last_code() == PATHCONFIG_OK,
              "%s: pull_to_refresh_enabled %d, no crash (%d)", cases[c].path, cases[c].pull, test_last_code());
        title = pathconfig_result_typed_string(res, PATHCONFIG_KEY_TITLE);
        CHECK(title != NULL && strcmp(title, cases[c].title) == 0, "%s: title %s, expected %s", cases[c].path, test_show(title),
              cases[c].title);
        if (c == 0)
            CHECK(pathconfig_result_typed_bool(res, PATHCONFIG_KEY_ANIMATED) == 0 && test_last_code() == PATHCONFIG_OK,
                  "\"FALSE\" is false");
        pathconfig_result_release(res);
    }
    pathconfig_release(cfg);
}

/* The catalog's release lines: every name loads as a profile and is reported
 * back; tags and commits are there; indices out of range are
 * PATHCONFIG_E_ARGUMENT (NULL) or 0; the default release is the line the
 * bare name reads as. */
static void test_release_catalog(void)
{
    static const char doc[] =
        "{\"rules\": [{\"patterns\": [\"/numbers$\", \"^/caf\xc3\xa9$\"], \"properties\": {\"view_controller\": \"numbers\"}},"
        " {\"patterns\": [\"/flags$\"], \"properties\": {\"pull_to_refresh_enabled\": \"true\", \"animated\": 0, \"title\": 5.0}}]}";
    static const char *const urls[] = { "https://x.dev/numbers/", "https://x.dev/caf%C3%A9", "https://x.dev/flags",
                                        "https://x.dev/recede_historical_location", "https://x.dev/a?b=1", "/nothing" };
    size_t i, j, n = pathconfig_profile_count();
    pathconfig_error err;

    test_set_context("release catalog");
    for (i = 0; i < n; i++) {
        const char *profile = pathconfig_profile_name(i);
        size_t count = pathconfig_profile_release_count(i), def = pathconfig_profile_default_release(i), prefix = strlen(profile);
        int main_seen = 0;
        CHECK(count >= 1 && test_last_code() == PATHCONFIG_OK, "%s: %zu release lines", profile, count);
        CHECK(def < count, "%s: default release %zu of %zu", profile, def, count);
        for (j = 0; j < count; j++) {
            const char *name = pathconfig_profile_release_name(i, j), *tags = pathconfig_profile_release_tags(i, j),
                       *commit = pathconfig_profile_release_commit(i, j);
            const char *version;
            pathconfig *cfg;
            if (!CHECK(name != NULL && tags != NULL && commit != NULL && test_last_code() == PATHCONFIG_OK, "%s: release %zu",
                       profile, j))
                continue;
            CHECK(pathconfig_profile_release_name(i, j) == name && pathconfig_profile_release_tags(i, j) == tags &&
                      pathconfig_profile_release_commit(i, j) == commit,
                  "%s: static (the same pointers each time)", name);
            CHECK(strncmp(name, profile, prefix) == 0 && name[prefix] == '@' && name[prefix + 1] != '\0', "%s is %s@VERSION", name,
                  profile);
            CHECK(commit[0] != '\0', "%s: commit %s", name, commit);
            version = name + prefix + 1;
            if (strcmp(version, "main") == 0) {
                main_seen = 1;
                CHECK(tags[0] == '\0', "%s: no tags (%s)", name, tags);
                CHECK(j == count - 1, "%s: the main branch is last (%zu of %zu)", name, j, count);
            } else {
                size_t len = strlen(version);
                /* The line's first tag names it; tags are separated by single spaces. */
                CHECK(strncmp(tags, version, len) == 0 && (tags[len] == '\0' || tags[len] == ' '), "%s: tags %s start with %s", name,
                      tags, version);
                CHECK(strstr(tags, "  ") == NULL && tags[strlen(tags) - 1] != ' ', "%s: single spaces in \"%s\"", name, tags);
            }
            cfg = LOAD("{\"rules\": []}", profile_option(name), &err);
            CHECK(cfg != NULL && strcmp(test_profile_of(cfg), name) == 0, "%s loads as a profile and is reported back: %s", name,
                  cfg ? pathconfig_options(cfg) : err.message);
            pathconfig_release(cfg);
            /* Every tag of the line loads too. */
            {
                char copy[512], *tag, *save = NULL;
                snprintf(copy, sizeof copy, "%s", tags);
                for (tag = strtok_r(copy, " ", &save); tag != NULL; tag = strtok_r(NULL, " ", &save)) {
                    char versioned[160];
                    snprintf(versioned, sizeof versioned, "%s@%s", profile, tag);
                    cfg = LOAD("{\"rules\": []}", profile_option(versioned), &err);
                    CHECK(cfg != NULL, "%s (a tag of %s) loads: %s", versioned, name, cfg ? "" : err.message);
                    pathconfig_release(cfg);
                }
            }
        }
        CHECK(main_seen, "%s: a main branch line", profile);
        /* Out of range. */
        CHECK(pathconfig_profile_release_name(i, count) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "%s: name past the end",
              profile);
        CHECK(strstr(pathconfig_last_error()->message, "out of range") != NULL, "says why: %s", pathconfig_last_error()->message);
        CHECK(pathconfig_profile_release_tags(i, count) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "%s: tags past the end",
              profile);
        CHECK(pathconfig_profile_release_commit(i, count) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT,
              "%s: commit past the end", profile);
        CHECK(pathconfig_profile_release_name(i, (size_t)-1) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "%s: SIZE_MAX",
              profile);

        /* The default release answers as the bare name does, read for read. */
        if (def < count) {
            const char *line = pathconfig_profile_release_name(i, def);
            pathconfig *bare = LOAD(doc, profile_option(profile), &err), *versioned = LOAD(doc, profile_option(line), &err);
            size_t u;
            int key;
            CHECK(strcmp(line + prefix + 1, "main") != 0 && pathconfig_profile_release_tags(i, def)[0] != '\0',
                  "%s: the default %s is a tagged release", profile, line);
            if (!CHECK(bare != NULL && versioned != NULL, "%s and %s load: %s", profile, line, err.message)) {
                pathconfig_release(bare);
                pathconfig_release(versioned);
                continue;
            }
            CHECK(pathconfig_rule_count(bare) == pathconfig_rule_count(versioned), "%s: rule counts", line);
            for (u = 0; u < sizeof urls / sizeof urls[0]; u++) {
                char *a = test_properties(bare, urls[u]), *b = test_properties(versioned, urls[u]);
                char *ma = pathconfig_matched_string(bare, urls[u], NULL), *mb = pathconfig_matched_string(versioned, urls[u], NULL);
                pathconfig_result *ra = pathconfig_resolve(bare, urls[u], NULL, NULL), *rb = pathconfig_resolve(versioned, urls[u], NULL, NULL);
                CHECK(a != NULL && b != NULL && strcmp(a, b) == 0, "%s: %s is %s bare, %s as %s", profile, urls[u], test_show(a),
                      test_show(b), line);
                CHECK(ma != NULL && mb != NULL && strcmp(ma, mb) == 0, "%s: %s matched as %s bare, %s as %s", profile, urls[u],
                      test_show(ma), test_show(mb), line);
                for (key = 0; ra != NULL && rb != NULL && key < (int)pathconfig_typed_key_count(); key++) {
                    char va[160], vb[160];
                    typed_text(ra, key, va, sizeof va);
                    typed_text(rb, key, vb, sizeof vb);
                    CHECK(strcmp(va, vb) == 0, "%s: %s %s is %s bare, %s as %s", profile, urls[u], pathconfig_typed_key_name(key), va,
                          vb, line);
                }
                pathconfig_result_release(ra);
                pathconfig_result_release(rb);
                free(a);
                free(b);
                pathconfig_string_free(ma);
                pathconfig_string_free(mb);
            }
            pathconfig_release(bare);
            pathconfig_release(versioned);
        }
    }
    /* A profile index out of range. */
    CHECK(pathconfig_profile_release_count(n) == 0 && pathconfig_profile_release_count((size_t)-1) == 0, "count past the end: 0");
    CHECK(pathconfig_profile_default_release(n) == 0, "default past the end: 0");
    CHECK(pathconfig_profile_release_name(n, 0) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "name of a profile past the end");
    CHECK(pathconfig_profile_release_tags(n, 0) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "tags of a profile past the end");
    CHECK(pathconfig_profile_release_commit(n, 0) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT,
          "commit of a profile past the end");
    /* The hotwire-ios lines docs/app-versions.md names. */
    for (i = 0; i < n && strcmp(pathconfig_profile_name(i), "hotwire-ios") != 0; i++) {}
    if (CHECK(i < n, "hotwire-ios is listed")) {
        size_t count = pathconfig_profile_release_count(i), def = pathconfig_profile_default_release(i);
        CHECK(strcmp(test_show(pathconfig_profile_release_name(i, 0)), "hotwire-ios@1.0.0") == 0, "the first line: %s",
              test_show(pathconfig_profile_release_name(i, 0)));
        CHECK(strcmp(test_show(pathconfig_profile_release_name(i, count - 1)), "hotwire-ios@main") == 0, "the last line: %s",
              test_show(pathconfig_profile_release_name(i, count - 1)));
        CHECK(strcmp(test_show(pathconfig_profile_release_name(i, def)), "hotwire-ios@1.2.0") == 0 &&
                  strstr(test_show(pathconfig_profile_release_tags(i, def)), "1.2.2") != NULL,
              "the bare name's line: %s (%s)", test_show(pathconfig_profile_release_name(i, def)),
              test_show(pathconfig_profile_release_tags(i, def)));
    }
}

void run_version_tests(void)
{
    test_versioned_profiles();
    test_unknown_versions();
    test_crashes();
    test_android_strings();
    test_release_catalog();
    test_set_context("");
}
