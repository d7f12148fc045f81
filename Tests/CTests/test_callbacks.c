/* The loader's callback through the C ABI: when a payload is used and when
 * it is freed (pathconfig_loader_set_callback's free_payload), replacing
 * and removing the callback from inside it and from another thread, and
 * pathconfig_loader_free from inside the loader's own callback, on the
 * loading thread and on the polling thread (against a real nginx). Each
 * also "proxied": the callback hands the call to another thread and waits
 * for it, as ruby-ffi runs a callback that arrives on a thread Ruby did not
 * make; nothing may wait for the running callback then, or it deadlocks
 * (alarm() ends such a test).
 *
 *   test_callbacks SCRATCH_DIR
 *
 * Prints "N passed, M failed". Run under valgrind too: a payload freed
 * while its callback runs, or a loader used after free, shows there. */
#include "harness.h"
#include "pathconfig.h"
#include "server.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char dir[512];
static char url[128];
static struct test_server server;
static pthread_t main_thread;

/* Two data sources: two events per load. */
static const char *two_sources =
    "[{\"data\": \"{\\\"rules\\\": []}\", \"name\": \"a\"}, {\"data\": \"{\\\"rules\\\": []}\", \"name\": \"b\"}]";

static void sleep_ms(int ms)
{
    struct timespec pause = { ms / 1000, (long)(ms % 1000) * 1000 * 1000 };
    nanosleep(&pause, NULL);
}

/* ---- a payload that records what happens to it --------------------------- */

enum action { NONE, REPLACE, REMOVE, FREE_LOADER, LOAD, REFRESH };

struct payload {
    pthread_mutex_t lock;
    int calls, running, freed;
    int freed_while_running; /* free_payload ran during a call of its callback */
    int calls_after_free;
    int freed_on_main;       /* free_payload ran on the main thread */
    /* What the callback does on the call numbered `on_call`. */
    pathconfig_loader *loader;
    enum action action;
    int on_call;
    int on_main;             /* only on the main thread (1), only on another (-1), anywhere (0) */
    int sleep_ms;            /* first, in every call */
    struct payload *replacement;
    int acted, freed_seen_inside; /* after acting, inside the call: was this payload freed? */
    int proxied;             /* act on a thread of its own, waiting for it inside the call */
    int action_rc;           /* what LOAD or REFRESH returned */
};

static void payload_init(struct payload *p)
{
    memset(p, 0, sizeof *p);
    pthread_mutex_init(&p->lock, NULL);
}

static int get(struct payload *p, const int *field)
{
    int v;
    pthread_mutex_lock(&p->lock);
    v = *field;
    pthread_mutex_unlock(&p->lock);
    return v;
}

static void on_event(const pathconfig_loader_event *ev, void *data);

static void on_event_forward(const pathconfig_loader_event *ev, void *data) { on_event(ev, data); }

static void free_payload(void *data)
{
    struct payload *p = data;
    pthread_mutex_lock(&p->lock);
    p->freed++;
    if (p->running) p->freed_while_running++;
    p->freed_on_main = pthread_equal(pthread_self(), main_thread) != 0;
    pthread_mutex_unlock(&p->lock);
}

static void *perform(void *data)
{
    struct payload *p = data;
    switch (p->action) {
    case REPLACE: pathconfig_loader_set_callback(p->loader, on_event_forward, p->replacement, free_payload); break;
    case REMOVE: pathconfig_loader_set_callback(p->loader, NULL, NULL, NULL); break;
    case FREE_LOADER: pathconfig_loader_free(p->loader); break;
    case LOAD: p->action_rc = pathconfig_loader_load(p->loader, NULL); break;
    case REFRESH: p->action_rc = pathconfig_loader_refresh(p->loader, NULL); break;
    case NONE: break;
    }
    return NULL;
}

static void on_event(const pathconfig_loader_event *ev, void *data)
{
    struct payload *p = data;
    int n, act;
    (void)ev;
    pthread_mutex_lock(&p->lock);
    if (p->freed) p->calls_after_free++;
    n = ++p->calls;
    p->running = 1;
    act = p->action != NONE && n >= p->on_call && !p->acted &&
          (p->on_main == 0 || (p->on_main > 0) == (pthread_equal(pthread_self(), main_thread) != 0));
    if (act) p->acted = 1;
    pthread_mutex_unlock(&p->lock);
    if (p->sleep_ms) sleep_ms(p->sleep_ms);
    if (act) {
        pthread_t proxy;
        if (p->proxied && pthread_create(&proxy, NULL, perform, p) == 0) pthread_join(proxy, NULL);
        else perform(p);
        p->freed_seen_inside = get(p, &p->freed);
    }
    pthread_mutex_lock(&p->lock);
    p->running = 0;
    pthread_mutex_unlock(&p->lock);
}

static pathconfig_loader *new_loader(const char *sources, const char *options)
{
    pathconfig_error err;
    pathconfig_loader *loader = pathconfig_loader_new(sources, options, &err);
    CHECK(loader != NULL, "pathconfig_loader_new: %s", err.message);
    return loader;
}

/* ---- without a server ------------------------------------------------------ */

static void test_free_payload_when_idle(void)
{
    struct payload a, b, c, unused;
    pathconfig_loader *loader;

    test_set_context("free_payload, no call running");
    payload_init(&a);
    payload_init(&b);
    payload_init(&c);
    payload_init(&unused);
    CHECK(pathconfig_loader_set_callback(NULL, on_event, &unused, free_payload) == PATHCONFIG_E_ARGUMENT &&
              pathconfig_last_error()->code == PATHCONFIG_E_ARGUMENT,
          "set_callback(NULL loader)");
    CHECK(unused.freed == 0, "a refused payload stays the caller's: freed %d times", unused.freed);

    loader = new_loader(two_sources, NULL);
    if (loader == NULL) return;
    CHECK(pathconfig_loader_set_callback(loader, on_event, &a, free_payload) == 0, "set a");
    CHECK(pathconfig_loader_load(loader, NULL) == 0 && a.calls == 2, "a called twice: %d", a.calls);
    CHECK(a.freed == 0, "a is in use");
    CHECK(pathconfig_loader_set_callback(loader, on_event, &b, free_payload) == 0, "replace a with b");
    CHECK(a.freed == 1 && a.freed_on_main, "a freed once, before set_callback returned, on its thread: %d", a.freed);
    CHECK(pathconfig_loader_set_callback(loader, NULL, NULL, NULL) == 0 && b.freed == 1,
          "removing b with set_callback frees it: %d", b.freed);
    CHECK(pathconfig_loader_set_callback(loader, NULL, &unused, free_payload) == 0 && unused.freed == 0,
          "with cb NULL, payload and free_payload are ignored");
    CHECK(pathconfig_loader_load(loader, NULL) == 0 && a.calls == 2 && b.calls == 0, "no callback: none called");
    CHECK(pathconfig_loader_set_callback(loader, on_event, &c, NULL) == 0, "no free_payload");
    CHECK(pathconfig_loader_set_callback(loader, on_event, &c, free_payload) == 0 && c.freed == 0,
          "replacing a callback without free_payload frees nothing");
    pathconfig_loader_free(loader);
    CHECK(c.freed == 1 && a.freed == 1 && b.freed == 1, "pathconfig_loader_free frees the last payload: %d", c.freed);
}

static void test_replace_and_remove_from_inside(void)
{
    struct payload a, b;
    pathconfig_loader *loader;

    test_set_context("replaced from inside");
    payload_init(&a);
    payload_init(&b);
    loader = new_loader(two_sources, NULL);
    if (loader == NULL) return;
    a.loader = loader;
    a.action = REPLACE;
    a.on_call = 1;
    a.replacement = &b;
    pathconfig_loader_set_callback(loader, on_event, &a, free_payload);
    CHECK(pathconfig_loader_load(loader, NULL) == 0, "load");
    CHECK(a.calls == 1 && b.calls == 1, "the next event goes to the new callback: %d, %d", a.calls, b.calls);
    CHECK(a.freed_seen_inside == 0 && a.freed_while_running == 0, "the running callback's payload is not freed under it");
    CHECK(a.freed == 1 && a.freed_on_main, "freed once its call returned, on that thread: %d", a.freed);
    CHECK(b.freed == 0, "the new payload is in use");

    test_set_context("removed from inside");
    b.action = REMOVE;
    b.on_call = 2;
    b.loader = loader;
    CHECK(pathconfig_loader_load(loader, NULL) == 0 && pathconfig_loader_load(loader, NULL) == 0, "load twice");
    CHECK(b.calls == 2, "nothing called after it removed itself: %d calls", b.calls);
    CHECK(b.freed_seen_inside == 0 && b.freed_while_running == 0 && b.freed == 1, "freed once, after its call: %d", b.freed);
    pathconfig_loader_free(loader);
    CHECK(a.freed == 1 && b.freed == 1, "nothing freed twice");
}

static void test_free_from_inside_a_load(void)
{
    struct payload a;
    pathconfig_loader *loader;
    pathconfig_error err;
    int rc;

    test_set_context("pathconfig_loader_free inside the callback of a load");
    payload_init(&a);
    loader = new_loader(two_sources, NULL);
    if (loader == NULL) return;
    a.loader = loader;
    a.action = FREE_LOADER;
    a.on_call = 1;
    pathconfig_loader_set_callback(loader, on_event, &a, free_payload);
    rc = pathconfig_loader_load(loader, &err);
    CHECK(rc == 0 && err.code == 0, "the load ran to its end: %d %s", rc, err.message);
    CHECK(a.calls == 1, "no event after free: %d calls", a.calls);
    CHECK(a.freed_seen_inside == 0 && a.freed_while_running == 0, "the running callback's payload is not freed under it");
    CHECK(a.freed == 1 && a.freed_on_main, "freed once, after the call: %d", a.freed);
    /* The loader is gone: valgrind sees any use of it from here. */
}

static void test_proxied_from_a_load(void)
{
    static const struct { enum action action; const char *name; } cases[] = {
        { FREE_LOADER, "pathconfig_loader_free" }, { REMOVE, "set_callback(NULL)" }, { REPLACE, "set_callback(other)" },
        { LOAD, "pathconfig_loader_load" }, { REFRESH, "pathconfig_loader_refresh" },
    };
    size_t i;

    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct payload a, b;
        pathconfig_loader *loader;
        pathconfig_error err;
        int rc;
        char context[160];

        snprintf(context, sizeof context, "%s on another thread, waited for inside the callback of a load", cases[i].name);
        test_set_context(context);
        payload_init(&a);
        payload_init(&b);
        loader = new_loader(two_sources, NULL);
        if (loader == NULL) return;
        a.loader = loader;
        a.action = cases[i].action;
        a.on_call = 1;
        a.proxied = 1;
        a.replacement = &b;
        pathconfig_loader_set_callback(loader, on_event, &a, free_payload);
        alarm(30); /* a deadlock ends the test here */
        rc = pathconfig_loader_load(loader, &err);
        alarm(0);
        CHECK(rc == 0 && err.code == 0, "the load ran to its end: %d %s", rc, err.message);
        CHECK(a.freed_seen_inside == 0 && a.freed_while_running == 0, "the running callback's payload is not freed under it");
        switch (cases[i].action) {
        case LOAD:
        case REFRESH:
            CHECK(a.action_rc == PATHCONFIG_E_MISUSE, "refused with PATHCONFIG_E_MISUSE: %d", a.action_rc);
            CHECK(a.calls == 2 && a.freed == 0, "the load's own events all arrived: %d", a.calls);
            break;
        case REPLACE:
            CHECK(a.calls == 1 && b.calls == 1, "the next event goes to the new callback: %d, %d", a.calls, b.calls);
            CHECK(a.freed == 1 && a.freed_on_main, "freed once, after its call, on the call's thread: %d", a.freed);
            break;
        default:
            CHECK(a.calls == 1, "no event after it: %d calls", a.calls);
            CHECK(a.freed == 1 && a.freed_on_main, "freed once, after its call, on the call's thread: %d", a.freed);
            break;
        }
        if (cases[i].action != FREE_LOADER) pathconfig_loader_free(loader);
        CHECK(a.freed == 1 && b.freed == (cases[i].action == REPLACE), "each payload freed once: %d, %d", a.freed, b.freed);
    }
}

/* ---- against nginx ------------------------------------------------------------ */

/* pathconfig_loader_free inside the callback on the polling thread; when
 * `proxied`, on another thread the callback waits for. */
static void test_free_from_inside_on_the_polling_thread(int proxied)
{
    char sources[256];
    struct payload a;
    pathconfig_loader *loader;
    int i, threads;

    test_set_context(proxied ? "pathconfig_loader_free on another thread, waited for inside a callback on the polling thread"
                             : "pathconfig_loader_free inside the callback, on the polling thread");
    payload_init(&a);
    snprintf(sources, sizeof sources, "[{\"server\": \"%s\"}]", url);
    threads = test_thread_count_reaching(1);
    loader = new_loader(sources, "{\"refresh_interval_ms\": 20, \"timeout_ms\": 5000}");
    if (loader == NULL) return;
    a.loader = loader;
    a.action = FREE_LOADER;
    a.on_call = 1;
    a.on_main = -1;
    a.proxied = proxied;
    pathconfig_loader_set_callback(loader, on_event, &a, free_payload);
    CHECK(pathconfig_loader_load(loader, NULL) == 0, "load");
    for (i = 0; i < 1000 && get(&a, &a.freed) == 0; i++) sleep_ms(10); /* 10 s; a deadlock stays at 0 */
    CHECK(get(&a, &a.freed) == 1 && !a.freed_on_main, "freed once, on the polling thread: %d", a.freed);
    CHECK(a.freed_seen_inside == 0 && a.freed_while_running == 0, "the running callback's payload is not freed under it");
    sleep_ms(200);
    CHECK(get(&a, &a.calls_after_free) == 0, "no call after free: %d", a.calls_after_free);
    CHECK(test_thread_count_reaching(threads) == threads, "the polling thread ended: %d threads, %d before", test_thread_count(),
          threads);
}

static void test_free_from_inside_while_polling_waits(void)
{
    char sources[256];
    struct payload a;
    pathconfig_loader *loader;
    int rc, threads, requests;

    test_set_context("pathconfig_loader_free inside a refresh's callback while the polling thread waits for it");
    payload_init(&a);
    snprintf(sources, sizeof sources, "[{\"server\": \"%s\"}]", url);
    threads = test_thread_count_reaching(1);
    loader = new_loader(sources, "{\"refresh_interval_ms\": 20, \"timeout_ms\": 5000}");
    if (loader == NULL) return;
    CHECK(pathconfig_loader_load(loader, NULL) == 0, "load starts polling");
    a.loader = loader;
    a.action = FREE_LOADER;
    a.on_call = 1;
    a.on_main = 1;
    a.sleep_ms = 150; /* several intervals: the polling thread waits for this refresh */
    pathconfig_loader_set_callback(loader, on_event, &a, free_payload);
    alarm(30); /* a deadlock ends the test here */
    rc = pathconfig_loader_refresh(loader, NULL);
    alarm(0);
    CHECK(rc == 0, "the refresh ran to its end: %d", rc);
    CHECK(a.freed == 1 && a.freed_on_main && a.freed_while_running == 0, "freed once, after the call: %d", a.freed);
    sleep_ms(100); /* let nginx log the last request */
    requests = server_log_count(&server, "GET /config.json", NULL, 0);
    sleep_ms(300);
    CHECK(get(&a, &a.calls_after_free) == 0, "no event after free");
    CHECK(server_log_count(&server, "GET /config.json", NULL, 0) == requests, "no request after free");
    CHECK(test_thread_count_reaching(threads) == threads, "the polling thread ended: %d threads, %d before", test_thread_count(),
          threads);
}

/* Waits (10 s at most) until a polling event is being delivered to `a`. */
static int until_running(struct payload *a)
{
    int i;
    for (i = 0; i < 2000 && !get(a, &a->running); i++) sleep_ms(5);
    return get(a, &a->running);
}

/* While the polling thread's callback runs, another thread removes the
 * callback or, as a garbage collector's finalizer does, frees the loader:
 * either returns at once, and the payload is freed by the polling thread
 * once the call has returned. */
static void test_while_the_polling_callback_runs(int free_loader)
{
    char sources[256];
    struct payload a;
    pathconfig_loader *loader;
    int i, threads;

    test_set_context(free_loader ? "pathconfig_loader_free from another thread while the callback runs"
                                 : "replaced from another thread while the callback runs");
    payload_init(&a);
    snprintf(sources, sizeof sources, "[{\"server\": \"%s\"}]", url);
    threads = test_thread_count_reaching(1);
    loader = new_loader(sources, "{\"refresh_interval_ms\": 10, \"timeout_ms\": 5000}");
    if (loader == NULL) return;
    CHECK(pathconfig_loader_load(loader, NULL) == 0, "load starts polling");
    a.sleep_ms = 100;
    pathconfig_loader_set_callback(loader, on_event, &a, free_payload);
    CHECK(until_running(&a), "a polling event reached the callback");
    if (free_loader) pathconfig_loader_free(loader);
    else CHECK(pathconfig_loader_set_callback(loader, NULL, NULL, NULL) == 0, "remove it");
    CHECK(get(&a, &a.running) && get(&a, &a.freed) == 0, "returned at once: the callback still runs, its payload is not freed");
    if (!free_loader)
        CHECK(pathconfig_loader_refresh(loader, NULL) == PATHCONFIG_E_MISUSE, "refresh while it runs: PATHCONFIG_E_MISUSE");
    for (i = 0; i < 1000 && get(&a, &a.freed) == 0; i++) sleep_ms(10);
    CHECK(get(&a, &a.freed) == 1 && !a.freed_on_main && a.freed_while_running == 0,
          "freed once, on the polling thread, after its call: %d", a.freed);
    if (!free_loader) {
        CHECK(pathconfig_loader_refresh(loader, NULL) == 0, "refresh once it returned");
        pathconfig_loader_free(loader);
    }
    sleep_ms(100);
    CHECK(get(&a, &a.freed) == 1 && get(&a, &a.calls_after_free) == 0, "nothing after: %d calls after", a.calls_after_free);
    CHECK(test_thread_count_reaching(threads) == threads, "the polling thread ended: %d threads, %d before", test_thread_count(),
          threads);
}

int main(int argc, char **argv)
{
    char doc[600];

    if (argc < 2) {
        fprintf(stderr, "usage: %s SCRATCH_DIR\n", argv[0]);
        return 2;
    }
    main_thread = pthread_self();
    test_free_payload_when_idle();
    test_replace_and_remove_from_inside();
    test_free_from_inside_a_load();
    test_proxied_from_a_load();

    /* Absolute: nginx reads relative paths from its prefix. */
    if (argv[1][0] == '/') snprintf(doc, sizeof doc, "%s", argv[1]);
    else if (!CHECK(getcwd(doc, 256) != NULL, "getcwd")) return test_summary();
    else snprintf(doc + strlen(doc), sizeof doc - strlen(doc), "/%s", argv[1]);
    if (!CHECK(snprintf(dir, sizeof dir, "%s/callbacks-XXXXXX", doc) < (int)sizeof dir, "scratch path fits"))
        return test_summary();
    if (!CHECK(mkdtemp(dir) != NULL, "mkdtemp %s", dir)) return test_summary();
    test_set_context("nginx");
    if (CHECK(server_start(&server, dir) == 0, "nginx started")) {
        server_url(&server, "config.json", url, sizeof url);
        server_put(&server, "config.json", "{\"rules\": []}");
        test_free_from_inside_on_the_polling_thread(0);
        test_free_from_inside_while_polling_waits();
        test_free_from_inside_on_the_polling_thread(1);
        test_while_the_polling_callback_runs(0);
        test_while_the_polling_callback_runs(1);
    }
    server_destroy(&server);
    test_remove_tree(dir);
    test_set_context("");
    return test_summary();
}
