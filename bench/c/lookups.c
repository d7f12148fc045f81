/*
 * pathconfig-lookups -- one configuration, every URL of a corpus, PASSES
 * times: the loop whose instructions per lookup a profiler counts.
 *
 *   pathconfig-lookups [--read json|typed|raw|map] RULES_JSON URLS_TXT PASSES|serve [OPTIONS_JSON]
 *
 * Each lookup is pathconfig_resolve, a read and pathconfig_result_release,
 * as make bench's C columns: --read json (the default, "C resolve"):
 * pathconfig_result_json; typed ("C typed"): typed_string of
 * PATHCONFIG_KEY_CONTEXT and PATHCONFIG_KEY_PRESENTATION; raw ("C raw"):
 * one get_string of "context"; map ("C map"): every key through
 * count/key/type and the getter its type needs. Options default to
 * {"profile":"turbo-ios","match_query_strings":true,"result_cache_size":0}.
 * It prints microseconds per lookup (a rough figure: make bench is the
 * measurement) and a checksum of what was read.
 *
 * Instructions per lookup, free of loading and of the machine's noise: run
 * it under valgrind --tool=callgrind with PASSES 1 and 3, and divide the
 * difference of the two totals by twice the number of URLs. Built with
 * valgrind's callgrind.h at hand, it also dumps its counts after loading
 * ("load"), after the first pass ("first pass") and after the others
 * ("passes"), so one run with PASSES 3 gives the same figure: the "passes"
 * dump over twice the number of URLs (bench/ablation.py reads it so).
 *
 * With serve for PASSES (bench/ablation.py), it loads once and then answers
 * each line "round SECONDS" on standard input with one line, the
 * microseconds per lookup of passes over the URLs for about SECONDS, until
 * "quit" or the end of the input.
 */
#include <pathconfig.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#endif
#endif
#ifndef CALLGRIND_DUMP_STATS_AT
#define CALLGRIND_DUMP_STATS_AT(name) ((void)0)
#endif

enum read_mode { READ_JSON, READ_TYPED, READ_RAW, READ_MAP };
static enum read_mode mode = READ_JSON;

/* What one lookup reads of res, by mode: a non-zero checksum, 0 on a failure. */
static size_t read_result(const pathconfig_result *res) {
    const char *context;
    size_t len = 0;
    switch (mode) {
    case READ_TYPED:
        return strlen(pathconfig_result_typed_string(res, PATHCONFIG_KEY_CONTEXT)) +
               strlen(pathconfig_result_typed_string(res, PATHCONFIG_KEY_PRESENTATION));
    case READ_RAW: return 1 + (pathconfig_result_get_string(res, "context", &context, &len) == PATHCONFIG_OK ? len : 0);
    case READ_MAP: { size_t n = read_map(res); return n == SIZE_MAX ? 0 : n + 1; }
    case READ_JSON: break;
    }
    return strlen(pathconfig_result_json(res));
}

/* One pass over the URLs; the checksum of what was read, 0 on an error. */
static size_t pass(pathconfig *cfg, char **urls, size_t count) {
    size_t checksum = 0;
    for (size_t i = 0; i < count; i++) {
        pathconfig_result *res = pathconfig_resolve(cfg, urls[i], NULL, NULL);
        size_t n = res ? read_result(res) : 0;
        pathconfig_result_release(res);
        if (!n) {
            fprintf(stderr, "%s: %s\n", urls[i], res ? "a read failed" : pathconfig_last_error()->message);
            return 0;
        }
        checksum += n;
    }
    return checksum;
}

/* The serve loop: "round SECONDS" -> microseconds per lookup. */
static int serve(pathconfig *cfg, char **urls, size_t count) {
    char line[128];
    if (!pass(cfg, urls, count)) return 1;  /* warm: lazily built states, results */
    printf("ready\n");
    fflush(stdout);
    while (fgets(line, sizeof line, stdin)) {
        double seconds;
        if (sscanf(line, "round %lf", &seconds) != 1) break;
        size_t lookups = 0;
        double start = now_seconds(), elapsed;
        do {
            if (!pass(cfg, urls, count)) return 1;
            lookups += count;
        } while ((elapsed = now_seconds() - start) < seconds);
        printf("%.4f\n", elapsed * 1e6 / (double)lookups);
        fflush(stdout);
    }
    return 0;
}

int main(int argc, char **argv) {
    static const char *const modes[] = { "json", "typed", "raw", "map" };
    if (argc > 2 && strcmp(argv[1], "--read") == 0) {
        size_t m = 0;
        while (m < 4 && strcmp(argv[2], modes[m]) != 0) m++;
        if (m == 4) {
            fprintf(stderr, "pathconfig-lookups: --read json, typed, raw or map, not %s\n", argv[2]);
            return 2;
        }
        mode = (enum read_mode)m;
        argv += 2, argc -= 2;
    }
    if (argc < 4 || strncmp(argv[1], "--", 2) == 0) {
        fprintf(stderr, "usage: pathconfig-lookups [--read json|typed|raw|map] RULES_JSON URLS_TXT PASSES|serve [OPTIONS_JSON]\n");
        return 2;
    }
    const char *options = argc > 4 ? argv[4] : "{\"profile\":\"turbo-ios\",\"match_query_strings\":true,\"result_cache_size\":0}";
    int serving = strcmp(argv[3], "serve") == 0;
    int passes = serving ? 0 : atoi(argv[3]);
    pathconfig_error err;
    pathconfig *cfg = pathconfig_load_file(argv[1], options, &err);
    if (!cfg) {
        fprintf(stderr, "%s: %s\n", argv[1], err.message);
        return 1;
    }
    size_t count = 0;
    char **urls = read_lines(argv[2], &count);
    if (count == 0) {
        fprintf(stderr, "%s: no URLs\n", argv[2]);
        return 1;
    }
    CALLGRIND_DUMP_STATS_AT("load");
    if (serving) return serve(cfg, urls, count);
    double start = now_seconds();
    size_t checksum = 0;
    for (int p = 0; p < passes; p++) {
        size_t sum = pass(cfg, urls, count);
        if (!sum) return 1;
        checksum += sum;
        if (p == 0) CALLGRIND_DUMP_STATS_AT("first pass");
    }
    CALLGRIND_DUMP_STATS_AT("passes");
    double us = (now_seconds() - start) * 1e6 / ((double)count * passes);
    printf("%.3f us per lookup (checksum %zu)\n", us, checksum);
    free_lines(urls, count);
    pathconfig_release(cfg);
    return 0;
}
