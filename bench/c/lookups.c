/*
 * pathconfig-lookups -- one configuration, every URL of a corpus, PASSES
 * times: the loop whose instructions per lookup a profiler counts.
 *
 *   pathconfig-lookups RULES_JSON URLS_TXT PASSES [OPTIONS_JSON]
 *
 * Each lookup is pathconfig_resolve, pathconfig_result_json and
 * pathconfig_result_free, as the "C resolve" column of make bench. Options
 * default to {"profile":"turbo-ios","match_query_strings":true,
 * "result_cache_size":0}. It prints microseconds per lookup (a rough figure:
 * make bench is the measurement) and a checksum of the JSON lengths.
 *
 * Instructions per lookup, free of loading and of the machine's noise: run
 * it under valgrind --tool=callgrind with PASSES 1 and 3, and divide the
 * difference of the two totals by twice the number of URLs.
 */
#include <pathconfig.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus.h"

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: pathconfig-lookups RULES_JSON URLS_TXT PASSES [OPTIONS_JSON]\n");
        return 2;
    }
    const char *options = argc > 4 ? argv[4] : "{\"profile\":\"turbo-ios\",\"match_query_strings\":true,\"result_cache_size\":0}";
    int passes = atoi(argv[3]);
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
    double start = now_seconds();
    size_t checksum = 0;
    for (int p = 0; p < passes; p++) {
        for (size_t i = 0; i < count; i++) {
            pathconfig_result *res = pathconfig_resolve(cfg, urls[i], NULL);
            if (!res) {
                fprintf(stderr, "%s: %s\n", urls[i], pathconfig_last_error()->message);
                return 1;
            }
            checksum += strlen(pathconfig_result_json(res));
            pathconfig_result_free(res);
        }
    }
    double us = (now_seconds() - start) * 1e6 / ((double)count * passes);
    printf("%.3f us per lookup (checksum %zu)\n", us, checksum);
    free_lines(urls, count);
    pathconfig_release(cfg);
    return 0;
}
