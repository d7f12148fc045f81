/* Every read path of a result against its JSON text, which this file reads
 * with a scanner of its own (and cJSON, to check that it is JSON at all):
 * the keys and their order (count/key), each value's type (result_type),
 * each value through the getter its type needs and the type errors of the
 * others, and each value's JSON text (get_json) byte for byte. On every
 * case of ios.json and android.json and on random configurations, under
 * every profile and both merge modes. Results of one answer (one
 * pathconfig_result_id) give the same JSON and the same typed reads, which
 * stay readable after the other references are released. */
#include "tests.h"

#include <cJSON.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- A scanner of compact JSON text (what the library writes) ---- */

/* The end of the JSON value at p (compact: no spaces), or NULL when p is not
 * one. Strings are skipped escape by escape, containers by depth. */
static const char *skip_value(const char *p)
{
    int depth = 0;
    do {
        if (*p == '"') {
            for (p++; *p != '"'; p++) {
                if (*p == '\0') return NULL;
                if (*p == '\\' && *++p == '\0') return NULL;
            }
            p++;
        } else if (*p == '{' || *p == '[') {
            depth++;
            p++;
        } else if (*p == '}' || *p == ']') {
            if (--depth < 0) return NULL;
            p++;
        } else if (*p == ',' || *p == ':') {
            if (depth == 0) return NULL;
            p++;
        } else if (*p == '\0') {
            return NULL;
        } else {
            while (*p != '\0' && strchr(",:]}", *p) == NULL) p++;
        }
    } while (depth > 0);
    return p;
}

static unsigned hex4(const char *p)
{
    unsigned v = 0;
    int i;
    for (i = 0; i < 4; i++) {
        char c = p[i];
        v = v * 16 + (unsigned)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    return v;
}

/* Decodes the JSON string literal [p, end) into out (NUL-terminated; it may
 * hold U+0000); returns the length in bytes. out holds at least end - p. */
static size_t decode_string(const char *p, const char *end, char *out)
{
    size_t n = 0;
    for (p++, end--; p < end; p++) {
        unsigned cp;
        if (*p != '\\') {
            out[n++] = *p;
            continue;
        }
        switch (*++p) {
        case 'b': out[n++] = '\b'; continue;
        case 'f': out[n++] = '\f'; continue;
        case 'n': out[n++] = '\n'; continue;
        case 'r': out[n++] = '\r'; continue;
        case 't': out[n++] = '\t'; continue;
        case 'u': break;
        default: out[n++] = *p; continue; /* " \ / */
        }
        cp = hex4(p + 1);
        p += 4;
        if (cp >= 0xD800 && cp < 0xDC00 && p[1] == '\\' && p[2] == 'u') {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (hex4(p + 3) - 0xDC00);
            p += 6;
        }
        if (cp < 0x80) {
            out[n++] = (char)cp;
        } else if (cp < 0x800) {
            out[n++] = (char)(0xC0 | (cp >> 6));
            out[n++] = (char)(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out[n++] = (char)(0xE0 | (cp >> 12));
            out[n++] = (char)(0x80 | ((cp >> 6) & 0x3F));
            out[n++] = (char)(0x80 | (cp & 0x3F));
        } else {
            out[n++] = (char)(0xF0 | (cp >> 18));
            out[n++] = (char)(0x80 | ((cp >> 12) & 0x3F));
            out[n++] = (char)(0x80 | ((cp >> 6) & 0x3F));
            out[n++] = (char)(0x80 | (cp & 0x3F));
        }
    }
    out[n] = '\0';
    return n;
}

/* The PATHCONFIG_TYPE_* of the compact JSON value text [p, end). */
static int type_of(const char *p, const char *end)
{
    char literal[64];
    long long v;
    char *stop;
    switch (*p) {
    case 'n': return PATHCONFIG_TYPE_NULL;
    case 't': case 'f': return PATHCONFIG_TYPE_BOOL;
    case '"': return PATHCONFIG_TYPE_STRING;
    case '[': return PATHCONFIG_TYPE_ARRAY;
    case '{': return PATHCONFIG_TYPE_OBJECT;
    default: break;
    }
    /* A number: an integer when written without fraction or exponent and
     * within int64_t. */
    if ((size_t)(end - p) >= sizeof literal || memchr(p, '.', (size_t)(end - p)) || memchr(p, 'e', (size_t)(end - p)) ||
        memchr(p, 'E', (size_t)(end - p)))
        return PATHCONFIG_TYPE_DOUBLE;
    memcpy(literal, p, (size_t)(end - p));
    literal[end - p] = '\0';
    errno = 0;
    v = strtoll(literal, &stop, 10);
    (void)v;
    return errno == ERANGE || *stop != '\0' ? PATHCONFIG_TYPE_DOUBLE : PATHCONFIG_TYPE_INT;
}

/* ---- Every read path against the text ---- */

/* Checks every read of res against pathconfig_result_json(res); `what`
 * names the lookup in messages. Returns the number of keys checked. */
static size_t check_reads(const pathconfig_result *res, const char *what)
{
    const char *json = pathconfig_result_json(res);
    const char *p;
    cJSON *parsed;
    size_t count, i = 0;
    char *buf;

    if (!CHECK(json != NULL && json[0] == '{', "%s: json %s", what, test_show(json))) return 0;
    parsed = cJSON_Parse(json);
    CHECK(cJSON_IsObject(parsed), "%s: not a JSON object to cJSON: %s", what, json);
    count = pathconfig_result_count(res);
    CHECK(count == (size_t)cJSON_GetArraySize(parsed), "%s: count %zu, the text has %d keys", what, count,
          cJSON_GetArraySize(parsed));
    buf = malloc(strlen(json) + 1);
    if (buf == NULL) {
        cJSON_Delete(parsed);
        return 0;
    }
    for (p = json + 1; *p != '}'; i++) {
        const char *key_end = skip_value(p), *value, *value_end;
        const char *key, *got = NULL, *gjson = NULL;
        size_t len = 99, key_len;
        int type, b = -1, expect_type;
        int64_t n = -1;
        double d = -1;
        cJSON *member;

        if (!CHECK(key_end != NULL && *p == '"' && *key_end == ':', "%s: key %zu unreadable in %s", what, i, json)) break;
        value = key_end + 1;
        value_end = skip_value(value);
        if (!CHECK(value_end != NULL && (*value_end == ',' || *value_end == '}'), "%s: value %zu unreadable in %s", what, i, json))
            break;
        key_len = decode_string(p, key_end, buf);

        /* The key, in the text's order. */
        key = pathconfig_result_key(res, i);
        if (!CHECK(key != NULL && strlen(key) == key_len && memcmp(key, buf, key_len) == 0, "%s: key %zu is %s, the text has %s",
                   what, i, test_show(key), buf))
            key = buf;
        member = cJSON_GetObjectItemCaseSensitive(parsed, buf);

        /* Its JSON text, byte for byte, and as a value to cJSON. */
        CHECK(pathconfig_result_get_json(res, key, &gjson) == PATHCONFIG_OK && gjson != NULL &&
                  strlen(gjson) == (size_t)(value_end - value) && memcmp(gjson, value, (size_t)(value_end - value)) == 0,
              "%s: get_json(%s) = %s, the text has %.*s", what, key, test_show(gjson), (int)(value_end - value), value);
        if (gjson != NULL) {
            cJSON *alone = cJSON_Parse(gjson);
            CHECK(alone != NULL && member != NULL && cJSON_Compare(alone, member, 1), "%s: get_json(%s) = %s differs from cJSON's value",
                  what, key, gjson);
            cJSON_Delete(alone);
        }

        /* Its type, and the getter that type needs. */
        type = pathconfig_result_type(res, i);
        expect_type = type_of(value, value_end);
        CHECK(type == expect_type && test_last_code() == PATHCONFIG_OK, "%s: type of %s is %d, the text %.*s is %d", what, key, type,
              (int)(value_end - value), value, expect_type);

        if (expect_type == PATHCONFIG_TYPE_STRING) {
            size_t want = decode_string(value, value_end, buf);
            CHECK(pathconfig_result_get_string(res, key, &got, &len) == PATHCONFIG_OK && got != NULL && len == want &&
                      memcmp(got, buf, want) == 0 && got[len] == '\0',
                  "%s: get_string(%s) = %s (%zu bytes), the text has %.*s", what, key, test_show(got), len, (int)(value_end - value),
                  value);
        } else {
            CHECK(pathconfig_result_get_string(res, key, &got, &len) == PATHCONFIG_E_TYPE && got == NULL && len == 0 &&
                      test_last_code() == PATHCONFIG_E_TYPE,
                  "%s: get_string(%s) of %.*s: not E_TYPE", what, key, (int)(value_end - value), value);
        }
        if (expect_type == PATHCONFIG_TYPE_BOOL)
            CHECK(pathconfig_result_get_bool(res, key, &b) == PATHCONFIG_OK && b == (*value == 't'), "%s: get_bool(%s) = %d, text %.*s",
                  what, key, b, (int)(value_end - value), value);
        else
            CHECK(pathconfig_result_get_bool(res, key, &b) == PATHCONFIG_E_TYPE && b == -1, "%s: get_bool(%s) of %.*s: not E_TYPE", what,
                  key, (int)(value_end - value), value);
        if (expect_type == PATHCONFIG_TYPE_INT) {
            char literal[64];
            memcpy(literal, value, (size_t)(value_end - value));
            literal[value_end - value] = '\0';
            CHECK(pathconfig_result_get_int64(res, key, &n) == PATHCONFIG_OK && n == (int64_t)strtoll(literal, NULL, 10),
                  "%s: get_int64(%s) = %lld, text %s", what, key, (long long)n, literal);
        } else {
            CHECK(pathconfig_result_get_int64(res, key, &n) == PATHCONFIG_E_TYPE && n == -1, "%s: get_int64(%s) of %.*s: not E_TYPE", what,
                  key, (int)(value_end - value), value);
        }
        if (expect_type == PATHCONFIG_TYPE_INT || expect_type == PATHCONFIG_TYPE_DOUBLE) {
            char *literal = malloc((size_t)(value_end - value) + 1);
            if (literal != NULL) {
                memcpy(literal, value, (size_t)(value_end - value));
                literal[value_end - value] = '\0';
                CHECK(pathconfig_result_get_double(res, key, &d) == PATHCONFIG_OK && d == strtod(literal, NULL),
                      "%s: get_double(%s) = %.17g, text %s", what, key, d, literal);
                free(literal);
            }
        } else {
            CHECK(pathconfig_result_get_double(res, key, &d) == PATHCONFIG_E_TYPE && d == -1, "%s: get_double(%s) of %.*s: not E_TYPE",
                  what, key, (int)(value_end - value), value);
        }
        p = *value_end == ',' ? value_end + 1 : value_end;
    }
    CHECK(i == count, "%s: %zu keys in the text, count %zu", what, i, count);
    CHECK(pathconfig_result_key(res, count) == NULL && pathconfig_result_type(res, count) == 0 &&
              test_last_code() == PATHCONFIG_E_ARGUMENT,
          "%s: key and type past the end", what);
    /* A key the text lacks: NOT_FOUND from every getter, no error. */
    {
        static const char absent[] = "\x01not a key";
        const char *s = "unset";
        int rc[5];
        rc[0] = pathconfig_result_get_string(res, absent, &s, NULL);
        rc[1] = pathconfig_result_get_bool(res, absent, NULL);
        rc[2] = pathconfig_result_get_int64(res, absent, NULL);
        rc[3] = pathconfig_result_get_double(res, absent, NULL);
        rc[4] = pathconfig_result_get_json(res, absent, NULL);
        CHECK(rc[0] == PATHCONFIG_NOT_FOUND && rc[1] == PATHCONFIG_NOT_FOUND && rc[2] == PATHCONFIG_NOT_FOUND &&
                  rc[3] == PATHCONFIG_NOT_FOUND && rc[4] == PATHCONFIG_NOT_FOUND && s == NULL && test_last_code() == PATHCONFIG_OK,
              "%s: an absent key: %d %d %d %d %d", what, rc[0], rc[1], rc[2], rc[3], rc[4]);
    }
    free(buf);
    cJSON_Delete(parsed);
    return count;
}

/* Every typed read of res, copied: strings strdup'd (NULL kept), booleans. */
struct typed_reads {
    char *strings[64];
    int bools[64];
    int codes[64];
};

static void read_typed(const pathconfig_result *res, struct typed_reads *out)
{
    int key, n = (int)pathconfig_typed_key_count();
    for (key = 0; key < n && key < 64; key++) {
        const char *s = NULL;
        out->bools[key] = -1;
        if (pathconfig_typed_key_kind(key) == PATHCONFIG_TYPED_BOOL) {
            out->bools[key] = pathconfig_result_typed_bool(res, key);
        } else {
            s = pathconfig_result_typed_string(res, key);
        }
        out->codes[key] = test_last_code();
        out->strings[key] = s != NULL ? strdup(s) : NULL;
    }
}

static void free_typed(struct typed_reads *reads)
{
    int key, n = (int)pathconfig_typed_key_count();
    for (key = 0; key < n && key < 64; key++) free(reads->strings[key]);
}

/* What `key` holds in res: 0 absent or null, 1 a JSON boolean, 2 another value. */
static int raw_kind(const pathconfig_result *res, const char *key)
{
    const char *text = NULL;
    if (pathconfig_result_get_json(res, key, &text) != PATHCONFIG_OK || text == NULL || strcmp(text, "null") == 0) return 0;
    return strcmp(text, "true") == 0 || strcmp(text, "false") == 0 ? 1 : 2;
}

/* The platform of a profile name ("APP" or "APP@VERSION"), as the catalog says. */
static const char *platform_of(const char *profile)
{
    size_t i, len = strcspn(profile, "@");
    for (i = 0; i < pathconfig_profile_count(); i++) {
        const char *name = pathconfig_profile_name(i);
        if (strlen(name) == len && strncmp(name, profile, len) == 0) return pathconfig_profile_platform(i);
    }
    return "";
}

/* Typed reads agree: each a success, an enum's value one the catalog allows
 * under profile, a bool 0 or 1; or PATHCONFIG_E_CRASH (0, NULL) where the
 * profile's app throws reading the key, read against the JSON text: only an
 * Android app, a boolean key read from a value that is no JSON boolean or a
 * string key read from a missing value. The bare hotwire-android (1.3.1)
 * throws on every such boolean (`as Boolean`), turbo-android on a missing
 * "uri" (Uri.parse(null)). */
static void check_typed_sane(const pathconfig_result *res, const struct typed_reads *reads, const char *profile, const char *what)
{
    int key, n = (int)pathconfig_typed_key_count();
    int android = strcmp(platform_of(profile), "android") == 0;
    for (key = 0; key < n && key < 64; key++) {
        const char *name = pathconfig_typed_key_name(key);
        int kind = pathconfig_typed_key_kind(key), raw = raw_kind(res, name);
        int must_crash = (kind == PATHCONFIG_TYPED_BOOL && raw == 2 && strcmp(profile, "hotwire-android") == 0) ||
                         (strcmp(name, "uri") == 0 && raw == 0 && strcmp(profile, "turbo-android") == 0);
        if (reads->codes[key] == PATHCONFIG_E_CRASH) {
            CHECK(android, "%s: typed %s crashes under %s, not an Android app", what, name, profile);
            CHECK(kind == PATHCONFIG_TYPED_BOOL ? raw == 2 && reads->bools[key] == 0 : raw == 0 && reads->strings[key] == NULL,
                  "%s: typed %s crashes on a value of kind %d (read %d, %s)", what, name, raw, reads->bools[key],
                  test_show(reads->strings[key]));
            continue;
        }
        CHECK(!must_crash, "%s: typed %s under %s should crash the app, read %d %s", what, name, profile, reads->bools[key],
              test_show(reads->strings[key]));
        CHECK(reads->codes[key] == PATHCONFIG_OK, "%s: typed %s failed: %d", what, name, reads->codes[key]);
        if (kind == PATHCONFIG_TYPED_BOOL) {
            CHECK(reads->bools[key] == 0 || reads->bools[key] == 1, "%s: typed_bool(%s) = %d", what, name, reads->bools[key]);
        } else if (kind == PATHCONFIG_TYPED_ENUM) {
            size_t j, values = pathconfig_typed_key_value_count(key, profile);
            int allowed = 0;
            for (j = 0; j < values && reads->strings[key] != NULL; j++)
                allowed |= strcmp(pathconfig_typed_key_value(key, profile, j), reads->strings[key]) == 0;
            CHECK(allowed, "%s: typed_string(%s) = %s, not a value %s allows", what, name, test_show(reads->strings[key]), profile);
        }
    }
}

static int same_typed(const struct typed_reads *a, const struct typed_reads *b)
{
    int key, n = (int)pathconfig_typed_key_count();
    for (key = 0; key < n && key < 64; key++) {
        if (a->bools[key] != b->bools[key] || a->codes[key] != b->codes[key]) return 0;
        if ((a->strings[key] == NULL) != (b->strings[key] == NULL)) return 0;
        if (a->strings[key] != NULL && strcmp(a->strings[key], b->strings[key]) != 0) return 0;
    }
    return 1;
}

/* One lookup, read every way; then a second lookup of the same input: the
 * same id, the same JSON and typed reads, and the second's reads intact
 * once the first is released. */
static int check_lookup(const pathconfig *cfg, const char *profile, const char *input, const char *method, const char *what)
{
    pathconfig_error err;
    pathconfig_result *first = pathconfig_resolve(cfg, input, method, &err), *second;
    struct typed_reads a, b, after;
    char *json;

    if (first == NULL) {
        /* Only a URL the profile's app crashes on has no answer (conformance.c checks those). */
        CHECK(err.code == PATHCONFIG_E_URL, "%s: lookup failed: %d %s", what, err.code, err.message);
        return 0;
    }
    check_reads(first, what);
    read_typed(first, &a);
    check_typed_sane(first, &a, profile, what);
    second = pathconfig_resolve(cfg, input, method, NULL);
    if (!CHECK(second != NULL, "%s: the second lookup failed", what)) {
        free_typed(&a);
        pathconfig_result_release(first);
        return 1;
    }
    CHECK(pathconfig_result_id(first) == pathconfig_result_id(second) && pathconfig_result_id(first) != 0, "%s: ids %llu and %llu", what,
          (unsigned long long)pathconfig_result_id(first), (unsigned long long)pathconfig_result_id(second));
    read_typed(second, &b);
    CHECK(same_typed(&a, &b), "%s: typed reads differ between two results of one answer", what);
    json = strdup(pathconfig_result_json(second));
    pathconfig_result_release(first);
    /* The second reference alone: everything still reads the same. */
    read_typed(second, &after);
    CHECK(same_typed(&a, &after), "%s: typed reads changed after the other reference was released", what);
    CHECK(json != NULL && strcmp(pathconfig_result_json(second), json) == 0, "%s: JSON changed after a release", what);
    check_reads(second, what);
    free(json);
    free_typed(&a);
    free_typed(&b);
    free_typed(&after);
    pathconfig_result_release(second);
    return 1;
}

/* ---- The conformance cases ---- */

static const char *field(const cJSON *object, const char *key)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
    return cJSON_IsString(item) ? item->valuestring : NULL;
}

static int run_file(const char *dir, const char *name, const char *profile_field)
{
    cJSON *root = conformance_file(dir, name);
    const cJSON *fixtures = cJSON_GetObjectItemCaseSensitive(root, "fixtures"), *c;
    int looked_up = 0, n = 0;
    if (root == NULL) return 0;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(root, "cases")) {
        const char *who = field(c, profile_field), *input = field(c, "input"), *fixture = field(c, "fixture");
        const char *profile = who == NULL ? NULL
                              : strcmp(profile_field, "library") == 0 ? conformance_ios_profile(who)
                                                                       : conformance_android_profile(who);
        const cJSON *mqs = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(c, "options"), "matchQueryStrings");
        pathconfig *cfg;
        char what[512];
        n++;
        if (profile == NULL || input == NULL || fixture == NULL) continue; /* settings cases: no lookup */
        cfg = conformance_load_fixture(cJSON_GetObjectItemCaseSensitive(fixtures, fixture), profile,
                                       cJSON_IsBool(mqs) ? cJSON_IsTrue(mqs) : -1, NULL);
        if (cfg == NULL) continue; /* conformance.c fails these */
        snprintf(what, sizeof what, "%s case %d (%s %s %s)", name, n - 1, profile, fixture, input);
        test_set_context("differential: %s", what);
        looked_up += check_lookup(cfg, profile, input, NULL, what);
        pathconfig_release(cfg);
    }
    cJSON_Delete(root);
    return looked_up;
}

/* ---- Random configurations ---- */

static unsigned long long rng_state = 0x9E3779B97F4A7C15ULL;

static unsigned rnd(unsigned n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)((rng_state >> 11) % n);
}

/* A JSON value's text: every scalar form the getters tell apart, strings
 * with escapes and characters beyond ASCII, and (when nested) containers. */
static const char *const scalars[] = {
    "true", "false", "null", "0", "-0", "42", "-7", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
    "12345678901234567890", "1.5", "-0.25", "1e3", "2E-2", "1.50", "3.0", "\"\"", "\"modal\"", "\"MODAL\"", "\"default\"",
    "\"replace_root\"", "\"pop\"", "\"push\"", "\"true\"", "\"FALSE\"", "\"page_sheet\"", "\"caf\\u00e9\"", "\"a\\\"b\\\\c\"",
    "\"line\\nnext\\ttab\"", "\"\\ud83d\\ude00 smile\"", "\"ctl\\u0001\\u001f\"", "\"slash\\/\"", "\"nul\\u0000byte\"",
    "\"}{\\\"x\\\":1}\"", "\"\xe2\x9c\x93 check\"",
};
static const char *const nested[] = {
    "[]", "{}", "[1,\"two\",null,true]", "{\"a\":{\"b\":[1.5,{\"c\":\"d\"}]}}", "{\"X-Auth\":\"t\",\"Accept\":\"json\"}", "[[],[[]]]",
};
static const char *const patterns[] = { "^/a", "/b", "c$", ".*", "^/a/b", "new", "^/$", "\\\\?q=" };
static const char *const urls[] = {
    "/a", "/a/b", "/b/c", "/x", "/", "https://example.com/a/b?q=1", "/c", "/a/new", "https://example.com/b/new?x=c",
};

static void append(char *buf, size_t size, size_t *n, const char *text)
{
    size_t len = strlen(text);
    if (*n + len < size) {
        memcpy(buf + *n, text, len + 1);
        *n += len;
    }
}

/* A document of 1 to 6 rules, each with 0 to 5 properties drawn from the
 * typed keys of the catalog, "headers" and a few others. */
static void random_document(char *buf, size_t size, int with_nested)
{
    static const char *const other_keys[] = { "headers", "k", "n", "x", "\xc3\xa9t\xc3\xa9", "quote\\\"d" };
    unsigned rules = 1 + rnd(6), r, k;
    size_t n = 0;
    append(buf, size, &n, "{\"rules\":[");
    for (r = 0; r < rules; r++) {
        unsigned props = rnd(6);
        if (r > 0) append(buf, size, &n, ",");
        append(buf, size, &n, "{\"patterns\":[\"");
        append(buf, size, &n, patterns[rnd(sizeof patterns / sizeof patterns[0])]);
        append(buf, size, &n, "\"],\"properties\":{");
        unsigned used = 0; /* keys already in this rule: the Android apps refuse a repeated one */
        for (k = 0; k < props; k++) {
            unsigned pick = rnd((unsigned)pathconfig_typed_key_count() + 6);
            if (used & (1u << pick)) continue;
            used |= 1u << pick;
            const char *key = pick < pathconfig_typed_key_count() ? pathconfig_typed_key_name((int)pick)
                                                                  : other_keys[pick - pathconfig_typed_key_count()];
            if (buf[n - 1] != '{') append(buf, size, &n, ",");
            append(buf, size, &n, "\"");
            append(buf, size, &n, key);
            append(buf, size, &n, "\":");
            if (with_nested && rnd(4) == 0)
                append(buf, size, &n, nested[rnd(sizeof nested / sizeof nested[0])]);
            else
                append(buf, size, &n, scalars[rnd(sizeof scalars / sizeof scalars[0])]);
        }
        append(buf, size, &n, "}}");
    }
    append(buf, size, &n, "]}");
}

/* A configurer of random values through the typed setters, the same for
 * the same URL (a hash of it and of the configuration's seed picks them):
 * strings with quotes, backslashes, control characters and characters
 * beyond ASCII, integers at the limits, doubles, booleans, headers, and a
 * removal. */
static int set_random(void *context, pathconfig_request *request)
{
    static const char *const strings[] = {
        "abc\", \"X-Admin\": \"true", "\\", "}", "line\nnext\r\t", "\x01\x1f\x7f", "caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80", "", "modal",
    };
    static const int64_t ints[] = { 0, -1, INT64_MAX, INT64_MIN, 42 };
    static const double doubles[] = { 0.5, -2.25, 1e300, 5e-324, 123456789.125 };
    const size_t n_strings = sizeof strings / sizeof strings[0];
    const char *url = pathconfig_request_url(request);
    unsigned long long h = (unsigned long long)(uintptr_t)context;
    int k, rc = PATHCONFIG_OK;
    for (; url != NULL && *url; url++) h = (h ^ (unsigned char)*url) * 1099511628211ULL;
    for (k = 0; k < 4 && rc == PATHCONFIG_OK; k++, h /= 7) {
        const char *key = pathconfig_typed_key_name((int)(h % pathconfig_typed_key_count()));
        switch (h % 7) {
        case 0: rc = pathconfig_request_set_string(request, key, strings[(h / 7) % n_strings]); break;
        case 1: rc = pathconfig_request_set_int64(request, "n", ints[(h / 7) % 5]); break;
        case 2: rc = pathconfig_request_set_double(request, "x", doubles[(h / 7) % 5]); break;
        case 3: rc = pathconfig_request_set_bool(request, key, (int)((h / 7) % 2)); break;
        case 4: rc = pathconfig_request_set_header(request, strings[(h / 7) % 5], strings[(h / 11) % n_strings]); break;
        case 5: rc = pathconfig_request_remove(request, key); break;
        default: rc = pathconfig_request_set_string(request, strings[(h / 7) % n_strings], key); break;
        }
    }
    return rc == PATHCONFIG_OK ? 0 : -1;
}

static int run_random(int configurations)
{
    char doc[8192], options[160], what[256];
    int c, looked_up = 0, loaded = 0;
    for (c = 0; c < configurations; c++) {
        const char *profile = pathconfig_profile_name(rnd((unsigned)pathconfig_profile_count()));
        const char *merge = rnd(2) ? "deep" : "shallow";
        pathconfig_error err;
        pathconfig *cfg;
        size_t u;
        random_document(doc, sizeof doc, 1);
        int from_code = rnd(3) == 0;
        /* With a rule from code, the result cache on: memoised, a second
         * lookup gives the same result (the same id). */
        snprintf(options, sizeof options, "{\"profile\":\"%s\",\"merge\":\"%s\",\"result_cache_size\":%d}", profile, merge,
                 from_code || rnd(2) ? 64 : 0);
        cfg = pathconfig_load_json(doc, strlen(doc), options, &err);
        if (cfg == NULL && err.code == PATHCONFIG_E_SCHEMA) {
            /* A profile that takes no nested values (turbo-android): the same draw, scalars only. */
            random_document(doc, sizeof doc, 0);
            cfg = pathconfig_load_json(doc, strlen(doc), options, &err);
        }
        test_set_context("differential: random %d %s", c, options);
        if (!CHECK(cfg != NULL, "load %s: %s", doc, err.message)) continue;
        loaded++;
        if (from_code)
            CHECK(pathconfig_add_rule(cfg, "{\"patterns\": [\".\"]}", NULL, set_random, (void *)(uintptr_t)(c + 1), NULL, NULL, &err) ==
                      PATHCONFIG_OK,
                  "add: %s", err.message);
        for (u = 0; u < sizeof urls / sizeof urls[0]; u++) {
            snprintf(what, sizeof what, "random %d %s %s", c, options, urls[u]);
            looked_up += check_lookup(cfg, profile, urls[u], rnd(3) == 0 ? "POST" : NULL, what);
        }
        pathconfig_release(cfg);
    }
    test_set_context("differential");
    CHECK(loaded == configurations, "%d of %d random configurations loaded", loaded, configurations);
    return looked_up;
}

void run_differential_tests(const char *dir)
{
    const char *count = getenv("DIFFERENTIAL_CONFIGURATIONS");
    int ios = run_file(dir, "ios.json", "library");
    int android = run_file(dir, "android.json", "implementation");
    int random = run_random(count != NULL ? atoi(count) : 300);
    test_set_context("differential");
    CHECK(ios > 0 && android > 0 && random > 0, "lookups read every way: %d ios, %d android, %d random", ios, android, random);
    test_set_context("");
    printf("differential: %d ios cases, %d android cases, %d random lookups, every read against the JSON text\n", ios, android, random);
}
