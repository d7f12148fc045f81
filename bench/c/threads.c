/*
 * pathconfig-threads -- lookups per second when T threads share one
 * configuration, for T = 1, 2, 4, ... up to the cores present.
 *
 *   pathconfig-threads [--threads 1,2,4,...] [--seconds S] [--rounds R]
 *                      [--cache off|default|both] [--no-control] [--json]
 *                      CORPUS_DIR SIZE...
 *
 * For each SIZE it loads CORPUS_DIR/rules-SIZE.json once per cache setting
 * (profile turbo-ios, query strings on; "off" is result_cache_size 0,
 * "default" the library's own) and reads CORPUS_DIR/urls-SIZE.txt. Each round
 * runs every thread count in turn: T threads, released together, each calling
 * pathconfig_resolve and pathconfig_result_release on the URLs (thread t starts
 * at URL t*n/T and cycles) until S seconds have passed. It prints, per size,
 * setting and thread count, the median over the rounds of the lookups per
 * second of all threads together and its ratio to one thread's median, as a
 * Markdown table (or, with --json, one JSON object per line).
 *
 * The control: right after each measurement, the same T threads run a loop
 * that only counts (no memory shared, no library) for S seconds, and its
 * ratio to one thread is printed beside the lookups'. It says how many cores
 * the threads actually got: on a busy machine it stays well under T, and
 * the lookups cannot do better. --no-control skips it (half the time).
 *
 * Defaults: --threads 1, 2, 4, ... below the cores online, then that count
 * (a list without 1 gets 1 first, for the ratios);
 * --seconds 1; --rounds 3; --cache both.
 *
 * Needs only libpathconfig (and the libpcre2-8 and libidn2 it links): `make
 * -C bench/c threads` builds it against out/lib with an rpath of $ORIGIN
 * first, so the binary, libpathconfig.so.1, libpcre2-8.so.0, libidn2.so.0
 * and libunistring.so.2 copied into one folder run on a machine without Swift
 * (bench/README.md says how).
 */
#define _GNU_SOURCE
#include <pathconfig.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "corpus.h"

enum { MAX_COUNTS = 64 };

typedef struct {
    const pathconfig *cfg; /* NULL: the control, a loop that only counts */
    char **urls;
    size_t url_count, start;
    pthread_barrier_t *go;
    atomic_int *stop;
    size_t done;
    int failed;
} worker;

static void *run_worker(void *arg) {
    worker *w = arg;
    size_t i = w->start, done = 0;
    pthread_barrier_wait(w->go);
    if (!w->cfg) {
        volatile size_t spins = 0;
        while (!atomic_load_explicit(w->stop, memory_order_relaxed)) spins++;
        w->done = spins;
        return NULL;
    }
    while (!atomic_load_explicit(w->stop, memory_order_relaxed)) {
        pathconfig_result *res = pathconfig_resolve(w->cfg, w->urls[i], NULL, NULL);
        if (!res) w->failed = 1;
        pathconfig_result_release(res);
        if (++i == w->url_count) i = 0;
        done++;
    }
    w->done = done;
    return NULL;
}

/* Lookups per second of `threads` threads sharing cfg for `seconds` (with
 * cfg NULL, iterations per second of the control loop). */
static double lookups_per_second(const pathconfig *cfg, char **urls, size_t url_count, int threads, double seconds) {
    pthread_t ids[MAX_COUNTS * 4];
    worker workers[MAX_COUNTS * 4];
    pthread_barrier_t go;
    atomic_int stop = 0;
    pthread_barrier_init(&go, NULL, (unsigned)threads + 1);
    for (int t = 0; t < threads; t++) {
        workers[t] = (worker){cfg, urls, url_count, (size_t)t * url_count / (size_t)threads, &go, &stop, 0, 0};
        if (pthread_create(&ids[t], NULL, run_worker, &workers[t]) != 0) {
            fprintf(stderr, "pthread_create failed\n");
            exit(1);
        }
    }
    pthread_barrier_wait(&go);
    double t0 = now_seconds();
    struct timespec pause = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
    nanosleep(&pause, NULL);
    atomic_store(&stop, 1);
    size_t total = 0;
    for (int t = 0; t < threads; t++) {
        pthread_join(ids[t], NULL);
        total += workers[t].done;
        if (workers[t].failed) {
            fprintf(stderr, "pathconfig_resolve failed: %s\n", pathconfig_last_error()->message);
            exit(1);
        }
    }
    double elapsed = now_seconds() - t0;
    pthread_barrier_destroy(&go);
    return (double)total / elapsed;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *xs, int n) {
    qsort(xs, (size_t)n, sizeof xs[0], compare_doubles);
    return n % 2 ? xs[n / 2] : (xs[n / 2 - 1] + xs[n / 2]) / 2;
}

static void usage(void) {
    fprintf(stderr, "usage: pathconfig-threads [--threads 1,2,4,...] [--seconds S] [--rounds R] "
                    "[--cache off|default|both] [--no-control] [--json] CORPUS_DIR SIZE...\n");
    exit(2);
}

int main(int argc, char **argv) {
    int counts[MAX_COUNTS], count_n = 0, rounds = 3, json = 0, control = 1;
    double seconds = 1.0;
    const char *cache = "both";
    int a = 1;
    for (; a < argc && strncmp(argv[a], "--", 2) == 0; a++) {
        if (strcmp(argv[a], "--json") == 0 || strcmp(argv[a], "--no-control") == 0) {
            if (argv[a][2] == 'j') json = 1;
            else control = 0;
            continue;
        }
        if (a + 1 >= argc) usage();
        const char *v = argv[++a];
        if (strcmp(argv[a - 1], "--threads") == 0) {
            for (char *end; *v && count_n < MAX_COUNTS; v = *end ? end + 1 : end) {
                long t = strtol(v, &end, 10);
                if (end == v || t < 1 || t > MAX_COUNTS * 4) usage();
                counts[count_n++] = (int)t;
            }
        } else if (strcmp(argv[a - 1], "--seconds") == 0) {
            seconds = atof(v);
        } else if (strcmp(argv[a - 1], "--rounds") == 0) {
            rounds = atoi(v);
        } else if (strcmp(argv[a - 1], "--cache") == 0) {
            cache = v;
        } else {
            usage();
        }
    }
    if (argc - a < 2 || seconds <= 0 || rounds < 1) usage();
    if (strcmp(cache, "off") && strcmp(cache, "default") && strcmp(cache, "both")) usage();
    if (count_n == 0) {
        int cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
        for (int t = 1; t < cores && count_n < MAX_COUNTS - 1; t *= 2) counts[count_n++] = t;
        counts[count_n++] = cores > 0 ? cores : 1;
    } else if (counts[0] != 1 && count_n < MAX_COUNTS) {
        /* The ratios are to one thread: measure it first. */
        memmove(counts + 1, counts, (size_t)count_n * sizeof counts[0]);
        counts[0] = 1;
        count_n++;
    }
    const char *corpus = argv[a++];

    static const char *settings[2][2] = {
        {"off", "{\"profile\":\"turbo-ios\",\"match_query_strings\":true,\"result_cache_size\":0}"},
        {"default", "{\"profile\":\"turbo-ios\",\"match_query_strings\":true}"},
    };
    if (!json) {
        printf("| rules | result cache | threads | lookups/s (all threads) | × one thread |%s\n", control ? " control × one thread |" : "");
        printf("|---:|---|---:|---:|---:|%s\n", control ? "---:|" : "");
    }
    for (; a < argc; a++) {
        char path[4096];
        size_t json_len, url_count;
        snprintf(path, sizeof path, "%s/rules-%s.json", corpus, argv[a]);
        char *rules = read_file(path, &json_len);
        snprintf(path, sizeof path, "%s/urls-%s.txt", corpus, argv[a]);
        char **urls = read_lines(path, &url_count);
        if (url_count == 0) {
            fprintf(stderr, "%s: no URLs\n", path);
            return 2;
        }
        for (int s = 0; s < 2; s++) {
            if (strcmp(cache, "both") && strcmp(cache, settings[s][0])) continue;
            pathconfig_error err;
            pathconfig *cfg = pathconfig_load_json(rules, json_len, settings[s][1], &err);
            if (!cfg) {
                fprintf(stderr, "rules-%s.json: %s\n", argv[a], err.message);
                return 1;
            }
            double samples[MAX_COUNTS][64], controls[MAX_COUNTS][64];
            int n = rounds < 64 ? rounds : 64;
            for (int r = 0; r < n; r++)
                for (int c = 0; c < count_n; c++) {
                    samples[c][r] = lookups_per_second(cfg, urls, url_count, counts[c], seconds);
                    if (control) controls[c][r] = lookups_per_second(NULL, urls, url_count, counts[c], seconds);
                }
            double one = 0, control_one = 0;
            for (int c = 0; c < count_n; c++) {
                double m = median(samples[c], n), cm = control ? median(controls[c], n) : 0;
                if (c == 0) one = m, control_one = cm;
                double ratio = one > 0 ? m / one : 0, control_ratio = control_one > 0 ? cm / control_one : 0;
                if (json) {
                    printf("{\"rules\":%s,\"cache\":\"%s\",\"threads\":%d,\"lookups_per_second\":%.0f,\"vs_one\":%.3f",
                           argv[a], settings[s][0], counts[c], m, ratio);
                    if (control) printf(",\"control_vs_one\":%.3f", control_ratio);
                    printf("}\n");
                } else {
                    printf("| %s | %s | %d | %.0f | %.2f× |", argv[a], settings[s][0], counts[c], m, ratio);
                    if (control) printf(" %.2f× |", control_ratio);
                    printf("\n");
                }
                fflush(stdout);
            }
            pathconfig_release(cfg);
        }
        free(rules);
        free_lines(urls, url_count);
    }
    return 0;
}
