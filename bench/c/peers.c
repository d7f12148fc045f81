/*
 * pathconfig-peers -- the C side of `make bench` for one corpus size:
 * libpathconfig through its C ABI, and what a C or C++ program could use
 * instead (a plain PCRE2-JIT loop, hyperscan, RE2::Set), in one process.
 *
 *   pathconfig-peers RULES_JSON URLS_TXT [--check-every K] [--options JSON]
 *
 * It loads and builds everything, checks the results (below), prints one
 * JSON line ({"ready": ...}: load and build times, memory per rule,
 * patterns each engine refused, the check) and then answers bench/run.py on
 * stdin: for each line "round SECONDS" it runs every peer in turn for SECONDS
 * over the URLs (cycling, each peer resuming where its last round stopped)
 * and prints one JSON line of seconds per lookup; "quit" ends it.
 *
 * Every configuration is loaded with profile turbo-ios and query strings on.
 * libpathconfig gets the URLs as written; the other engines get the string
 * libpathconfig's profile matches for each URL (pathconfig_matched_string,
 * computed once, before any timing), so theirs is the bare match.
 *
 * libpathconfig's peers, each a whole lookup as a host makes it, the result
 * cache off but for the last: c_resolve (pathconfig_resolve, the JSON text,
 * pathconfig_result_release), c_typed (resolve, typed_string of
 * PATHCONFIG_KEY_CONTEXT and of PATHCONFIG_KEY_PRESENTATION, release), c_raw
 * (resolve, one get_string of "context", release), c_map (resolve, every
 * key through count/key/type and the getter its type needs, release) and
 * c_resolve_cache (c_resolve with the default result cache).
 *
 * The check, on every K-th URL (K = 1: all): libpathconfig's properties
 * against the straightforward algorithm (every pattern of every rule through
 * PCRE2 in order, the matching rules' properties merged shallowly): "check"
 * key c_resolve; typed reads that gave no value (c_typed) and map reads with
 * a failed getter (c_map), which should be none; the rules hyperscan and
 * RE2::Set find against that loop's.
 *
 * --options JSON loads libpathconfig with those options instead (a JSON
 * object; "result_cache_size":0 added but for c_resolve_cache) and runs only
 * the peers that read no Hotwire key (c_resolve, c_map, c_resolve_cache),
 * without the other engines and the check: they read patterns, which a
 * configuration of globs (bench/corpora/globs-100.json, Siesta) has none of.
 */
#define _GNU_SOURCE
#include <pathconfig.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <hs.h>
#include <cJSON.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "corpus.h"
#include "re2set.h"

static const char *OPTIONS_NO_CACHE = "{\"profile\":\"turbo-ios\",\"match_query_strings\":true,\"result_cache_size\":0}";
static const char *OPTIONS_DEFAULT_CACHE = "{\"profile\":\"turbo-ios\",\"match_query_strings\":true}";
static int library_only;  /* --options given */

/* ---- the corpus -------------------------------------------------------- */

static char **urls;          /* as written, for libpathconfig */
static size_t url_count;
static char **subjects;      /* the string each URL is matched as, for the other engines */
static size_t *subject_lens;

typedef struct {
    const char *text;
    size_t len;
    uint32_t rule;
} pattern;

static pattern *patterns;
static size_t pattern_count;
static size_t rule_count;
static size_t *rule_first;   /* patterns of rule r: [rule_first[r], rule_first[r + 1]) */
static cJSON **rule_properties;

static void read_rules(cJSON *root, const char *path) {
    cJSON *rules = cJSON_GetObjectItemCaseSensitive(root, "rules");
    if (!cJSON_IsArray(rules)) {
        fprintf(stderr, "%s: no \"rules\" array\n", path);
        exit(2);
    }
    rule_count = (size_t)cJSON_GetArraySize(rules);
    rule_first = calloc(rule_count + 1, sizeof *rule_first);
    rule_properties = calloc(rule_count, sizeof *rule_properties);
    size_t cap = rule_count * 2 + 8;
    patterns = malloc(cap * sizeof *patterns);
    size_t r = 0;
    cJSON *rule;
    cJSON_ArrayForEach(rule, rules) {
        rule_first[r] = pattern_count;
        rule_properties[r] = cJSON_GetObjectItemCaseSensitive(rule, "properties");
        cJSON *p;
        cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(rule, "patterns")) {
            if (!cJSON_IsString(p)) continue;
            if (pattern_count == cap) patterns = realloc(patterns, (cap *= 2) * sizeof *patterns);
            patterns[pattern_count++] = (pattern){p->valuestring, strlen(p->valuestring), (uint32_t)r};
        }
        r++;
    }
    rule_first[rule_count] = pattern_count;
}

/* ---- helpers ----------------------------------------------------------- */

static size_t rss_bytes(void) {
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long size = 0, resident = 0;
    if (f) {
        if (fscanf(f, "%lu %lu", &size, &resident) != 2) resident = 0;
        fclose(f);
    }
    return (size_t)resident * (size_t)sysconf(_SC_PAGESIZE);
}

/* The resident set's high-water mark (VmHWM), and its reset to the current
 * size (Linux 4.0 on: "5" to clear_refs), so that a peak can be measured
 * from a point on. */
static size_t peak_rss_bytes(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    size_t kb = 0;
    if (f) {
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "VmHWM: %zu kB", &kb) == 1) break;
        fclose(f);
    }
    return kb * 1024;
}

static void reset_peak_rss(void) {
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (f) {
        fputs("5", f);
        fclose(f);
    }
}

/* Reads a byte of every page of libpathconfig's mappings, so that its
 * code is resident before a measurement starts. */
static void touch_library_pages(void) {
    FILE *f = fopen("/proc/self/maps", "r");
    char line[512];
    long page = sysconf(_SC_PAGESIZE);
    volatile unsigned char sink = 0;
    if (!f) return;
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        char perms[8];
        if (!strstr(line, "libpathconfig") || sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3 || perms[0] != 'r') continue;
        for (unsigned long a = lo; a < hi; a += (unsigned long)page) sink ^= *(const volatile unsigned char *)a;
    }
    fclose(f);
    (void)sink;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median3(double a, double b, double c) {
    double xs[3] = {a, b, c};
    qsort(xs, 3, sizeof xs[0], compare_doubles);
    return xs[1];
}

/* A JSON string literal of s on out. */
static void put_json_string(FILE *out, const char *s) {
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(out, "\\%c", c);
        else if (c < 0x20) fprintf(out, "\\u%04x", c);
        else fputc(c, out);
    }
    fputc('"', out);
}

static char notes[64][512];
static size_t note_count;

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...) {
    if (note_count == sizeof notes / sizeof notes[0]) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(notes[note_count++], sizeof notes[0], fmt, ap);
    va_end(ap);
}

static pathconfig *load(const char *json, size_t len, const char *options) {
    pathconfig_error err;
    pathconfig *cfg = pathconfig_load_json(json, len, options, &err);
    if (!cfg) {
        fprintf(stderr, "pathconfig_load_json: %s (%s)\n", err.message, options);
        exit(1);
    }
    return cfg;
}

/* ---- the peers --------------------------------------------------------- */

static pathconfig *cfg_no_cache, *cfg_default_cache;

/* Each peer of libpathconfig is one lookup as a host makes it (resolve,
 * read, release) and returns a byte of what it read, so nothing is skipped. */

/* resolve, the result's JSON text, release. */
static size_t c_resolve(size_t i) {
    pathconfig_result *res = pathconfig_resolve(cfg_no_cache, urls[i], NULL, NULL);
    size_t n = (size_t)(unsigned char)pathconfig_result_json(res)[1];
    pathconfig_result_release(res);
    return n;
}

/* resolve, the two typed values a Hotwire host reads of every visit
 * (context and presentation, defaults applied), release. */
static size_t c_typed(size_t i) {
    pathconfig_result *res = pathconfig_resolve(cfg_no_cache, urls[i], NULL, NULL);
    size_t n = (size_t)(unsigned char)pathconfig_result_typed_string(res, PATHCONFIG_KEY_CONTEXT)[0] +
               (size_t)(unsigned char)pathconfig_result_typed_string(res, PATHCONFIG_KEY_PRESENTATION)[0];
    pathconfig_result_release(res);
    return n;
}

/* resolve, one raw value (the string "context", when there is one), release. */
static size_t c_raw(size_t i) {
    pathconfig_result *res = pathconfig_resolve(cfg_no_cache, urls[i], NULL, NULL);
    const char *context;
    size_t len = 0;
    size_t n = pathconfig_result_get_string(res, "context", &context, &len) == PATHCONFIG_OK ? len : 0;
    pathconfig_result_release(res);
    return n;
}

/* resolve, every key with its type and value (count, key, type, getter), release. */
static size_t c_map(size_t i) {
    pathconfig_result *res = pathconfig_resolve(cfg_no_cache, urls[i], NULL, NULL);
    size_t n = read_map(res);
    pathconfig_result_release(res);
    return n;
}

/* c_resolve with the default result cache. */
static size_t c_resolve_cache(size_t i) {
    pathconfig_result *res = pathconfig_resolve(cfg_default_cache, urls[i], NULL, NULL);
    size_t n = (size_t)(unsigned char)pathconfig_result_json(res)[1];
    pathconfig_result_release(res);
    return n;
}

/* The plain loop: every pattern of every rule through PCRE2 (JIT where it
 * compiles), a rule matching at its first matching pattern; counts rules. */
static pcre2_code **pcre2_codes;    /* NULL: refused */
static int *pcre2_jitted;
static pcre2_match_data *pcre2_data;
static size_t pcre2_refused, pcre2_errors;

static int pcre2_found(size_t p, const char *s, size_t len) {
    pcre2_code *code = pcre2_codes[p];
    if (!code) return 0;
    int rc = pcre2_jitted[p] ? pcre2_jit_match(code, (PCRE2_SPTR)s, len, 0, 0, pcre2_data, NULL)
                             : pcre2_match(code, (PCRE2_SPTR)s, len, 0, 0, pcre2_data, NULL);
    if (rc < PCRE2_ERROR_NOMATCH) pcre2_errors++;
    return rc >= 0;
}

static size_t pcre2_loop(size_t i) {
    const char *s = subjects[i];
    size_t len = subject_lens[i], n = 0;
    for (size_t r = 0; r < rule_count; r++)
        for (size_t p = rule_first[r]; p < rule_first[r + 1]; p++)
            if (pcre2_found(p, s, len)) {
                n++;
                break;
            }
    return n;
}

static void build_pcre2(double *ms) {
    pcre2_codes = calloc(pattern_count, sizeof *pcre2_codes);
    pcre2_jitted = calloc(pattern_count, sizeof *pcre2_jitted);
    size_t not_jitted = 0;
    double t0 = now_seconds();
    for (size_t p = 0; p < pattern_count; p++) {
        int code;
        PCRE2_SIZE offset;
        pcre2_codes[p] = pcre2_compile((PCRE2_SPTR)patterns[p].text, patterns[p].len, PCRE2_UTF, &code, &offset, NULL);
        if (!pcre2_codes[p]) {
            pcre2_refused++;
            continue;
        }
        pcre2_jitted[p] = pcre2_jit_compile(pcre2_codes[p], PCRE2_JIT_COMPLETE) == 0;
        not_jitted += !pcre2_jitted[p];
    }
    *ms = (now_seconds() - t0) * 1e3;
    pcre2_data = pcre2_match_data_create(1, NULL);
    if (pcre2_refused) note("PCRE2 refused %zu of %zu patterns (their rules never match in the PCRE2 loop)", pcre2_refused, pattern_count);
    if (not_jitted) note("PCRE2's JIT refused %zu patterns; the loop runs them interpreted", not_jitted);
}

/* hyperscan: one database of every pattern, each tagged with its rule
 * (HS_FLAG_SINGLEMATCH: one report per rule); counts rules. */
static hs_database_t *hs_db;
static hs_scratch_t *hs_scratch;
static size_t hs_refused, hs_allow_empty, hs_db_bytes;

static int on_hs_match(unsigned int id, unsigned long long from, unsigned long long to, unsigned int flags, void *ctx) {
    (void)id, (void)from, (void)to, (void)flags;
    (*(size_t *)ctx)++;
    return 0;
}

static size_t hs_rules(size_t i) {
    size_t n = 0;
    hs_scan(hs_db, subjects[i], (unsigned int)subject_lens[i], 0, hs_scratch, on_hs_match, &n);
    return n;
}

/* Each pattern is checked alone first (hs_expression_info, outside the build
 * time) so that a refusal drops that pattern only. A pattern that can match
 * the empty string (".*", min_width 0), which hs_compile_multi refuses
 * without HS_FLAG_ALLOWEMPTY, gets that flag: it keeps the pattern's meaning.
 * Every refusal is counted and reported. */
static void build_hyperscan(double *ms) {
    const unsigned int base = HS_FLAG_SINGLEMATCH | HS_FLAG_UTF8;
    const char **exprs = malloc(pattern_count * sizeof *exprs);
    unsigned int *flags = malloc(pattern_count * sizeof *flags), *ids = malloc(pattern_count * sizeof *ids);
    char **copies = calloc(pattern_count, sizeof *copies);
    unsigned int n = 0;
    char first_refusal[256] = "";
    for (size_t p = 0; p < pattern_count; p++) {
        copies[p] = strndup(patterns[p].text, patterns[p].len);
        hs_expr_info_t *info = NULL;
        hs_compile_error_t *err = NULL;
        if (hs_expression_info(copies[p], base, &info, &err) != HS_SUCCESS) {
            if (!first_refusal[0]) snprintf(first_refusal, sizeof first_refusal, "%s: %s", copies[p], err->message);
            hs_free_compile_error(err);
            hs_refused++;
            continue;
        }
        unsigned int f = base;
        if (info->min_width == 0) {
            f |= HS_FLAG_ALLOWEMPTY;
            hs_allow_empty++;
        }
        free(info);
        exprs[n] = copies[p];
        flags[n] = f;
        ids[n] = patterns[p].rule;
        n++;
    }
    if (hs_allow_empty) note("hyperscan: %zu pattern(s) can match the empty string; compiled with HS_FLAG_ALLOWEMPTY", hs_allow_empty);
    if (hs_refused) note("hyperscan refused %zu of %zu patterns (their rules never match through hyperscan); first: %s", hs_refused, pattern_count, first_refusal);
    double t0 = now_seconds();
    hs_compile_error_t *err = NULL;
    if (n == 0 || hs_compile_multi(exprs, flags, ids, n, HS_MODE_BLOCK, NULL, &hs_db, &err) != HS_SUCCESS) {
        note("hyperscan could not build the database: %s", err ? err->message : "no pattern left");
        hs_free_compile_error(err);
        hs_db = NULL;
    } else if (hs_alloc_scratch(hs_db, &hs_scratch) != HS_SUCCESS) {
        note("hyperscan could not allocate scratch space");
        hs_free_database(hs_db);
        hs_db = NULL;
    } else {
        hs_database_size(hs_db, &hs_db_bytes);
    }
    *ms = (now_seconds() - t0) * 1e3;
    for (size_t p = 0; p < pattern_count; p++) free(copies[p]);
    free(copies), free(exprs), free(flags), free(ids);
}

/* RE2::Set of every pattern (RE2's default options); counts rules. */
static re2set *re2;
static uint32_t *re2_stamp, re2_gen;
static size_t re2_refused, re2_dfa_failures;

static size_t re2_rules(size_t i) {
    int failed = 0;
    size_t n = re2set_match_rules(re2, subjects[i], subject_lens[i], re2_stamp, ++re2_gen, &failed);
    re2_dfa_failures += (size_t)failed;
    return n;
}

static void build_re2(double *ms) {
    char first_refusal[256] = "", message[200];
    re2_stamp = calloc(rule_count, sizeof *re2_stamp);
    double t0 = now_seconds();
    re2 = re2set_new();
    for (size_t p = 0; p < pattern_count; p++)
        if (re2set_add(re2, patterns[p].text, patterns[p].len, patterns[p].rule, message, sizeof message) != 0) {
            if (!first_refusal[0]) snprintf(first_refusal, sizeof first_refusal, "%.*s: %s", (int)patterns[p].len, patterns[p].text, message);
            re2_refused++;
        }
    int ok = re2set_compile(re2) == 0;
    *ms = (now_seconds() - t0) * 1e3;
    if (re2_refused) note("RE2 refused %zu of %zu patterns (their rules never match through RE2::Set); first: %s", re2_refused, pattern_count, first_refusal);
    if (!ok) {
        note("RE2::Set::Compile ran out of memory");
        re2set_free(re2);
        re2 = NULL;
    }
}

/* ---- the check --------------------------------------------------------- */

typedef struct {
    size_t checked, ours_differ, typed_failed, map_failed, hyperscan_differ, re2_differ;
    char first_difference[400];
} check_result;

/* The straightforward algorithm's properties for subject i (rules matched by
 * the PCRE2 loop, merged shallowly in order), as compact JSON through cJSON. */
static char *expected_properties(size_t i, size_t *matched) {
    cJSON *merged = cJSON_CreateObject();
    *matched = 0;
    for (size_t r = 0; r < rule_count; r++) {
        int found = 0;
        for (size_t p = rule_first[r]; p < rule_first[r + 1] && !found; p++) found = pcre2_found(p, subjects[i], subject_lens[i]);
        if (!found) continue;
        (*matched)++;
        cJSON *kv;
        cJSON_ArrayForEach(kv, rule_properties[r]) {
            cJSON *copy = cJSON_Duplicate(kv, 1);
            if (cJSON_GetObjectItemCaseSensitive(merged, kv->string)) cJSON_ReplaceItemInObjectCaseSensitive(merged, kv->string, copy);
            else cJSON_AddItemToObject(merged, kv->string, copy);
        }
    }
    char *text = cJSON_PrintUnformatted(merged);
    cJSON_Delete(merged);
    return text;
}

static check_result check(size_t every) {
    check_result c = {0};
    for (size_t i = 0; i < url_count; i += every) {
        size_t matched;
        char *expected = expected_properties(i, &matched);
        pathconfig_result *res = pathconfig_resolve(cfg_no_cache, urls[i], NULL, NULL);
        const char *ours = res ? pathconfig_result_json(res) : "(lookup failed)";
        cJSON *parsed = cJSON_Parse(ours);
        char *actual = cJSON_PrintUnformatted(parsed);
        if (actual == NULL || strcmp(expected, actual) != 0) {
            if (!c.ours_differ++)
                snprintf(c.first_difference, sizeof c.first_difference, "%s: libpathconfig %s, PCRE2 loop %s", urls[i], ours, expected);
        }
        /* The other read paths of the peers read something: no NULL typed
         * value (both keys are enums), no failed getter. */
        if (!res || !pathconfig_result_typed_string(res, PATHCONFIG_KEY_CONTEXT) ||
            !pathconfig_result_typed_string(res, PATHCONFIG_KEY_PRESENTATION))
            c.typed_failed++;
        if (!res || read_map(res) == SIZE_MAX) c.map_failed++;
        pathconfig_result_release(res);
        if (hs_db && hs_rules(i) != matched) c.hyperscan_differ++;
        if (re2 && re2_rules(i) != matched) c.re2_differ++;
        c.checked++;
        free(expected), free(actual), cJSON_Delete(parsed);
    }
    return c;
}

/* ---- timing ------------------------------------------------------------ */

typedef struct {
    const char *key;
    size_t (*lookup)(size_t i);
    size_t cursor;
} peer;

static size_t sink;

/* Runs p over the URLs from its cursor for budget seconds (at least 3
 * lookups), reading the clock once per batch (doubled while a batch takes
 * under 0.1 ms); seconds per lookup. */
static double measure(peer *p, double budget) {
    size_t i = p->cursor, done = 0, batch = 1;
    double start = now_seconds(), elapsed;
    for (;;) {
        double t = now_seconds();
        for (size_t k = 0; k < batch; k++) {
            sink += p->lookup(i);
            if (++i == url_count) i = 0;
        }
        done += batch;
        double end = now_seconds();
        elapsed = end - start;
        if (elapsed >= budget && done >= 3) break;
        if (end - t < 1e-4 && batch < (1u << 20)) batch *= 2;
    }
    p->cursor = i;
    return elapsed / (double)done;
}

/* The other engines: the string each URL is matched as, the rules read
 * with cJSON, the PCRE2 loop, hyperscan and RE2::Set built (their build
 * times in ms), then the check. */
static check_result build_engines(const char *json, size_t json_len, const char *path, size_t every, double *pcre2_ms,
                                  double *hs_ms, double *re2_ms) {
    subjects = malloc(url_count * sizeof *subjects);
    subject_lens = malloc(url_count * sizeof *subject_lens);
    for (size_t i = 0; i < url_count; i++) {
        subjects[i] = pathconfig_matched_string(cfg_no_cache, urls[i], NULL);
        subject_lens[i] = strlen(subjects[i]);
    }

    cJSON *root = cJSON_ParseWithLength(json, json_len);
    if (!root) {
        fprintf(stderr, "%s: cJSON cannot parse it\n", path);
        exit(2);
    }
    read_rules(root, path);

    build_pcre2(pcre2_ms);
    if (hs_valid_platform() == HS_SUCCESS) build_hyperscan(hs_ms);
    else note("hyperscan does not run on this CPU (hs_valid_platform)");
    build_re2(re2_ms);

    check_result c = check(every);
    if (pcre2_errors) note("PCRE2 reported %zu match errors (counted as no match)", pcre2_errors);
    if (re2_dfa_failures) note("RE2::Set's DFA ran out of memory on %zu lookups (counted as no match)", re2_dfa_failures);
    return c;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: pathconfig-peers RULES_JSON URLS_TXT [--check-every K] [--options JSON]\n");
        return 2;
    }
    size_t every = 1;
    for (int a = 3; a + 1 < argc; a += 2) {
        if (strcmp(argv[a], "--check-every") == 0) every = (size_t)strtoul(argv[a + 1], NULL, 10);
        if (strcmp(argv[a], "--options") == 0) {
            /* The object with "result_cache_size":0 added before its last `}`,
             * after a comma where it has members (a `:`). */
            const char *given = argv[a + 1], *close = strrchr(given, '}');
            static char no_cache[4096];
            if (!close || snprintf(no_cache, sizeof no_cache, "%.*s%s\"result_cache_size\":0}", (int)(close - given), given,
                                   strchr(given, ':') ? "," : "") >= (int)sizeof no_cache) {
                fprintf(stderr, "--options: a JSON object of at most 4,000 bytes\n");
                return 2;
            }
            OPTIONS_NO_CACHE = no_cache, OPTIONS_DEFAULT_CACHE = given, library_only = 1;
        }
    }
    if (every == 0) every = 1;

    size_t json_len;
    char *json = read_file(argv[1], &json_len);
    urls = read_lines(argv[2], &url_count);

    /* Memory: RSS before and after one load, from a baseline where what is
     * not the load's is already resident: the library's one-time setup (a
     * first load of a tiny configuration, with a plain pattern, one that is
     * not, a lookahead, and a `\b`: the first load of a pattern that is not
     * plain runs about 64 KB of libstdc++'s code for the first time, 4
     * bytes a document byte at 100 rules), its code (every page of it read
     * once: else the first run of a function maps the 64 KB of the file
     * around it, counted as the load's, by chance) and the readings' own
     * libc code (the first fscanf and sscanf touch about 64 KB). */
    static const char tiny[] = "{\"rules\":[{\"patterns\":[\"^/x$\",\"^/abc(?=d)\",\"/x\\\\b\"],\"properties\":{\"a\":1}}]}";
    pathconfig_release(load(tiny, sizeof tiny - 1, OPTIONS_NO_CACHE));
    touch_library_pages();
    (void)rss_bytes();
    (void)peak_rss_bytes();
    reset_peak_rss();
    size_t rss0 = rss_bytes();
    cfg_no_cache = load(json, json_len, OPTIONS_NO_CACHE);
    size_t rss1 = rss_bytes();
    size_t peak = peak_rss_bytes();
    /* And after one pass of lookups over the URLs: what a load leaves to
     * first use (plain patterns' automata, results per set of rules) built. */
    for (size_t i = 0; i < url_count; i++) pathconfig_result_release(pathconfig_resolve(cfg_no_cache, urls[i], NULL, NULL));
    size_t rss2 = rss_bytes();

    double loads[3];
    for (int k = 0; k < 3; k++) {
        double t0 = now_seconds();
        pathconfig *cfg = load(json, json_len, OPTIONS_NO_CACHE);
        loads[k] = (now_seconds() - t0) * 1e3;
        pathconfig_release(cfg);
    }
    cfg_default_cache = load(json, json_len, OPTIONS_DEFAULT_CACHE);

    double pcre2_ms = 0, hs_ms = 0, re2_ms = 0;
    check_result c = {0};
    if (!library_only) c = build_engines(json, json_len, argv[1], every, &pcre2_ms, &hs_ms, &re2_ms);

    peer peers[10];
    size_t peer_count = 0;
    peers[peer_count++] = (peer){"c_resolve", c_resolve, 0};
    if (!library_only) peers[peer_count++] = (peer){"c_typed", c_typed, 0};
    if (!library_only) peers[peer_count++] = (peer){"c_raw", c_raw, 0};
    peers[peer_count++] = (peer){"c_map", c_map, 0};
    peers[peer_count++] = (peer){"c_resolve_cache", c_resolve_cache, 0};
    if (!library_only) peers[peer_count++] = (peer){"pcre2_loop", pcre2_loop, 0};
    if (hs_db) peers[peer_count++] = (peer){"hyperscan", hs_rules, 0};
    if (re2) peers[peer_count++] = (peer){"re2set", re2_rules, 0};

    printf("{\"ready\":\"c\",\"rules\":%zu,\"patterns\":%zu,\"urls\":%zu,\"peers\":[", rule_count, pattern_count, url_count);
    for (size_t p = 0; p < peer_count; p++) printf("%s\"%s\"", p ? "," : "", peers[p].key);
    printf("],\"build_ms\":{\"c_load\":%.3f,\"pcre2_loop\":%.3f", median3(loads[0], loads[1], loads[2]), pcre2_ms);
    if (hs_db) printf(",\"hyperscan\":%.3f", hs_ms);
    if (re2) printf(",\"re2set\":%.3f", re2_ms);
    printf("},\"rss_delta_bytes\":%zu,\"rss_after_pass_bytes\":%zu,\"peak_load_bytes\":%zu,\"document_bytes\":%zu,"
           "\"hyperscan_db_bytes\":%zu", rss1 > rss0 ? rss1 - rss0 : 0, rss2 > rss0 ? rss2 - rss0 : 0, peak > rss0 ? peak - rss0 : 0,
           json_len, hs_db_bytes);
    printf(",\"refused\":{\"pcre2_loop\":%zu,\"hyperscan\":%zu,\"hyperscan_allow_empty\":%zu,\"re2set\":%zu}",
           pcre2_refused, hs_refused, hs_allow_empty, re2_refused);
    printf(",\"check\":{\"every\":%zu,\"urls\":%zu,\"c_resolve\":%zu,\"c_typed\":%zu,\"c_map\":%zu,\"hyperscan\":%zu,\"re2set\":%zu,"
           "\"first_difference\":",
           every, c.checked, c.ours_differ, c.typed_failed, c.map_failed, hs_db ? c.hyperscan_differ : 0, re2 ? c.re2_differ : 0);
    put_json_string(stdout, c.first_difference);
    printf("},\"notes\":[");
    for (size_t k = 0; k < note_count; k++) {
        if (k) putchar(',');
        put_json_string(stdout, notes[k]);
    }
    printf("]}\n");
    fflush(stdout);

    char line[256];
    size_t round = 0;
    while (fgets(line, sizeof line, stdin)) {
        double budget;
        if (sscanf(line, "round %lf", &budget) != 1) break;
        double seconds[sizeof peers / sizeof peers[0]];
        for (size_t k = 0; k < peer_count; k++) {
            size_t p = (k + round) % peer_count; /* a different peer first in each round */
            seconds[p] = measure(&peers[p], budget);
        }
        printf("{\"round\":{");
        for (size_t p = 0; p < peer_count; p++) printf("%s\"%s\":%.9g", p ? "," : "", peers[p].key, seconds[p]);
        printf("}}\n");
        fflush(stdout);
        round++;
    }
    if (sink == 42) fprintf(stderr, " ");
    return 0;
}
