/*
 * pathconfig-lookups -- one configuration, every URL of a corpus, PASSES
 * times: the loop whose instructions per lookup a profiler counts.
 *
 *   pathconfig-lookups [--lent] RULES_JSON URLS_TXT PASSES|serve [OPTIONS_JSON]
 *
 * Each lookup is pathconfig_resolve, pathconfig_result_json and
 * pathconfig_result_free, as the "C resolve" column of make bench (with
 * --lent: pathconfig_lookup and pathconfig_result_json, the "C lookup"
 * column). Options default to {"profile":"turbo-ios","match_query_strings":true,
 * "result_cache_size":0}. It prints microseconds per lookup (a rough figure:
 * make bench is the measurement) and a checksum of the JSON lengths.
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

static int lent;

/* One pass over the URLs; the checksum of the JSON lengths, 0 on an error. */
static size_t pass(pathconfig *cfg, char **urls, size_t count) {
    size_t checksum = 0;
    for (size_t i = 0; i < count; i++) {
        if (lent) {
            pathconfig_result *res = pathconfig_lookup(cfg, urls[i], NULL);
            if (!res) goto failed;
            checksum += strlen(pathconfig_result_json(res));
            continue;
        }
        pathconfig_result *res = pathconfig_resolve(cfg, urls[i], NULL);
        if (!res) goto failed;
        checksum += strlen(pathconfig_result_json(res));
        pathconfig_result_free(res);
        continue;
    failed:
        fprintf(stderr, "%s: %s\n", urls[i], pathconfig_last_error()->message);
        return 0;
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
    if (argc > 1 && strcmp(argv[1], "--lent") == 0) {
        lent = 1;
        argv++, argc--;
    }
    if (argc < 4) {
        fprintf(stderr, "usage: pathconfig-lookups [--lent] RULES_JSON URLS_TXT PASSES|serve [OPTIONS_JSON]\n");
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
