/* Rules from code under threads: lookups, invalidation and new rules at once.
 *
 *   test_rule_threads [THREADS [MILLISECONDS]]
 *
 * THREADS workers resolve a rotating set of URLs and methods through one
 * configuration whose configurer reads a version counter the host changes
 * and writes it into two keys, with the request's URL and method. Meanwhile
 * another thread bumps the counter and calls pathconfig_invalidate, and now
 * and then adds a rule from code. Every result must be internally consistent
 * (both keys the same version, the URL and method its own); no lookup that
 * starts after an invalidate (or an add) returns may see an older version
 * (or miss the rule); after the last invalidate every lookup sees the final
 * version. Each rule's free_context runs exactly once, on whichever thread
 * releases the configuration last. Prints "N passed, M failed". */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include "harness.h"
#include "pathconfig.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_ADDED 64

static const char *const paths[] = { "/a", "/a/b", "/t/1", "/t/2/x", "/users/7", "/users/7/edit", "/q;x=1", "/" };
static const char *const methods[] = { "GET", "POST", "put", NULL };
#define PATH_COUNT (sizeof paths / sizeof paths[0])
#define METHOD_COUNT 4

/* What the host shares with the library's callbacks and its own threads;
 * every field behind `lock`. */
static struct {
    pthread_mutex_t lock;
    unsigned version;     /* what the configurer reads */
    unsigned published;   /* the version the last returned invalidate made current */
    unsigned added;       /* the "added" value of the last rule added (0: none yet) */
    int stop;
    int freed;            /* free_context runs */
} host = { PTHREAD_MUTEX_INITIALIZER, 1, 1, 0, 0, 0 };

static unsigned read_field(const unsigned *field)
{
    unsigned value;
    pthread_mutex_lock(&host.lock);
    value = *field;
    pthread_mutex_unlock(&host.lock);
    return value;
}

static int stopping(void)
{
    int stop;
    pthread_mutex_lock(&host.lock);
    stop = host.stop;
    pthread_mutex_unlock(&host.lock);
    return stop;
}

static void count_free(void *context)
{
    (void)context;
    pthread_mutex_lock(&host.lock);
    host.freed++;
    pthread_mutex_unlock(&host.lock);
}

/* The configurer: the version into "v1", then (a yield later) into "v2"
 * with the request's URL and method. */
static int stamp(void *context, pathconfig_request *request)
{
    unsigned v = read_field(&host.version);
    char patch[512];
    (void)context;
    snprintf(patch, sizeof patch, "{\"v1\": %u}", v);
    if (pathconfig_request_merge_properties(request, patch) != 0) return -1;
    sched_yield();
    snprintf(patch, sizeof patch, "{\"v2\": %u, \"url\": \"%s\", \"method\": \"%s\"}", v, pathconfig_request_url(request),
             pathconfig_request_method(request));
    return pathconfig_request_merge_properties(request, patch) == 0 ? 0 : -1;
}

/* The unsigned value at `key` of `res`, 0 when absent. */
static unsigned number(const pathconfig_result *res, const char *key)
{
    const char *json = NULL;
    return pathconfig_result_get_json(res, key, &json) == PATHCONFIG_OK ? (unsigned)strtoul(json, NULL, 10) : 0;
}

struct worker {
    pthread_t thread;
    pathconfig *cfg;     /* the worker's own reference, released at its end */
    int index;
    long lookups;
    int failures;
    char first_failure[512];
};

static void fail(struct worker *w, const char *fmt, const char *url, const char *method, unsigned a, unsigned b)
{
    char what[256];
    if (w->failures++ > 0) return;
    snprintf(what, sizeof what, fmt, a, b);
    snprintf(w->first_failure, sizeof w->first_failure, "%s %s: %s", method ? method : "GET", url, what);
}

/* One lookup and its checks; on the main thread too (w->index < 0). */
static void check_lookup(struct worker *w, pathconfig *cfg, size_t path, size_t method, unsigned at_least)
{
    const char *m = methods[method];
    unsigned published, added, v1, v2, now;
    char expected_url[128], expected_method[16], json[160];
    const char *s = NULL;
    pathconfig_error err;
    pathconfig_result *res;
    size_t i;

    pthread_mutex_lock(&host.lock);
    published = host.published;
    added = host.added;
    pthread_mutex_unlock(&host.lock);
    if (at_least > published) published = at_least;
    res = pathconfig_resolve(cfg, paths[path], m, &err);
    if (res == NULL) {
        fail(w, "failed (code %u)", paths[path], m, (unsigned)err.code, 0);
        return;
    }
    w->lookups++;
    v1 = number(res, "v1");
    v2 = number(res, "v2");
    if (v1 != v2) fail(w, "v1 %u, v2 %u: one lookup saw two versions", paths[path], m, v1, v2);
    if (v1 < published) fail(w, "version %u after the invalidate of %u returned", paths[path], m, v1, published);
    now = read_field(&host.version);
    if (v1 > now) fail(w, "version %u from the future (%u)", paths[path], m, v1, now);
    if (number(res, "added") < added) fail(w, "added %u after rule %u was added", paths[path], m, number(res, "added"), added);
    snprintf(expected_url, sizeof expected_url, "https://api.example.com%s", paths[path]);
    snprintf(json, sizeof json, "\"%s\"", expected_url);
    if (pathconfig_result_get_json(res, "url", &s) != PATHCONFIG_OK || strcmp(s, json) != 0)
        fail(w, "another lookup's URL", paths[path], m, 0, 0);
    for (i = 0; m != NULL && m[i] != '\0' && i + 1 < sizeof expected_method; i++)
        expected_method[i] = (char)(m[i] >= 'a' && m[i] <= 'z' ? m[i] - 'a' + 'A' : m[i]);
    expected_method[i] = '\0';
    snprintf(json, sizeof json, "\"%s\"", m ? expected_method : "GET");
    if (pathconfig_result_get_json(res, "method", &s) != PATHCONFIG_OK || strcmp(s, json) != 0)
        fail(w, "another lookup's method", paths[path], m, 0, 0);
    if (pathconfig_last_error()->code != PATHCONFIG_OK) fail(w, "an error left behind", paths[path], m, 0, 0);
    pathconfig_result_release(res);
}

static void *work(void *arg)
{
    struct worker *w = arg;
    size_t n;
    for (n = (size_t)w->index; !stopping(); n++) check_lookup(w, w->cfg, n % PATH_COUNT, (n / PATH_COUNT + n) % METHOD_COUNT, 0);
    pathconfig_release(w->cfg);
    return NULL;
}

static double seconds_since(const struct timespec *start)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start->tv_sec) + (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

/* The host's own thread: bumps the version and invalidates, adds a rule now
 * and then, until the time is up; then stops the workers and checks that
 * every lookup sees the final version. */
struct changer {
    pthread_t thread;
    pathconfig *cfg;
    double seconds;
    int bumps, adds, add_failures;
    struct worker check;  /* the final lookups' failures */
};

static void *change(void *arg)
{
    struct changer *c = arg;
    struct timespec start, pause = { 0, 200 * 1000 };
    size_t p, m;
    clock_gettime(CLOCK_MONOTONIC, &start);
    /* At least 16 changes (2 rules added), however slowly the machine (or
     * valgrind, which runs one thread at a time) lets this thread run. */
    while (seconds_since(&start) < c->seconds || c->bumps < 16) {
        unsigned v;
        pthread_mutex_lock(&host.lock);
        v = ++host.version;
        pthread_mutex_unlock(&host.lock);
        if (pathconfig_invalidate(c->cfg) != 0) c->add_failures++;
        pthread_mutex_lock(&host.lock);
        host.published = v;
        pthread_mutex_unlock(&host.lock);
        c->bumps++;
        if (c->bumps % 8 == 0 && c->adds < MAX_ADDED) {
            char rule[128];
            snprintf(rule, sizeof rule, "{\"globs\": [\"**\"], \"properties\": {\"added\": %d}}", c->adds + 1);
            if (pathconfig_add_rule(c->cfg, rule, NULL, NULL, NULL, count_free, NULL, NULL) != PATHCONFIG_OK) {
                c->add_failures++;
            } else {
                pthread_mutex_lock(&host.lock);
                host.added = (unsigned)++c->adds;
                pthread_mutex_unlock(&host.lock);
            }
        }
        nanosleep(&pause, NULL);
    }
    pthread_mutex_lock(&host.lock);
    host.stop = 1;
    pthread_mutex_unlock(&host.lock);
    for (p = 0; p < PATH_COUNT; p++)
        for (m = 0; m < METHOD_COUNT; m++) check_lookup(&c->check, c->cfg, p, m, read_field(&host.version));
    pathconfig_release(c->cfg);
    return NULL;
}

int main(int argc, char **argv)
{
    static const char doc[] = "{\"rules\": [{\"globs\": [\"/users/*\"], \"properties\": {\"user\": true}}]}";
    static const char options[] = "{\"profile\": \"siesta\", \"base_url\": \"https://api.example.com\", \"merge\": \"deep\"}";
    int threads = argc > 1 ? atoi(argv[1]) : 8;
    int ms = argc > 2 ? atoi(argv[2]) : 1000;
    struct worker *workers;
    struct changer changer;
    pathconfig_error err;
    pathconfig *cfg;
    long total = 0;
    int i;

    if (threads < 1 || threads > 256 || ms < 1) {
        fprintf(stderr, "usage: %s [THREADS (1-256) [MILLISECONDS]]\n", argv[0]);
        return 2;
    }
    test_set_context("rule threads");
    cfg = pathconfig_load_json(doc, strlen(doc), options, &err);
    if (!CHECK(cfg != NULL, "load: %s", err.message)) return test_summary();
    CHECK(pathconfig_add_rule(cfg, "{\"globs\": [\"**\"]}", NULL, stamp, NULL, count_free, NULL, &err) == PATHCONFIG_OK, "add: %s", err.message);

    memset(&changer, 0, sizeof changer);
    changer.cfg = pathconfig_retain(cfg);
    changer.seconds = ms / 1000.0;
    changer.check.index = -1;
    workers = calloc((size_t)threads, sizeof *workers);
    for (i = 0; i < threads; i++) {
        workers[i].cfg = pathconfig_retain(cfg);
        workers[i].index = i;
        CHECK(pthread_create(&workers[i].thread, NULL, work, &workers[i]) == 0, "pthread_create %d", i);
    }
    CHECK(pthread_create(&changer.thread, NULL, change, &changer) == 0, "pthread_create (changer)");
    pathconfig_release(cfg); /* the threads' references keep it alive */

    pthread_join(changer.thread, NULL);
    for (i = 0; i < threads; i++) {
        pthread_join(workers[i].thread, NULL);
        CHECK(workers[i].failures == 0, "thread %d: %d failures, first: %s", i, workers[i].failures, workers[i].first_failure);
        CHECK(workers[i].lookups > 0, "thread %d made no lookup", i);
        total += workers[i].lookups;
    }
    CHECK(changer.check.failures == 0, "after the last invalidate: %d failures, first: %s", changer.check.failures,
          changer.check.first_failure);
    CHECK(changer.check.lookups == (long)(PATH_COUNT * METHOD_COUNT), "final lookups: %ld", changer.check.lookups);
    CHECK(changer.bumps >= 2 && changer.adds >= 1 && changer.add_failures == 0, "%d invalidates, %d rules added, %d failures",
          changer.bumps, changer.adds, changer.add_failures);
    CHECK(host.freed == 1 + changer.adds, "free_context ran %d times for %d rules", host.freed, 1 + changer.adds);
    free(workers);
    printf("rule threads: %d threads, %ld lookups, %d invalidates, %d rules added in %d ms\n", threads, total, changer.bumps,
           changer.adds, ms);
    test_set_context("");
    return test_summary();
}
