/* Several threads resolving on one shared configuration.
 *
 *   test_threads [THREADS [ITERATIONS]]
 *
 * The expected answers are computed on the main thread first; each worker
 * then resolves a rotating set of URLs (its answer's id, JSON text and
 * values as on the main thread), for "GET" too, retains and releases the
 * shared handle,
 * reads one result shared by all threads, and checks that its last error is
 * its own. The main thread drops its reference while the workers run, so
 * the configuration is freed by whichever worker finishes last. Then
 * children of fork() call it from several threads through configurations
 * their parent made. Prints "N passed, M failed". */
#include "harness.h"
#include "pathconfig.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char doc[] =
    "{\"settings\": {\"tabs\": [{\"title\": \"A\", \"path\": \"/a\"}]},"
    " \"rules\": ["
    "  {\"patterns\": [\".*\"], \"properties\": {\"context\": \"default\", \"pull_to_refresh_enabled\": true}},"
    "  {\"patterns\": [\"/new$\", \"/edit$\"], \"properties\": {\"context\": \"modal\", \"pull_to_refresh_enabled\": false}},"
    "  {\"patterns\": [\"^/messages/\\\\d+$\"], \"properties\": {\"view_controller\": \"message\", \"title\": \"Message\"}},"
    "  {\"patterns\": [\"\\\\?.*preview=1\"], \"properties\": {\"presentation\": \"replace\"}},"
    "  {\"patterns\": [\"^/(sign_in|sign_up)$\"], \"properties\": {\"presentation\": \"replace_root\", \"flow\": \"auth\"}}"
    " ]}";

#define URL_COUNT 48
static char urls[URL_COUNT][96];
static char *expected_json[URL_COUNT];
static char expected_context[URL_COUNT][16];
static uint64_t expected_id[URL_COUNT];

static pathconfig_result *shared_result;

struct worker {
    pthread_t thread;
    pathconfig *cfg;      /* the worker's own reference, released at its end */
    int index;
    int iterations;
    int resolved;
    int failures;
    char first_failure[256];
    const char *title;    /* the shared result's title pointer, as this thread saw it */
};

static void fail(struct worker *w, const char *what, int i)
{
    if (w->failures++ == 0) snprintf(w->first_failure, sizeof w->first_failure, "%s (url %d: %s)", what, i, urls[i]);
}

static void *work(void *arg)
{
    struct worker *w = arg;
    int it;
    for (it = 0; it < w->iterations; it++) {
        int i = (w->index * 7 + it * 5) % URL_COUNT;
        pathconfig *ref;
        pathconfig_result *res;
        const char *s = NULL;

        /* Through the result object. */
        res = pathconfig_resolve(w->cfg, urls[i], NULL, NULL);
        if (res == NULL) {
            fail(w, "resolve returned NULL", i);
            continue;
        }
        if (strcmp(pathconfig_result_json(res), expected_json[i]) != 0) fail(w, "json differs", i);
        /* A thread may get a copy of its own: the same answer, the same id. */
        if (pathconfig_result_id(res) != expected_id[i]) fail(w, "id differs", i);
        if (strcmp(pathconfig_result_typed_string(res, PATHCONFIG_KEY_CONTEXT), expected_context[i]) != 0) fail(w, "context differs", i);
        if (pathconfig_result_get_string(res, "context", &s, NULL) != PATHCONFIG_OK || strcmp(s, expected_context[i]) != 0)
            fail(w, "get_string(context) differs", i);
        pathconfig_result_release(res);
        w->resolved++;

        /* For "GET", on a retained reference: the same answer. */
        ref = pathconfig_retain(w->cfg);
        res = pathconfig_resolve(ref, urls[i], "GET", NULL);
        if (res == NULL || strcmp(pathconfig_result_json(res), expected_json[i]) != 0) fail(w, "GET json differs", i);
        if (res != NULL && pathconfig_result_id(res) != expected_id[i]) fail(w, "GET id differs", i);
        pathconfig_result_release(res);
        pathconfig_release(ref);

        /* The result every thread shares: same answers, same pointers. */
        if (pathconfig_result_get_string(shared_result, "title", &s, NULL) != PATHCONFIG_OK || strcmp(s, "Message") != 0)
            fail(w, "shared result: title differs", i);
        if (w->title == NULL) w->title = s;
        if (s != w->title) fail(w, "shared result: title pointer changed", i);
        if (pathconfig_result_typed_string(shared_result, PATHCONFIG_KEY_VIEW_CONTROLLER) == NULL ||
            strcmp(pathconfig_result_typed_string(shared_result, PATHCONFIG_KEY_VIEW_CONTROLLER), "message") != 0)
            fail(w, "shared result: view_controller", i);
        if (pathconfig_result_get_json(shared_result, urls[i] + 1, &s) != PATHCONFIG_NOT_FOUND) fail(w, "shared result: stray key", i);

        /* The last error belongs to this thread. */
        if (it % 16 == 0) {
            if (pathconfig_resolve(w->cfg, NULL, NULL, NULL) != NULL || pathconfig_last_error()->code != PATHCONFIG_E_ARGUMENT)
                fail(w, "own error not seen", i);
            if (pathconfig_rule_count(w->cfg) != 8 || pathconfig_last_error()->code != PATHCONFIG_OK)
                fail(w, "own error not cleared", i);
        } else if (pathconfig_last_error()->code != PATHCONFIG_OK) {
            fail(w, "another thread's error seen", i);
        }
    }
    pathconfig_release(w->cfg);
    return NULL;
}

/* On a thread of its own: a failing call on no configuration, then (when
 * `succeed`) a successful one; its last error after each. */
struct errors_case {
    int succeed;
    int code_after_failure, code_at_exit;
};

static void *fail_on_a_thread(void *arg)
{
    struct errors_case *c = arg;
    pathconfig_resolve(NULL, "/", NULL, NULL);
    c->code_after_failure = pathconfig_last_error()->code;
    if (c->succeed) {
        static const char empty[] = "{\"rules\": []}";
        pathconfig_release(pathconfig_load_json(empty, strlen(empty), NULL, NULL));
    }
    c->code_at_exit = pathconfig_last_error()->code;
    return NULL;
}

/* A success clears the calling thread's last error, whatever other threads
 * did: one that failed and exited with its error set, one that failed and
 * then succeeded (the library skips clearing while no thread holds an
 * error, so it must count each thread's error once and forget it when the
 * thread clears it or ends). */
static void test_errors_across_threads(void)
{
    struct errors_case kept = { 0, 0, 0 }, cleared = { 1, 0, 0 };
    pthread_t t;

    test_set_context("last errors across threads");
    CHECK(pathconfig_resolve(NULL, "/", NULL, NULL) == NULL && pathconfig_last_error()->code == PATHCONFIG_E_ARGUMENT, "main fails");
    CHECK(pthread_create(&t, NULL, fail_on_a_thread, &kept) == 0 && pthread_join(t, NULL) == 0, "thread 1");
    CHECK(kept.code_after_failure == PATHCONFIG_E_ARGUMENT && kept.code_at_exit == PATHCONFIG_E_ARGUMENT, "thread 1 leaves with its error");
    CHECK(pthread_create(&t, NULL, fail_on_a_thread, &cleared) == 0 && pthread_join(t, NULL) == 0, "thread 2");
    CHECK(cleared.code_after_failure == PATHCONFIG_E_ARGUMENT && cleared.code_at_exit == PATHCONFIG_OK, "thread 2 clears its own");
    CHECK(pathconfig_last_error()->code == PATHCONFIG_E_ARGUMENT, "other threads' calls leave main's error");
    {
        static const char empty[] = "{\"rules\": []}";
        pathconfig *cfg = pathconfig_load_json(empty, strlen(empty), NULL, NULL);
        CHECK(cfg != NULL && pathconfig_last_error()->code == PATHCONFIG_OK, "a success clears main's error");
        CHECK(pathconfig_resolve(cfg, NULL, NULL, NULL) == NULL && pathconfig_last_error()->code == PATHCONFIG_E_ARGUMENT, "fails again");
        for (int i = 0; i < 2; i++) {
            pathconfig_result *res = pathconfig_resolve(cfg, "/", NULL, NULL);
            CHECK(res != NULL && pathconfig_last_error()->code == PATHCONFIG_OK, i == 0 ? "and clears again" : "stays clear");
            pathconfig_result_release(res);
        }
        pathconfig_release(cfg);
    }
    test_set_context("");
}

#ifndef HARNESS_TSAN /* see main */
/* Children of fork() that call the library from several threads at once,
 * the one that forked among them: what a preforking server's workers do.
 * The threads start together with calls the parent never made (explain,
 * and a configuration read as hotwire-android that it loaded and left), so
 * that the child makes Swift globals for the first time, then resolve new
 * URLs through globs, so that every lookup takes the result cache's lock.
 * The thread that forked kept its parent's thread id, and when another
 * waited for a lock it held, the child died of SIGILL (the library's locks,
 * which were Swift's Mutex) or spun forever (the Swift runtime's one-time
 * initialisation): in 10 runs, 39 children of 40 (32 and 7); with the
 * library's locks changed alone, 8 spun. */
struct forked_worker {
    pthread_t thread;
    const pathconfig *globs, *ios, *android;
    int index, iterations, failures;
    char matched[96];
};

static pthread_barrier_t start_together;

static void *first_calls_then_lookups(void *arg)
{
    static const char bad[] = "{\"rules\": [{\"patterns\": [\"(\"], \"properties\": {}}]}";
    struct forked_worker *w = arg;
    pathconfig_error err;
    pathconfig *loaded;
    char url[96], *text;
    const char *s = NULL;
    int i;
    pthread_barrier_wait(&start_together);
    text = pathconfig_explain(w->ios, "https://example.com/messages/new#top", NULL, NULL);
    if (text == NULL || strstr(text, "\"modal\"") == NULL) w->failures++;
    pathconfig_string_free(text);
    text = pathconfig_matched_string(w->android, "https://example.com/a%20b/new?x=1", NULL);
    if (text == NULL || strlen(text) >= sizeof w->matched) w->failures++;
    else strcpy(w->matched, text);
    pathconfig_string_free(text);
    loaded = pathconfig_load_json(bad, strlen(bad), "{\"profile\": \"turbo-android\"}", &err);
    if (loaded != NULL || err.code != PATHCONFIG_E_REGEX || err.rule_index != 0) w->failures++;
    pathconfig_release(loaded);
    for (i = 0; i < w->iterations; i++) {
        pathconfig_result *res;
        snprintf(url, sizeof url, "https://example.com/volcanos/%d-%d/status", w->index, i);
        res = pathconfig_resolve(w->globs, url, NULL, NULL);
        if (res == NULL || pathconfig_result_get_string(res, "expires", &s, NULL) != PATHCONFIG_OK || strcmp(s, "soon") != 0)
            w->failures++;
        pathconfig_result_release(res);
    }
    return NULL;
}

/* In a child: four threads, the calling one the fourth. Its exit status: 0,
 * or 100 for a wrong answer, 101 when a thread could not start. */
static int child_of_fork(struct forked_worker *workers)
{
    int i, failures = 0;
    alarm(120); /* a lock that never comes back ends the child */
    if (pthread_barrier_init(&start_together, NULL, 4) != 0) return 101;
    for (i = 0; i < 3; i++)
        if (pthread_create(&workers[i].thread, NULL, first_calls_then_lookups, &workers[i]) != 0) return 101;
    first_calls_then_lookups(&workers[3]);
    for (i = 0; i < 3; i++) pthread_join(workers[i].thread, NULL);
    for (i = 0; i < 4; i++)
        if (workers[i].failures != 0 || strcmp(workers[i].matched, workers[0].matched) != 0) failures++;
    return failures == 0 ? 0 : 100;
}

static void test_fork_then_threads(int iterations)
{
    static const char globs[] = "{\"rules\": [{\"globs\": [\"/volcanos/*/status\"], \"properties\": {\"expires\": \"soon\"}}]}";
    struct forked_worker workers[4];
    pathconfig_error err;
    pathconfig *globs_cfg, *ios, *android;
    int i, round;

    test_set_context("fork, then threads");
    globs_cfg = pathconfig_load_json(globs, strlen(globs), "{\"profile\": \"siesta\", \"base_url\": \"https://example.com/\"}", &err);
    ios = pathconfig_load_json(doc, strlen(doc), NULL, &err);
    android = pathconfig_load_json(doc, strlen(doc), "{\"profile\": \"hotwire-android\"}", &err);
    if (!CHECK(globs_cfg != NULL && ios != NULL && android != NULL, "load: %s", err.message)) return;
    for (i = 0; i < 100; i++) { /* the parent's thread takes the locks first */
        char url[64];
        snprintf(url, sizeof url, "https://example.com/volcanos/parent-%d/status", i);
        pathconfig_result_release(pathconfig_resolve(globs_cfg, url, NULL, NULL));
    }
    for (round = 0; round < 4; round++) {
        pid_t child;
        int status = 0;
        for (i = 0; i < 4; i++) {
            memset(&workers[i], 0, sizeof workers[i]);
            workers[i].globs = globs_cfg;
            workers[i].ios = ios;
            workers[i].android = android;
            workers[i].index = 4 * round + i;
            workers[i].iterations = iterations;
        }
        fflush(NULL);
        child = fork();
        if (child == 0) exit(child_of_fork(workers));
        if (CHECK(child > 0 && waitpid(child, &status, 0) == child, "fork and wait"))
            CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child %d %s %d (100: a wrong answer, 101: no thread)", round,
                  WIFEXITED(status) ? "exited with" : "was killed by signal",
                  WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    }
    pathconfig_release(android);
    pathconfig_release(ios);
    pathconfig_release(globs_cfg);
    test_set_context("");
}
#endif

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 8;
    int iterations = argc > 2 ? atoi(argv[2]) : 2000;
    struct worker *workers;
    pathconfig_error err;
    pathconfig *cfg;
    int i, total = 0;
    static const char *const paths[] = { "/", "/new", "/messages/12", "/messages/12/edit", "/sign_in", "/sign_up/x",
                                         "/messages/new", "/a/b?preview=1" };

    if (threads < 1 || threads > 256 || iterations < 1) {
        fprintf(stderr, "usage: %s [THREADS (1-256) [ITERATIONS]]\n", argv[0]);
        return 2;
    }
    test_errors_across_threads();
    test_set_context("threads");
    cfg = pathconfig_load_json(doc, strlen(doc), NULL, &err);
    if (!CHECK(cfg != NULL, "load: %d:%d: %s", err.line, err.column, err.message)) return test_summary();

    for (i = 0; i < URL_COUNT; i++) {
        pathconfig_result *res;
        const char *path = paths[i % 8];
        switch (i / 8) {
        case 0: snprintf(urls[i], sizeof urls[i], "%s", path); break;
        case 1: snprintf(urls[i], sizeof urls[i], "https://example.com%s", path); break;
        case 2: snprintf(urls[i], sizeof urls[i], "https://example.com%s%cq=%d", path, strchr(path, '?') ? '&' : '?', i); break;
        case 3: snprintf(urls[i], sizeof urls[i], "https://example.com%s#top", path); break;
        case 4: snprintf(urls[i], sizeof urls[i], "http://example.org:8080%s", path); break;
        default: snprintf(urls[i], sizeof urls[i], "https://example.com/t/%d%s", i, path); break;
        }
        res = pathconfig_resolve(cfg, urls[i], NULL, &err);
        if (!CHECK(res != NULL, "resolve %s: %s", urls[i], err.message)) return test_summary();
        expected_json[i] = malloc(strlen(pathconfig_result_json(res)) + 1);
        strcpy(expected_json[i], pathconfig_result_json(res));
        snprintf(expected_context[i], sizeof expected_context[i], "%s", pathconfig_result_typed_string(res, PATHCONFIG_KEY_CONTEXT));
        expected_id[i] = pathconfig_result_id(res);
        pathconfig_result_release(res);
    }
    CHECK(strcmp(expected_context[1], "modal") == 0 && strcmp(expected_context[2], "default") == 0, "expected answers");

    shared_result = pathconfig_resolve(cfg, "/messages/7", NULL, NULL);
    CHECK(shared_result != NULL, "shared result");

    workers = calloc((size_t)threads, sizeof *workers);
    for (i = 0; i < threads; i++) {
        workers[i].cfg = pathconfig_retain(cfg);
        workers[i].index = i;
        workers[i].iterations = iterations;
    }
    for (i = 0; i < threads; i++) {
        CHECK(pthread_create(&workers[i].thread, NULL, work, &workers[i]) == 0, "pthread_create %d", i);
        if (i == threads / 2) pathconfig_release(cfg); /* the workers' references keep it alive */
    }
    for (i = 0; i < threads; i++) {
        pthread_join(workers[i].thread, NULL);
        /* The title string is made by whichever thread asked first; all got that one. */
        CHECK(workers[i].title == workers[0].title, "thread %d saw another title pointer", i);
        CHECK(workers[i].failures == 0, "thread %d: %d failures, first: %s", i, workers[i].failures, workers[i].first_failure);
        CHECK(workers[i].resolved == iterations, "thread %d resolved %d of %d", i, workers[i].resolved, iterations);
        total += workers[i].resolved;
    }
    CHECK(strcmp(pathconfig_result_json(shared_result),
                 "{\"context\":\"default\",\"pull_to_refresh_enabled\":true,\"view_controller\":\"message\",\"title\":\"Message\"}") == 0,
          "shared result intact: %s", pathconfig_result_json(shared_result));
    pathconfig_result_release(shared_result);
    for (i = 0; i < URL_COUNT; i++) free(expected_json[i]);
    free(workers);
    printf("threads: %d threads x %d iterations, %d lookups\n", threads, iterations, total);
    test_set_context("");
#ifndef HARNESS_TSAN
    test_fork_then_threads(5 * iterations);
#else
    /* Not under ThreadSanitizer, whose build links the Swift runtime as a
     * shared library: its copy of the forking thread's id is out of the fork
     * handler's reach there (Sources/CRuntimeHooks/fork_thread_id.c), so a
     * child spins as before. */
#endif
    return test_summary();
}
