/* Load: many threads resolving through a loader's configuration while it
 * is swapped and invalidated, for a bounded time.
 *
 *   test_soak SCRATCH_DIR [SECONDS [THREADS]]
 *
 * SECONDS defaults to $SOAK_SECONDS, else 10; THREADS to 8.
 *
 * One loader reads one file. A swapper thread rewrites the file (a new file
 * renamed over the old one) with the next version of the configuration and
 * runs pathconfig_loader_load, every 2 ms; an invalidator thread calls
 * pathconfig_invalidate on the current configuration every millisecond.
 * Readers take pathconfig_loader_current in each iteration, resolve one URL
 * of a rotating set and release it. Every rule of version V sets "version": V
 * and a key of its own, "rN", to 16 V + N; odd versions have one more rule.
 * So each result must show: one version, not older than the last this reader
 * saw and not newer than the last one written; each rN key its rule must
 * give, with its rule's value for that version, and no other.
 *
 * The run is a sequence of 200 ms windows in which 1, 2 or THREADS readers
 * run, in turn, so that each count meets the same load from the rest of the
 * machine; the lookups per second of each count are printed. Without a
 * sanitizer two readers must do at least 0.6 times one reader's lookups (on
 * two cores, shared with the swapper and the invalidator, anything less means
 * they mostly wait for each other); the aim, never fewer than one
 * thread's on many cores, is for bench/c/threads.c on such a machine. Memory must stay
 * flat: the resident set at the end may exceed the one at a quarter of the
 * run by at most 4 MiB (see RSS_GROWTH_BOUND). Under a sanitizer, whose own
 * memory and speed say nothing of the library's, both are printed but not
 * checked. Prints "N passed, M failed". */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, nanosleep, mkdtemp */

#include "harness.h"
#include "pathconfig.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* How much the resident set may grow from a quarter of the run to its end.
 * By a quarter every thread has run and every cache is as full as it gets
 * (the result cache is bounded, and emptied every millisecond anyway), so
 * what is live stays the same: a few configurations, the readers' results,
 * malloc's per-thread arenas. Measured on 2 cores: +0.1 to +0.3 MiB over 3
 * and 10 s runs with 8 and 16 readers. A configuration kept by a leaked
 * reference per swap grows it by about 6 MiB a second (+11 MiB in a 3 s
 * run); a result kept per lookup by about 1 MiB a second (results are
 * shared and mostly cached: a leaked reference keeps one alive, not one per
 * lookup), which the default 10 s catches and a 3 s run may not. Exact
 * leaks are LeakSanitizer's job: `make test-sanitize` runs this under it. */
#define RSS_GROWTH_BOUND (4L << 20)
#define WINDOW_MS 200
#define SWAP_PAUSE_US 2000
#define INVALIDATE_PAUSE_US 1000
#define RULE_KEYS 5

/* A URL and the string its rules see (hotwire-ios: the path, query on). */
static const struct {
    const char *url;
    const char *path;
} inputs[] = {
    { "/", "/" },
    { "/items/12", "/items/12" },
    { "/items/12/new", "/items/12/new" },
    { "/items/12/edit", "/items/12/edit" },
    { "/items/new", "/items/new" },
    { "/sign_in", "/sign_in" },
    { "/sign_in/x", "/sign_in/x" },
    { "/messages/7/new", "/messages/7/new" },
    { "https://example.com/items/5", "/items/5" },
    { "https://example.com/items/5/edit#top", "/items/5/edit" },
    { "https://example.com/sign_in", "/sign_in" },
    { "http://example.org:8080/items/x/new", "/items/x/new" },
};
#define INPUT_COUNT (sizeof inputs / sizeof inputs[0])

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Whether rule `r` of version `version` matches `path`: the patterns below. */
static int rule_matches(int r, const char *path, int64_t version)
{
    switch (r) {
    case 0: return 1;
    case 1: return ends_with(path, "/new") || ends_with(path, "/edit");
    case 2: return strncmp(path, "/items/", 7) == 0 && path[7] >= '0' && path[7] <= '9';
    case 3: return strcmp(path, "/sign_in") == 0;
    default: return version % 2 == 1 && strncmp(path, "/items/", 7) == 0;
    }
}

static int64_t rule_value(int64_t version, int r) { return version * 16 + r; }

/* The configuration of `version`. */
static int write_version(const char *path, int64_t version)
{
    static const char *const patterns[RULE_KEYS] = { ".*", "/(new|edit)$", "^/items/[0-9]+", "^/sign_in$", "^/items/" };
    char doc[2048], tmp[512];
    size_t used;
    FILE *f;
    int r, rules = version % 2 == 1 ? RULE_KEYS : RULE_KEYS - 1;

    used = (size_t)snprintf(doc, sizeof doc, "{\"rules\": [");
    for (r = 0; r < rules; r++)
        used += (size_t)snprintf(doc + used, sizeof doc - used,
                                 "%s{\"patterns\": [\"%s\"], \"properties\": {\"version\": %lld, \"r%d\": %lld%s}}",
                                 r ? ", " : "", patterns[r], (long long)version, r, (long long)rule_value(version, r),
                                 r == 1 ? ", \"context\": \"modal\"" : "");
    used += (size_t)snprintf(doc + used, sizeof doc - used, "]}\n");
    if (used >= sizeof doc) return -1;
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    f = fopen(tmp, "wb");
    if (f == NULL) return -1;
    if (fwrite(doc, 1, used, f) != used) {
        fclose(f);
        return -1;
    }
    if (fclose(f) != 0) return -1;
    return rename(tmp, path); /* readers of the file see the old one or the new one, whole */
}

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void pause_us(long us)
{
    struct timespec t = { us / 1000000, (us % 1000000) * 1000 };
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {}
}

static long resident_bytes(void)
{
    long size = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f == NULL) return -1;
    if (fscanf(f, "%ld %ld", &size, &resident) != 2) resident = -1;
    fclose(f);
    return resident < 0 ? -1 : resident * sysconf(_SC_PAGESIZE);
}

/* ---- shared state --------------------------------------------------------- */

static pathconfig_loader *loader;
static int64_t written;   /* the newest version in the file; __atomic */
static int stop_churn;    /* tells the swapper and the invalidator to stop; __atomic */

/* Which readers run: readers with index < active, while epoch is the one
 * they started in. Behind gate.lock, except that readers poll epoch with
 * __atomic loads between lookups. */
static struct {
    pthread_mutex_t lock;
    pthread_cond_t changed; /* epoch or active changed, or stop */
    pthread_cond_t idle;    /* running reached 0 */
    unsigned epoch;
    int active;
    int running;            /* readers still in the current window */
    long window_lookups;    /* added by each reader as it leaves a window */
    int stop;
} gate = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0, 0, 0 };

struct failure {
    int count;
    char first[320];
};

/* Counts a failure about `url`; keeps the first one's explanation. */
static void fail(struct failure *f, const char *url, const char *fmt, ...)
{
    char what[200];
    va_list ap;
    if (f->count++ > 0) return;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(f->first, sizeof f->first, "%s: %s", url, what);
}

/* One lookup through the loader's current configuration, and its checks.
 * Returns the version seen (0 when the lookup failed). */
static int64_t check_lookup(struct failure *f, size_t input, int64_t at_least)
{
    const char *url = inputs[input].url;
    pathconfig_error err;
    pathconfig_result *res;
    pathconfig *cfg;
    int64_t version = 0, value, newest;
    int r;

    cfg = pathconfig_loader_current(loader);
    if (cfg == NULL) {
        fail(f, url, "no current configuration (code %d)", pathconfig_last_error()->code);
        return 0;
    }
    res = pathconfig_resolve(cfg, url, NULL, &err);
    if (res == NULL) {
        fail(f, url, "resolve failed (code %d)", err.code);
        pathconfig_release(cfg);
        return 0;
    }
    newest = __atomic_load_n(&written, __ATOMIC_ACQUIRE);
    if (pathconfig_result_get_int64(res, "version", &version) != PATHCONFIG_OK) {
        fail(f, url, "no version");
    } else {
        if (version < at_least) fail(f, url, "version %lld after %lld", (long long)version, (long long)at_least);
        if (version > newest) fail(f, url, "version %lld, newer than the file's %lld", (long long)version, (long long)newest);
        for (r = 0; r < RULE_KEYS; r++) {
            char key[8];
            int found;
            snprintf(key, sizeof key, "r%d", r);
            found = pathconfig_result_get_int64(res, key, &value) == PATHCONFIG_OK;
            if (found != rule_matches(r, inputs[input].path, version))
                fail(f, url, "r%d %s in version %lld", r, found ? "present" : "missing", (long long)version);
            else if (found && value != rule_value(version, r))
                fail(f, url, "version %lld with another version's r%d: %lld", (long long)version, r, (long long)value);
        }
    }
    if (strcmp(pathconfig_result_typed_string(res, PATHCONFIG_KEY_CONTEXT), rule_matches(1, inputs[input].path, version) ? "modal" : "default") != 0)
        fail(f, url, "context %s", pathconfig_result_typed_string(res, PATHCONFIG_KEY_CONTEXT));
    pathconfig_result_release(res);
    pathconfig_release(cfg);
    return version;
}

/* ---- threads ---------------------------------------------------------------- */

struct reader {
    pthread_t thread;
    int index;
    long lookups;
    struct failure failure;
};

static void *read_loop(void *arg)
{
    struct reader *w = arg;
    unsigned seen = 0;
    int64_t last = 1;
    size_t n = (size_t)w->index * 5;

    pthread_mutex_lock(&gate.lock);
    for (;;) {
        long lookups = 0;
        while (!gate.stop && !(w->index < gate.active && gate.epoch != seen)) pthread_cond_wait(&gate.changed, &gate.lock);
        if (gate.stop) break;
        seen = gate.epoch;
        pthread_mutex_unlock(&gate.lock);
        while (__atomic_load_n(&gate.epoch, __ATOMIC_RELAXED) == seen) {
            int64_t version = check_lookup(&w->failure, n++ % INPUT_COUNT, last);
            if (version > last) last = version;
            lookups++;
        }
        pthread_mutex_lock(&gate.lock);
        w->lookups += lookups;
        gate.window_lookups += lookups;
        if (--gate.running == 0) pthread_cond_signal(&gate.idle);
    }
    pthread_mutex_unlock(&gate.lock);
    return NULL;
}

struct churn {
    pthread_t thread;
    long count;
    struct failure failure;
    char path[600];
};

static void *swap_loop(void *arg)
{
    struct churn *c = arg;
    while (!__atomic_load_n(&stop_churn, __ATOMIC_RELAXED)) {
        int64_t next = __atomic_load_n(&written, __ATOMIC_RELAXED) + 1;
        pathconfig_error err;
        pathconfig_result *res;
        pathconfig *cfg;
        int64_t version = 0;
        if (write_version(c->path, next) != 0) {
            fail(&c->failure, c->path, "writing version %lld failed", (long long)next);
            break;
        }
        __atomic_store_n(&written, next, __ATOMIC_RELEASE);
        if (pathconfig_loader_load(loader, &err) != 0) fail(&c->failure, c->path, "load of version %lld: %s", (long long)next, err.message);
        cfg = pathconfig_loader_current(loader);
        res = cfg ? pathconfig_resolve(cfg, "/", NULL, NULL) : NULL;
        if (res == NULL || pathconfig_result_get_int64(res, "version", &version) != PATHCONFIG_OK || version != next)
            fail(&c->failure, c->path, "current is version %lld after loading %lld", (long long)version, (long long)next);
        pathconfig_result_release(res);
        pathconfig_release(cfg);
        c->count++;
        pause_us(SWAP_PAUSE_US);
    }
    return NULL;
}

static void *invalidate_loop(void *arg)
{
    struct churn *c = arg;
    while (!__atomic_load_n(&stop_churn, __ATOMIC_RELAXED)) {
        pathconfig *cfg = pathconfig_loader_current(loader);
        if (cfg == NULL || pathconfig_invalidate(cfg) != 0) fail(&c->failure, "current configuration", "invalidate failed");
        pathconfig_release(cfg);
        c->count++;
        pause_us(INVALIDATE_PAUSE_US);
    }
    return NULL;
}

/* Runs `count` readers for one window; returns its lookups and, in
 * *seconds, how long it lasted. */
static long run_window(int count, double *seconds)
{
    double start;
    long lookups;
    pthread_mutex_lock(&gate.lock);
    gate.window_lookups = 0;
    gate.active = count;
    gate.running = count;
    __atomic_store_n(&gate.epoch, gate.epoch + 1, __ATOMIC_RELAXED);
    pthread_cond_broadcast(&gate.changed);
    pthread_mutex_unlock(&gate.lock);
    start = now_seconds();
    pause_us(WINDOW_MS * 1000L);
    pthread_mutex_lock(&gate.lock);
    gate.active = 0;
    __atomic_store_n(&gate.epoch, gate.epoch + 1, __ATOMIC_RELAXED);
    while (gate.running > 0) pthread_cond_wait(&gate.idle, &gate.lock);
    lookups = gate.window_lookups;
    pthread_mutex_unlock(&gate.lock);
    *seconds = now_seconds() - start;
    return lookups;
}

int main(int argc, char **argv)
{
    const char *env = getenv("SOAK_SECONDS");
    double seconds = argc > 2 ? atof(argv[2]) : env != NULL ? atof(env) : 10;
    int threads = argc > 3 ? atoi(argv[3]) : 8;
    int counts[3], kinds, k, i, windows = 0;
    long lookups[3] = { 0, 0, 0 }, rss_quarter = -1, rss_end, total = 0;
    double elapsed[3] = { 0, 0, 0 }, rate[3], start, quarter_at = 0;
    char dir[512], path[600], sources[700];
    struct reader *readers;
    struct churn swapper, invalidator;
    pathconfig_error err;
    size_t n;

    if (argc < 2 || seconds <= 0 || threads < 1 || threads > 256) {
        fprintf(stderr, "usage: %s SCRATCH_DIR [SECONDS (default $SOAK_SECONDS or 10) [THREADS (1-256, default 8)]]\n", argv[0]);
        return 2;
    }
    test_set_context("soak");
    if (!CHECK(snprintf(dir, sizeof dir, "%s/soak-XXXXXX", argv[1]) < (int)sizeof dir, "scratch path fits")) return test_summary();
    if (!CHECK(mkdtemp(dir) != NULL, "mkdtemp %s", dir)) return test_summary();
    snprintf(path, sizeof path, "%s/config.json", dir);
    snprintf(sources, sizeof sources, "[{\"file\": \"%s\"}]", path);

    /* Versions 1 and 2 on this thread first: the expectations above are the library's answers. */
    written = 1;
    if (!CHECK(write_version(path, 1) == 0, "write %s", path)) return test_summary();
    loader = pathconfig_loader_new(sources, NULL, &err);
    if (!CHECK(loader != NULL, "loader: %s", err.message)) return test_summary();
    CHECK(pathconfig_loader_load(loader, &err) == 0, "load: %s", err.message);
    for (k = 1; k <= 2; k++) {
        struct failure f = { 0, "" };
        if (k == 2) {
            written = 2;
            CHECK(write_version(path, 2) == 0 && pathconfig_loader_load(loader, &err) == 0, "version 2: %s", err.message);
        }
        for (n = 0; n < INPUT_COUNT; n++) CHECK(check_lookup(&f, n, k) == k, "version %d of %s", k, inputs[n].url);
        CHECK(f.count == 0, "version %d: %d failures, first: %s", k, f.count, f.first);
    }

    counts[0] = 1;
    counts[1] = 2;
    counts[2] = threads;
    kinds = threads > 2 ? 3 : threads;
    readers = calloc((size_t)threads, sizeof *readers);
    for (i = 0; i < threads; i++) {
        readers[i].index = i;
        CHECK(pthread_create(&readers[i].thread, NULL, read_loop, &readers[i]) == 0, "pthread_create %d", i);
    }
    memset(&swapper, 0, sizeof swapper);
    memset(&invalidator, 0, sizeof invalidator);
    snprintf(swapper.path, sizeof swapper.path, "%s", path);
    CHECK(pthread_create(&swapper.thread, NULL, swap_loop, &swapper) == 0, "pthread_create (swapper)");
    CHECK(pthread_create(&invalidator.thread, NULL, invalidate_loop, &invalidator) == 0, "pthread_create (invalidator)");

    /* Windows of 1, 2 and THREADS readers in turn; the resident set once a
     * quarter of the time has passed (after whole rounds) and at the end. */
    start = now_seconds();
    do {
        for (k = 0; k < kinds; k++) {
            double s;
            lookups[k] += run_window(counts[k], &s);
            elapsed[k] += s;
            windows++;
        }
        if (rss_quarter < 0 && now_seconds() - start >= seconds / 4) {
            rss_quarter = resident_bytes();
            quarter_at = now_seconds() - start;
        }
    } while (now_seconds() - start < seconds);
    rss_end = resident_bytes();

    __atomic_store_n(&stop_churn, 1, __ATOMIC_RELAXED);
    pthread_join(swapper.thread, NULL);
    pthread_join(invalidator.thread, NULL);
    pthread_mutex_lock(&gate.lock);
    gate.stop = 1;
    pthread_cond_broadcast(&gate.changed);
    pthread_mutex_unlock(&gate.lock);
    for (i = 0; i < threads; i++) {
        pthread_join(readers[i].thread, NULL);
        CHECK(readers[i].failure.count == 0, "reader %d: %d bad lookups, first: %s", i, readers[i].failure.count,
              readers[i].failure.first);
        CHECK(readers[i].lookups > 0, "reader %d made no lookup", i);
        total += readers[i].lookups;
    }
    CHECK(swapper.failure.count == 0, "swapper: %d failures, first: %s", swapper.failure.count, swapper.failure.first);
    CHECK(invalidator.failure.count == 0, "invalidator: %d failures, first: %s", invalidator.failure.count,
          invalidator.failure.first);
    CHECK(swapper.count >= 2 && invalidator.count >= 2, "%ld swaps, %ld invalidates", swapper.count, invalidator.count);

    for (k = 0; k < kinds; k++) rate[k] = elapsed[k] > 0 ? (double)lookups[k] / elapsed[k] : 0;
    printf("soak: %.1f s, %d windows, %ld lookups by %d readers, %ld swaps (version %lld), %ld invalidates\n",
           now_seconds() - start, windows, total, threads, swapper.count, (long long)written, invalidator.count);
    printf("soak: lookups per second: 1 thread %.0f", rate[0]);
    for (k = 1; k < kinds; k++) printf(", %d threads %.0f (%.2fx)", counts[k], rate[k], rate[0] > 0 ? rate[k] / rate[0] : 0);
    printf("\n");
    printf("soak: resident set %.1f MiB at %.1f s, %.1f MiB at the end (%+.1f MiB; bound +%ld MiB)\n",
           rss_quarter / 1048576.0, quarter_at, rss_end / 1048576.0, (rss_end - rss_quarter) / 1048576.0,
           RSS_GROWTH_BOUND >> 20);
#ifdef HARNESS_SANITIZED
    printf("soak: under a sanitizer: throughput and memory printed, not checked\n");
#else
    if (kinds >= 2)
        CHECK(rate[1] >= 0.6 * rate[0], "2 threads did %.0f lookups/s, under 0.6 x one thread's %.0f", rate[1], rate[0]);
    CHECK(rss_quarter > 0 && rss_end > 0 && rss_end - rss_quarter <= RSS_GROWTH_BOUND,
          "resident set grew by %.1f MiB from %.1f s to the end", (rss_end - rss_quarter) / 1048576.0, quarter_at);
#endif

    free(readers);
    pathconfig_loader_free(loader);
    remove(path);
    rmdir(dir);
    test_set_context("");
    return test_summary();
}
