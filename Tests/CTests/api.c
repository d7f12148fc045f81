/* The ABI beyond conformance: version, error struct, every error path, NULL
 * and non-UTF-8 arguments, raw and typed getters, ownership. */
#include "tests.h"

#include <cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define LOAD(text, options, err) pathconfig_load_json((text), strlen(text), (options), (err))

/* A compile-time check that works in C99. */
#define STATIC_CHECK(name, cond) typedef char static_check_##name[(cond) ? 1 : -1]

/* The layout libpathconfig writes (Sources/PathConfigurationC/Errors.swift). */
STATIC_CHECK(code_offset, offsetof(pathconfig_error, code) == 0);
STATIC_CHECK(line_offset, offsetof(pathconfig_error, line) == 4);
STATIC_CHECK(column_offset, offsetof(pathconfig_error, column) == 8);
STATIC_CHECK(message_offset, offsetof(pathconfig_error, message) == 12);
STATIC_CHECK(rule_offset, offsetof(pathconfig_error, rule_index) == 524);
STATIC_CHECK(pattern_offset, offsetof(pathconfig_error, pattern_index) == 528);
STATIC_CHECK(os_error_offset, offsetof(pathconfig_error, os_error) == 532);
STATIC_CHECK(error_size, sizeof(pathconfig_error) == 536);

/* Fills an error struct with garbage, to see the library clear or fill it. */
static void dirty(pathconfig_error *err)
{
    memset(err, 0x5A, sizeof *err);
}

static int is_clear(const pathconfig_error *err)
{
    return err->code == 0 && err->line == 0 && err->column == 0 && err->message[0] == '\0' &&
           err->rule_index == -1 && err->pattern_index == -1 && err->os_error == 0;
}

/* The last error's code, for one-line checks. */
/* Parses JSON text (NULL stays NULL). */
static cJSON *parse(const char *text)
{
    return text ? cJSON_Parse(text) : NULL;
}

static void test_version(void)
{
    test_set_context("version");
    CHECK(strcmp(pathconfig_version(), PATHCONFIG_VERSION) == 0, "version %s, header %s", pathconfig_version(), PATHCONFIG_VERSION);
    CHECK(pathconfig_version_number() == PATHCONFIG_VERSION_NUMBER, "version number %d", pathconfig_version_number());
    CHECK(PATHCONFIG_VERSION_NUMBER == PATHCONFIG_VERSION_MAJOR * 1000000 + PATHCONFIG_VERSION_MINOR * 1000 + PATHCONFIG_VERSION_PATCH, "macros disagree");
    {
        char expected[32];
        snprintf(expected, sizeof expected, "%d.%d.%d", PATHCONFIG_VERSION_MAJOR, PATHCONFIG_VERSION_MINOR, PATHCONFIG_VERSION_PATCH);
        CHECK(strcmp(expected, PATHCONFIG_VERSION) == 0, "PATHCONFIG_VERSION %s vs parts %s", PATHCONFIG_VERSION, expected);
    }
}

static void test_error_names(void)
{
    static const struct { int code; const char *name; } names[] = {
        { PATHCONFIG_OK, "PATHCONFIG_OK" },
        { PATHCONFIG_E_JSON, "PATHCONFIG_E_JSON" },
        { PATHCONFIG_E_SCHEMA, "PATHCONFIG_E_SCHEMA" },
        { PATHCONFIG_E_REGEX, "PATHCONFIG_E_REGEX" },
        { PATHCONFIG_E_OPTIONS, "PATHCONFIG_E_OPTIONS" },
        { PATHCONFIG_E_IO, "PATHCONFIG_E_IO" },
        { PATHCONFIG_E_LIMIT, "PATHCONFIG_E_LIMIT" },
        { PATHCONFIG_E_BACKEND, "PATHCONFIG_E_BACKEND" },
        { PATHCONFIG_E_ARGUMENT, "PATHCONFIG_E_ARGUMENT" },
        { PATHCONFIG_E_NOMEM, "PATHCONFIG_E_NOMEM" },
        { PATHCONFIG_E_INTERNAL, "PATHCONFIG_E_INTERNAL" },
        { PATHCONFIG_E_TYPE, "PATHCONFIG_E_TYPE" },
        { PATHCONFIG_E_CALLBACK, "PATHCONFIG_E_CALLBACK" },
        { PATHCONFIG_E_URL, "PATHCONFIG_E_URL" },
    };
    size_t i;
    test_set_context("error names");
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        CHECK(strcmp(pathconfig_error_name(names[i].code), names[i].name) == 0, "name of %d: %s", names[i].code,
              pathconfig_error_name(names[i].code));
        CHECK(strcmp(pathconfig_error_name(-names[i].code), names[i].name) == 0, "name of %d", -names[i].code);
    }
    CHECK(strcmp(pathconfig_error_name(12345), "PATHCONFIG_E_UNKNOWN") == 0, "unknown code");
    CHECK(strcmp(pathconfig_error_name(INT_MIN), "PATHCONFIG_E_UNKNOWN") == 0, "INT_MIN");
    CHECK(pathconfig_last_error() != NULL, "last error is never NULL");
}

/* Loads `json`, expects failure with `code` at line:column (0: unchecked) and
 * rule/pattern index; returns 1 when it failed as expected. */
static int expect_load_error(const char *what, const char *json, const char *options, int code, int line, int column,
                             int rule, int pattern)
{
    pathconfig_error err;
    pathconfig *cfg;
    test_set_context("load error: %s", what);
    dirty(&err);
    cfg = LOAD(json, options, &err);
    CHECK(cfg == NULL, "loaded");
    pathconfig_release(cfg);
    CHECK(err.code == code, "code %d (%s), expected %d: %s", err.code, pathconfig_error_name(err.code), code, err.message);
    if (line >= 0) CHECK(err.line == line && err.column == column, "at %d:%d, expected %d:%d", err.line, err.column, line, column);
    CHECK(err.rule_index == rule && err.pattern_index == pattern, "rule %d pattern %d, expected %d %d", err.rule_index,
          err.pattern_index, rule, pattern);
    CHECK(err.os_error == 0, "os_error %d outside an I/O error", err.os_error);
    CHECK(err.message[0] != '\0' && strlen(err.message) < sizeof err.message, "message \"%s\"", err.message);
    CHECK(memcmp(pathconfig_last_error(), &err, offsetof(pathconfig_error, message)) == 0 &&
              strcmp(pathconfig_last_error()->message, err.message) == 0,
          "last error differs from err");
    /* The same failure with err NULL still reaches the last error. */
    cfg = LOAD(json, options, NULL);
    CHECK(cfg == NULL && test_last_code() == code, "with err NULL: last code %d", test_last_code());
    pathconfig_release(cfg);
    return err.code == code;
}

static void test_load_errors(void)
{
    /* Syntax: position of the offending character. */
    expect_load_error("stray character", "{\"rules\": [\n  {\"patterns\": [\"/a\"], \"properties\": {}}\n  x]}", NULL,
                      PATHCONFIG_E_JSON, 3, 3, -1, -1);
    expect_load_error("empty document", "", NULL, PATHCONFIG_E_JSON, 1, 1, -1, -1);
    expect_load_error("unterminated object", "{\"rules\": []", NULL, PATHCONFIG_E_JSON, 1, 13, -1, -1);
    expect_load_error("bad literal", "{\"rules\": [tru]}", NULL, PATHCONFIG_E_JSON, 1, 12, -1, -1);
    expect_load_error("invalid UTF-8 in a string", "{\"rules\": [],\n \"settings\": {\"a\": \"x\xff\"}}", NULL,
                      PATHCONFIG_E_JSON, 2, 22, -1, -1);
    expect_load_error("column counts characters", "{\"settings\": {\"caf\xc3\xa9\": 1 2}}", NULL, PATHCONFIG_E_JSON, 1, 25, -1, -1);

    /* Schema: position and rule/pattern index. */
    expect_load_error("top level array", "[]", NULL, PATHCONFIG_E_SCHEMA, 1, 1, -1, -1);
    expect_load_error("missing rules", "{\"settings\": {}}", NULL, PATHCONFIG_E_SCHEMA, 1, 1, -1, -1);
    expect_load_error("rules not an array", "{\"rules\": {}}", NULL, PATHCONFIG_E_SCHEMA, 1, 11, -1, -1);
    expect_load_error("rule not an object", "{\"rules\": [\n {\"patterns\": [], \"properties\": {}},\n 1]}", NULL,
                      PATHCONFIG_E_SCHEMA, 3, 2, 1, -1);
    expect_load_error("pattern not a string", "{\"rules\": [{\"patterns\": [\"/a\", 7], \"properties\": {}}]}", NULL,
                      PATHCONFIG_E_SCHEMA, 1, 32, 0, 1);
    expect_load_error("missing properties", "{\"rules\": [{\"patterns\": [\"/a\"]}]}", NULL, PATHCONFIG_E_SCHEMA, 1, 12, 0, -1);
    expect_load_error("null properties", "{\"rules\": [{\"patterns\": [], \"properties\": null}]}", NULL,
                      PATHCONFIG_E_SCHEMA, 1, 43, 0, -1);
    expect_load_error("turbo-android nested value",
                      "{\"rules\": [{\"patterns\": [], \"properties\": {\"a\": {\"b\": 1}}}]}",
                      "{\"profile\": \"turbo-android\"}", PATHCONFIG_E_SCHEMA, 1, 49, 0, -1);

    /* Regex: rule, pattern and the pattern's position. */
    expect_load_error("invalid regex",
                      "{\"rules\": [\n {\"patterns\": [\"/ok\"], \"properties\": {}},\n {\"patterns\": [\"/fine\", \"([\"], \"properties\": {}}]}",
                      NULL, PATHCONFIG_E_REGEX, 3, 25, 1, 1);
    expect_load_error("invalid regex, android", "{\"rules\": [{\"patterns\": [\"a{2,1}\"], \"properties\": {}}]}",
                      "{\"profile\": \"hotwire-android\"}", PATHCONFIG_E_REGEX, 1, 26, 0, 0);

    /* Options. */
    expect_load_error("options not JSON", "{\"rules\": []}", "{", PATHCONFIG_E_OPTIONS, 0, 0, -1, -1);
    expect_load_error("options not an object", "{\"rules\": []}", "[]", PATHCONFIG_E_OPTIONS, 0, 0, -1, -1);
    expect_load_error("unknown option", "{\"rules\": []}", "{\"profiles\": \"turbo-ios\"}", PATHCONFIG_E_OPTIONS, 0, 0, -1, -1);
    expect_load_error("unknown profile", "{\"rules\": []}", "{\"profile\": \"windows-phone\"}", PATHCONFIG_E_OPTIONS, 0, 0, -1, -1);
    CHECK(strstr(pathconfig_last_error()->message, "windows-phone") != NULL, "message names the profile: %s",
          pathconfig_last_error()->message);
    expect_load_error("profile not a string", "{\"rules\": []}", "{\"profile\": 1}", PATHCONFIG_E_OPTIONS, 0, 0, -1, -1);
    expect_load_error("lenient not a bool", "{\"rules\": []}", "{\"lenient\": \"yes\"}", PATHCONFIG_E_OPTIONS, 0, 0, -1, -1);
    expect_load_error("match_query_strings not a bool", "{\"rules\": []}", "{\"match_query_strings\": 1}",
                      PATHCONFIG_E_OPTIONS, 0, 0, -1, -1);
    expect_load_error("unknown backend", "{\"rules\": []}", "{\"backend\": \"re2\"}", PATHCONFIG_E_OPTIONS, 0, 0, -1, -1);
    expect_load_error("foundation backend", "{\"rules\": []}", "{\"backend\": \"foundation\"}", PATHCONFIG_E_BACKEND, 0, 0, -1, -1);
    CHECK(strstr(pathconfig_last_error()->message, "foundation") != NULL, "message names the backend: %s",
          pathconfig_last_error()->message);

    /* Limits. */
    {
        char deep[2000];
        int i, n = 0;
        n += sprintf(deep + n, "{\"rules\": [], \"settings\": ");
        for (i = 0; i < 300; i++) deep[n++] = '[';
        for (i = 0; i < 300; i++) deep[n++] = ']';
        deep[n++] = '}';
        deep[n] = '\0';
        expect_load_error("nesting too deep", deep, NULL, PATHCONFIG_E_LIMIT, -1, 0, -1, -1);
    }

    /* Arguments. */
    expect_load_error("options not UTF-8", "{\"rules\": []}", "{\"profile\": \"\xc3\x28\"}", PATHCONFIG_E_ARGUMENT, 0, 0, -1, -1);
    {
        pathconfig_error err;
        test_set_context("load arguments");
        dirty(&err);
        CHECK(pathconfig_load_json(NULL, 0, NULL, &err) == NULL && err.code == PATHCONFIG_E_ARGUMENT, "json NULL: %d", err.code);
        dirty(&err);
        CHECK(pathconfig_load_json("{}", (size_t)-1, NULL, &err) == NULL && err.code == PATHCONFIG_E_ARGUMENT,
              "len SIZE_MAX: %d", err.code);
        CHECK(pathconfig_load_json(NULL, 0, NULL, NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "err NULL");
        dirty(&err);
        CHECK(pathconfig_load_file(NULL, NULL, &err) == NULL && err.code == PATHCONFIG_E_ARGUMENT, "path NULL: %d", err.code);
        dirty(&err);
        CHECK(pathconfig_load_file("/tmp/\xff.json", NULL, &err) == NULL && err.code == PATHCONFIG_E_ARGUMENT &&
                  err.os_error == 0,
              "path not UTF-8: %d", err.code);
    }
}

/* The errno of an unreadable file travels in os_error, so a host can classify
 * the failure (Python's FileNotFoundError, Rust's io::ErrorKind) without
 * reading the message. */
static void test_load_file_os_errors(const char *scratch_dir)
{
    pathconfig_error err;
    char path[4096];
    FILE *f;
    pid_t child;
    int status = 0;

    test_set_context("load_file os_error");
    dirty(&err);
    CHECK(pathconfig_load_file("/nonexistent/dir/pc.json", NULL, &err) == NULL && err.code == PATHCONFIG_E_IO &&
              err.os_error == ENOENT && err.line == 0 && err.rule_index == -1 &&
              strstr(err.message, "/nonexistent/dir/pc.json") != NULL,
          "missing file: %d %d %s", err.code, err.os_error, err.message);
    CHECK(pathconfig_last_error()->os_error == ENOENT, "the last error has it too: %d", pathconfig_last_error()->os_error);
    dirty(&err);
    CHECK(pathconfig_load_file("/", NULL, &err) == NULL && err.code == PATHCONFIG_E_IO && err.os_error == EISDIR,
          "directory: %d %d %s", err.code, err.os_error, err.message);
    dirty(&err);
    CHECK(pathconfig_load_file("/dev/null/pc.json", NULL, &err) == NULL && err.code == PATHCONFIG_E_IO &&
              err.os_error == ENOTDIR,
          "under a file: %d %d %s", err.code, err.os_error, err.message);

    /* A file its reader may not open: as an unprivileged user (root reads
     * anything, so a root run drops to nobody in a child first). */
    snprintf(path, sizeof path, "%s/unreadable.json", scratch_dir);
    f = fopen(path, "wb");
    if (!CHECK(f != NULL, "cannot write %s", path)) return;
    fputs("{\"rules\": []}", f);
    fclose(f);
    chmod(path, 0);
    chmod(scratch_dir, 0755);
    fflush(NULL);
    child = fork();
    if (child == 0) {
        if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) _exit(100);
        _exit(pathconfig_load_file(path, NULL, &err) == NULL && err.code == PATHCONFIG_E_IO ? err.os_error : 101);
    }
    if (CHECK(child > 0 && waitpid(child, &status, 0) == child && WIFEXITED(status), "child did not run"))
        CHECK(WEXITSTATUS(status) == EACCES, "unreadable file: os_error %d, expected EACCES", WEXITSTATUS(status));
    remove(path);

    /* Not an I/O error: 0. */
    dirty(&err);
    CHECK(pathconfig_load_file("/dev/null", NULL, &err) == NULL && err.code == PATHCONFIG_E_JSON && err.os_error == 0,
          "empty file is a JSON error: %d %d", err.code, err.os_error);
}

static void test_load_success(const char *scratch_dir)
{
    pathconfig_error err;
    pathconfig *cfg;
    char path[4096];
    FILE *f;
    static const char doc[] = "{\"rules\": [{\"patterns\": [\"/a$\"], \"properties\": {\"a\": 1}},],}";

    test_set_context("load success");
    dirty(&err);
    cfg = LOAD(doc, NULL, &err);
    CHECK(cfg != NULL && is_clear(&err), "trailing commas: %s", err.message);
    CHECK(test_last_code() == PATHCONFIG_OK, "last error cleared");
    CHECK(pathconfig_profile(cfg) != NULL && strcmp(pathconfig_profile(cfg), "hotwire-ios") == 0, "default profile");
    CHECK(pathconfig_rule_count(cfg) == 4 && pathconfig_document_rule_count(cfg) == 1, "rule counts %zu %zu",
          pathconfig_rule_count(cfg), pathconfig_document_rule_count(cfg));
    pathconfig_release(cfg);

    /* len bounds the document: the bytes after it are never read. */
    {
        char buf[64];
        memcpy(buf, "{\"rules\": []}GARBAGE", 21);
        cfg = pathconfig_load_json(buf, 13, "", &err);
        CHECK(cfg != NULL, "len-bounded: %s", err.message);
        pathconfig_release(cfg);
    }

    /* Options, all of them. */
    cfg = LOAD(doc, "{\"profile\": \"turbo-ios\", \"match_query_strings\": null, \"backend\": \"pcre2\", \"lenient\": false}", &err);
    CHECK(cfg != NULL && strcmp(pathconfig_profile(cfg), "turbo-ios") == 0 && pathconfig_rule_count(cfg) == 1,
          "all options: %s", err.message);
    pathconfig_release(cfg);
    cfg = LOAD(doc, "  \n", &err);
    CHECK(cfg != NULL, "blank options mean defaults: %s", err.message);
    pathconfig_release(cfg);
    {
        static const char *const profiles[] = { "hotwire-ios", "turbo-ios", "hotwire-android", "turbo-android" };
        static const size_t counts[] = { 4, 1, 4, 1 };
        /* Without the trailing commas, which the Android apps' Gson refuses ("Expected name") or reads as a null rule. */
        static const char plain[] = "{\"settings\": {}, \"rules\": [{\"patterns\": [\"/a$\"], \"properties\": {\"a\": 1}}]}";
        size_t i;
        for (i = 0; i < 4; i++) {
            char options[64];
            snprintf(options, sizeof options, "{\"profile\":\"%s\"}", profiles[i]);
            cfg = LOAD(plain, options, &err);
            CHECK(cfg != NULL && strcmp(pathconfig_profile(cfg), profiles[i]) == 0 && pathconfig_rule_count(cfg) == counts[i],
                  "profile %s", profiles[i]);
            pathconfig_release(cfg);
            cfg = LOAD(doc, options, &err);
            if (i < 2) {
                CHECK(cfg != NULL, "trailing commas under %s: %s", profiles[i], err.message);
            } else {
                CHECK(cfg == NULL && err.code == PATHCONFIG_E_JSON && err.line == 1 && err.column == 59
                      && strstr(err.message, "refuses the document (Gson: \"Expected name\")") != NULL,
                      "trailing comma in an object under %s: %d %d:%d %s", profiles[i], err.code, err.line, err.column, err.message);
            }
            pathconfig_release(cfg);
        }
    }

    /* A document in UTF-16LE, with a byte-order mark, as JSONSerialization reads it (iOS profiles). */
    {
        static const char utf8[] = "{\"rules\": [{\"patterns\": [\"/a$\"], \"properties\": {\"a\": \"\xC3\xA9\"}}]}";
        unsigned char utf16[2 + 2 * sizeof utf8];
        size_t n = 0, i;
        pathconfig_result *r;
        utf16[n++] = 0xFF;
        utf16[n++] = 0xFE;
        for (i = 0; i + 1 < sizeof utf8; i++) {
            unsigned char c = (unsigned char)utf8[i];
            if (c == 0xC3) { utf16[n++] = 0xE9; utf16[n++] = 0x00; i++; continue; }  /* é */
            utf16[n++] = c;
            utf16[n++] = 0x00;
        }
        cfg = pathconfig_load_json((const char *)utf16, n, NULL, &err);
        CHECK(cfg != NULL, "UTF-16LE: %s", err.message);
        r = cfg ? pathconfig_resolve(cfg, "/x/a", &err) : NULL;
        CHECK(r != NULL && strcmp(pathconfig_result_json(r), "{\"a\":\"\xC3\xA9\"}") == 0, "UTF-16LE properties: %s",
              r ? pathconfig_result_json(r) : err.message);
        pathconfig_result_free(r);
        pathconfig_release(cfg);
        /* A bundled file in UTF-16 is UTF-8 to the Android apps: refused, saying why. */
        cfg = pathconfig_load_json((const char *)utf16, n, "{\"profile\": \"hotwire-android\"}", &err);
        CHECK(cfg == NULL && strstr(err.message, "(the document is UTF-16LE; hotwire-android reads a bundled file as UTF-8)") != NULL,
              "UTF-16LE under hotwire-android: %s", err.message);
        pathconfig_release(cfg);
        snprintf(path, sizeof path, "%s/load-file-utf16.json", scratch_dir);
        f = fopen(path, "wb");
        if (CHECK(f != NULL, "cannot write %s", path)) {
            fwrite(utf16, 1, n, f);
            fclose(f);
            cfg = pathconfig_load_file(path, "{\"profile\": \"turbo-ios\"}", &err);
            CHECK(cfg != NULL && pathconfig_rule_count(cfg) == 1, "load_file UTF-16LE: %s", err.message);
            pathconfig_release(cfg);
            remove(path);
        }
    }

    /* From a file. */
    snprintf(path, sizeof path, "%s/load-file.json", scratch_dir);
    f = fopen(path, "wb");
    if (CHECK(f != NULL, "cannot write %s", path)) {
        fputs(doc, f);
        fclose(f);
        dirty(&err);
        cfg = pathconfig_load_file(path, "{\"profile\": \"hotwire-ios\"}", &err);
        CHECK(cfg != NULL && is_clear(&err), "load_file: %s", err.message);
        CHECK(cfg != NULL && strcmp(pathconfig_profile(cfg), "hotwire-ios") == 0, "profile");
        pathconfig_release(cfg);
        remove(path);
    }
}

static void test_null_arguments(void)
{
    pathconfig_error err;
    pathconfig *cfg = LOAD("{\"rules\": []}", NULL, &err);
    pathconfig_result *res = pathconfig_resolve(cfg, "/", &err);
    const char *s = "unset";
    int b = 42;
    int64_t i = 42;
    double d = 42;

    test_set_context("NULL arguments");
    if (!CHECK(cfg != NULL && res != NULL, "setup")) return;

    CHECK(pathconfig_retain(NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "retain");
    pathconfig_release(NULL);
    pathconfig_result_free(NULL);
    pathconfig_free_string(NULL);
    CHECK(test_last_code() == PATHCONFIG_E_ARGUMENT, "destructors leave the last error alone");

    CHECK(pathconfig_properties(NULL, "/") == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "properties cfg");
    CHECK(pathconfig_properties(cfg, NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "properties url");
    dirty(&err);
    CHECK(pathconfig_resolve(NULL, "/", &err) == NULL && err.code == PATHCONFIG_E_ARGUMENT, "resolve cfg");
    dirty(&err);
    CHECK(pathconfig_resolve(cfg, NULL, &err) == NULL && err.code == PATHCONFIG_E_ARGUMENT, "resolve url");
    CHECK(pathconfig_resolve(cfg, NULL, NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "resolve err NULL");
    CHECK(pathconfig_explain(NULL, "/") == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "explain cfg");
    CHECK(pathconfig_explain(cfg, NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "explain url");
    CHECK(pathconfig_matched_string(NULL, "/") == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "matched cfg");
    CHECK(pathconfig_matched_string(cfg, NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "matched url");
    CHECK(pathconfig_settings(NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "settings");
    CHECK(pathconfig_warnings(NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "warnings");
    CHECK(pathconfig_rule_count(NULL) == 0 && test_last_code() == PATHCONFIG_E_ARGUMENT, "rule_count");
    CHECK(pathconfig_document_rule_count(NULL) == 0 && test_last_code() == PATHCONFIG_E_ARGUMENT, "document_rule_count");
    CHECK(pathconfig_profile(NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "profile");

    CHECK(pathconfig_result_json(NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "result_json");
    CHECK(pathconfig_result_count(NULL) == 0 && test_last_code() == PATHCONFIG_E_ARGUMENT, "result_count");
    CHECK(pathconfig_result_key(NULL, 0) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "result_key");
    CHECK(pathconfig_result_get_string(NULL, "a", &s) == -PATHCONFIG_E_ARGUMENT && s == NULL, "get_string res");
    s = "unset";
    CHECK(pathconfig_result_get_string(res, NULL, &s) == -PATHCONFIG_E_ARGUMENT && s == NULL, "get_string key");
    CHECK(pathconfig_result_get_bool(NULL, "a", &b) == -PATHCONFIG_E_ARGUMENT && b == 42, "get_bool res");
    CHECK(pathconfig_result_get_bool(res, NULL, &b) == -PATHCONFIG_E_ARGUMENT && b == 42, "get_bool key");
    CHECK(pathconfig_result_get_int64(NULL, "a", &i) == -PATHCONFIG_E_ARGUMENT && i == 42, "get_int64 res");
    CHECK(pathconfig_result_get_int64(res, NULL, &i) == -PATHCONFIG_E_ARGUMENT, "get_int64 key");
    CHECK(pathconfig_result_get_double(NULL, "a", &d) == -PATHCONFIG_E_ARGUMENT && d == 42, "get_double res");
    CHECK(pathconfig_result_get_double(res, NULL, &d) == -PATHCONFIG_E_ARGUMENT, "get_double key");
    s = "unset";
    CHECK(pathconfig_result_get_json(NULL, "a", &s) == -PATHCONFIG_E_ARGUMENT && s == NULL, "get_json res");
    CHECK(pathconfig_result_get_json(res, NULL, NULL) == -PATHCONFIG_E_ARGUMENT, "get_json key");
    CHECK(test_last_code() == PATHCONFIG_E_ARGUMENT, "getter failures set the last error");
    CHECK(pathconfig_result_typed_string(NULL, "context") == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "typed_string res");
    CHECK(pathconfig_result_typed_string(res, NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "typed_string key");
    CHECK(pathconfig_result_typed_bool(NULL, "animated") == -PATHCONFIG_E_ARGUMENT, "typed_bool res");
    CHECK(pathconfig_result_typed_bool(res, NULL) == -PATHCONFIG_E_ARGUMENT, "typed_bool key");
    CHECK(pathconfig_result_context(NULL) == NULL && pathconfig_result_presentation(NULL) == NULL &&
              pathconfig_result_modal_style(NULL) == NULL && pathconfig_result_query_string_presentation(NULL) == NULL &&
              pathconfig_result_view_controller(NULL) == NULL && pathconfig_result_title(NULL) == NULL &&
              pathconfig_result_uri(NULL) == NULL && pathconfig_result_fallback_uri(NULL) == NULL &&
              test_last_code() == PATHCONFIG_E_ARGUMENT,
          "typed string conveniences");
    CHECK(pathconfig_result_pull_to_refresh_enabled(NULL) == -PATHCONFIG_E_ARGUMENT &&
              pathconfig_result_modal_dismiss_gesture_enabled(NULL) == -PATHCONFIG_E_ARGUMENT &&
              pathconfig_result_animated(NULL) == -PATHCONFIG_E_ARGUMENT &&
              pathconfig_result_historical_location(NULL) == -PATHCONFIG_E_ARGUMENT,
          "typed bool conveniences");

    /* A success clears what a failure left. */
    CHECK(pathconfig_result_count(res) == 0 && test_last_code() == PATHCONFIG_OK, "cleared by a success");
    CHECK(pathconfig_result_retain(NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "retain NULL");

    pathconfig_result_free(res);
    pathconfig_release(cfg);
}

/* Results are shared and reference-counted: lookups matching the same rules
 * return the same result, a retained one outlives its first free, and its
 * borrowed strings stay valid while any reference remains. */
static void test_shared_results(void)
{
    pathconfig *cfg = LOAD("{\"rules\": [{\"patterns\": [\"/new$\"], \"properties\": {\"context\": \"modal\"}}]}",
                           "{\"result_cache_size\": 0}", NULL);
    pathconfig_result *a = pathconfig_resolve(cfg, "/a/new", NULL);
    pathconfig_result *b = pathconfig_resolve(cfg, "/b/new", NULL);
    pathconfig_result *c = pathconfig_resolve(cfg, "/c", NULL);
    const char *json;

    test_set_context("shared results");
    if (!CHECK(a != NULL && b != NULL && c != NULL, "resolve")) return;
    CHECK(a == b, "the same rules give the same result, the lookup cache off");
    CHECK(a != c, "other rules give another result");
    CHECK(pathconfig_result_retain(a) == a && test_last_code() == PATHCONFIG_OK, "retain returns its argument");
    json = pathconfig_result_json(a);
    pathconfig_result_free(a);
    pathconfig_result_free(b);
    pathconfig_release(cfg);
    /* One reference is left: the result and its JSON are still there. */
    CHECK(strcmp(json, "{\"context\":\"modal\"}") == 0 && strcmp(pathconfig_result_json(a), json) == 0, "after two frees: %s", json);
    pathconfig_result_free(a);
    pathconfig_result_free(c);
}

/* A thread that meets the same rules often gets its own copy of their
 * result: another handle, the same JSON text (one pointer), which stays
 * valid while any of them lives. */
static void test_copies_share_their_json(void)
{
    pathconfig *cfg = LOAD("{\"rules\": [{\"patterns\": [\"/new$\"], \"properties\": {\"context\": \"modal\"}}]}",
                           "{\"result_cache_size\": 0}", NULL);
    pathconfig_result *seen[6];
    const char *first_json;
    int distinct = 0;

    test_set_context("copies share their JSON");
    if (!CHECK(cfg != NULL, "setup")) return;
    for (int i = 0; i < 6; i++) {
        char url[16];
        snprintf(url, sizeof url, "/%d/new", i);
        seen[i] = pathconfig_resolve(cfg, url, NULL);
        if (!CHECK(seen[i] != NULL, "resolve %s", url)) return;
        if (i > 0 && seen[i] != seen[i - 1]) distinct++;
    }
    first_json = pathconfig_result_json(seen[0]);
    CHECK(distinct >= 1, "a copy: another handle after repeated lookups");
    for (int i = 1; i < 6; i++) CHECK(pathconfig_result_json(seen[i]) == first_json, "lookup %d: one JSON pointer", i);
    pathconfig_release(cfg);
    for (int i = 0; i < 5; i++) pathconfig_result_free(seen[i]);
    /* seen[5] (a copy) is the last reference: its text is still there. */
    CHECK(strcmp(pathconfig_result_json(seen[5]), "{\"context\":\"modal\"}") == 0, "after the others are freed");
    pathconfig_result_free(seen[5]);
}

/* pathconfig_lookup lends the result pathconfig_resolve_request would hand
 * over: the same object, kept by the calling thread until its next lookup,
 * readable after its configuration is gone, and kept longer by a retain.
 * Valgrind (make valgrind) checks that nothing lent leaks or is read freed. */
static void test_lent_results(void)
{
    static const char doc[] =
        "{\"rules\": [{\"patterns\": [\"/new$\"], \"properties\": {\"context\": \"modal\"}},"
        " {\"patterns\": [\"/new$\"], \"methods\": [\"POST\"], \"properties\": {\"post\": true}}]}";
    pathconfig *cfg = LOAD(doc, "{\"result_cache_size\": 0, \"max_url_bytes\": 32}", NULL);
    pathconfig *other = LOAD("{\"rules\": [{\"patterns\": [\"^/o\"], \"properties\": {\"o\": 1}}]}", NULL, NULL);
    pathconfig_result *handed, *kept;
    const pathconfig_result *lent;

    test_set_context("lent results");
    if (!CHECK(cfg != NULL && other != NULL, "setup")) return;

    handed = pathconfig_resolve(cfg, "/a/new", NULL);
    lent = pathconfig_lookup(cfg, "/b/new", NULL);
    CHECK(lent != NULL && lent == handed && test_last_code() == PATHCONFIG_OK, "a GET lends the shared result resolve hands over");
    CHECK(strcmp(pathconfig_result_json(lent), "{\"context\":\"modal\"}") == 0, "GET json: %s", pathconfig_result_json(lent));
    pathconfig_result_free(handed);

    lent = pathconfig_lookup(cfg, "https://example.com/a/new", "POST");
    CHECK(lent != NULL && strcmp(pathconfig_result_json(lent), "{\"context\":\"modal\",\"post\":true}") == 0,
          "a POST reads the method's rules: %s", lent ? pathconfig_result_json(lent) : "(null)");
    handed = pathconfig_resolve_request(cfg, "/a/new", "POST", NULL);
    CHECK(handed == lent, "the same object as resolve_request's");
    pathconfig_result_free(handed);
    lent = pathconfig_lookup(cfg, "/a/new", "GET");
    CHECK(lent != NULL && strcmp(pathconfig_result_json(lent), "{\"context\":\"modal\"}") == 0, "\"GET\" as NULL");

    /* Failures: NULL, the last error says why; the argument checks of resolve. */
    CHECK(pathconfig_lookup(NULL, "/", NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "cfg NULL");
    CHECK(pathconfig_lookup(cfg, NULL, NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "url NULL");
    CHECK(pathconfig_lookup(cfg, "/", "NOT A TOKEN") == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "bad method");
    CHECK(pathconfig_lookup(cfg, "\xff", NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "not UTF-8");
    CHECK(pathconfig_lookup(cfg, "/a/very/long/path/that/is/longer/new", NULL) == NULL && test_last_code() == PATHCONFIG_E_LIMIT,
          "longer than max_url_bytes");
    CHECK(pathconfig_lookup(cfg, "/x", NULL) != NULL && test_last_code() == PATHCONFIG_OK, "a success clears the last error");

    /* The lent result outlives its configuration until the next lookup. */
    lent = pathconfig_lookup(cfg, "/c/new", NULL);
    pathconfig_release(cfg);
    CHECK(lent != NULL && strcmp(pathconfig_result_json(lent), "{\"context\":\"modal\"}") == 0 &&
              strcmp(pathconfig_result_context(lent), "modal") == 0,
          "readable after its configuration's release");
    /* A retain keeps it past the next lookup, on another configuration. */
    kept = pathconfig_result_retain((pathconfig_result *)lent);
    lent = pathconfig_lookup(other, "/o", NULL);
    CHECK(lent != NULL && strcmp(pathconfig_result_json(lent), "{\"o\":1}") == 0, "the next lookup lends its own");
    CHECK(kept != NULL && strcmp(pathconfig_result_json(kept), "{\"context\":\"modal\"}") == 0, "the retained one stays");
    pathconfig_result_free(kept);
    pathconfig_release(other);
}

static void test_invalid_utf8_arguments(void)
{
    pathconfig *cfg = LOAD("{\"rules\": [{\"patterns\": [\".*\"], \"properties\": {\"a\": \"b\"}}]}", NULL, NULL);
    pathconfig_result *res = pathconfig_resolve(cfg, "/", NULL);
    pathconfig_error err;
    const char *s = "unset";
    static const char *const bad[] = { "/caf\xc3", "/\xff", "/\xc0\xaf", "/\xed\xa0\x80" /* surrogate */ };
    size_t i;

    test_set_context("invalid UTF-8 arguments");
    if (!CHECK(cfg != NULL && res != NULL, "setup")) return;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        dirty(&err);
        CHECK(pathconfig_resolve(cfg, bad[i], &err) == NULL && err.code == PATHCONFIG_E_ARGUMENT &&
                  strstr(err.message, "UTF-8") != NULL,
              "resolve bad[%zu]: %d %s", i, err.code, err.message);
        CHECK(pathconfig_properties(cfg, bad[i]) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "properties bad[%zu]", i);
        CHECK(pathconfig_explain(cfg, bad[i]) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "explain bad[%zu]", i);
        CHECK(pathconfig_matched_string(cfg, bad[i]) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "matched bad[%zu]", i);
        CHECK(pathconfig_result_get_string(res, bad[i], &s) == -PATHCONFIG_E_ARGUMENT && s == NULL, "get_string bad[%zu]", i);
        CHECK(pathconfig_result_typed_string(res, bad[i]) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "typed bad[%zu]", i);
    }
    /* Valid non-ASCII is fine. */
    {
        /* hotwire-ios matches URL.path(): the path percent-encoded, as iOS keeps it. */
        char *ms = pathconfig_matched_string(cfg, "https://example.com/caf\xc3\xa9/\xe2\x9c\x93");
        CHECK(ms != NULL && strcmp(ms, "/caf%C3%A9/%E2%9C%93") == 0, "encoded path %s", ms ? ms : "(null)");
        pathconfig_free_string(ms);
    }
    pathconfig_result_free(res);
    pathconfig_release(cfg);
}

static const char raw_doc[] =
    "{\"rules\": [{\"patterns\": [\".*\"], \"properties\": {"
    "\"s\": \"text\", \"u\": \"caf\\u00e9\", \"t\": true, \"f\": false, \"i\": -42, \"big\": 9223372036854775807,"
    " \"huge\": 12345678901234567890, \"x\": 1.50, \"e\": 1e3, \"n\": null, \"o\": {\"k\": [1, \"two\"]}, \"a\": [],"
    " \"z\": \"a\\u0000b\\u00e9\"}}, {\"patterns\": [\"^/over$\"], \"properties\": {\"s\": \"replaced\", \"o\": {\"only\": 1}}}]}";

static void test_raw_getters(void)
{
    pathconfig *cfg = LOAD(raw_doc, "{\"profile\": \"turbo-ios\"}", NULL);
    pathconfig_result *res = pathconfig_resolve(cfg, "/", NULL);
    const char *s = NULL, *s2 = NULL;
    int b = -1;
    int64_t i = -1;
    double d = -1;

    test_set_context("raw getters");
    if (!CHECK(cfg != NULL && res != NULL, "setup: %s", pathconfig_last_error()->message)) return;

    CHECK(pathconfig_result_get_string(res, "s", &s) == PATHCONFIG_FOUND && strcmp(s, "text") == 0, "string");
    CHECK(pathconfig_result_get_string(res, "s", &s2) == PATHCONFIG_FOUND && s2 == s, "same pointer twice");
    CHECK(pathconfig_result_get_string(res, "u", &s) == PATHCONFIG_FOUND && strcmp(s, "caf\xc3\xa9") == 0, "unicode");
    CHECK(pathconfig_result_get_string(res, "t", &s) == -PATHCONFIG_E_TYPE && s == NULL && test_last_code() == PATHCONFIG_E_TYPE,
          "bool as string");
    CHECK(strstr(pathconfig_last_error()->message, "\"t\"") != NULL, "message names the key: %s", pathconfig_last_error()->message);
    CHECK(pathconfig_result_get_string(res, "n", &s) == -PATHCONFIG_E_TYPE && s == NULL, "null as string");
    CHECK(pathconfig_result_get_string(res, "missing", &s) == PATHCONFIG_NOT_FOUND && s == NULL &&
              test_last_code() == PATHCONFIG_OK,
          "missing string");
    CHECK(pathconfig_result_get_string(res, "s", NULL) == PATHCONFIG_FOUND, "out NULL");

    /* With the length, a string holding U+0000 arrives whole. */
    {
        size_t len = 99;
        s = NULL;
        CHECK(pathconfig_result_get_string_len(res, "z", &s, &len) == PATHCONFIG_FOUND && len == 5 && s != NULL &&
                  memcmp(s, "a\0b\xc3\xa9", 5) == 0 && s[5] == '\0',
              "embedded NUL: len %zu", len);
        CHECK(pathconfig_result_get_string(res, "z", &s2) == PATHCONFIG_FOUND && s2 == s && strcmp(s2, "a") == 0,
              "the same pointer, cut at the NUL as a C string");
        CHECK(pathconfig_result_get_string_len(res, "u", &s, &len) == PATHCONFIG_FOUND && len == 5 &&
                  strcmp(s, "caf\xc3\xa9") == 0,
              "length in bytes: %zu", len);
        CHECK(pathconfig_result_get_string_len(res, "s", NULL, &len) == PATHCONFIG_FOUND && len == 4, "out NULL: %zu", len);
        CHECK(pathconfig_result_get_string_len(res, "s", &s, NULL) == PATHCONFIG_FOUND && strcmp(s, "text") == 0, "len NULL");
        len = 99;
        CHECK(pathconfig_result_get_string_len(res, "t", &s, &len) == -PATHCONFIG_E_TYPE && s == NULL && len == 0,
              "bool: %zu", len);
        len = 99;
        CHECK(pathconfig_result_get_string_len(res, "missing", &s, &len) == PATHCONFIG_NOT_FOUND && s == NULL && len == 0 &&
                  test_last_code() == PATHCONFIG_OK,
              "missing");
        len = 99;
        CHECK(pathconfig_result_get_string_len(NULL, "s", &s, &len) == -PATHCONFIG_E_ARGUMENT && s == NULL && len == 0,
              "res NULL");
        CHECK(pathconfig_result_get_string_len(res, NULL, &s, &len) == -PATHCONFIG_E_ARGUMENT && s == NULL, "key NULL");
    }

    CHECK(pathconfig_result_get_bool(res, "t", &b) == PATHCONFIG_FOUND && b == 1, "true");
    CHECK(pathconfig_result_get_bool(res, "f", &b) == PATHCONFIG_FOUND && b == 0, "false");
    b = 7;
    CHECK(pathconfig_result_get_bool(res, "s", &b) == -PATHCONFIG_E_TYPE && b == 7, "string as bool");
    CHECK(pathconfig_result_get_bool(res, "missing", &b) == PATHCONFIG_NOT_FOUND && b == 7, "missing bool keeps the default");

    CHECK(pathconfig_result_get_int64(res, "i", &i) == PATHCONFIG_FOUND && i == -42, "int");
    CHECK(pathconfig_result_get_int64(res, "big", &i) == PATHCONFIG_FOUND && i == INT64_MAX, "INT64_MAX");
    CHECK(pathconfig_result_get_int64(res, "huge", &i) == -PATHCONFIG_E_TYPE, "beyond int64");
    CHECK(pathconfig_result_get_int64(res, "x", &i) == -PATHCONFIG_E_TYPE, "fraction");
    CHECK(pathconfig_result_get_int64(res, "e", &i) == -PATHCONFIG_E_TYPE, "exponent");
    CHECK(pathconfig_result_get_int64(res, "s", &i) == -PATHCONFIG_E_TYPE, "string as int");
    CHECK(pathconfig_result_get_int64(res, "missing", &i) == PATHCONFIG_NOT_FOUND, "missing int");

    CHECK(pathconfig_result_get_double(res, "x", &d) == PATHCONFIG_FOUND && d == 1.5, "double");
    CHECK(pathconfig_result_get_double(res, "e", &d) == PATHCONFIG_FOUND && d == 1000.0, "exponent double");
    CHECK(pathconfig_result_get_double(res, "i", &d) == PATHCONFIG_FOUND && d == -42.0, "int as double");
    CHECK(pathconfig_result_get_double(res, "huge", &d) == PATHCONFIG_FOUND && d > 1.2e19, "huge as double");
    CHECK(pathconfig_result_get_double(res, "o", &d) == -PATHCONFIG_E_TYPE, "object as double");

    CHECK(pathconfig_result_get_json(res, "o", &s) == PATHCONFIG_FOUND && strcmp(s, "{\"k\":[1,\"two\"]}") == 0, "object json %s", s);
    CHECK(pathconfig_result_get_json(res, "x", &s) == PATHCONFIG_FOUND && strcmp(s, "1.50") == 0, "number literal kept: %s", s);
    CHECK(pathconfig_result_get_json(res, "huge", &s) == PATHCONFIG_FOUND && strcmp(s, "12345678901234567890") == 0, "big literal");
    CHECK(pathconfig_result_get_json(res, "n", &s) == PATHCONFIG_FOUND && strcmp(s, "null") == 0, "null json");
    CHECK(pathconfig_result_get_json(res, "a", &s) == PATHCONFIG_FOUND && strcmp(s, "[]") == 0, "array json");
    CHECK(pathconfig_result_get_json(res, "s", &s) == PATHCONFIG_FOUND && strcmp(s, "\"text\"") == 0, "string json");
    CHECK(pathconfig_result_get_json(res, "missing", &s) == PATHCONFIG_NOT_FOUND && s == NULL, "missing json");

    /* Keys in document order; out of range is an argument error. */
    {
        static const char *const keys[] = { "s", "u", "t", "f", "i", "big", "huge", "x", "e", "n", "o", "a", "z" };
        size_t k, count = pathconfig_result_count(res);
        CHECK(count == 13, "count %zu", count);
        for (k = 0; k < count && k < 13; k++)
            CHECK(strcmp(pathconfig_result_key(res, k), keys[k]) == 0, "key %zu = %s", k, pathconfig_result_key(res, k));
        CHECK(pathconfig_result_key(res, count) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "key out of range");
        CHECK(pathconfig_result_key(res, (size_t)-1) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "key SIZE_MAX");
        CHECK(pathconfig_result_key(res, 0) == pathconfig_result_key(res, 0), "stable key pointer");
    }
    {
        const char *json = pathconfig_result_json(res);
        CHECK(json != NULL && json == pathconfig_result_json(res), "json made once");
        CHECK(json != NULL && strncmp(json, "{\"s\":\"text\",\"u\":\"caf\xc3\xa9\",\"t\":true", 29) == 0, "json %s", json);
    }
    pathconfig_result_free(res);

    /* Shallow merge: a later rule replaces a nested object whole. */
    res = pathconfig_resolve(cfg, "/over", NULL);
    CHECK(pathconfig_result_get_string(res, "s", &s) == PATHCONFIG_FOUND && strcmp(s, "replaced") == 0, "later rule wins");
    CHECK(pathconfig_result_get_json(res, "o", &s) == PATHCONFIG_FOUND && strcmp(s, "{\"only\":1}") == 0, "shallow: %s", s);
    CHECK(pathconfig_result_count(res) == 13, "same keys, first-seen order");
    pathconfig_result_free(res);

    /* No match gives {}. */
    pathconfig_release(cfg);
    cfg = LOAD("{\"rules\": [{\"patterns\": [\"^/a$\"], \"properties\": {\"a\": 1}}]}", NULL, NULL);
    res = pathconfig_resolve(cfg, "/b", NULL);
    CHECK(res != NULL && strcmp(pathconfig_result_json(res), "{}") == 0 && pathconfig_result_count(res) == 0, "no match");
    pathconfig_result_free(res);
    pathconfig_release(cfg);
}

static void test_typed_getters(void)
{
    static const char doc[] =
        "{\"rules\": ["
        "{\"patterns\": [\"^/modal\"], \"properties\": {\"context\": \"modal\", \"presentation\": \"replace_root\","
        " \"modal_style\": \"page_sheet\", \"pull_to_refresh_enabled\": false, \"animated\": false, \"title\": \"Hi\","
        " \"query_string_presentation\": \"replace\", \"view_controller\": \"native\", \"uri\": \"app://x\","
        " \"fallback_uri\": \"app://y\", \"modal_dismiss_gesture_enabled\": false}},"
        "{\"patterns\": [\"^/odd\"], \"properties\": {\"context\": \"MODAL\", \"presentation\": \"push\", \"modal_style\": 3,"
        " \"animated\": \"false\", \"pull_to_refresh_enabled\": \"TRUE\", \"title\": 12}}"
        "]}";
    pathconfig *ios = LOAD(doc, "{\"profile\": \"hotwire-ios\"}", NULL);
    pathconfig *android = LOAD(doc, "{\"profile\": \"hotwire-android\"}", NULL);
    pathconfig_result *res;
    const char *s;

    test_set_context("typed getters");
    if (!CHECK(ios != NULL && android != NULL, "setup")) return;

    /* Every key set. */
    res = pathconfig_resolve(ios, "/modal", NULL);
    CHECK(strcmp(pathconfig_result_context(res), "modal") == 0, "context");
    CHECK(strcmp(pathconfig_result_presentation(res), "replace_root") == 0, "presentation");
    CHECK(strcmp(pathconfig_result_modal_style(res), "page_sheet") == 0, "modal_style");
    CHECK(strcmp(pathconfig_result_query_string_presentation(res), "replace") == 0, "query_string_presentation");
    CHECK(strcmp(pathconfig_result_view_controller(res), "native") == 0, "view_controller");
    CHECK(strcmp(pathconfig_result_title(res), "Hi") == 0, "title");
    CHECK(strcmp(pathconfig_result_uri(res), "app://x") == 0, "uri");
    CHECK(strcmp(pathconfig_result_fallback_uri(res), "app://y") == 0, "fallback_uri");
    CHECK(pathconfig_result_pull_to_refresh_enabled(res) == 0, "pull_to_refresh_enabled");
    CHECK(pathconfig_result_modal_dismiss_gesture_enabled(res) == 0, "modal_dismiss_gesture_enabled");
    CHECK(pathconfig_result_animated(res) == 0, "animated");
    CHECK(pathconfig_result_historical_location(res) == 0, "historical_location");
    CHECK(pathconfig_result_context(res) == pathconfig_result_typed_string(res, "context"), "same pointer both ways");
    pathconfig_result_free(res);

    /* Defaults, iOS. */
    res = pathconfig_resolve(ios, "/nothing", NULL);
    CHECK(strcmp(pathconfig_result_context(res), "default") == 0, "default context");
    CHECK(strcmp(pathconfig_result_presentation(res), "default") == 0, "default presentation");
    CHECK(strcmp(pathconfig_result_modal_style(res), "large") == 0, "default modal_style");
    CHECK(strcmp(pathconfig_result_query_string_presentation(res), "default") == 0, "default qsp");
    CHECK(strcmp(pathconfig_result_view_controller(res), "web") == 0, "default view_controller (iOS)");
    s = pathconfig_result_title(res);
    CHECK(s == NULL && test_last_code() == PATHCONFIG_OK, "no title: NULL without error");
    CHECK(pathconfig_result_typed_string(res, "title") == NULL && test_last_code() == PATHCONFIG_OK, "typed_string title");
    CHECK(pathconfig_result_pull_to_refresh_enabled(res) == 1, "default pull_to_refresh (iOS)");
    CHECK(pathconfig_result_modal_dismiss_gesture_enabled(res) == 1, "default modal_dismiss_gesture");
    CHECK(pathconfig_result_animated(res) == 1, "default animated");
    CHECK(pathconfig_result_historical_location(res) == 0, "default historical_location");
    pathconfig_result_free(res);

    /* iOS reads strictly: wrong case, Android-only values, strings for bools give defaults. */
    res = pathconfig_resolve(ios, "/odd", NULL);
    CHECK(strcmp(pathconfig_result_context(res), "default") == 0, "MODAL is not modal on iOS");
    CHECK(strcmp(pathconfig_result_presentation(res), "default") == 0, "push is unknown on iOS");
    CHECK(strcmp(pathconfig_result_modal_style(res), "large") == 0, "number modal_style");
    CHECK(pathconfig_result_animated(res) == 1, "\"false\" is not a bool on iOS");
    CHECK(pathconfig_result_pull_to_refresh_enabled(res) == 1, "\"TRUE\" is not a bool on iOS");
    CHECK(pathconfig_result_title(res) == NULL, "number title on iOS");
    pathconfig_result_free(res);

    /* Android reads leniently. */
    res = pathconfig_resolve(android, "https://example.com/odd", NULL);
    CHECK(strcmp(pathconfig_result_context(res), "modal") == 0, "MODAL reads as modal on Android");
    CHECK(strcmp(pathconfig_result_presentation(res), "push") == 0, "push on Android");
    CHECK(pathconfig_result_animated(res) == 0, "\"false\" on Android");
    CHECK(pathconfig_result_pull_to_refresh_enabled(res) == 1, "\"TRUE\" on Android");
    s = pathconfig_result_title(res);
    CHECK(s != NULL && strcmp(s, "12") == 0, "number title on Android: %s", s ? s : "(null)");
    pathconfig_result_free(res);
    res = pathconfig_resolve(android, "https://example.com/nothing", NULL);
    CHECK(pathconfig_result_view_controller(res) == NULL && test_last_code() == PATHCONFIG_OK, "no view_controller on Android");
    CHECK(pathconfig_result_pull_to_refresh_enabled(res) == 0, "default pull_to_refresh (Android)");
    pathconfig_result_free(res);

    /* Built-in historical-location rules, typed. */
    res = pathconfig_resolve(android, "https://example.com/recede_historical_location", NULL);
    CHECK(strcmp(pathconfig_result_presentation(res), "pop") == 0, "POP reads as pop");
    CHECK(pathconfig_result_get_string(res, "presentation", &s) == PATHCONFIG_FOUND && strcmp(s, "POP") == 0, "raw POP");
    CHECK(pathconfig_result_historical_location(res) == 1, "historical_location");
    pathconfig_result_free(res);

    /* Kind and name errors. */
    res = pathconfig_resolve(ios, "/modal", NULL);
    CHECK(pathconfig_result_typed_string(res, "animated") == NULL && test_last_code() == PATHCONFIG_E_TYPE, "bool key as string");
    CHECK(pathconfig_result_typed_bool(res, "context") == -PATHCONFIG_E_TYPE, "enum key as bool");
    CHECK(pathconfig_result_typed_string(res, "colour") == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "unknown key");
    CHECK(strstr(pathconfig_last_error()->message, "colour") != NULL, "message names the key");
    CHECK(pathconfig_result_typed_bool(res, "colour") == -PATHCONFIG_E_ARGUMENT, "unknown bool key");
    CHECK(pathconfig_result_typed_bool(res, "modal_dismiss_gesture_enabled") == 0, "typed_bool by name");
    pathconfig_result_free(res);

    pathconfig_release(ios);
    pathconfig_release(android);
}

static void test_ownership(void)
{
    pathconfig_error err;
    pathconfig *cfg = LOAD("{\"rules\": [{\"patterns\": [\"/x\"], \"properties\": {\"context\": \"modal\", \"k\": \"v\"}}]}", NULL, &err);
    pathconfig *again;
    pathconfig_result *res;
    const char *s = NULL;

    test_set_context("retain/release");
    if (!CHECK(cfg != NULL, "setup")) return;
    again = pathconfig_retain(cfg);
    CHECK(again == cfg && test_last_code() == PATHCONFIG_OK, "retain returns its argument");
    pathconfig_release(cfg);
    /* Still alive through the second reference. */
    res = pathconfig_resolve(again, "/x", &err);
    CHECK(res != NULL, "usable after one release");
    pathconfig_release(again);

    /* The result outlives its configuration. */
    test_set_context("result outlives its configuration");
    CHECK(strcmp(pathconfig_result_json(res), "{\"context\":\"modal\",\"k\":\"v\"}") == 0, "json after release");
    CHECK(pathconfig_result_get_string(res, "k", &s) == PATHCONFIG_FOUND && strcmp(s, "v") == 0, "get after release");
    CHECK(strcmp(pathconfig_result_context(res), "modal") == 0, "typed after release");
    pathconfig_result_free(res);

    /* Many references, and results from the shared cache freed in any order. */
    test_set_context("reference counting");
    cfg = LOAD("{\"rules\": [{\"patterns\": [\".*\"], \"properties\": {\"a\": 1}}]}", NULL, &err);
    {
        pathconfig *refs[16];
        pathconfig_result *results[16];
        int i;
        for (i = 0; i < 16; i++) refs[i] = pathconfig_retain(cfg);
        for (i = 0; i < 16; i++) results[i] = pathconfig_resolve(refs[i], "/same", NULL);
        pathconfig_release(cfg);
        for (i = 0; i < 16; i++) pathconfig_release(refs[i]);
        for (i = 15; i >= 0; i--) {
            CHECK(strcmp(pathconfig_result_json(results[i]), "{\"a\":1}") == 0, "result %d", i);
            pathconfig_result_free(results[i]);
        }
    }
}

static void test_inspection(void)
{
    static const char doc[] =
        "{\n"
        "  \"settings\": {\"b\": 2, \"a\": {\"x\": [1]}},\n"
        "  \"rules\": [\n"
        "    {\"patterns\": [\"^/one$\", \"/o\"], \"properties\": {\"k\": 1, \"k\": 2}, \"description\": \"first\"},\n"
        "    {\"patterns\": [\"([\", \"^/one\"], \"properties\": {\"j\": true}, \"comment\": \"second\"}\n"
        "  ]\n"
        "}";
    pathconfig_error err;
    pathconfig *cfg = LOAD(doc, "{\"lenient\": true}", &err);
    char *text;
    cJSON *json, *item;

    test_set_context("settings");
    if (!CHECK(cfg != NULL, "lenient load: %s", err.message)) return;
    text = pathconfig_settings(cfg);
    CHECK(text != NULL && strcmp(text, "{\"b\":2,\"a\":{\"x\":[1]}}") == 0, "settings %s", text ? text : "(null)");
    pathconfig_free_string(text);

    test_set_context("warnings");
    text = pathconfig_warnings(cfg);
    json = parse(text);
    CHECK(cJSON_GetArraySize(json) == 2, "two warnings: %s", text ? text : "(null)");
    item = cJSON_GetArrayItem(json, 0);
    CHECK(item != NULL && strcmp(cJSON_GetObjectItem(item, "kind")->valuestring, "duplicate-key") == 0 &&
              cJSON_GetObjectItem(item, "line")->valueint == 4 && cJSON_GetObjectItem(item, "column")->valueint == 59 &&
              cJSON_IsNull(cJSON_GetObjectItem(item, "rule_index")) && cJSON_IsNull(cJSON_GetObjectItem(item, "pattern_index")) &&
              cJSON_IsString(cJSON_GetObjectItem(item, "message")),
          "duplicate key warning");
    item = cJSON_GetArrayItem(json, 1);
    CHECK(item != NULL && strcmp(cJSON_GetObjectItem(item, "kind")->valuestring, "skipped-pattern") == 0 &&
              cJSON_GetObjectItem(item, "line")->valueint == 5 && cJSON_GetObjectItem(item, "column")->valueint == 19 &&
              cJSON_GetObjectItem(item, "rule_index")->valueint == 1 && cJSON_GetObjectItem(item, "pattern_index")->valueint == 0,
          "skipped pattern warning");
    cJSON_Delete(json);
    pathconfig_free_string(text);

    test_set_context("explain");
    text = pathconfig_explain(cfg, "https://example.com/one?x=1#frag");
    json = parse(text);
    CHECK(json != NULL, "explain is JSON: %s", text ? text : "(null)");
    CHECK(strcmp(cJSON_GetObjectItem(json, "input")->valuestring, "https://example.com/one?x=1#frag") == 0, "input");
    CHECK(strcmp(cJSON_GetObjectItem(json, "matched_string")->valuestring, "/one?x=1") == 0, "matched_string");
    item = cJSON_GetObjectItem(json, "rules");
    CHECK(cJSON_GetArraySize(item) == 2, "two rules matched");
    CHECK(cJSON_GetObjectItem(cJSON_GetArrayItem(item, 0), "index")->valueint == 0 &&
              cJSON_GetObjectItem(cJSON_GetArrayItem(item, 0), "pattern_index")->valueint == 1 &&
              strcmp(cJSON_GetObjectItem(cJSON_GetArrayItem(item, 0), "pattern")->valuestring, "/o") == 0 &&
              strcmp(cJSON_GetObjectItem(cJSON_GetArrayItem(item, 0), "description")->valuestring, "first") == 0,
          "first rule through its second pattern (query on)");
    CHECK(cJSON_GetObjectItem(cJSON_GetArrayItem(item, 1), "index")->valueint == 1 &&
              cJSON_GetObjectItem(cJSON_GetArrayItem(item, 1), "pattern_index")->valueint == 1 &&
              strcmp(cJSON_GetObjectItem(cJSON_GetArrayItem(item, 1), "description")->valuestring, "second") == 0,
          "second rule: skipped pattern keeps its index");
    {
        char *props = pathconfig_properties(cfg, "https://example.com/one?x=1#frag");
        CHECK(props != NULL && strcmp(props, "{\"k\":1,\"j\":true}") == 0, "first duplicate kept: %s", props ? props : "(null)");
        pathconfig_free_string(props);
    }
    cJSON_Delete(json);
    pathconfig_free_string(text);

    text = pathconfig_explain(cfg, "/recede_historical_location");
    json = parse(text);
    item = cJSON_GetArrayItem(cJSON_GetObjectItem(json, "rules"), 0);
    CHECK(item != NULL && cJSON_IsTrue(cJSON_GetObjectItem(item, "builtin")) && cJSON_GetObjectItem(item, "index")->valueint == 2,
          "built-in rule: %s", text ? text : "(null)");
    cJSON_Delete(json);
    pathconfig_free_string(text);

    test_set_context("matched string");
    text = pathconfig_matched_string(cfg, "https://example.com/a/b/?q=1#f");
    CHECK(text != NULL && strcmp(text, "/a/b/?q=1") == 0, "hotwire-ios keeps the slash, adds the query: %s", text ? text : "(null)");
    pathconfig_free_string(text);
    text = pathconfig_matched_string(cfg, "relative/path?q");
    CHECK(text != NULL && strcmp(text, "relative/path?q") == 0, "a path is matched as given");
    pathconfig_free_string(text);
    pathconfig_release(cfg);

    cfg = LOAD("{\"settings\": [1], \"rules\": []}", "{\"profile\": \"turbo-ios\"}", &err);
    test_set_context("ignored settings");
    text = pathconfig_warnings(cfg);
    json = parse(text);
    CHECK(cJSON_GetArraySize(json) == 1 &&
              strcmp(cJSON_GetObjectItem(cJSON_GetArrayItem(json, 0), "kind")->valuestring, "ignored-settings") == 0,
          "warning %s", text ? text : "(null)");
    cJSON_Delete(json);
    pathconfig_free_string(text);
    text = pathconfig_settings(cfg);
    CHECK(text != NULL && strcmp(text, "{}") == 0, "settings {}");
    pathconfig_free_string(text);
    text = pathconfig_matched_string(cfg, "https://example.com/a/b/?q=1");
    CHECK(text != NULL && strcmp(text, "/a/b") == 0, "turbo-ios drops the slash and the query: %s", text ? text : "(null)");
    pathconfig_free_string(text);
    text = pathconfig_warnings(cfg);
    pathconfig_free_string(text);
    pathconfig_release(cfg);

    cfg = LOAD("{\"rules\": []}", NULL, &err);
    text = pathconfig_warnings(cfg);
    CHECK(text != NULL && strcmp(text, "[]") == 0, "no warnings: []");
    pathconfig_free_string(text);
    pathconfig_release(cfg);
}

/* The error struct: cleared on success, message cut on a character boundary. */
static void test_error_struct(void)
{
    pathconfig_error err;
    char options[1200];
    size_t n;
    pathconfig *cfg;

    test_set_context("error struct");
    dirty(&err);
    cfg = LOAD("{\"rules\": []}", NULL, &err);
    CHECK(cfg != NULL && is_clear(&err), "cleared on success");
    pathconfig_release(cfg);

    /* A long unknown profile name of 3-byte characters makes a long message. */
    n = (size_t)sprintf(options, "{\"profile\": \"");
    while (n < 1100) {
        memcpy(options + n, "\xe2\x9c\x93", 3);
        n += 3;
    }
    strcpy(options + n, "\"}");
    dirty(&err);
    cfg = LOAD("{\"rules\": []}", options, &err);
    CHECK(cfg == NULL && err.code == PATHCONFIG_E_OPTIONS, "long option fails");
    n = strlen(err.message);
    CHECK(n < sizeof err.message && n > 400, "message length %zu", n);
    {
        /* Valid UTF-8 up to the end: the last lead byte has all its continuation bytes. */
        size_t i = n;
        while (i > 0 && ((unsigned char)err.message[i - 1] & 0xC0) == 0x80) i--;
        CHECK(i > 0 && n - (i - 1) == (((unsigned char)err.message[i - 1] & 0xF0) == 0xE0 ? 3u : 1u),
              "cut on a character boundary");
    }
}

/* A lookup longer than max_url_bytes fails with PATHCONFIG_E_LIMIT; one at
 * the limit resolves. */
static void test_url_limit(void)
{
    pathconfig_error err;
    pathconfig *cfg, *small;
    pathconfig_result *res;
    char *url, *text;
    const size_t limit = 65536;

    test_set_context("url limit");
    cfg = LOAD("{\"rules\": [{\"patterns\": [\"^/x+$\"], \"properties\": {\"long\": true}}]}", NULL, &err);
    CHECK(cfg != NULL, "load: %s", err.message);
    if (!cfg) return;
    url = malloc(limit + 2);
    if (!url) return;
    url[0] = '/';
    memset(url + 1, 'x', limit);
    url[limit] = '\0'; /* limit bytes */
    text = pathconfig_properties(cfg, url);
    CHECK(text != NULL && strcmp(text, "{\"long\":true}") == 0, "at the limit: %s", text ? text : pathconfig_last_error()->message);
    pathconfig_free_string(text);

    url[limit] = 'x';
    url[limit + 1] = '\0'; /* limit + 1 bytes */
    dirty(&err);
    res = pathconfig_resolve(cfg, url, &err);
    CHECK(res == NULL && err.code == PATHCONFIG_E_LIMIT, "resolve over the limit: %d %s", err.code, err.message);
    CHECK(strcmp(err.message, "the URL is 65537 bytes, more than the limit of 65536 (max_url_bytes)") == 0, "message: %s", err.message);
    CHECK(err.rule_index == -1, "no rule: %d", err.rule_index);
    CHECK(pathconfig_properties(cfg, url) == NULL && test_last_code() == PATHCONFIG_E_LIMIT, "properties over the limit");
    CHECK(pathconfig_explain(cfg, url) == NULL && test_last_code() == PATHCONFIG_E_LIMIT, "explain over the limit");
    dirty(&err);
    CHECK(pathconfig_resolve_request(cfg, url, "POST", &err) == NULL && err.code == PATHCONFIG_E_LIMIT, "resolve_request: %d", err.code);
    free(url);
    pathconfig_release(cfg);

    small = LOAD("{\"rules\": []}", "{\"max_url_bytes\": 4}", &err);
    CHECK(small != NULL, "max_url_bytes option: %s", err.message);
    if (!small) return;
    text = pathconfig_properties(small, "/abc");
    CHECK(text != NULL && strcmp(text, "{}") == 0, "4 bytes");
    pathconfig_free_string(text);
    CHECK(pathconfig_properties(small, "/abcd") == NULL && test_last_code() == PATHCONFIG_E_LIMIT, "5 bytes");
    pathconfig_release(small);
    expect_load_error("max_url_bytes 0", "{\"rules\": []}", "{\"max_url_bytes\": 0}", PATHCONFIG_E_OPTIONS, 0, 0, -1, -1);
}

/* turbo-android crashes on a URL java.net.URL rejects: every lookup of it
 * fails with PATHCONFIG_E_URL, and its matched string is "". hotwire-android
 * matches "" for it; both read a trimmed URL, through the byte path or not. */
static void test_crashing_urls(void)
{
    static const char *json = "{\"rules\": [{\"patterns\": [\"^$\"], \"properties\": {\"home\": \"y\"}},"
                              " {\"patterns\": [\"/new$\"], \"properties\": {\"new\": \"y\"}}]}";
    static const char *rejected[] = { "https://x.dev:abc/new", "mailto:a@x.dev", "https://[::1/new", "jar:file:/a.jar" };
    pathconfig_error err;
    pathconfig *turbo, *hotwire;
    pathconfig_result *res;
    char *text;
    size_t i;

    test_set_context("crashing URLs");
    turbo = LOAD(json, "{\"profile\": \"turbo-android\"}", &err);
    CHECK(turbo != NULL, "load turbo-android: %s", err.message);
    hotwire = LOAD(json, "{\"profile\": \"hotwire-android\"}", &err);
    CHECK(hotwire != NULL, "load hotwire-android: %s", err.message);
    if (!turbo || !hotwire) {
        pathconfig_release(turbo);
        pathconfig_release(hotwire);
        return;
    }
    for (i = 0; i < sizeof rejected / sizeof rejected[0]; i++) {
        dirty(&err);
        res = pathconfig_resolve(turbo, rejected[i], &err);
        CHECK(res == NULL && err.code == PATHCONFIG_E_URL, "%s: code %d %s", rejected[i], err.code, err.message);
        CHECK(strncmp(err.message, "turbo-android crashes on this URL: java.net.URL rejects it (", 60) == 0, "message: %s", err.message);
        CHECK(err.rule_index == -1 && err.line == 0, "no rule, no position");
        pathconfig_result_free(res);
        CHECK(pathconfig_lookup(turbo, rejected[i], NULL) == NULL && test_last_code() == PATHCONFIG_E_URL, "lookup: %d", test_last_code());
        CHECK(pathconfig_properties(turbo, rejected[i]) == NULL && test_last_code() == PATHCONFIG_E_URL, "properties");
        CHECK(pathconfig_explain(turbo, rejected[i]) == NULL && test_last_code() == PATHCONFIG_E_URL, "explain");
        dirty(&err);
        CHECK(pathconfig_resolve_request(turbo, rejected[i], "GET", &err) == NULL && err.code == PATHCONFIG_E_URL, "resolve_request");
        text = pathconfig_matched_string(turbo, rejected[i]);
        CHECK(text != NULL && strcmp(text, "") == 0, "matched string \"%s\"", text ? text : "NULL");
        pathconfig_free_string(text);
        text = pathconfig_properties(hotwire, rejected[i]);
        CHECK(text != NULL && strcmp(text, "{\"home\":\"y\"}") == 0, "hotwire-android matches \"\": %s", text ? text : "NULL");
        pathconfig_free_string(text);
    }
    /* Trimmed and a url: skipped, a bare path as given: both answer. */
    text = pathconfig_properties(turbo, " url:https://x.dev/new ");
    CHECK(text != NULL && strcmp(text, "{\"new\":\"y\"}") == 0, "trimmed: %s", text ? text : pathconfig_last_error()->message);
    pathconfig_free_string(text);
    text = pathconfig_properties(turbo, "/new");
    CHECK(text != NULL && strcmp(text, "{\"new\":\"y\"}") == 0, "a path: %s", text ? text : pathconfig_last_error()->message);
    pathconfig_free_string(text);
    pathconfig_release(turbo);
    pathconfig_release(hotwire);
}

void run_api_tests(const char *scratch_dir)
{
    test_version();
    test_error_names();
    test_error_struct();
    test_load_errors();
    test_load_success(scratch_dir);
    test_load_file_os_errors(scratch_dir);
    test_null_arguments();
    test_invalid_utf8_arguments();
    test_shared_results();
    test_copies_share_their_json();
    test_lent_results();
    test_raw_getters();
    test_typed_getters();
    test_ownership();
    test_inspection();
    test_url_limit();
    test_crashing_urls();
    test_set_context("");
}
