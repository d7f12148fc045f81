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
        { PATHCONFIG_E_DOWNLOAD, "PATHCONFIG_E_DOWNLOAD" },
        { PATHCONFIG_E_CACHE, "PATHCONFIG_E_CACHE" },
        { PATHCONFIG_E_MISUSE, "PATHCONFIG_E_MISUSE" },
        { PATHCONFIG_E_CALLBACK, "PATHCONFIG_E_CALLBACK" },
        { PATHCONFIG_E_URL, "PATHCONFIG_E_URL" },
        { PATHCONFIG_E_CRASH, "PATHCONFIG_E_CRASH" },
        { PATHCONFIG_E_FORKED, "PATHCONFIG_E_FORKED" },
        { PATHCONFIG_NOT_FOUND, "PATHCONFIG_NOT_FOUND" },
    };
    size_t i;
    test_set_context("error names");
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        CHECK(strcmp(pathconfig_error_name(names[i].code), names[i].name) == 0, "name of %d: %s", names[i].code,
              pathconfig_error_name(names[i].code));
        /* Codes are positive: a negated one (the 0.x convention) is no code. */
        if (names[i].code != PATHCONFIG_OK)
            CHECK(strcmp(pathconfig_error_name(-names[i].code), "PATHCONFIG_E_UNKNOWN") == 0, "name of %d: %s", -names[i].code,
                  pathconfig_error_name(-names[i].code));
    }
    CHECK(strcmp(pathconfig_error_name(12345), "PATHCONFIG_E_UNKNOWN") == 0, "unknown code");
    CHECK(strcmp(pathconfig_error_name(INT_MIN), "PATHCONFIG_E_UNKNOWN") == 0, "INT_MIN");
    CHECK(pathconfig_last_error() != NULL, "last error is never NULL");
    /* Every error code is positive and below PATHCONFIG_NOT_FOUND, so that
     * `rc != PATHCONFIG_OK` reads every non-answer and NOT_FOUND is no error. */
    for (i = 1; i < sizeof names / sizeof names[0]; i++)
        CHECK(names[i].code > 0 && (names[i].code < PATHCONFIG_NOT_FOUND || names[i].code == PATHCONFIG_NOT_FOUND),
              "%s = %d", names[i].name, names[i].code);
    CHECK(PATHCONFIG_E_FORKED < PATHCONFIG_NOT_FOUND, "NOT_FOUND outside the range of error codes");
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
        /* exit(), not _exit(): the library's exit-time destructor runs, so
         * a leak checker tracing the child sees the runtime's tables as
         * reachable (Sources/CRuntimeHooks/runtime_roots.c); stdio was flushed before fork. */
        if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) exit(100);
        exit(pathconfig_load_file(path, NULL, &err) == NULL && err.code == PATHCONFIG_E_IO ? err.os_error : 101);
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
    CHECK(strcmp(test_profile_of(cfg), "hotwire-ios") == 0, "default profile");
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

    /* json is not retained: freed (and overwritten first) as soon as the load
     * returns, the configuration still answers, and its warnings and explain
     * read nothing of it (under valgrind, a read would be an error). */
    {
        static const char lenient[] = "{\"rules\": [{\"patterns\": [\"/new$\", \"^/a(\"], \"properties\": {\"context\": \"modal\"}},\n"
                                      " {\"patterns\": [\"^/x\"], \"properties\": {\"a\": 1, \"a\": 2}}]}";
        char *heap = malloc(sizeof lenient);
        pathconfig_warning w;
        char *explained;
        pathconfig_result *r;
        memcpy(heap, lenient, sizeof lenient);
        cfg = pathconfig_load_json(heap, sizeof lenient - 1, "{\"profile\": \"turbo-ios\", \"lenient\": true}", &err);
        memset(heap, 'Z', sizeof lenient);
        free(heap);
        CHECK(cfg != NULL && pathconfig_warning_count(cfg) == 2, "freed document: %s", err.message);
        if (cfg) {
            memset(&w, 0, sizeof w);
            w.version = PATHCONFIG_WARNING_VERSION;
            CHECK(pathconfig_warning_get(cfg, 1, &w) == PATHCONFIG_OK && w.line == 1 && w.column > 1, "freed document: warning at %d:%d",
                  w.line, w.column);
            explained = pathconfig_explain(cfg, "https://example.com/new", NULL, &err);
            CHECK(explained != NULL && strstr(explained, "\"modal\"") != NULL, "freed document: explain %s", explained ? explained : err.message);
            pathconfig_string_free(explained);
            r = pathconfig_resolve(cfg, "https://example.com/new", NULL, &err);
            CHECK(r != NULL && strcmp(pathconfig_result_json(r), "{\"context\":\"modal\"}") == 0, "freed document: resolve");
            pathconfig_result_release(r);
            pathconfig_release(cfg);
        }
    }

    /* Options, all of them. */
    cfg = LOAD(doc, "{\"profile\": \"turbo-ios\", \"match_query_strings\": null, \"backend\": \"pcre2\", \"lenient\": false}", &err);
    CHECK(cfg != NULL && strcmp(test_profile_of(cfg), "turbo-ios") == 0 && pathconfig_rule_count(cfg) == 1,
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
            CHECK(cfg != NULL && strcmp(test_profile_of(cfg), profiles[i]) == 0 && pathconfig_rule_count(cfg) == counts[i],
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
        r = cfg ? pathconfig_resolve(cfg, "/x/a", NULL, &err) : NULL;
        CHECK(r != NULL && strcmp(pathconfig_result_json(r), "{\"a\":\"\xC3\xA9\"}") == 0, "UTF-16LE properties: %s",
              r ? pathconfig_result_json(r) : err.message);
        pathconfig_result_release(r);
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
        CHECK(cfg != NULL && strcmp(test_profile_of(cfg), "hotwire-ios") == 0, "profile");
        pathconfig_release(cfg);
        remove(path);
    }
}

static void test_null_arguments(void)
{
    pathconfig_error err;
    pathconfig *cfg = LOAD("{\"rules\": []}", NULL, &err);
    pathconfig_result *res = pathconfig_resolve(cfg, "/", NULL, &err);
    const char *s = "unset";
    int b = 42;
    int64_t i = 42;
    double d = 42;

    test_set_context("NULL arguments");
    if (!CHECK(cfg != NULL && res != NULL, "setup")) return;

    CHECK(pathconfig_retain(NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "retain");
    pathconfig_release(NULL);
    pathconfig_result_release(NULL);
    pathconfig_string_free(NULL);
    CHECK(test_last_code() == PATHCONFIG_E_ARGUMENT, "destructors leave the last error alone");

    dirty(&err);
    CHECK(pathconfig_resolve(NULL, "/", NULL, &err) == NULL && err.code == PATHCONFIG_E_ARGUMENT, "resolve cfg");
    dirty(&err);
    CHECK(pathconfig_resolve(cfg, NULL, NULL, &err) == NULL && err.code == PATHCONFIG_E_ARGUMENT, "resolve url");
    CHECK(pathconfig_resolve(cfg, NULL, NULL, NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "resolve err NULL");
    CHECK(pathconfig_explain(NULL, "/", NULL, NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "explain cfg");
    CHECK(pathconfig_explain(cfg, NULL, NULL, NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "explain url");
    CHECK(pathconfig_matched_string(NULL, "/", NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "matched cfg");
    CHECK(pathconfig_matched_string(cfg, NULL, NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "matched url");
    CHECK(pathconfig_settings(NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "settings");
    CHECK(pathconfig_options(NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "options");
    CHECK(pathconfig_warning_count(NULL) == 0 && test_last_code() == PATHCONFIG_E_ARGUMENT, "warning_count");
    CHECK(pathconfig_rule_count(NULL) == 0 && test_last_code() == PATHCONFIG_E_ARGUMENT, "rule_count");
    CHECK(pathconfig_document_rule_count(NULL) == 0 && test_last_code() == PATHCONFIG_E_ARGUMENT, "document_rule_count");

    CHECK(pathconfig_result_json(NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "result_json");
    CHECK(pathconfig_result_count(NULL) == 0 && test_last_code() == PATHCONFIG_E_ARGUMENT, "result_count");
    CHECK(pathconfig_result_key(NULL, 0) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "result_key");
    CHECK(pathconfig_result_type(NULL, 0) == 0 && test_last_code() == PATHCONFIG_E_ARGUMENT, "result_type");
    CHECK(pathconfig_result_id(NULL) == 0 && test_last_code() == PATHCONFIG_E_ARGUMENT, "result_id");
    CHECK(pathconfig_result_get_string(NULL, "a", &s, NULL) == PATHCONFIG_E_ARGUMENT && s == NULL, "get_string res");
    s = "unset";
    CHECK(pathconfig_result_get_string(res, NULL, &s, NULL) == PATHCONFIG_E_ARGUMENT && s == NULL, "get_string key");
    CHECK(pathconfig_result_get_bool(NULL, "a", &b) == PATHCONFIG_E_ARGUMENT && b == 42, "get_bool res");
    CHECK(pathconfig_result_get_bool(res, NULL, &b) == PATHCONFIG_E_ARGUMENT && b == 42, "get_bool key");
    CHECK(pathconfig_result_get_int64(NULL, "a", &i) == PATHCONFIG_E_ARGUMENT && i == 42, "get_int64 res");
    CHECK(pathconfig_result_get_int64(res, NULL, &i) == PATHCONFIG_E_ARGUMENT, "get_int64 key");
    CHECK(pathconfig_result_get_double(NULL, "a", &d) == PATHCONFIG_E_ARGUMENT && d == 42, "get_double res");
    CHECK(pathconfig_result_get_double(res, NULL, &d) == PATHCONFIG_E_ARGUMENT, "get_double key");
    s = "unset";
    CHECK(pathconfig_result_get_json(NULL, "a", &s) == PATHCONFIG_E_ARGUMENT && s == NULL, "get_json res");
    CHECK(pathconfig_result_get_json(res, NULL, NULL) == PATHCONFIG_E_ARGUMENT, "get_json key");
    CHECK(test_last_code() == PATHCONFIG_E_ARGUMENT, "getter failures set the last error");
    CHECK(pathconfig_result_typed_string(NULL, PATHCONFIG_KEY_CONTEXT) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "typed_string res");
    CHECK(pathconfig_result_typed_string(res, -1) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "typed_string key -1");
    CHECK(pathconfig_result_typed_bool(NULL, PATHCONFIG_KEY_ANIMATED) == 0 && test_last_code() == PATHCONFIG_E_ARGUMENT,
          "typed_bool res: 0 (false, never a negative code that reads as true)");
    CHECK(pathconfig_result_typed_bool(res, -1) == 0 && test_last_code() == PATHCONFIG_E_ARGUMENT, "typed_bool key -1");
    CHECK(pathconfig_result_typed_string(NULL, PATHCONFIG_KEY_CONTEXT) == NULL && pathconfig_result_typed_string(NULL, PATHCONFIG_KEY_PRESENTATION) == NULL &&
              pathconfig_result_typed_string(NULL, PATHCONFIG_KEY_MODAL_STYLE) == NULL && pathconfig_result_typed_string(NULL, PATHCONFIG_KEY_QUERY_STRING_PRESENTATION) == NULL &&
              pathconfig_result_typed_string(NULL, PATHCONFIG_KEY_VIEW_CONTROLLER) == NULL && pathconfig_result_typed_string(NULL, PATHCONFIG_KEY_TITLE) == NULL &&
              pathconfig_result_typed_string(NULL, PATHCONFIG_KEY_URI) == NULL && pathconfig_result_typed_string(NULL, PATHCONFIG_KEY_FALLBACK_URI) == NULL &&
              test_last_code() == PATHCONFIG_E_ARGUMENT,
          "every typed string key of NULL");
    CHECK(pathconfig_result_typed_bool(NULL, PATHCONFIG_KEY_PULL_TO_REFRESH_ENABLED) == 0 &&
              pathconfig_result_typed_bool(NULL, PATHCONFIG_KEY_MODAL_DISMISS_GESTURE_ENABLED) == 0 &&
              pathconfig_result_typed_bool(NULL, PATHCONFIG_KEY_ANIMATED) == 0 &&
              pathconfig_result_typed_bool(NULL, PATHCONFIG_KEY_HISTORICAL_LOCATION) == 0 &&
              test_last_code() == PATHCONFIG_E_ARGUMENT,
          "every typed bool key of NULL reads 0");

    /* A success clears what a failure left. */
    CHECK(pathconfig_result_count(res) == 0 && test_last_code() == PATHCONFIG_OK, "cleared by a success");
    CHECK(pathconfig_result_retain(NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "retain NULL");

    pathconfig_result_release(res);
    pathconfig_release(cfg);
}

/* Results are reference-counted: a retained one outlives its first release,
 * and its borrowed strings stay valid while any reference remains. */
static void test_shared_results(void)
{
    pathconfig *cfg = LOAD("{\"rules\": [{\"patterns\": [\"/new$\"], \"properties\": {\"context\": \"modal\"}}]}",
                           "{\"result_cache_size\": 0}", NULL);
    pathconfig_result *a = pathconfig_resolve(cfg, "/a/new", NULL, NULL);
    pathconfig_result *b = pathconfig_resolve(cfg, "/b/new", NULL, NULL);
    pathconfig_result *c = pathconfig_resolve(cfg, "/c", NULL, NULL);
    const char *json;

    test_set_context("shared results");
    if (!CHECK(a != NULL && b != NULL && c != NULL, "resolve")) return;
    CHECK(pathconfig_result_retain(a) == a && test_last_code() == PATHCONFIG_OK, "retain returns its argument");
    json = pathconfig_result_json(a);
    pathconfig_result_release(a);
    pathconfig_result_release(b);
    pathconfig_release(cfg);
    /* One reference is left: the result and its JSON are still there. */
    CHECK(json != NULL && strcmp(json, "{\"context\":\"modal\"}") == 0 && strcmp(pathconfig_result_json(a), json) == 0,
          "after two releases: %s", test_show(json));
    CHECK(strcmp(pathconfig_result_json(c), "{}") == 0, "the other answer: %s", pathconfig_result_json(c));
    pathconfig_result_release(a);
    pathconfig_result_release(c);
}

/* pathconfig_result_id names an answer: lookups that give the same answer
 * give the same id (whatever handle they return: a thread may get a copy of
 * its own), different answers different ids, never 0, never reused. */
static void test_result_ids(void)
{
    static const char doc[] =
        "{\"rules\": [{\"patterns\": [\"/new$\"], \"properties\": {\"context\": \"modal\"}},"
        " {\"patterns\": [\"/edit$\"], \"properties\": {\"context\": \"modal\", \"title\": \"Edit\"}},"
        " {\"patterns\": [\"/new$\"], \"methods\": [\"POST\"], \"properties\": {\"post\": true}}]}";
    pathconfig *cfg = LOAD(doc, "{\"result_cache_size\": 0, \"profile\": \"siesta\"}", NULL);
    pathconfig *cached = LOAD(doc, "{\"profile\": \"siesta\"}", NULL);
    pathconfig_result *seen[8];
    uint64_t ids[64];
    size_t n_ids = 0, i, k;
    uint64_t first, nothing;

    test_set_context("result ids");
    if (!CHECK(cfg != NULL && cached != NULL, "setup")) return;

    /* The same answer, many lookups (enough that a copy may be handed out):
     * one id, and equal JSON text. */
    for (i = 0; i < 8; i++) {
        char url[32];
        snprintf(url, sizeof url, "/%zu/new", i);
        seen[i] = pathconfig_resolve(cfg, url, NULL, NULL);
        if (!CHECK(seen[i] != NULL, "resolve %s", url)) return;
    }
    first = pathconfig_result_id(seen[0]);
    CHECK(first != 0 && test_last_code() == PATHCONFIG_OK, "id %llu, not 0, no error", (unsigned long long)first);
    for (i = 1; i < 8; i++) {
        CHECK(pathconfig_result_id(seen[i]) == first, "lookup %zu: id %llu, expected %llu", i,
              (unsigned long long)pathconfig_result_id(seen[i]), (unsigned long long)first);
        CHECK(strcmp(pathconfig_result_json(seen[i]), pathconfig_result_json(seen[0])) == 0, "lookup %zu: the same JSON", i);
    }
    /* "GET" and NULL are one method: one answer. */
    {
        pathconfig_result *get = pathconfig_resolve(cfg, "/x/new", "get", NULL);
        CHECK(get != NULL && pathconfig_result_id(get) == first, "\"get\" as NULL");
        pathconfig_result_release(get);
    }
    /* The id survives the configuration and the other references. */
    pathconfig_release(cfg);
    cfg = NULL;
    for (i = 0; i < 7; i++) pathconfig_result_release(seen[i]);
    CHECK(pathconfig_result_id(seen[7]) == first && strcmp(pathconfig_result_json(seen[7]), "{\"context\":\"modal\"}") == 0,
          "the last reference keeps its id and text");
    ids[n_ids++] = first;
    pathconfig_result_release(seen[7]);

    /* Different answers, different ids; the cached configuration too. */
    {
        static const struct { const char *url, *method; } lookups[] = {
            { "/a/new", "POST" }, { "/a/edit", NULL }, { "/a", NULL }, { "/a/new", NULL },
            { "/b/new", "POST" }, { "/b/edit", "PUT" },
        };
        pathconfig_result *held[6];
        for (i = 0; i < 6; i++) {
            uint64_t id;
            held[i] = pathconfig_resolve(cached, lookups[i].url, lookups[i].method, NULL);
            if (!CHECK(held[i] != NULL, "resolve %s", lookups[i].url)) return;
            id = pathconfig_result_id(held[i]);
            CHECK(id != 0, "%s: id 0", lookups[i].url);
            for (k = 0; k < i; k++) {
                int same_json = strcmp(pathconfig_result_json(held[k]), pathconfig_result_json(held[i])) == 0;
                if (pathconfig_result_id(held[k]) == id)
                    CHECK(same_json, "%s and %s share id %llu with different properties %s / %s", lookups[k].url,
                          lookups[i].url, (unsigned long long)id, pathconfig_result_json(held[k]),
                          pathconfig_result_json(held[i]));
            }
        }
        /* The answers of this document: {context}, {context,post}, {context,title}, {}. */
        CHECK(pathconfig_result_id(held[0]) == pathconfig_result_id(held[4]), "POST /a/new and POST /b/new: one answer");
        CHECK(pathconfig_result_id(held[1]) == pathconfig_result_id(held[5]), "/a/edit GET and PUT: one answer");
        CHECK(pathconfig_result_id(held[0]) != pathconfig_result_id(held[3]), "POST and GET answers differ");
        CHECK(pathconfig_result_id(held[1]) != pathconfig_result_id(held[3]), "/edit and /new differ");
        CHECK(pathconfig_result_id(held[2]) != pathconfig_result_id(held[3]), "no match and a match differ");
        {
            /* Four answers, four ids (the released configuration's id, first,
             * stays in ids: no later answer may take it). */
            size_t before = n_ids;
            for (i = 0; i < 6; i++) {
                uint64_t id = pathconfig_result_id(held[i]);
                for (k = before; k < n_ids && ids[k] != id; k++) {}
                if (k == n_ids) ids[n_ids++] = id;
            }
            CHECK(n_ids - before == 4, "%zu distinct ids for the document's 4 answers", n_ids - before);
        }
        for (i = 0; i < 6; i++) pathconfig_result_release(held[i]);
    }

    /* Ids are unique in the process and never reused: answers of new
     * configurations, made after every earlier result is gone, get new ids. */
    for (i = 0; i < 20; i++) {
        char text[128];
        pathconfig *fresh;
        pathconfig_result *res;
        uint64_t id;
        snprintf(text, sizeof text, "{\"rules\": [{\"patterns\": [\".*\"], \"properties\": {\"n\": %zu}}]}", i);
        fresh = LOAD(text, NULL, NULL);
        res = pathconfig_resolve(fresh, "/", NULL, NULL);
        id = pathconfig_result_id(res);
        CHECK(id != 0, "fresh %zu: id 0", i);
        for (k = 0; k < n_ids; k++) CHECK(ids[k] != id, "fresh %zu: id %llu given before", i, (unsigned long long)id);
        if (n_ids < sizeof ids / sizeof ids[0]) ids[n_ids++] = id;
        pathconfig_result_release(res);
        pathconfig_release(fresh);
    }
    nothing = pathconfig_result_id(NULL);
    CHECK(nothing == 0 && test_last_code() == PATHCONFIG_E_ARGUMENT, "id of NULL: %llu, code %d", (unsigned long long)nothing,
          test_last_code());
    pathconfig_release(cached);
}

/* pathconfig_resolve with a method: the method's rules apply, "GET" is NULL,
 * every argument check, a result that outlives its configuration, and one
 * kept by a retain past other lookups. Valgrind (make valgrind) checks that
 * nothing leaks or is read freed. */
static void test_resolve_methods(void)
{
    static const char doc[] =
        "{\"rules\": [{\"patterns\": [\"/new$\"], \"properties\": {\"context\": \"modal\"}},"
        " {\"patterns\": [\"/new$\"], \"methods\": [\"POST\"], \"properties\": {\"post\": true}}]}";
    pathconfig *cfg = LOAD(doc, "{\"result_cache_size\": 0, \"max_url_bytes\": 32}", NULL);
    pathconfig *other = LOAD("{\"rules\": [{\"patterns\": [\"^/o\"], \"properties\": {\"o\": 1}}]}", NULL, NULL);
    pathconfig_result *res, *kept;
    pathconfig_error err;

    test_set_context("resolve with a method");
    if (!CHECK(cfg != NULL && other != NULL, "setup")) return;

    res = pathconfig_resolve(cfg, "https://example.com/a/new", "POST", &err);
    CHECK(res != NULL && err.code == PATHCONFIG_OK && strcmp(pathconfig_result_json(res), "{\"context\":\"modal\",\"post\":true}") == 0,
          "a POST reads the method's rules: %s", res ? pathconfig_result_json(res) : err.message);
    pathconfig_result_release(res);
    res = pathconfig_resolve(cfg, "/a/new", "GET", &err);
    CHECK(res != NULL && strcmp(pathconfig_result_json(res), "{\"context\":\"modal\"}") == 0, "\"GET\" as NULL");
    pathconfig_result_release(res);

    /* Failures: NULL, err and the last error say why. */
    dirty(&err);
    CHECK(pathconfig_resolve(cfg, "/", "NOT A TOKEN", &err) == NULL && err.code == PATHCONFIG_E_ARGUMENT &&
              test_last_code() == PATHCONFIG_E_ARGUMENT,
          "bad method: %d", err.code);
    CHECK(pathconfig_resolve(cfg, "\xff", NULL, NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "not UTF-8");
    CHECK(pathconfig_resolve(cfg, "/", "G\xc3", NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "method not UTF-8");
    CHECK(pathconfig_resolve(cfg, "/a/very/long/path/that/is/longer/new", NULL, NULL) == NULL &&
              test_last_code() == PATHCONFIG_E_LIMIT,
          "longer than max_url_bytes");
    res = pathconfig_resolve(cfg, "/x", NULL, NULL);
    CHECK(res != NULL && test_last_code() == PATHCONFIG_OK, "a success clears the last error");
    pathconfig_result_release(res);

    /* A result outlives its configuration, and a retain keeps it past other lookups. */
    res = pathconfig_resolve(cfg, "/c/new", NULL, NULL);
    pathconfig_release(cfg);
    CHECK(res != NULL && strcmp(pathconfig_result_json(res), "{\"context\":\"modal\"}") == 0 &&
              strcmp(test_show(pathconfig_result_typed_string(res, PATHCONFIG_KEY_CONTEXT)), "modal") == 0,
          "readable after its configuration's release");
    kept = pathconfig_result_retain(res);
    pathconfig_result_release(res);
    res = pathconfig_resolve(other, "/o", NULL, NULL);
    CHECK(res != NULL && strcmp(pathconfig_result_json(res), "{\"o\":1}") == 0, "the next lookup gives its own");
    CHECK(kept != NULL && strcmp(pathconfig_result_json(kept), "{\"context\":\"modal\"}") == 0, "the retained one stays");
    pathconfig_result_release(res);
    pathconfig_result_release(kept);
    pathconfig_release(other);
}

static void test_invalid_utf8_arguments(void)
{
    pathconfig *cfg = LOAD("{\"rules\": [{\"patterns\": [\".*\"], \"properties\": {\"a\": \"b\"}}]}", NULL, NULL);
    pathconfig_result *res = pathconfig_resolve(cfg, "/", NULL, NULL);
    pathconfig_error err;
    const char *s = "unset";
    static const char *const bad[] = { "/caf\xc3", "/\xff", "/\xc0\xaf", "/\xed\xa0\x80" /* surrogate */ };
    size_t i;

    test_set_context("invalid UTF-8 arguments");
    if (!CHECK(cfg != NULL && res != NULL, "setup")) return;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        dirty(&err);
        CHECK(pathconfig_resolve(cfg, bad[i], NULL, &err) == NULL && err.code == PATHCONFIG_E_ARGUMENT &&
                  strstr(err.message, "UTF-8") != NULL,
              "resolve bad[%zu]: %d %s", i, err.code, err.message);
        CHECK(pathconfig_resolve(cfg, "/", bad[i] + 1, NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT,
              "method bad[%zu]", i);
        CHECK(pathconfig_explain(cfg, "/", bad[i] + 1, NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT,
              "explain method bad[%zu]", i);
        CHECK(pathconfig_explain(cfg, bad[i], NULL, NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "explain bad[%zu]", i);
        CHECK(pathconfig_matched_string(cfg, bad[i], NULL) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "matched bad[%zu]", i);
        CHECK(pathconfig_result_get_string(res, bad[i], &s, NULL) == PATHCONFIG_E_ARGUMENT && s == NULL, "get_string bad[%zu]", i);
        CHECK(pathconfig_result_get_json(res, bad[i], &s) == PATHCONFIG_E_ARGUMENT && s == NULL, "get_json bad[%zu]", i);
        CHECK(pathconfig_result_get_bool(res, bad[i], NULL) == PATHCONFIG_E_ARGUMENT &&
                  pathconfig_result_get_int64(res, bad[i], NULL) == PATHCONFIG_E_ARGUMENT &&
                  pathconfig_result_get_double(res, bad[i], NULL) == PATHCONFIG_E_ARGUMENT &&
                  test_last_code() == PATHCONFIG_E_ARGUMENT,
              "scalar getters bad[%zu]", i);
    }
    /* Valid non-ASCII is fine. */
    {
        /* hotwire-ios@main matches URL.path(): the path percent-encoded, as iOS keeps it. */
        pathconfig *main_branch = LOAD("{\"rules\": []}", "{\"profile\": \"hotwire-ios@main\"}", NULL);
        char *ms = pathconfig_matched_string(main_branch, "https://example.com/caf\xc3\xa9/\xe2\x9c\x93", NULL);
        CHECK(ms != NULL && strcmp(ms, "/caf%C3%A9/%E2%9C%93") == 0, "encoded path %s", ms ? ms : "(null)");
        pathconfig_string_free(ms);
        pathconfig_release(main_branch);
        /* The bare hotwire-ios (its latest release) matches url.path: decoded. */
        ms = pathconfig_matched_string(cfg, "https://example.com/caf\xc3\xa9/\xe2\x9c\x93", NULL);
        CHECK(ms != NULL && strcmp(ms, "/caf\xc3\xa9/\xe2\x9c\x93") == 0, "decoded path %s", ms ? ms : "(null)");
        pathconfig_string_free(ms);
    }
    pathconfig_result_release(res);
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
    pathconfig_result *res = pathconfig_resolve(cfg, "/", NULL, NULL);
    const char *s = NULL, *s2 = NULL;
    int b = -1;
    int64_t i = -1;
    double d = -1;

    test_set_context("raw getters");
    if (!CHECK(cfg != NULL && res != NULL, "setup: %s", pathconfig_last_error()->message)) return;

    CHECK(pathconfig_result_get_string(res, "s", &s, NULL) == PATHCONFIG_OK && strcmp(s, "text") == 0, "string");
    CHECK(pathconfig_result_get_string(res, "s", &s2, NULL) == PATHCONFIG_OK && s2 == s, "same pointer twice");
    CHECK(pathconfig_result_get_string(res, "u", &s, NULL) == PATHCONFIG_OK && strcmp(s, "caf\xc3\xa9") == 0, "unicode");
    CHECK(pathconfig_result_get_string(res, "t", &s, NULL) == PATHCONFIG_E_TYPE && s == NULL && test_last_code() == PATHCONFIG_E_TYPE,
          "bool as string");
    CHECK(strstr(pathconfig_last_error()->message, "\"t\"") != NULL, "message names the key: %s", pathconfig_last_error()->message);
    CHECK(pathconfig_result_get_string(res, "n", &s, NULL) == PATHCONFIG_E_TYPE && s == NULL, "null as string");
    CHECK(pathconfig_result_get_string(res, "missing", &s, NULL) == PATHCONFIG_NOT_FOUND && s == NULL &&
              test_last_code() == PATHCONFIG_OK,
          "missing string");
    CHECK(pathconfig_result_get_string(res, "s", NULL, NULL) == PATHCONFIG_OK, "out NULL");

    /* With the length, a string holding U+0000 arrives whole. */
    {
        size_t len = 99;
        s = NULL;
        CHECK(pathconfig_result_get_string(res, "z", &s, &len) == PATHCONFIG_OK && len == 5 && s != NULL &&
                  memcmp(s, "a\0b\xc3\xa9", 5) == 0 && s[5] == '\0',
              "embedded NUL: len %zu", len);
        CHECK(pathconfig_result_get_string(res, "z", &s2, NULL) == PATHCONFIG_OK && s2 == s && strcmp(s2, "a") == 0,
              "the same pointer, cut at the NUL as a C string");
        CHECK(pathconfig_result_get_string(res, "u", &s, &len) == PATHCONFIG_OK && len == 5 &&
                  strcmp(s, "caf\xc3\xa9") == 0,
              "length in bytes: %zu", len);
        CHECK(pathconfig_result_get_string(res, "s", NULL, &len) == PATHCONFIG_OK && len == 4, "out NULL: %zu", len);
        CHECK(pathconfig_result_get_string(res, "s", &s, NULL) == PATHCONFIG_OK && strcmp(s, "text") == 0, "len NULL");
        len = 99;
        CHECK(pathconfig_result_get_string(res, "t", &s, &len) == PATHCONFIG_E_TYPE && s == NULL && len == 0,
              "bool: %zu", len);
        len = 99;
        CHECK(pathconfig_result_get_string(res, "missing", &s, &len) == PATHCONFIG_NOT_FOUND && s == NULL && len == 0 &&
                  test_last_code() == PATHCONFIG_OK,
              "missing");
        len = 99;
        CHECK(pathconfig_result_get_string(NULL, "s", &s, &len) == PATHCONFIG_E_ARGUMENT && s == NULL && len == 0,
              "res NULL");
        CHECK(pathconfig_result_get_string(res, NULL, &s, &len) == PATHCONFIG_E_ARGUMENT && s == NULL, "key NULL");
    }

    CHECK(pathconfig_result_get_bool(res, "t", &b) == PATHCONFIG_OK && b == 1, "true");
    CHECK(pathconfig_result_get_bool(res, "f", &b) == PATHCONFIG_OK && b == 0, "false");
    b = 7;
    CHECK(pathconfig_result_get_bool(res, "s", &b) == PATHCONFIG_E_TYPE && b == 7, "string as bool");
    CHECK(pathconfig_result_get_bool(res, "missing", &b) == PATHCONFIG_NOT_FOUND && b == 7 && test_last_code() == PATHCONFIG_OK,
          "missing bool keeps the default, no error");
    CHECK(pathconfig_result_get_bool(res, "t", NULL) == PATHCONFIG_OK && pathconfig_result_get_int64(res, "i", NULL) == PATHCONFIG_OK &&
              pathconfig_result_get_double(res, "x", NULL) == PATHCONFIG_OK && pathconfig_result_get_json(res, "o", NULL) == PATHCONFIG_OK,
          "out NULL tests for the key");
    CHECK(pathconfig_result_get_bool(res, "n", &b) == PATHCONFIG_E_TYPE && b == 7 && test_last_code() == PATHCONFIG_E_TYPE,
          "null as bool: a positive code, the last error set");

    CHECK(pathconfig_result_get_int64(res, "i", &i) == PATHCONFIG_OK && i == -42, "int");
    CHECK(pathconfig_result_get_int64(res, "big", &i) == PATHCONFIG_OK && i == INT64_MAX, "INT64_MAX");
    CHECK(pathconfig_result_get_int64(res, "huge", &i) == PATHCONFIG_E_TYPE, "beyond int64");
    CHECK(pathconfig_result_get_int64(res, "x", &i) == PATHCONFIG_E_TYPE, "fraction");
    CHECK(pathconfig_result_get_int64(res, "e", &i) == PATHCONFIG_E_TYPE, "exponent");
    CHECK(pathconfig_result_get_int64(res, "s", &i) == PATHCONFIG_E_TYPE, "string as int");
    CHECK(pathconfig_result_get_int64(res, "missing", &i) == PATHCONFIG_NOT_FOUND, "missing int");

    CHECK(pathconfig_result_get_double(res, "x", &d) == PATHCONFIG_OK && d == 1.5, "double");
    CHECK(pathconfig_result_get_double(res, "e", &d) == PATHCONFIG_OK && d == 1000.0, "exponent double");
    CHECK(pathconfig_result_get_double(res, "i", &d) == PATHCONFIG_OK && d == -42.0, "int as double");
    CHECK(pathconfig_result_get_double(res, "huge", &d) == PATHCONFIG_OK && d > 1.2e19, "huge as double");
    CHECK(pathconfig_result_get_double(res, "o", &d) == PATHCONFIG_E_TYPE, "object as double");

    CHECK(pathconfig_result_get_json(res, "o", &s) == PATHCONFIG_OK && strcmp(s, "{\"k\":[1,\"two\"]}") == 0, "object json %s", s);
    CHECK(pathconfig_result_get_json(res, "x", &s) == PATHCONFIG_OK && strcmp(s, "1.50") == 0, "number literal kept: %s", s);
    CHECK(pathconfig_result_get_json(res, "huge", &s) == PATHCONFIG_OK && strcmp(s, "12345678901234567890") == 0, "big literal");
    CHECK(pathconfig_result_get_json(res, "n", &s) == PATHCONFIG_OK && strcmp(s, "null") == 0, "null json");
    CHECK(pathconfig_result_get_json(res, "a", &s) == PATHCONFIG_OK && strcmp(s, "[]") == 0, "array json");
    CHECK(pathconfig_result_get_json(res, "s", &s) == PATHCONFIG_OK && strcmp(s, "\"text\"") == 0, "string json");
    CHECK(pathconfig_result_get_json(res, "missing", &s) == PATHCONFIG_NOT_FOUND && s == NULL, "missing json");

    /* Keys in document order; out of range is an argument error. */
    {
        static const char *const keys[] = { "s", "u", "t", "f", "i", "big", "huge", "x", "e", "n", "o", "a", "z" };
        /* The getter each value needs: a number beyond int64_t, with a
         * fraction or an exponent is a double. */
        static const int types[] = { PATHCONFIG_TYPE_STRING, PATHCONFIG_TYPE_STRING, PATHCONFIG_TYPE_BOOL, PATHCONFIG_TYPE_BOOL,
                                     PATHCONFIG_TYPE_INT, PATHCONFIG_TYPE_INT, PATHCONFIG_TYPE_DOUBLE, PATHCONFIG_TYPE_DOUBLE,
                                     PATHCONFIG_TYPE_DOUBLE, PATHCONFIG_TYPE_NULL, PATHCONFIG_TYPE_OBJECT, PATHCONFIG_TYPE_ARRAY,
                                     PATHCONFIG_TYPE_STRING };
        size_t k, count = pathconfig_result_count(res);
        CHECK(count == 13, "count %zu", count);
        for (k = 0; k < count && k < 13; k++) {
            CHECK(strcmp(pathconfig_result_key(res, k), keys[k]) == 0, "key %zu = %s", k, pathconfig_result_key(res, k));
            CHECK(pathconfig_result_type(res, k) == types[k] && test_last_code() == PATHCONFIG_OK, "type of %s: %d, expected %d",
                  keys[k], pathconfig_result_type(res, k), types[k]);
        }
        CHECK(pathconfig_result_type(res, count) == 0 && test_last_code() == PATHCONFIG_E_ARGUMENT, "type out of range");
        CHECK(pathconfig_result_type(res, (size_t)-1) == 0 && test_last_code() == PATHCONFIG_E_ARGUMENT, "type SIZE_MAX");
        CHECK(pathconfig_result_key(res, count) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "key out of range");
        CHECK(pathconfig_result_key(res, (size_t)-1) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT, "key SIZE_MAX");
        CHECK(pathconfig_result_key(res, 0) == pathconfig_result_key(res, 0), "stable key pointer");
    }
    {
        const char *json = pathconfig_result_json(res);
        CHECK(json != NULL && json == pathconfig_result_json(res), "json made once");
        CHECK(json != NULL && strncmp(json, "{\"s\":\"text\",\"u\":\"caf\xc3\xa9\",\"t\":true", 29) == 0, "json %s", json);
    }
    pathconfig_result_release(res);

    /* Shallow merge: a later rule replaces a nested object whole. */
    res = pathconfig_resolve(cfg, "/over", NULL, NULL);
    CHECK(pathconfig_result_get_string(res, "s", &s, NULL) == PATHCONFIG_OK && strcmp(s, "replaced") == 0, "later rule wins");
    CHECK(pathconfig_result_get_json(res, "o", &s) == PATHCONFIG_OK && strcmp(s, "{\"only\":1}") == 0, "shallow: %s", s);
    CHECK(pathconfig_result_count(res) == 13, "same keys, first-seen order");
    pathconfig_result_release(res);

    /* No match gives {}. */
    pathconfig_release(cfg);
    cfg = LOAD("{\"rules\": [{\"patterns\": [\"^/a$\"], \"properties\": {\"a\": 1}}]}", NULL, NULL);
    res = pathconfig_resolve(cfg, "/b", NULL, NULL);
    CHECK(res != NULL && strcmp(pathconfig_result_json(res), "{}") == 0 && pathconfig_result_count(res) == 0, "no match");
    pathconfig_result_release(res);
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
    /* hotwire-android before 1.2 keeps every value as a string. */
    pathconfig *android_strings = LOAD(doc, "{\"profile\": \"hotwire-android@1.1.3\"}", NULL);
    pathconfig_result *res;
    const char *s;

    test_set_context("typed getters");
    if (!CHECK(ios != NULL && android != NULL && android_strings != NULL, "setup")) {
        pathconfig_release(ios);
        pathconfig_release(android);
        pathconfig_release(android_strings);
        return;
    }

    /* Every key set. */
    res = pathconfig_resolve(ios, "/modal", NULL, NULL);
    CHECK(strcmp(pathconfig_result_typed_string(res, PATHCONFIG_KEY_CONTEXT), "modal") == 0, "context");
    CHECK(strcmp(pathconfig_result_typed_string(res, PATHCONFIG_KEY_PRESENTATION), "replace_root") == 0, "presentation");
    CHECK(strcmp(pathconfig_result_typed_string(res, PATHCONFIG_KEY_MODAL_STYLE), "page_sheet") == 0, "modal_style");
    CHECK(strcmp(pathconfig_result_typed_string(res, PATHCONFIG_KEY_QUERY_STRING_PRESENTATION), "replace") == 0, "query_string_presentation");
    CHECK(strcmp(pathconfig_result_typed_string(res, PATHCONFIG_KEY_VIEW_CONTROLLER), "native") == 0, "view_controller");
    CHECK(strcmp(pathconfig_result_typed_string(res, PATHCONFIG_KEY_TITLE), "Hi") == 0, "title");
    CHECK(strcmp(pathconfig_result_typed_string(res, PATHCONFIG_KEY_URI), "app://x") == 0, "uri");
    CHECK(strcmp(pathconfig_result_typed_string(res, PATHCONFIG_KEY_FALLBACK_URI), "app://y") == 0, "fallback_uri");
    CHECK(pathconfig_result_typed_bool(res, PATHCONFIG_KEY_PULL_TO_REFRESH_ENABLED) == 0, "pull_to_refresh_enabled");
    CHECK(pathconfig_result_typed_bool(res, PATHCONFIG_KEY_MODAL_DISMISS_GESTURE_ENABLED) == 0, "modal_dismiss_gesture_enabled");
    CHECK(pathconfig_result_typed_bool(res, PATHCONFIG_KEY_ANIMATED) == 0, "animated");
    CHECK(pathconfig_result_typed_bool(res, PATHCONFIG_KEY_HISTORICAL_LOCATION) == 0, "historical_location");
    pathconfig_result_release(res);

    /* Defaults, iOS. */
    res = pathconfig_resolve(ios, "/nothing", NULL, NULL);
    CHECK(strcmp(pathconfig_result_typed_string(res, PATHCONFIG_KEY_CONTEXT), "default") == 0, "default context");
    CHECK(strcmp(pathconfig_result_typed_string(res, PATHCONFIG_KEY_PRESENTATION), "default") == 0, "default presentation");
    CHECK(strcmp(pathconfig_result_typed_string(res, PATHCONFIG_KEY_MODAL_STYLE), "large") == 0, "default modal_style");
    CHECK(strcmp(pathconfig_result_typed_string(res, PATHCONFIG_KEY_QUERY_STRING_PRESENTATION), "default") == 0, "default qsp");
    CHECK(strcmp(pathconfig_result_typed_string(res, PATHCONFIG_KEY_VIEW_CONTROLLER), "web") == 0, "default view_controller (iOS)");
    s = pathconfig_result_typed_string(res, PATHCONFIG_KEY_TITLE);
    CHECK(s == NULL && test_last_code() == PATHCONFIG_OK, "no title: NULL without error");
    CHECK(pathconfig_result_typed_string(res, PATHCONFIG_KEY_TITLE) == NULL && test_last_code() == PATHCONFIG_OK, "typed_string title");
    CHECK(pathconfig_result_typed_bool(res, PATHCONFIG_KEY_PULL_TO_REFRESH_ENABLED) == 1, "default pull_to_refresh (iOS)");
    CHECK(pathconfig_result_typed_bool(res, PATHCONFIG_KEY_MODAL_DISMISS_GESTURE_ENABLED) == 1, "default modal_dismiss_gesture");
    CHECK(pathconfig_result_typed_bool(res, PATHCONFIG_KEY_ANIMATED) == 1, "default animated");
    CHECK(pathconfig_result_typed_bool(res, PATHCONFIG_KEY_HISTORICAL_LOCATION) == 0, "default historical_location");
    pathconfig_result_release(res);

    /* iOS reads strictly: wrong case, Android-only values, strings for bools give defaults. */
    res = pathconfig_resolve(ios, "/odd", NULL, NULL);
    CHECK(strcmp(pathconfig_result_typed_string(res, PATHCONFIG_KEY_CONTEXT), "default") == 0, "MODAL is not modal on iOS");
    CHECK(strcmp(pathconfig_result_typed_string(res, PATHCONFIG_KEY_PRESENTATION), "default") == 0, "push is unknown on iOS");
    CHECK(strcmp(pathconfig_result_typed_string(res, PATHCONFIG_KEY_MODAL_STYLE), "large") == 0, "number modal_style");
    CHECK(pathconfig_result_typed_bool(res, PATHCONFIG_KEY_ANIMATED) == 1, "\"false\" is not a bool on iOS");
    CHECK(pathconfig_result_typed_bool(res, PATHCONFIG_KEY_PULL_TO_REFRESH_ENABLED) == 1, "\"TRUE\" is not a bool on iOS");
    CHECK(pathconfig_result_typed_string(res, PATHCONFIG_KEY_TITLE) == NULL, "number title on iOS");
    pathconfig_result_release(res);

    /* Android before hotwire-android 1.2 reads leniently: every value a string. */
    res = pathconfig_resolve(android_strings, "https://example.com/odd", NULL, NULL);
    CHECK(strcmp(pathconfig_result_typed_string(res, PATHCONFIG_KEY_CONTEXT), "modal") == 0, "MODAL reads as modal on Android");
    CHECK(strcmp(pathconfig_result_typed_string(res, PATHCONFIG_KEY_PRESENTATION), "push") == 0, "push on Android");
    CHECK(pathconfig_result_typed_bool(res, PATHCONFIG_KEY_ANIMATED) == 0 && test_last_code() == PATHCONFIG_OK,
          "\"false\" on Android 1.1.3");
    CHECK(pathconfig_result_typed_bool(res, PATHCONFIG_KEY_PULL_TO_REFRESH_ENABLED) == 1 && test_last_code() == PATHCONFIG_OK,
          "\"TRUE\" on Android 1.1.3");
    s = pathconfig_result_typed_string(res, PATHCONFIG_KEY_TITLE);
    CHECK(s != NULL && strcmp(s, "12") == 0, "number title on Android: %s", s ? s : "(null)");
    pathconfig_result_release(res);
    /* hotwire-android 1.2 and later (the bare name) read enumerations alike,
     * a number's toString() as a string, but a string as a boolean throws. */
    res = pathconfig_resolve(android, "https://example.com/odd", NULL, NULL);
    CHECK(strcmp(pathconfig_result_typed_string(res, PATHCONFIG_KEY_CONTEXT), "modal") == 0, "MODAL reads as modal on Android");
    CHECK(strcmp(pathconfig_result_typed_string(res, PATHCONFIG_KEY_PRESENTATION), "push") == 0, "push on Android");
    CHECK(pathconfig_result_typed_bool(res, PATHCONFIG_KEY_ANIMATED) == 0 && test_last_code() == PATHCONFIG_E_CRASH,
          "\"false\" on hotwire-android: the app crashes");
    CHECK(pathconfig_result_typed_bool(res, PATHCONFIG_KEY_PULL_TO_REFRESH_ENABLED) == 0 && test_last_code() == PATHCONFIG_E_CRASH,
          "\"TRUE\" on hotwire-android: the app crashes");
    s = pathconfig_result_typed_string(res, PATHCONFIG_KEY_TITLE);
    CHECK(s != NULL && strcmp(s, "12") == 0 && test_last_code() == PATHCONFIG_OK, "number title on Android: %s", s ? s : "(null)");
    pathconfig_result_release(res);
    res = pathconfig_resolve(android, "https://example.com/nothing", NULL, NULL);
    CHECK(pathconfig_result_typed_string(res, PATHCONFIG_KEY_VIEW_CONTROLLER) == NULL && test_last_code() == PATHCONFIG_OK, "no view_controller on Android");
    CHECK(pathconfig_result_typed_bool(res, PATHCONFIG_KEY_PULL_TO_REFRESH_ENABLED) == 0, "default pull_to_refresh (Android)");
    pathconfig_result_release(res);

    /* Built-in historical-location rules, typed. */
    res = pathconfig_resolve(android, "https://example.com/recede_historical_location", NULL, NULL);
    CHECK(strcmp(pathconfig_result_typed_string(res, PATHCONFIG_KEY_PRESENTATION), "pop") == 0, "POP reads as pop");
    CHECK(pathconfig_result_get_string(res, "presentation", &s, NULL) == PATHCONFIG_OK && strcmp(s, "POP") == 0, "raw POP");
    CHECK(pathconfig_result_typed_bool(res, PATHCONFIG_KEY_HISTORICAL_LOCATION) == 1, "historical_location");
    pathconfig_result_release(res);

    /* Kind and name errors. */
    res = pathconfig_resolve(ios, "/modal", NULL, NULL);
    CHECK(pathconfig_result_typed_string(res, PATHCONFIG_KEY_ANIMATED) == NULL && test_last_code() == PATHCONFIG_E_TYPE, "bool key as string");
    /* A failed typed_bool reads 0 (false), never a negative code that
     * would read as true: the last error tells a failure from false. */
    CHECK(pathconfig_result_typed_bool(res, PATHCONFIG_KEY_CONTEXT) == 0 && test_last_code() == PATHCONFIG_E_TYPE,
          "enum key as bool: 0, E_TYPE");
    CHECK(pathconfig_result_typed_bool(res, PATHCONFIG_KEY_TITLE) == 0 && test_last_code() == PATHCONFIG_E_TYPE,
          "string key as bool: 0, E_TYPE");
    {
        /* The first key past the catalog, and others out of range. */
        const int unknown[] = { (int)pathconfig_typed_key_count(), -1, 1000, INT_MAX, INT_MIN };
        size_t u;
        for (u = 0; u < sizeof unknown / sizeof unknown[0]; u++) {
            CHECK(pathconfig_result_typed_string(res, unknown[u]) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT,
                  "typed_string of key %d: NULL, E_ARGUMENT", unknown[u]);
            CHECK(strstr(pathconfig_last_error()->message, "key") != NULL, "the message says what: %s",
                  pathconfig_last_error()->message);
            CHECK(pathconfig_result_typed_bool(res, unknown[u]) == 0 && test_last_code() == PATHCONFIG_E_ARGUMENT,
                  "typed_bool of key %d: 0, E_ARGUMENT", unknown[u]);
        }
    }
    CHECK(pathconfig_result_typed_bool(res, PATHCONFIG_KEY_MODAL_DISMISS_GESTURE_ENABLED) == 0 && test_last_code() == PATHCONFIG_OK,
          "a false value: 0, no error");
    CHECK(pathconfig_result_typed_bool(res, PATHCONFIG_KEY_HISTORICAL_LOCATION) == 0 && test_last_code() == PATHCONFIG_OK,
          "a false default: 0, no error");
    pathconfig_result_release(res);
    /* A true value after a failure: the success clears the last error. */
    res = pathconfig_resolve(ios, "/nothing", NULL, NULL);
    CHECK(pathconfig_result_typed_bool(res, PATHCONFIG_KEY_CONTEXT) == 0 && test_last_code() == PATHCONFIG_E_TYPE, "failure first");
    CHECK(pathconfig_result_typed_bool(res, PATHCONFIG_KEY_ANIMATED) == 1 && test_last_code() == PATHCONFIG_OK, "then true, cleared");
    pathconfig_result_release(res);
    /* After a failed lookup, the typed reads of its NULL result read as
     * false / no value, never as true. */
    res = pathconfig_resolve(ios, "\xff", NULL, NULL);
    CHECK(res == NULL, "the lookup fails");
    CHECK(pathconfig_result_typed_bool(res, PATHCONFIG_KEY_ANIMATED) == 0 && test_last_code() == PATHCONFIG_E_ARGUMENT,
          "typed_bool of a failed lookup: 0");
    CHECK(pathconfig_result_typed_string(res, PATHCONFIG_KEY_CONTEXT) == NULL && test_last_code() == PATHCONFIG_E_ARGUMENT,
          "typed_string of a failed lookup: NULL");

    pathconfig_release(ios);
    pathconfig_release(android);
    pathconfig_release(android_strings);
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
    res = pathconfig_resolve(again, "/x", NULL, &err);
    CHECK(res != NULL, "usable after one release");
    pathconfig_release(again);

    /* The result outlives its configuration. */
    test_set_context("result outlives its configuration");
    CHECK(strcmp(pathconfig_result_json(res), "{\"context\":\"modal\",\"k\":\"v\"}") == 0, "json after release");
    CHECK(pathconfig_result_get_string(res, "k", &s, NULL) == PATHCONFIG_OK && strcmp(s, "v") == 0, "get after release");
    CHECK(strcmp(pathconfig_result_typed_string(res, PATHCONFIG_KEY_CONTEXT), "modal") == 0, "typed after release");
    pathconfig_result_release(res);

    /* Many references, and results from the shared cache freed in any order. */
    test_set_context("reference counting");
    cfg = LOAD("{\"rules\": [{\"patterns\": [\".*\"], \"properties\": {\"a\": 1}}]}", NULL, &err);
    {
        pathconfig *refs[16];
        pathconfig_result *results[16];
        int i;
        for (i = 0; i < 16; i++) refs[i] = pathconfig_retain(cfg);
        for (i = 0; i < 16; i++) results[i] = pathconfig_resolve(refs[i], "/same", NULL, NULL);
        pathconfig_release(cfg);
        for (i = 0; i < 16; i++) pathconfig_release(refs[i]);
        for (i = 15; i >= 0; i--) {
            CHECK(strcmp(pathconfig_result_json(results[i]), "{\"a\":1}") == 0, "result %d", i);
            pathconfig_result_release(results[i]);
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
    const char *settings;
    char *text;
    cJSON *json, *item;
    pathconfig_warning w;

    test_set_context("settings");
    if (!CHECK(cfg != NULL, "lenient load: %s", err.message)) return;
    settings = pathconfig_settings(cfg);
    CHECK(settings != NULL && strcmp(settings, "{\"b\":2,\"a\":{\"x\":[1]}}") == 0 && test_last_code() == PATHCONFIG_OK,
          "settings %s", test_show(settings));
    CHECK(pathconfig_settings(cfg) == settings, "borrowed from cfg: made once");

    test_set_context("warnings");
    CHECK(pathconfig_warning_count(cfg) == 2, "two warnings: %zu", pathconfig_warning_count(cfg));
    w.version = PATHCONFIG_WARNING_VERSION;
    CHECK(pathconfig_warning_get(cfg, 0, &w) == PATHCONFIG_OK && w.kind == PATHCONFIG_WARNING_DUPLICATE_KEY && w.line == 4 &&
              w.column == 59 && w.rule_index == 0 && w.pattern_index == -1 && w.message != NULL && w.message[0] != '\0',
          "duplicate key warning (in rule 0)");
    w.version = PATHCONFIG_WARNING_VERSION;
    CHECK(pathconfig_warning_get(cfg, 1, &w) == PATHCONFIG_OK && w.kind == PATHCONFIG_WARNING_SKIPPED_PATTERN && w.line == 5 &&
              w.column == 19 && w.rule_index == 1 && w.pattern_index == 0,
          "skipped pattern warning: kind %d at %d:%d rule %d pattern %d", w.kind, w.line, w.column, w.rule_index, w.pattern_index);

    test_set_context("explain");
    text = pathconfig_explain(cfg, "https://example.com/one?x=1#frag", NULL, NULL);
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
        char *props = test_properties(cfg, "https://example.com/one?x=1#frag");
        CHECK(props != NULL && strcmp(props, "{\"k\":1,\"j\":true}") == 0, "first duplicate kept: %s", props ? props : "(null)");
        free(props);
    }
    cJSON_Delete(json);
    pathconfig_string_free(text);

    text = pathconfig_explain(cfg, "/recede_historical_location", NULL, NULL);
    json = parse(text);
    item = cJSON_GetArrayItem(cJSON_GetObjectItem(json, "rules"), 0);
    CHECK(item != NULL && cJSON_IsTrue(cJSON_GetObjectItem(item, "builtin")) && cJSON_GetObjectItem(item, "index")->valueint == 2,
          "built-in rule: %s", text ? text : "(null)");
    cJSON_Delete(json);
    pathconfig_string_free(text);

    test_set_context("matched string");
    text = pathconfig_matched_string(cfg, "https://example.com/a/b/?q=1#f", NULL);
    CHECK(text != NULL && strcmp(text, "/a/b?q=1") == 0, "hotwire-ios drops the slash, adds the query: %s", text ? text : "(null)");
    pathconfig_string_free(text);
    {
        pathconfig *main_branch = LOAD(doc, "{\"lenient\": true, \"profile\": \"hotwire-ios@main\"}", &err);
        text = pathconfig_matched_string(main_branch, "https://example.com/a/b/?q=1#f", NULL);
        CHECK(text != NULL && strcmp(text, "/a/b/?q=1") == 0, "hotwire-ios@main keeps the slash, adds the query: %s",
              text ? text : "(null)");
        pathconfig_string_free(text);
        pathconfig_release(main_branch);
    }
    text = pathconfig_matched_string(cfg, "relative/path?q", NULL);
    CHECK(text != NULL && strcmp(text, "relative/path?q") == 0, "a path is matched as given");
    pathconfig_string_free(text);
    pathconfig_release(cfg);

    cfg = LOAD("{\"settings\": [1], \"rules\": []}", "{\"profile\": \"turbo-ios\"}", &err);
    test_set_context("ignored settings");
    w.version = PATHCONFIG_WARNING_VERSION;
    CHECK(pathconfig_warning_count(cfg) == 1 && pathconfig_warning_get(cfg, 0, &w) == PATHCONFIG_OK &&
              w.kind == PATHCONFIG_WARNING_IGNORED_SETTINGS,
          "warning: %zu, kind %d", pathconfig_warning_count(cfg), w.kind);
    settings = pathconfig_settings(cfg);
    CHECK(settings != NULL && strcmp(settings, "{}") == 0, "settings {}");
    text = pathconfig_matched_string(cfg, "https://example.com/a/b/?q=1", NULL);
    CHECK(text != NULL && strcmp(text, "/a/b") == 0, "turbo-ios drops the slash and the query: %s", text ? text : "(null)");
    pathconfig_string_free(text);
    pathconfig_release(cfg);

    cfg = LOAD("{\"rules\": []}", NULL, &err);
    CHECK(pathconfig_warning_count(cfg) == 0 && test_last_code() == PATHCONFIG_OK, "no warnings: 0");
    pathconfig_release(cfg);
}

/* pathconfig_options: every option in effect, defaults written out; loading
 * the same document with them gives the same configuration (the same
 * options, the same answers). */
static void test_options(void)
{
    static const char doc[] =
        "{\"rules\": [{\"patterns\": [\"/new$\"], \"properties\": {\"context\": \"modal\", \"o\": {\"a\": 1}}},"
        " {\"patterns\": [\"/new$\"], \"properties\": {\"o\": {\"b\": 2}}},"
        " {\"patterns\": [\"^/api/\"], \"globs\": [\"/api/**\"], \"properties\": {\"api\": true}}]}";
    static const char *const option_sets[] = {
        NULL,
        "{\"profile\": \"turbo-ios\"}",
        "{\"profile\": \"hotwire-android\", \"match_query_strings\": false, \"result_cache_size\": 0}",
        "{\"profile\": \"siesta\", \"base_url\": \"https://api.example.com/v1\", \"merge\": \"deep\", \"lenient\": true,"
        " \"max_url_bytes\": 300}",
    };
    static const char *const urls[] = { "/new", "https://api.example.com/v1/api/x/new?q=1", "/x?y=new", "api/new" };
    static const char *const keys[] = { "profile", "match_query_strings", "backend", "lenient", "base_url", "merge",
                                        "result_cache_size", "max_url_bytes" };
    size_t o, u, k;

    test_set_context("options");
    for (o = 0; o < sizeof option_sets / sizeof option_sets[0]; o++) {
        pathconfig_error err;
        pathconfig *cfg = LOAD(doc, option_sets[o], &err), *again;
        const char *options;
        char *copy;
        cJSON *json;
        if (!CHECK(cfg != NULL, "load with %s: %s", test_show(option_sets[o]), err.message)) continue;
        options = pathconfig_options(cfg);
        json = parse(options);
        if (!CHECK(json != NULL && cJSON_IsObject(json) && test_last_code() == PATHCONFIG_OK, "options %s", test_show(options))) {
            pathconfig_release(cfg);
            continue;
        }
        CHECK(pathconfig_options(cfg) == options, "borrowed from cfg: made once");
        for (k = 0; k < sizeof keys / sizeof keys[0]; k++)
            CHECK(cJSON_GetObjectItemCaseSensitive(json, keys[k]) != NULL, "%s: no %s in %s", test_show(option_sets[o]), keys[k], options);
        /* What was given is what is in effect. */
        if (option_sets[o] != NULL) {
            cJSON *given = cJSON_Parse(option_sets[o]), *item;
            cJSON_ArrayForEach(item, given) {
                const cJSON *effect = cJSON_GetObjectItemCaseSensitive(json, item->string);
                /* base_url is kept as Siesta keeps it: a "/" appended. */
                if (strcmp(item->string, "base_url") == 0)
                    CHECK(cJSON_IsString(effect) && strcmp(effect->valuestring, "https://api.example.com/v1/") == 0, "base_url %s",
                          options);
                else
                    CHECK(effect != NULL && cJSON_Compare(effect, item, 1), "%s given, %s in effect", item->string, options);
            }
            cJSON_Delete(given);
        } else {
            CHECK(strcmp(cJSON_GetObjectItemCaseSensitive(json, "profile")->valuestring, pathconfig_profile_name(0)) == 0 &&
                      strcmp(cJSON_GetObjectItemCaseSensitive(json, "backend")->valuestring, pathconfig_backend_name(0)) == 0,
                  "defaults: %s", options);
        }
        cJSON_Delete(json);

        /* Round trip: the options load, and give the same options and answers. */
        copy = strdup(options);
        again = LOAD(doc, copy, &err);
        if (CHECK(again != NULL, "loading with %s: %s", copy, err.message)) {
            CHECK(strcmp(pathconfig_options(again), copy) == 0, "options again %s, first %s", pathconfig_options(again), copy);
            CHECK(pathconfig_rule_count(again) == pathconfig_rule_count(cfg), "rule counts %zu, %zu", pathconfig_rule_count(again),
                  pathconfig_rule_count(cfg));
            for (u = 0; u < sizeof urls / sizeof urls[0]; u++) {
                char *first = test_properties(cfg, urls[u]), *second = test_properties(again, urls[u]);
                char *m1 = pathconfig_matched_string(cfg, urls[u], NULL), *m2 = pathconfig_matched_string(again, urls[u], NULL);
                CHECK(first != NULL && second != NULL && strcmp(first, second) == 0, "%s: %s, then %s", urls[u], test_show(first),
                      test_show(second));
                CHECK(m1 != NULL && m2 != NULL && strcmp(m1, m2) == 0, "%s: matched %s, then %s", urls[u], test_show(m1), test_show(m2));
                free(first);
                free(second);
                pathconfig_string_free(m1);
                pathconfig_string_free(m2);
            }
        }
        free(copy);
        pathconfig_release(again);
        pathconfig_release(cfg);
    }
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
    text = test_properties(cfg, url);
    CHECK(text != NULL && strcmp(text, "{\"long\":true}") == 0, "at the limit: %s", text ? text : pathconfig_last_error()->message);
    free(text);

    url[limit] = 'x';
    url[limit + 1] = '\0'; /* limit + 1 bytes */
    dirty(&err);
    res = pathconfig_resolve(cfg, url, NULL, &err);
    CHECK(res == NULL && err.code == PATHCONFIG_E_LIMIT, "resolve over the limit: %d %s", err.code, err.message);
    CHECK(strcmp(err.message, "the URL is 65537 bytes, more than the limit of 65536 (max_url_bytes)") == 0, "message: %s", err.message);
    CHECK(err.rule_index == -1, "no rule: %d", err.rule_index);
    CHECK(pathconfig_explain(cfg, url, NULL, NULL) == NULL && test_last_code() == PATHCONFIG_E_LIMIT, "explain over the limit");
    dirty(&err);
    CHECK(pathconfig_resolve(cfg, url, "POST", &err) == NULL && err.code == PATHCONFIG_E_LIMIT, "resolve POST: %d", err.code);
    free(url);
    pathconfig_release(cfg);

    small = LOAD("{\"rules\": []}", "{\"max_url_bytes\": 4}", &err);
    CHECK(small != NULL, "max_url_bytes option: %s", err.message);
    if (!small) return;
    text = test_properties(small, "/abc");
    CHECK(text != NULL && strcmp(text, "{}") == 0, "4 bytes");
    free(text);
    CHECK(test_properties(small, "/abcd") == NULL && test_last_code() == PATHCONFIG_E_LIMIT, "5 bytes");
    /* The matched string is refused as the lookup is, and given for one within the limit. */
    text = pathconfig_matched_string(small, "/abc", NULL);
    CHECK(text != NULL && strcmp(text, "/abc") == 0, "matched string, 4 bytes: %s", text ? text : "NULL");
    pathconfig_string_free(text);
    CHECK(pathconfig_matched_string(small, "/abcd", NULL) == NULL && test_last_code() == PATHCONFIG_E_LIMIT, "matched string, 5 bytes");
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
        res = pathconfig_resolve(turbo, rejected[i], NULL, &err);
        CHECK(res == NULL && err.code == PATHCONFIG_E_URL, "%s: code %d %s", rejected[i], err.code, err.message);
        CHECK(strncmp(err.message, "turbo-android crashes on this URL: java.net.URL rejects it (", 60) == 0, "message: %s", err.message);
        CHECK(err.rule_index == -1 && err.line == 0, "no rule, no position");
        pathconfig_result_release(res);
        CHECK(pathconfig_explain(turbo, rejected[i], NULL, NULL) == NULL && test_last_code() == PATHCONFIG_E_URL, "explain");
        dirty(&err);
        CHECK(pathconfig_resolve(turbo, rejected[i], "GET", &err) == NULL && err.code == PATHCONFIG_E_URL, "resolve GET");
        text = pathconfig_matched_string(turbo, rejected[i], NULL);
        CHECK(text != NULL && strcmp(text, "") == 0, "matched string \"%s\"", text ? text : "NULL");
        pathconfig_string_free(text);
        text = test_properties(hotwire, rejected[i]);
        CHECK(text != NULL && strcmp(text, "{\"home\":\"y\"}") == 0, "hotwire-android matches \"\": %s", text ? text : "NULL");
        free(text);
    }
    /* Trimmed and a url: skipped, a bare path as given: both answer. */
    text = test_properties(turbo, " url:https://x.dev/new ");
    CHECK(text != NULL && strcmp(text, "{\"new\":\"y\"}") == 0, "trimmed: %s", text ? text : pathconfig_last_error()->message);
    free(text);
    text = test_properties(turbo, "/new");
    CHECK(text != NULL && strcmp(text, "{\"new\":\"y\"}") == 0, "a path: %s", text ? text : pathconfig_last_error()->message);
    free(text);
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
    test_result_ids();
    test_resolve_methods();
    test_raw_getters();
    test_typed_getters();
    test_ownership();
    test_inspection();
    test_options();
    test_url_limit();
    test_crashing_urls();
    test_set_context("");
}
