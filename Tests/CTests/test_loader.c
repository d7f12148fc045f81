/* The loader through the C ABI, against a real nginx on 127.0.0.1.
 *
 *   test_loader SCRATCH_DIR [THREADS [REFRESHES]]
 *
 * Covers: sources and options JSON (and their errors), NULL arguments, the
 * event struct, file then server, the callback and its payload, the cache
 * used with the server down, 304, a new version, 500 / invalid JSON / a body
 * over the limit / a timeout leaving the current configuration and the cache
 * file as they were, a corrupt cache file, misuse from inside the callback
 * (refused, starting nothing), polling and free, threads resolving through pathconfig_loader_current
 * while another refreshes, a loader inherited across fork(), process exit while a download runs, and
 * response headers named in upper case under a Turkish locale, the polling thread's stack.
 * Prints "N passed, M failed". */
#define _GNU_SOURCE /* pthread_setattr_default_np */
#include "harness.h"
#include "pathconfig.h"
#include "server.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <locale.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define STATIC_CHECK(name, cond) typedef char static_check_##name[(cond) ? 1 : -1]

/* The layout libpathconfig writes (Sources/PathConfigurationC/LoaderEvents.swift). */
#define PTR ((size_t)sizeof(void *))
STATIC_CHECK(ev_version, offsetof(pathconfig_loader_event, version) == 0);
STATIC_CHECK(ev_kind, offsetof(pathconfig_loader_event, kind) == 4);
STATIC_CHECK(ev_source_kind, offsetof(pathconfig_loader_event, source_kind) == 8);
STATIC_CHECK(ev_source_index, offsetof(pathconfig_loader_event, source_index) == 12);
STATIC_CHECK(ev_byte_count, offsetof(pathconfig_loader_event, byte_count) == 16);
STATIC_CHECK(ev_http_status, offsetof(pathconfig_loader_event, http_status) == 24);
STATIC_CHECK(ev_reason, offsetof(pathconfig_loader_event, reason) == 28);
STATIC_CHECK(ev_location, offsetof(pathconfig_loader_event, location) == 32);
STATIC_CHECK(ev_url, offsetof(pathconfig_loader_event, url) == 32 + PTR);
STATIC_CHECK(ev_error, offsetof(pathconfig_loader_event, error) == 32 + 2 * PTR);
STATIC_CHECK(ev_configuration, offsetof(pathconfig_loader_event, configuration) == 32 + 3 * PTR);
STATIC_CHECK(ev_description, offsetof(pathconfig_loader_event, description) == 32 + 4 * PTR);
STATIC_CHECK(ev_size, sizeof(pathconfig_loader_event) == 32 + 5 * PTR);

/* ---- fixtures ------------------------------------------------------------ */

static char dir[512];          /* this run's temporary directory */
static char bundle[600];       /* the bundled file */
static char cache_dir[600];
static char url[128];          /* the server's /config.json */
static struct test_server server;

/* A configuration every path resolves to {"version": NAME, "rule2": NAME} under. */
static void fixture(const char *name, char *buf, size_t size)
{
    snprintf(buf, size,
             "{\"settings\": {\"version\": \"%s\"},\n \"rules\": [\n"
             "  {\"patterns\": [\".*\"], \"properties\": {\"version\": \"%s\"}},\n"
             "  {\"patterns\": [\"^/\"], \"properties\": {\"rule2\": \"%s\"}}\n ]}\n",
             name, name, name);
}

static int put_version(const char *name)
{
    char doc[512];
    fixture(name, doc, sizeof doc);
    return server_put(&server, "config.json", doc);
}

/* The version cfg resolves "/x" to; "?" when the two rules disagree (a
 * configuration that is not whole), "" for NULL. */
static void version_of(pathconfig *cfg, char *buf, size_t size)
{
    pathconfig_result *res;
    const char *v = NULL, *r = NULL;
    buf[0] = '\0';
    if (cfg == NULL) return;
    res = pathconfig_resolve(cfg, "/x", NULL, NULL);
    if (res == NULL) return;
    if (pathconfig_result_get_string(res, "version", &v, NULL) == PATHCONFIG_OK &&
        pathconfig_result_get_string(res, "rule2", &r, NULL) == PATHCONFIG_OK && strcmp(v, r) == 0)
        snprintf(buf, size, "%s", v);
    else
        snprintf(buf, size, "?");
    pathconfig_result_release(res);
}

/* The version of the loader's current configuration. */
static const char *current_version(pathconfig_loader *loader)
{
    static char buf[64];
    pathconfig *cfg = pathconfig_loader_current(loader);
    version_of(cfg, buf, sizeof buf);
    pathconfig_release(cfg);
    return buf;
}

/* The bytes of a file (free them), NULL when missing. */
static char *slurp(const char *path, size_t *len)
{
    return test_read_file(path, len);
}

static int same_bytes(const char *a, size_t alen, const char *b, size_t blen)
{
    return a != NULL && b != NULL && alen == blen && memcmp(a, b, alen) == 0;
}

/* ---- the event log the callback fills ------------------------------------ */

struct seen {
    int version, kind, source_kind, source_index, http_status, reason;
    long long byte_count;
    int error_code, error_line;
    int has_error, has_configuration, url_null;
    char location[600], url[200], message[512], description[800], config_version[64];
    pthread_t thread;
};

struct event_log {
    pthread_mutex_t lock;
    struct seen events[64];
    int count;
    int bad_payload;
    /* Set by tests. */
    pathconfig_loader *loader;  /* for the calls made from inside */
    int try_reentry;
    int keep_server_config;
    /* Results of the calls made from inside. */
    int reentry_load, reentry_refresh, reentry_load_err, current_inside, replaced_inside;
    char reentry_message[512];
    pathconfig *kept;
};

static struct event_log *expected_payload;

static void on_event(const pathconfig_loader_event *ev, void *payload)
{
    struct event_log *log = payload;
    struct seen *s;
    if (payload != expected_payload || ev == NULL) {
        if (log != NULL) log->bad_payload++;
        return;
    }
    pthread_mutex_lock(&log->lock);
    if (log->count < 64) {
        s = &log->events[log->count++];
        memset(s, 0, sizeof *s);
        s->version = ev->version;
        s->kind = ev->kind;
        s->source_kind = ev->source_kind;
        s->source_index = ev->source_index;
        s->http_status = ev->http_status;
        s->reason = ev->reason;
        s->byte_count = (long long)ev->byte_count;
        s->has_error = ev->error != NULL;
        if (ev->error != NULL) {
            s->error_code = ev->error->code;
            s->error_line = ev->error->line;
            snprintf(s->message, sizeof s->message, "%s", ev->error->message);
        }
        s->has_configuration = ev->configuration != NULL;
        version_of(ev->configuration, s->config_version, sizeof s->config_version);
        s->url_null = ev->url == NULL;
        snprintf(s->location, sizeof s->location, "%s", ev->location ? ev->location : "(null)");
        snprintf(s->url, sizeof s->url, "%s", ev->url ? ev->url : "");
        snprintf(s->description, sizeof s->description, "%s", ev->description ? ev->description : "(null)");
        s->thread = pthread_self();
    }
    pthread_mutex_unlock(&log->lock);

    if (log->keep_server_config && ev->kind == PATHCONFIG_EVENT_APPLIED && ev->source_kind == PATHCONFIG_SOURCE_SERVER) {
        pathconfig_release(log->kept);
        log->kept = pathconfig_retain(ev->configuration);
    }
    if (log->try_reentry) {
        pathconfig_error err;
        pathconfig *cfg;
        log->try_reentry = 0;
        log->reentry_load = pathconfig_loader_load(log->loader, &err);
        log->reentry_load_err = err.code;
        snprintf(log->reentry_message, sizeof log->reentry_message, "%s", err.message);
        log->reentry_refresh = pathconfig_loader_refresh(log->loader, NULL);
        cfg = pathconfig_loader_current(log->loader);
        log->current_inside = cfg != NULL;
        pathconfig_release(cfg);
        /* Replacing the callback from inside it does not deadlock. */
        log->replaced_inside = pathconfig_loader_set_callback(log->loader, on_event, log, NULL) == 0;
    }
}

static void log_init(struct event_log *log)
{
    memset(log, 0, sizeof *log);
    pthread_mutex_init(&log->lock, NULL);
    expected_payload = log;
}

static void log_clear(struct event_log *log)
{
    pthread_mutex_lock(&log->lock);
    log->count = 0;
    pthread_mutex_unlock(&log->lock);
}

static int log_count(struct event_log *log)
{
    int n;
    pthread_mutex_lock(&log->lock);
    n = log->count;
    pthread_mutex_unlock(&log->lock);
    return n;
}

static void log_dispose(struct event_log *log)
{
    pathconfig_release(log->kept);
    log->kept = NULL;
    pthread_mutex_destroy(&log->lock);
}

static const char *kind_name(int kind)
{
    switch (kind) {
    case PATHCONFIG_EVENT_APPLIED: return "applied";
    case PATHCONFIG_EVENT_SUPERSEDED: return "superseded";
    case PATHCONFIG_EVENT_NOT_MODIFIED: return "not-modified";
    case PATHCONFIG_EVENT_FAILED: return "failed";
    case PATHCONFIG_EVENT_WARNING: return "warning";
    default: return "?";
    }
}

static const char *source_name(int kind)
{
    switch (kind) {
    case PATHCONFIG_SOURCE_DATA: return "data";
    case PATHCONFIG_SOURCE_FILE: return "file";
    case PATHCONFIG_SOURCE_CACHE: return "cache";
    case PATHCONFIG_SOURCE_SERVER: return "server";
    default: return "?";
    }
}

/* "file:applied server:failed ..." */
static const char *summary(struct event_log *log)
{
    static char buf[1024];
    int i;
    size_t n = 0;
    buf[0] = '\0';
    pthread_mutex_lock(&log->lock);
    for (i = 0; i < log->count && n < sizeof buf - 40; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s:%s", i ? " " : "", source_name(log->events[i].source_kind),
                              kind_name(log->events[i].kind));
    pthread_mutex_unlock(&log->lock);
    return buf;
}

/* A TCP socket bound to a free port on 127.0.0.1, not listening yet: a
 * download to it is refused until listen(), and after that connects and is
 * never answered. The socket, its port in *port; -1 on failure. */
static int unanswering_socket(int *port)
{
    struct sockaddr_in addr;
    socklen_t len = sizeof addr;
    int fd = socket(AF_INET, SOCK_STREAM, 0);

    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd >= 0 && bind(fd, (struct sockaddr *)&addr, sizeof addr) == 0 &&
        getsockname(fd, (struct sockaddr *)&addr, &len) == 0) {
        *port = ntohs(addr.sin_port);
        return fd;
    }
    if (fd >= 0) close(fd);
    return -1;
}

static pathconfig_loader *new_loader(const char *sources, const char *options)
{
    pathconfig_error err;
    pathconfig_loader *loader = pathconfig_loader_new(sources, options, &err);
    CHECK(loader != NULL, "pathconfig_loader_new(%s, %s): %s: %s", sources, options ? options : "NULL",
          pathconfig_error_name(err.code), err.message);
    return loader;
}

/* ---- tests --------------------------------------------------------------- */

static void test_codes(void)
{
    test_set_context("codes");
    CHECK(strcmp(pathconfig_error_name(PATHCONFIG_E_DOWNLOAD), "PATHCONFIG_E_DOWNLOAD") == 0, "name 12");
    CHECK(strcmp(pathconfig_error_name(PATHCONFIG_E_CACHE), "PATHCONFIG_E_CACHE") == 0, "name 13");
    CHECK(strcmp(pathconfig_error_name(-PATHCONFIG_E_CACHE), "PATHCONFIG_E_UNKNOWN") == 0, "-13 is no code (codes are positive)");
    CHECK(strcmp(pathconfig_error_name(PATHCONFIG_E_MISUSE), "PATHCONFIG_E_MISUSE") == 0, "name 14");
    CHECK(strcmp(pathconfig_error_name(PATHCONFIG_E_FORKED), "PATHCONFIG_E_FORKED") == 0, "name 18");
    CHECK(strcmp(pathconfig_error_name(PATHCONFIG_E_FORKED + 1), "PATHCONFIG_E_UNKNOWN") == 0, "past the last code: unknown");
}

static void expect_new_error(const char *sources, const char *options, int code, const char *message)
{
    pathconfig_error err;
    pathconfig_loader *loader;
    memset(&err, 0x5A, sizeof err);
    loader = pathconfig_loader_new(sources, options, &err);
    CHECK(loader == NULL, "accepted sources %s options %s", sources ? sources : "NULL", options ? options : "NULL");
    CHECK(err.code == code, "sources %s options %s: code %s, expected %s (%s)", sources ? sources : "NULL",
          options ? options : "NULL", pathconfig_error_name(err.code), pathconfig_error_name(code), err.message);
    CHECK(strstr(err.message, message) != NULL, "message \"%s\" lacks \"%s\"", err.message, message);
    CHECK(pathconfig_last_error()->code == code && strcmp(pathconfig_last_error()->message, err.message) == 0,
          "last error matches err");
    pathconfig_loader_free(loader);
}

static void test_bad_arguments(void)
{
    static const char bad_utf8[] = { '[', '{', '"', 'f', 'i', 'l', 'e', '"', ':', '"', (char)0xC3, '"', '}', ']', 0 };
    const char *files = "[{\"file\": \"/nonexistent.json\"}]";
    pathconfig_error err;
    pathconfig_loader *loader;

    test_set_context("sources and options JSON");
    expect_new_error(NULL, NULL, PATHCONFIG_E_ARGUMENT, "sources_json is NULL");
    expect_new_error(bad_utf8, NULL, PATHCONFIG_E_ARGUMENT, "sources_json is not valid UTF-8");
    expect_new_error(files, bad_utf8, PATHCONFIG_E_ARGUMENT, "options_json is not valid UTF-8");
    expect_new_error("", NULL, PATHCONFIG_E_OPTIONS, "sources are missing");
    expect_new_error("[]", NULL, PATHCONFIG_E_OPTIONS, "sources are empty");
    expect_new_error("[{\"file\": ", NULL, PATHCONFIG_E_OPTIONS, "sources are not valid JSON");
    expect_new_error("{\"file\": \"a\"}", NULL, PATHCONFIG_E_OPTIONS, "sources must be a JSON array, found object");
    expect_new_error("[{\"file\": \"a\"}, {\"fiel\": \"b\"}]", NULL, PATHCONFIG_E_OPTIONS, "source 1: unknown key \"fiel\"");
    expect_new_error("[{\"file\": \"a\", \"data\": \"{}\"}]", NULL, PATHCONFIG_E_OPTIONS, "source 0: has both");
    expect_new_error("[{\"server\": \"ftp://h/x\"}]", NULL, PATHCONFIG_E_OPTIONS, "is not an http:// or https:// URL");
    expect_new_error("[{\"server\": \"http://h/\", \"headers\": {\"A\": 1}}]", NULL, PATHCONFIG_E_OPTIONS,
                     "header \"A\" must be a string");
    expect_new_error("[{\"server\": \"http://h/\", \"headers\": {\"Bad Name\": \"v\"}}]", NULL, PATHCONFIG_E_OPTIONS,
                     "\"Bad Name\" is not a valid header name");
    expect_new_error(files, "{\"timeout\": 5}", PATHCONFIG_E_OPTIONS, "unknown option \"timeout\"; known options:");
    expect_new_error(files, "{\"timeout_ms\": 0}", PATHCONFIG_E_OPTIONS, "\"timeout_ms\" must be a positive integer");
    expect_new_error(files, "{\"max_body_bytes\": \"big\"}", PATHCONFIG_E_OPTIONS, "\"max_body_bytes\" must be a positive integer");
    expect_new_error(files, "{\"cache_dir\": 1}", PATHCONFIG_E_OPTIONS, "\"cache_dir\" must be");
    expect_new_error(files, "{\"user_agent\": \"a\\nb\"}", PATHCONFIG_E_OPTIONS, "without control characters");
    expect_new_error(files, "[]", PATHCONFIG_E_OPTIONS, "options must be a JSON object");
    expect_new_error(files, "{\"profile\": \"ios\"}", PATHCONFIG_E_OPTIONS, "unknown profile \"ios\"");
    expect_new_error(files, "{\"backend\": \"foundation\"}", PATHCONFIG_E_BACKEND, "not built into this library");
    CHECK(pathconfig_loader_new("[]", NULL, NULL) == NULL && pathconfig_last_error()->code == PATHCONFIG_E_OPTIONS,
          "err may be NULL");

    test_set_context("NULL arguments");
    memset(&err, 0x5A, sizeof err);
    CHECK(pathconfig_loader_load(NULL, &err) == PATHCONFIG_E_ARGUMENT && err.code == PATHCONFIG_E_ARGUMENT &&
              strstr(err.message, "loader is NULL") != NULL,
          "load(NULL): %s", err.message);
    CHECK(pathconfig_loader_load(NULL, NULL) == PATHCONFIG_E_ARGUMENT, "load(NULL, NULL)");
    CHECK(pathconfig_loader_refresh(NULL, &err) == PATHCONFIG_E_ARGUMENT && err.code == PATHCONFIG_E_ARGUMENT, "refresh(NULL)");
    CHECK(pathconfig_loader_set_callback(NULL, on_event, NULL, NULL) == PATHCONFIG_E_ARGUMENT &&
              pathconfig_last_error()->code == PATHCONFIG_E_ARGUMENT,
          "set_callback(NULL)");
    CHECK(pathconfig_loader_current(NULL) == NULL && pathconfig_last_error()->code == PATHCONFIG_E_ARGUMENT, "current(NULL)");
    CHECK(pathconfig_loader_cache_file(NULL, "http://h/") == NULL && pathconfig_last_error()->code == PATHCONFIG_E_ARGUMENT,
          "cache_file(NULL, url)");
    pathconfig_loader_free(NULL);
    CHECK(pathconfig_last_error()->code == PATHCONFIG_E_ARGUMENT, "free(NULL) leaves the last error alone");

    loader = new_loader(files, "{\"cache_dir\": \"/nonexistent/cache\"}");
    if (loader == NULL) return;
    CHECK(pathconfig_loader_cache_file(loader, NULL) == NULL && pathconfig_last_error()->code == PATHCONFIG_E_ARGUMENT,
          "cache_file(loader, NULL)");
    CHECK(pathconfig_loader_cache_file(loader, bad_utf8) == NULL && pathconfig_last_error()->code == PATHCONFIG_E_ARGUMENT,
          "cache_file(loader, non-UTF-8)");
    CHECK(pathconfig_loader_set_callback(loader, NULL, NULL, NULL) == 0 && pathconfig_last_error()->code == 0, "removing no callback");

    test_set_context("nothing loaded");
    (void)pathconfig_loader_current(NULL); /* sets an error, to see it cleared */
    CHECK(pathconfig_loader_current(loader) == NULL && pathconfig_last_error()->code == PATHCONFIG_OK,
          "current before load: NULL with code 0");
    memset(&err, 0x5A, sizeof err);
    CHECK(pathconfig_loader_load(loader, &err) == PATHCONFIG_E_IO && err.code == PATHCONFIG_E_IO, "missing file: %s",
          err.message);
    CHECK(strstr(err.message, "file /nonexistent.json: cannot open /nonexistent.json") != NULL, "message names the source: %s",
          err.message);
    CHECK(pathconfig_loader_current(loader) == NULL && pathconfig_last_error()->code == PATHCONFIG_OK,
          "current after a failed load: NULL with code 0");
    pathconfig_loader_free(loader);

    loader = new_loader(files, NULL);
    if (loader == NULL) return;
    CHECK(pathconfig_loader_cache_file(loader, "http://h/") == NULL && pathconfig_last_error()->code == PATHCONFIG_OK,
          "no cache_dir: cache_file NULL with code 0");
    pathconfig_loader_free(loader);

    test_set_context("extreme option values");
    /* The largest integers are accepted and harmless: the polling thread
     * starts with a deadline centuries away and free still joins it at once. */
    loader = new_loader(files, "{\"timeout_ms\": 9223372036854775807, \"refresh_interval_ms\": 9223372036854775807,"
                               " \"max_body_bytes\": 9223372036854775807}");
    if (loader == NULL) return;
    CHECK(pathconfig_loader_load(loader, NULL) == PATHCONFIG_E_IO, "load");
    pathconfig_loader_free(loader);
    expect_new_error(files, "{\"timeout_ms\": 9223372036854775808}", PATHCONFIG_E_OPTIONS, "must be a positive integer");
}

static const struct seen *event_at(struct event_log *log, int i)
{
    static struct seen none;
    return i < log->count ? &log->events[i] : &none;
}

/* File then server; 304; a new version; 500; invalid JSON; too large; then the
 * cache with the server down. */
static void test_chain(void)
{
    char sources[1024], options[1024], version_before[64];
    char *cache_file, *cached, *now;
    size_t cached_len = 0, now_len = 0;
    struct event_log log;
    pathconfig_error err;
    pathconfig_loader *loader, *offline;
    const struct seen *e;
    pathconfig *before;
    int rc;

    test_set_context("file then server");
    log_init(&log);
    snprintf(sources, sizeof sources,
             "[{\"file\": \"%s\"}, {\"server\": \"%s\", \"headers\": {\"Accept\": \"application/json\"}}]", bundle, url);
    snprintf(options, sizeof options, "{\"cache_dir\": \"%s\", \"timeout_ms\": 5000, \"user_agent\": \"pathconfig-c-test\"}",
             cache_dir);
    loader = new_loader(sources, options);
    if (loader == NULL) return;
    log.loader = loader;
    log.keep_server_config = 1;
    CHECK(pathconfig_loader_set_callback(loader, on_event, &log, NULL) == 0, "set_callback");
    cache_file = pathconfig_loader_cache_file(loader, url);
    CHECK(cache_file != NULL && strncmp(cache_file, cache_dir, strlen(cache_dir)) == 0, "cache file %s in %s",
          cache_file ? cache_file : "NULL", cache_dir);
    if (cache_file == NULL) return;

    memset(&err, 0x5A, sizeof err);
    rc = pathconfig_loader_load(loader, &err);
    CHECK(rc == 0 && err.code == 0 && err.message[0] == '\0', "load: %d %s", rc, err.message);
    CHECK(strcmp(summary(&log), "file:applied server:applied") == 0, "events: %s", summary(&log));
    CHECK(log.bad_payload == 0, "the callback got its payload");
    CHECK(strcmp(current_version(loader), "v1") == 0, "current comes from the server: %s", current_version(loader));
    e = event_at(&log, 0);
    CHECK(e->version == PATHCONFIG_LOADER_EVENT_VERSION && e->source_index == 0 && strcmp(e->location, bundle) == 0 &&
              e->url_null && !e->has_error && e->has_configuration && strcmp(e->config_version, "bundle") == 0 &&
              e->byte_count > 0 && e->http_status == 0 && e->reason == 0 && pthread_equal(e->thread, pthread_self()),
          "file event: v%d index %d %s url_null=%d config=%s bytes=%lld", e->version, e->source_index, e->location,
          e->url_null, e->config_version, e->byte_count);
    CHECK(strstr(e->description, "applied") != NULL, "file description: %s", e->description);
    e = event_at(&log, 1);
    CHECK(e->source_index == 1 && strcmp(e->location, url) == 0 && strcmp(e->url, url) == 0 && !e->has_error &&
              strcmp(e->config_version, "v1") == 0,
          "server event: index %d %s %s config=%s", e->source_index, e->location, e->url, e->config_version);
    CHECK(strstr(e->description, url) != NULL, "server description: %s", e->description);
    CHECK(server_log_count(&server, "GET /config.json 200", "accept=[application/json]", 1) == 1, "the Accept header was sent");
    cached = slurp(cache_file, &cached_len);
    CHECK(cached != NULL && strstr(cached, "\"v1\"") != NULL, "the cache file holds v1");

    /* The configuration retained inside the callback outlives the event. */
    version_of(log.kept, version_before, sizeof version_before);
    CHECK(strcmp(version_before, "v1") == 0, "configuration retained in the callback: %s", version_before);

    test_set_context("304 on refresh");
    log_clear(&log);
    rc = pathconfig_loader_refresh(loader, &err);
    CHECK(rc == 0 && err.code == 0, "refresh: %d %s", rc, err.message);
    CHECK(strcmp(summary(&log), "server:not-modified") == 0, "events: %s", summary(&log));
    CHECK(event_at(&log, 0)->has_configuration && strcmp(event_at(&log, 0)->config_version, "v1") == 0,
          "not-modified carries the known configuration");
    CHECK(server_log_count(&server, "GET /config.json 304", "inm=[\"", 1) == 1, "a conditional request answered 304");
    CHECK(strcmp(current_version(loader), "v1") == 0, "current unchanged");
    now = slurp(cache_file, &now_len);
    CHECK(same_bytes(cached, cached_len, now, now_len), "cache file byte-identical after 304");
    free(now);

    test_set_context("a new version");
    log_clear(&log);
    put_version("v2");
    rc = pathconfig_loader_refresh(loader, &err);
    CHECK(rc == 0, "refresh: %d %s", rc, err.message);
    CHECK(strcmp(summary(&log), "server:applied") == 0, "events: %s", summary(&log));
    CHECK(strcmp(current_version(loader), "v2") == 0, "current is v2: %s", current_version(loader));
    version_of(log.kept, version_before, sizeof version_before);
    CHECK(strcmp(version_before, "v2") == 0, "kept configuration is v2");
    free(cached);
    cached = slurp(cache_file, &cached_len);
    CHECK(cached != NULL && strstr(cached, "\"v2\"") != NULL, "the cache file holds v2");

    /* Each failure: current unchanged (same properties) and cache file byte-identical. */
    before = pathconfig_loader_current(loader);

    test_set_context("500 on refresh");
    log_clear(&log);
    server_fail500(&server, 1);
    memset(&err, 0x5A, sizeof err);
    rc = pathconfig_loader_refresh(loader, &err);
    CHECK(rc == PATHCONFIG_E_DOWNLOAD && err.code == PATHCONFIG_E_DOWNLOAD, "refresh: %d %s", rc, err.message);
    CHECK(strstr(err.message, "server ") == err.message && strstr(err.message, url) != NULL && strstr(err.message, "500") != NULL,
          "message names the source and the status: %s", err.message);
    CHECK(strcmp(summary(&log), "server:failed") == 0, "events: %s", summary(&log));
    e = event_at(&log, 0);
    CHECK(e->has_error && e->error_code == PATHCONFIG_E_DOWNLOAD && e->reason == PATHCONFIG_DOWNLOAD_HTTP_STATUS &&
              e->http_status == 500 && !e->has_configuration,
          "failed event: code %d reason %d status %d: %s", e->error_code, e->reason, e->http_status, e->message);
    server_fail500(&server, 0);
    CHECK(strcmp(current_version(loader), "v2") == 0, "current unchanged after 500");
    now = slurp(cache_file, &now_len);
    CHECK(same_bytes(cached, cached_len, now, now_len), "cache file byte-identical after 500");
    free(now);

    test_set_context("invalid JSON on refresh");
    log_clear(&log);
    server_put(&server, "config.json", "{\"rules\": [\n  {\"patterns\": [\".*\"],,}\n]}\n");
    rc = pathconfig_loader_refresh(loader, &err);
    CHECK(rc == PATHCONFIG_E_JSON && err.code == PATHCONFIG_E_JSON && err.line == 2 && err.column > 0,
          "refresh: %d %d:%d %s", rc, err.line, err.column, err.message);
    e = event_at(&log, 0);
    CHECK(e->kind == PATHCONFIG_EVENT_FAILED && e->error_code == PATHCONFIG_E_JSON && e->error_line == 2 && e->reason == 0 &&
              e->byte_count > 0,
          "failed event: %s code %d line %d", kind_name(e->kind), e->error_code, e->error_line);
    CHECK(strcmp(current_version(loader), "v2") == 0, "current unchanged after invalid JSON");
    now = slurp(cache_file, &now_len);
    CHECK(same_bytes(cached, cached_len, now, now_len), "cache file byte-identical after invalid JSON");
    free(now);

    test_set_context("schema error on refresh");
    server_put(&server, "config.json", "{\"rules\": [{\"patterns\": \".*\", \"properties\": {}}]}");
    rc = pathconfig_loader_refresh(loader, &err);
    CHECK(rc == PATHCONFIG_E_SCHEMA && err.rule_index == 0, "refresh: %d rule %d %s", rc, err.rule_index, err.message);
    CHECK(strcmp(current_version(loader), "v2") == 0, "current unchanged after a schema error");

    test_set_context("the same pathconfig stays valid");
    {
        char v[64];
        pathconfig *after = pathconfig_loader_current(loader);
        version_of(before, v, sizeof v);
        CHECK(strcmp(v, "v2") == 0 && pathconfig_rule_count(before) == pathconfig_rule_count(after), "held configuration intact");
        pathconfig_release(after);
    }
    pathconfig_release(before);

    test_set_context("second loader, server down: the cache");
    put_version("v3");
    server_stop(&server);
    log_dispose(&log);
    log_init(&log);
    offline = new_loader(sources, options);
    if (offline != NULL) {
        pathconfig_loader_set_callback(offline, on_event, &log, NULL);
        rc = pathconfig_loader_load(offline, &err);
        CHECK(rc == 0 && err.code == 0, "load with the server down still succeeds: %d %s", rc, err.message);
        CHECK(strcmp(summary(&log), "file:applied cache:applied server:failed") == 0, "events: %s", summary(&log));
        e = event_at(&log, 1);
        CHECK(strcmp(e->location, cache_file) == 0 && strcmp(e->url, url) == 0 && strcmp(e->config_version, "v2") == 0,
              "cache event: %s %s %s", e->location, e->url, e->config_version);
        e = event_at(&log, 2);
        CHECK(e->error_code == PATHCONFIG_E_DOWNLOAD && e->reason == PATHCONFIG_DOWNLOAD_TRANSPORT && e->http_status == 0,
              "server event: code %d reason %d: %s", e->error_code, e->reason, e->message);
        CHECK(strcmp(current_version(offline), "v2") == 0, "current comes from the cache: %s", current_version(offline));

        log_clear(&log);
        rc = pathconfig_loader_refresh(offline, &err);
        CHECK(rc == PATHCONFIG_E_DOWNLOAD && strcmp(summary(&log), "server:failed") == 0, "refresh, server down: %d %s",
              rc, summary(&log));
        CHECK(strcmp(current_version(offline), "v2") == 0, "current unchanged");
        pathconfig_loader_free(offline);
    }
    now = slurp(cache_file, &now_len);
    CHECK(same_bytes(cached, cached_len, now, now_len), "cache file byte-identical with the server down");
    free(now);

    test_set_context("server only, no cache, server down");
    {
        char only[256];
        snprintf(only, sizeof only, "[{\"server\": \"%s\"}]", url);
        offline = new_loader(only, "{\"timeout_ms\": 2000}");
        if (offline != NULL) {
            rc = pathconfig_loader_load(offline, &err);
            CHECK(rc == PATHCONFIG_E_DOWNLOAD && err.code == PATHCONFIG_E_DOWNLOAD, "load: %d %s", rc, err.message);
            CHECK(pathconfig_loader_current(offline) == NULL && pathconfig_last_error()->code == 0, "nothing current");
            pathconfig_loader_free(offline);
        }
    }

    test_set_context("corrupt cache file");
    test_write_file(cache_file, "garbage\n", 8);
    log_dispose(&log);
    log_init(&log);
    offline = new_loader(sources, options);
    if (offline != NULL) {
        pathconfig_loader_set_callback(offline, on_event, &log, NULL);
        rc = pathconfig_loader_load(offline, &err);
        CHECK(rc == 0, "load: %d %s", rc, err.message);
        CHECK(strcmp(summary(&log), "file:applied cache:warning server:failed") == 0, "events: %s", summary(&log));
        e = event_at(&log, 1);
        CHECK(e->kind == PATHCONFIG_EVENT_WARNING && e->error_code == PATHCONFIG_E_CACHE && e->reason == PATHCONFIG_CACHE_CORRUPT &&
                  strstr(e->message, "ignored") != NULL,
              "warning: code %d reason %d: %s", e->error_code, e->reason, e->message);
        CHECK(strcmp(current_version(offline), "bundle") == 0, "the bundled file stays current");
        pathconfig_loader_free(offline);
    }

    test_set_context("server back: the loader recovers");
    if (server_restart(&server) == 0) {
        log_dispose(&log);
        log_init(&log);
        log.loader = loader;
        pathconfig_loader_set_callback(loader, on_event, &log, NULL);
        rc = pathconfig_loader_refresh(loader, &err);
        CHECK(rc == 0 && strcmp(current_version(loader), "v3") == 0, "refresh: %d %s, current %s", rc, err.message,
              current_version(loader));
        free(cached);
        cached = slurp(cache_file, &cached_len);
        CHECK(cached != NULL && strncmp(cached, "pathconfig-cache 1\n", 19) == 0 && strstr(cached, "\"v3\"") != NULL,
              "the corrupt cache file was replaced");
    }

    test_set_context("callback removed");
    log_clear(&log);
    pathconfig_loader_set_callback(loader, NULL, &log, NULL);
    CHECK(pathconfig_loader_refresh(loader, NULL) == 0 && log_count(&log) == 0, "no events: %s", summary(&log));

    test_set_context("misuse from inside the callback");
    log_dispose(&log);
    log_init(&log);
    log.loader = loader;
    log.try_reentry = 1;
    pathconfig_loader_set_callback(loader, on_event, &log, NULL);
    rc = pathconfig_loader_refresh(loader, &err);
    CHECK(rc == 0, "the outer refresh: %d %s", rc, err.message);
    CHECK(log.reentry_load == PATHCONFIG_E_MISUSE && log.reentry_load_err == PATHCONFIG_E_MISUSE &&
              log.reentry_refresh == PATHCONFIG_E_MISUSE,
          "load/refresh inside: %d %d %d", log.reentry_load, log.reentry_load_err, log.reentry_refresh);
    CHECK(log.current_inside && log.replaced_inside, "current and set_callback work inside");
    CHECK(strcmp(pathconfig_error_name(pathconfig_last_error()->code), "PATHCONFIG_OK") == 0, "the outer call's outcome is last");

    pathconfig_loader_free(loader);
    log_dispose(&log);
    free(cached);
    pathconfig_string_free(cache_file);
}

/* Data sources, a body over the limit, a server that never answers. */
static void test_more_sources(void)
{
    char sources[2048], doc[512], escaped[1024];
    struct event_log log;
    pathconfig_error err;
    pathconfig_loader *loader;
    const char *p;
    size_t n = 0;
    int rc, listener, port = 0;

    test_set_context("data source, then a body over the limit");
    fixture("embedded", doc, sizeof doc);
    for (p = doc; *p != '\0' && n < sizeof escaped - 3; p++) {
        if (*p == '"' || *p == '\\') escaped[n++] = '\\';
        if (*p == '\n') {
            escaped[n++] = '\\';
            escaped[n++] = 'n';
            continue;
        }
        escaped[n++] = *p;
    }
    escaped[n] = '\0';
    if (!CHECK(snprintf(sources, sizeof sources, "[{\"data\": \"%s\", \"name\": \"embedded\"}, {\"server\": \"%s\"}]",
                        escaped, url) < (int)sizeof sources, "sources fit"))
        return;
    log_init(&log);
    loader = new_loader(sources, "{\"max_body_bytes\": 16}");
    if (loader != NULL) {
        pathconfig_loader_set_callback(loader, on_event, &log, NULL);
        rc = pathconfig_loader_load(loader, &err);
        CHECK(rc == 0 && strcmp(summary(&log), "data:applied server:failed") == 0, "load: %d %s", rc, summary(&log));
        CHECK(strcmp(event_at(&log, 0)->location, "embedded") == 0 && event_at(&log, 0)->url_null, "data event: %s",
              event_at(&log, 0)->location);
        CHECK(event_at(&log, 1)->reason == PATHCONFIG_DOWNLOAD_TOO_LARGE, "too large: reason %d: %s", event_at(&log, 1)->reason,
              event_at(&log, 1)->message);
        CHECK(strcmp(current_version(loader), "embedded") == 0, "the data stays current");
        pathconfig_loader_free(loader);
    }

    test_set_context("a server that never answers");
    listener = unanswering_socket(&port);
    if (CHECK(listener >= 0 && listen(listener, 8) == 0, "listening socket")) {
        snprintf(sources, sizeof sources, "[{\"file\": \"%s\"}, {\"server\": \"http://127.0.0.1:%d/slow.json\"}]", bundle,
                 port);
        log_dispose(&log);
        log_init(&log);
        loader = new_loader(sources, "{\"timeout_ms\": 300}");
        if (loader != NULL) {
            pathconfig_loader_set_callback(loader, on_event, &log, NULL);
            rc = pathconfig_loader_load(loader, &err);
            CHECK(rc == 0 && strcmp(summary(&log), "file:applied server:failed") == 0, "load: %d %s", rc, summary(&log));
            CHECK(event_at(&log, 1)->reason == PATHCONFIG_DOWNLOAD_TIMEOUT, "timeout: reason %d: %s", event_at(&log, 1)->reason,
                  event_at(&log, 1)->message);
            rc = pathconfig_loader_refresh(loader, &err);
            CHECK(rc == PATHCONFIG_E_DOWNLOAD && strstr(err.message, "slow.json") != NULL, "refresh: %d %s", rc, err.message);
            pathconfig_loader_free(loader);
        }
    }
    if (listener >= 0) close(listener);
    log_dispose(&log);
}

/* ---- a header nginx cannot send ------------------------------------------ */

#define OLD_DATE "Wed, 21 Oct 2015 07:28:00 GMT"

/* What serve_upper_case is given (a listening socket, how many connections
 * to answer) and what it counts. */
struct upper_case_server {
    int fd, count;
    int requests, conditional;
};

/* Answers `count` connections on `fd`, one request each: a request with
 * "If-Modified-Since: OLD_DATE" gets 304; any other the document with its
 * Last-Modified header spelled "LAST-MODIFIED". Gives up after 5 s without a
 * connection or a request. */
static void *serve_upper_case(void *arg)
{
    static const char body[] = "{\"rules\": [{\"patterns\": [\".*\"], \"properties\": {\"version\": \"lm\"}}]}";
    struct upper_case_server *s = arg;
    struct pollfd ready = {s->fd, POLLIN, 0};
    struct timeval patience = {5, 0};
    char request[4096], response[512];
    for (int i = 0; i < s->count && poll(&ready, 1, 5000) == 1; i++) {
        int c = accept(s->fd, NULL, NULL);
        size_t n = 0;
        ssize_t got = 0;
        if (c < 0) break;
        setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &patience, sizeof patience);
        request[0] = '\0';
        while (n < sizeof request - 1 && !strstr(request, "\r\n\r\n") && (got = recv(c, request + n, sizeof request - 1 - n, 0)) > 0)
            request[n += (size_t)got] = '\0';
        s->requests++;
        if (strstr(request, "\r\nIf-Modified-Since: " OLD_DATE "\r\n")) {
            s->conditional++;
            snprintf(response, sizeof response, "HTTP/1.1 304 Not Modified\r\nConnection: close\r\n\r\n");
        } else {
            snprintf(response, sizeof response,
                     "HTTP/1.1 200 OK\r\nLAST-MODIFIED: " OLD_DATE "\r\nContent-Type: application/json\r\n"
                     "Content-Length: %zu\r\nConnection: close\r\n\r\n%s", strlen(body), body);
        }
        if (send(c, response, strlen(response), 0) < 0) s->requests = -100;
        close(c);
    }
    return NULL;
}

/* Response headers are named in any case (RFC 9110), and read so whatever
 * the host's locale: under a Turkish LC_CTYPE (a Python or Ruby host's, which
 * they take from the environment) strncasecmp tells "I" from "i", and took
 * "LAST-MODIFIED" for another header, so that the next download was not
 * conditional. The locale is compiled from Debian's `locales` sources. */
static void test_header_names_under_a_turkish_locale(void)
{
    char locales[700], command[1600], sources[256];
    struct upper_case_server s = {-1, 2, 0, 0};
    struct event_log log;
    pathconfig_loader *loader;
    pathconfig_error err;
    pthread_t thread;
    int port = 0, rc;

    test_set_context("Turkish locale");
    snprintf(locales, sizeof locales, "%s/locales", dir);
    snprintf(command, sizeof command, "mkdir -p '%s' && localedef -i tr_TR -f UTF-8 '%s/tr_TR.UTF-8'", locales, locales);
    rc = system(command);
    if (!CHECK(rc == 0, "%s: exit %d (Debian: apt-get install locales)", command, rc)) return;
    setenv("LOCPATH", locales, 1);
    if (!CHECK(setlocale(LC_CTYPE, "tr_TR.UTF-8") != NULL, "setlocale(LC_CTYPE, tr_TR.UTF-8)")) return;
    /* What made the test: this locale's lower case of "I" is not "i", so
     * glibc's strncasecmp, which lowers by the locale's table, takes
     * LAST-MODIFIED and Last-Modified apart (AddressSanitizer's own
     * strncasecmp, in place of glibc's under make test-sanitize, does not). */
    CHECK(tolower('I') != 'i', "tolower('I') is 'i' here: the test tests nothing");

    s.fd = unanswering_socket(&port);
    if (CHECK(s.fd >= 0 && listen(s.fd, 8) == 0 && pthread_create(&thread, NULL, serve_upper_case, &s) == 0, "server")) {
        snprintf(sources, sizeof sources, "[{\"server\": \"http://127.0.0.1:%d/lm.json\"}]", port);
        log_init(&log);
        loader = new_loader(sources, "{\"timeout_ms\": 5000}");
        if (loader != NULL) {
            pathconfig_loader_set_callback(loader, on_event, &log, NULL);
            rc = pathconfig_loader_load(loader, &err);
            CHECK(rc == 0 && strcmp(summary(&log), "server:applied") == 0, "load: %d %s", rc, summary(&log));
            log_clear(&log);
            rc = pathconfig_loader_refresh(loader, &err);
            CHECK(rc == 0 && strcmp(summary(&log), "server:not-modified") == 0, "refresh: %d %s", rc, summary(&log));
            pathconfig_loader_free(loader);
        }
        pthread_join(thread, NULL);
        CHECK(s.requests == 2 && s.conditional == 1, "%d requests, %d with If-Modified-Since (want 2, 1)", s.requests,
              s.conditional);
        log_dispose(&log);
    }
    if (s.fd >= 0) close(s.fd);
    setlocale(LC_CTYPE, "C");
    unsetenv("LOCPATH");
    test_set_context("nginx");
}

/* refresh_interval_ms: events from the polling thread; none after free. */
static void test_polling(void)
{
    char sources[1024], options[1024];
    struct event_log log;
    struct timespec pause = { 0, 20 * 1000 * 1000 };
    pathconfig_loader *loader;
    int i, n, found = 0;

    test_set_context("polling");
    snprintf(sources, sizeof sources, "[{\"file\": \"%s\"}, {\"server\": \"%s\"}]", bundle, url);
    snprintf(options, sizeof options, "{\"cache_dir\": \"%s\", \"refresh_interval_ms\": 50, \"timeout_ms\": 5000}", cache_dir);
    log_init(&log);
    put_version("p1");
    loader = new_loader(sources, options);
    if (loader == NULL) return;
    pathconfig_loader_set_callback(loader, on_event, &log, NULL);
    CHECK(pathconfig_loader_load(loader, NULL) == 0 && strcmp(current_version(loader), "p1") == 0, "load: %s",
          current_version(loader));
    put_version("p2");
    for (i = 0; i < 500 && !found; i++) { /* 10 s */
        int j;
        nanosleep(&pause, NULL);
        pthread_mutex_lock(&log.lock);
        for (j = 0; j < log.count && !found; j++)
            if (log.events[j].kind == PATHCONFIG_EVENT_APPLIED && strcmp(log.events[j].config_version, "p2") == 0)
                found = pthread_equal(log.events[j].thread, pthread_self()) ? -1 : 1;
        pthread_mutex_unlock(&log.lock);
    }
    CHECK(found != 0, "polling picked up p2: %s", summary(&log));
    CHECK(found != -1, "the polling thread, not the caller's, delivered the event");
    CHECK(strcmp(current_version(loader), "p2") == 0, "current is p2");
    pathconfig_loader_free(loader);
    n = log_count(&log);
    put_version("p3");
    nanosleep(&pause, NULL);
    nanosleep(&pause, NULL);
    nanosleep(&pause, NULL);
    nanosleep(&pause, NULL);
    nanosleep(&pause, NULL);
    CHECK(log_count(&log) == n, "no event after free (%d, then %d)", n, log_count(&log));
    log_dispose(&log);
}

/* The polling thread's stack is the library's, not the host's default: on a
 * default of 128 KiB (musl's; glibc's follows `ulimit -s`) a refresh of a
 * document nested as deep as hotwire-android reads (255 levels, which its
 * Gson reader takes about 340 KiB of stack to read) overflowed it, and the
 * process died of SIGSEGV. In a child, whose default this sets; it ends with
 * exit(), so that its leak check under valgrind sees the library's exit-time
 * destructor run (Sources/CRuntimeHooks/runtime_roots.c). */
/* Serves config.json nested as deep as hotwire-android reads, 255 levels
 * (the root, "rules", the rule, "properties" and 251 arrays), every path
 * resolving to {"version": NAME, ...}. 0 or -1. */
static int put_deep_version(const char *name)
{
    enum { DEPTH = 255 - 4 };
    static char doc[200 + 2 * DEPTH];
    int n = snprintf(doc, 200, "{\"rules\": [{\"patterns\": [\".*\"], \"properties\": {\"version\": \"%s\", \"x\": ", name);
    memset(doc + n, '[', DEPTH);
    n += DEPTH;
    doc[n++] = '1';
    memset(doc + n, ']', DEPTH);
    strcpy(doc + n + DEPTH, "}}]}");
    return server_put(&server, "config.json", doc);
}

static void test_polling_thread_stack(void)
{
    char sources[1024];
    pid_t child;
    int status = 0;

    test_set_context("polling thread stack");
    snprintf(sources, sizeof sources, "[{\"server\": \"%s\"}]", url);
    fflush(NULL);
    child = fork();
    if (child == 0) {
        struct event_log log;
        struct timespec pause = { 0, 20 * 1000 * 1000 };
        pthread_attr_t small;
        pathconfig_loader *loader;
        int i, applied = 0;
        if (pthread_attr_init(&small) != 0 || pthread_attr_setstacksize(&small, 128 * 1024) != 0 ||
            pthread_setattr_default_np(&small) != 0)
            exit(10);
        if (put_deep_version("d0") != 0) exit(11);
        log_init(&log);
        loader = pathconfig_loader_new(sources, "{\"profile\": \"hotwire-android\", \"refresh_interval_ms\": 10}", NULL);
        if (loader == NULL) exit(12);
        pathconfig_loader_set_callback(loader, on_event, &log, NULL);
        if (pathconfig_loader_load(loader, NULL) != 0) exit(13);
        /* What the polling thread reads next. */
        if (put_deep_version("d1") != 0) exit(11);
        for (i = 0; i < 500 && applied < 2; i++) { /* 10 s */
            nanosleep(&pause, NULL);
            applied = 0;
            pthread_mutex_lock(&log.lock);
            for (int j = 0; j < log.count; j++) applied += log.events[j].kind == PATHCONFIG_EVENT_APPLIED;
            pthread_mutex_unlock(&log.lock);
        }
        pathconfig_loader_free(loader);
        exit(applied == 2 ? 0 : 14);
    }
    if (CHECK(child > 0 && waitpid(child, &status, 0) == child, "fork"))
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "a refresh on the polling thread, threads' default stack 128 KiB: %s %d",
              WIFSIGNALED(status) ? "killed by signal" : "exit status", WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
    put_version("v1");
    test_set_context("nginx");
}

/* A load refused inside the callback (PATHCONFIG_E_MISUSE) does nothing and
 * starts nothing: no polling thread, no polling events, no requests. The
 * outer call is a refresh before the first load, which runs the chain
 * without polling, so any polling would come from the refused load. */
static void test_refused_load_starts_nothing(void)
{
    char sources[1024], options[1024];
    struct event_log log;
    struct timespec pause = { 0, 20 * 1000 * 1000 };
    pathconfig_error err;
    pathconfig_loader *loader;
    int i, rc, threads, events, requests;

    test_set_context("a refused load starts nothing");
    snprintf(sources, sizeof sources, "[{\"file\": \"%s\"}, {\"server\": \"%s\"}]", bundle, url);
    snprintf(options, sizeof options, "{\"cache_dir\": \"%s/refused\", \"refresh_interval_ms\": 50, \"timeout_ms\": 5000}",
             cache_dir);
    put_version("r1");
    loader = new_loader(sources, options);
    if (loader == NULL) return;
    log_init(&log);
    log.loader = loader;
    log.try_reentry = 1;
    pathconfig_loader_set_callback(loader, on_event, &log, NULL);
    threads = test_thread_count_reaching(1); /* earlier tests' threads are gone */
    CHECK(threads > 0, "/proc/self/task is readable");

    rc = pathconfig_loader_refresh(loader, &err);
    CHECK(rc == 0 && strcmp(current_version(loader), "r1") == 0, "the outer refresh: %d %s", rc, err.message);
    CHECK(strcmp(summary(&log), "file:applied server:applied") == 0, "the chain ran once: %s", summary(&log));
    CHECK(log.reentry_load == PATHCONFIG_E_MISUSE && log.reentry_load_err == PATHCONFIG_E_MISUSE &&
              log.reentry_refresh == PATHCONFIG_E_MISUSE,
          "load/refresh inside: %d %d %d", log.reentry_load, log.reentry_load_err, log.reentry_refresh);
    CHECK(strstr(log.reentry_message, "pathconfig_loader_load") != NULL && strstr(log.reentry_message, "own callback") != NULL,
          "the message names the call: %s", log.reentry_message);

    events = log_count(&log);
    for (i = 0; i < 5; i++) nanosleep(&pause, NULL); /* let nginx log the last request */
    requests = server_log_count(&server, "GET /config.json", NULL, 0);
    for (i = 0; i < 20; i++) nanosleep(&pause, NULL); /* 400 ms: eight intervals */
    CHECK(log_count(&log) == events, "no polling events after the refused load: %s", summary(&log));
    CHECK(test_thread_count() == threads, "no thread started: %d, then %d", threads, test_thread_count());
    CHECK(server_log_count(&server, "GET /config.json", NULL, 0) == requests, "no request after the refused load");

    /* The host's own load does start polling: the checks above would see it. */
    CHECK(pathconfig_loader_load(loader, NULL) == 0, "load");
    for (i = 0; i < 500 && log_count(&log) < events + 6; i++) nanosleep(&pause, NULL); /* 10 s */
    CHECK(log_count(&log) >= events + 6, "polling after load: %s", summary(&log));
    CHECK(test_thread_count() == threads + 1, "one polling thread: %d, then %d", threads, test_thread_count());
    pathconfig_loader_free(loader);
    CHECK(test_thread_count_reaching(threads) == threads, "free joined the polling thread: %d", test_thread_count());
    log_dispose(&log);
}

/* What the child of test_fork checks, on the loader it inherited: load and
 * refresh refused (PATHCONFIG_E_FORKED), the configuration current at the
 * fork, a free that returns, and a loader of its own that works. Writes "ok"
 * or what failed to fd. */
static void forked_child(pathconfig_loader *inherited, int fd)
{
    char sources[700];
    pathconfig_error err;
    pathconfig_loader *own;
    const char *failed = NULL;
    int rc;

    alarm(30); /* a hang ends the child, and the parent reports it */
    memset(&err, 0, sizeof err);
    if ((rc = pathconfig_loader_refresh(inherited, &err)) != PATHCONFIG_E_FORKED || err.code != rc ||
        strstr(err.message, "fork()") == NULL || strstr(err.message, "pathconfig_loader_refresh") == NULL)
        failed = "refresh";
    else if ((rc = pathconfig_loader_load(inherited, &err)) != PATHCONFIG_E_FORKED || err.code != rc ||
             strstr(err.message, "pathconfig_loader_load") == NULL)
        failed = "load";
    else if (strcmp(current_version(inherited), "bundle") != 0)
        failed = "current";
    else {
        pathconfig_loader_free(inherited);
        snprintf(sources, sizeof sources, "[{\"file\": \"%s\"}]", bundle);
        own = pathconfig_loader_new(sources, NULL, &err);
        if (own == NULL || (rc = pathconfig_loader_load(own, &err)) != 0 || strcmp(current_version(own), "bundle") != 0)
            failed = "a loader made in the child";
        pathconfig_loader_free(own);
    }
    if (failed != NULL) dprintf(fd, "%s: rc %d: %s", failed, rc, err.message);
    else dprintf(fd, "ok");
}

/* fork() while the polling thread is inside a download, holding the loader's
 * locks: the child is refused, not stopped by a trap or a deadlock, and the
 * parent's loader goes on. The server is a socket that accepts and never
 * answers; it listens only once the load is done, so the load's own download
 * fails at once and the polling one is the one that hangs. */
static void test_fork(void)
{
    char sources[1024], message[600];
    struct pollfd ready;
    pathconfig_loader *loader = NULL;
    int listener, port = 0, connection = -1, fds[2] = { -1, -1 }, status = 0;
    ssize_t n, got = 0;
    pid_t child;

    test_set_context("fork");
    listener = unanswering_socket(&port);
    if (CHECK(listener >= 0 && pipe(fds) == 0, "socket and pipe")) {
        snprintf(sources, sizeof sources, "[{\"file\": \"%s\"}, {\"server\": \"http://127.0.0.1:%d/config.json\"}]", bundle,
                 port);
        loader = new_loader(sources, "{\"refresh_interval_ms\": 20, \"timeout_ms\": 60000}");
    }
    if (loader != NULL) {
        CHECK(pathconfig_loader_load(loader, NULL) == 0 && strcmp(current_version(loader), "bundle") == 0, "load: %s",
              current_version(loader));
        ready.fd = listener;
        ready.events = POLLIN;
        if (CHECK(listen(listener, 8) == 0 && poll(&ready, 1, 10000) == 1 && (connection = accept(listener, NULL, NULL)) >= 0,
                  "the polling thread's download connected")) {
            child = fork();
            if (child == 0) {
                /* Ended by exec, not exit: what the child inherited is the
                 * parent's (the loader, its polling thread's download), and a
                 * leak check at exit, valgrind's, would count it as lost. */
                forked_child(loader, fds[1]);
                execl("/bin/true", "true", (char *)NULL);
                _exit(0);
            }
            close(fds[1]);
            fds[1] = -1;
            while (got < (ssize_t)sizeof message - 1 && (n = read(fds[0], message + got, sizeof message - 1 - (size_t)got)) > 0)
                got += n;
            message[got] = '\0';
            CHECK(child > 0 && waitpid(child, &status, 0) == child, "fork and wait");
            CHECK(!WIFSIGNALED(status) && strcmp(message, "ok") == 0, "the child: %s%s", got > 0 ? message : "no answer",
                  WIFSIGNALED(status) ? " (killed by a signal)" : "");
        }
        CHECK(strcmp(current_version(loader), "bundle") == 0, "the parent's loader goes on");
        pathconfig_loader_free(loader);
    }
    if (connection >= 0) close(connection);
    if (listener >= 0) close(listener);
    if (fds[0] >= 0) close(fds[0]);
    if (fds[1] >= 0) close(fds[1]);
}

/* Process exit while the polling thread's download hangs, the loader never
 * freed: the library's exit handler abandons the download, and waits for it
 * to end, before exit goes on to the TLS library's handler (OpenSSL's frees
 * what a download in progress uses: 36 crashes in 300 such exits over HTTPS
 * before). Seen from the child's destructor, which glibc runs after every
 * exit handler: by then the polling refresh has failed, saying why. */
static struct {
    int report_fd;             /* the child's pipe to the parent; -1 elsewhere */
    int armed, failed;         /* atomic */
    char message[512];
    pathconfig_loader *loader; /* kept reachable, for valgrind's leak check */
} exiting = { -1, 0, 0, "", NULL };

static void exiting_callback(const pathconfig_loader_event *ev, void *payload)
{
    (void)payload;
    if (!__atomic_load_n(&exiting.armed, __ATOMIC_SEQ_CST) || ev->kind != PATHCONFIG_EVENT_FAILED || ev->error == NULL) return;
    snprintf(exiting.message, sizeof exiting.message, "%s", ev->error->message);
    __atomic_store_n(&exiting.failed, 1, __ATOMIC_SEQ_CST);
}

__attribute__((destructor)) static void exiting_report(void)
{
    struct timespec pause = { 0, 10 * 1000 * 1000 };
    if (exiting.report_fd < 0) return;
    for (int i = 0; i < 1000 && !__atomic_load_n(&exiting.failed, __ATOMIC_SEQ_CST); i++) nanosleep(&pause, NULL);
    dprintf(exiting.report_fd, "%s", __atomic_load_n(&exiting.failed, __ATOMIC_SEQ_CST)
                                         ? exiting.message : "the polling download was still in progress");
}

static void test_exit_with_a_download_in_progress(void)
{
    char sources[1024], message[600];
    struct pollfd ready;
    int listener, port = 0, connection, fds[2] = { -1, -1 }, status = 0;
    ssize_t n, got = 0;
    pid_t child;

    test_set_context("exit");
    if (!CHECK(pipe(fds) == 0, "pipe")) return;
    child = fork();
    if (child == 0) {
        close(fds[0]);
        /* As in test_fork: the load's download is refused, the polling one hangs. */
        if ((listener = unanswering_socket(&port)) < 0) _exit(3);
        snprintf(sources, sizeof sources,
                 "[{\"data\": \"{\\\"rules\\\": []}\", \"name\": \"bundle\"}, {\"server\": \"http://127.0.0.1:%d/config.json\"}]",
                 port);
        exiting.loader = pathconfig_loader_new(sources, "{\"refresh_interval_ms\": 20, \"timeout_ms\": 60000}", NULL);
        if (exiting.loader == NULL ||
            pathconfig_loader_set_callback(exiting.loader, exiting_callback, NULL, NULL) != 0 ||
            pathconfig_loader_load(exiting.loader, NULL) != 0)
            _exit(4);
        ready.fd = listener;
        ready.events = POLLIN;
        if (listen(listener, 8) != 0 || poll(&ready, 1, 10000) != 1 || (connection = accept(listener, NULL, NULL)) < 0)
            _exit(5);
        exiting.report_fd = fds[1];
        __atomic_store_n(&exiting.armed, 1, __ATOMIC_SEQ_CST);
        exit(0); /* the loader polls on, its download waiting for an answer */
    }
    close(fds[1]);
    while (got < (ssize_t)sizeof message - 1 && (n = read(fds[0], message + got, sizeof message - 1 - (size_t)got)) > 0)
        got += n;
    message[got] = '\0';
    close(fds[0]);
    CHECK(child > 0 && waitpid(child, &status, 0) == child, "fork and wait");
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child exited with status %d%s", WEXITSTATUS(status),
          WIFSIGNALED(status) ? " (killed by a signal)" : "");
    CHECK(strstr(message, "the download was abandoned: the process is exiting") != NULL, "the child: %s",
          got > 0 ? message : "no answer");
}

/* A slow callback on the polling thread, to see set_callback wait for it. */
struct slow {
    pthread_mutex_t lock;
    int inside, calls;
};

static void slow_callback(const pathconfig_loader_event *ev, void *payload)
{
    struct slow *s = payload;
    struct timespec pause = { 0, 100 * 1000 * 1000 };
    (void)ev;
    pthread_mutex_lock(&s->lock);
    s->inside = 1;
    s->calls++;
    pthread_mutex_unlock(&s->lock);
    nanosleep(&pause, NULL);
    pthread_mutex_lock(&s->lock);
    s->inside = 0;
    pthread_mutex_unlock(&s->lock);
}

static void test_set_callback_does_not_wait(void)
{
    char sources[1024];
    struct slow s;
    struct timespec pause = { 0, 5 * 1000 * 1000 };
    pathconfig_loader *loader;
    int i, inside = 0, calls;

    test_set_context("set_callback does not wait for a running callback");
    snprintf(sources, sizeof sources, "[{\"server\": \"%s\"}]", url);
    loader = new_loader(sources, "{\"refresh_interval_ms\": 10, \"timeout_ms\": 5000}");
    if (loader == NULL) return;
    pthread_mutex_init(&s.lock, NULL);
    s.inside = s.calls = 0;
    CHECK(pathconfig_loader_load(loader, NULL) == 0, "load");
    pathconfig_loader_set_callback(loader, slow_callback, &s, NULL);
    for (i = 0; i < 2000 && !inside; i++) { /* 10 s: until a polling event is being delivered */
        nanosleep(&pause, NULL);
        pthread_mutex_lock(&s.lock);
        inside = s.inside;
        pthread_mutex_unlock(&s.lock);
    }
    CHECK(inside, "a polling event reached the callback");
    CHECK(pathconfig_loader_set_callback(loader, NULL, NULL, NULL) == 0, "set_callback(NULL)");
    pthread_mutex_lock(&s.lock);
    inside = s.inside;
    calls = s.calls;
    pthread_mutex_unlock(&s.lock);
    CHECK(inside, "set_callback returned at once, while the old callback still runs");
    nanosleep(&pause, NULL);
    nanosleep(&pause, NULL);
    pthread_mutex_lock(&s.lock);
    CHECK(s.calls == calls, "the old callback was called after it was replaced");
    pthread_mutex_unlock(&s.lock);
    /* Without free_payload nothing says when the payload is free: s stays
     * in use until the running call has returned. */
    for (i = 0; i < 2000 && inside; i++) {
        nanosleep(&pause, NULL);
        pthread_mutex_lock(&s.lock);
        inside = s.inside;
        pthread_mutex_unlock(&s.lock);
    }
    CHECK(!inside, "the running call returned");
    pathconfig_loader_free(loader);
    pthread_mutex_destroy(&s.lock);
}

/* Where each call of the callback finds its stack (which grows down): the
 * first call's depth and the deepest. */
struct depths {
    uintptr_t first, deepest;
    int calls;
};

static void depth_callback(const pathconfig_loader_event *event, void *payload)
{
    struct depths *d = payload;
    /* The frame's own address: a local's could be on AddressSanitizer's
     * fake stack (detect_stack_use_after_return), which says nothing of depth. */
    uintptr_t here = (uintptr_t)__builtin_frame_address(0);
    (void)event;
    if (d->calls++ == 0) d->first = d->deepest = here;
    if (here < d->deepest) d->deepest = here;
}

/* Every load is called from here, so each event's call starts at the same
 * depth. It once sank about 450 bytes an event (the handler gained
 * reabstraction thunks each time the library read it), until a polling
 * loader's thread overflowed its stack. */
static void test_callback_depth(void)
{
    struct depths d = { 0, 0, 0 };
    pathconfig_loader *loader;
    int i, failed = 0;

    test_set_context("the callback's depth stays flat");
    loader = new_loader("[{\"data\": \"{\\\"rules\\\": []}\", \"name\": \"a\"}]", NULL);
    if (loader == NULL) return;
    pathconfig_loader_set_callback(loader, depth_callback, &d, NULL);
    for (i = 0; i < 2000 && !failed; i++) failed = pathconfig_loader_load(loader, NULL) != 0;
    CHECK(!failed, "2,000 loads");
    CHECK(d.calls == 2000, "one event a load: %d", d.calls);
    CHECK(d.first - d.deepest < 4096, "the call sank %lu bytes deeper over %d events",
          (unsigned long)(d.first - d.deepest), d.calls);
    pathconfig_loader_free(loader);
}

/* Readers resolving through pathconfig_loader_current while the main thread
 * refreshes to new versions. */
struct reader {
    pthread_t thread;
    pathconfig_loader *loader;
    pthread_mutex_t *lock;
    int *done;
    int lookups, bad, changes;
    char first_bad[128];
};

static void *read_loop(void *arg)
{
    struct reader *r = arg;
    char last[64] = "", v[64];
    for (;;) {
        int done;
        pathconfig *cfg;
        pthread_mutex_lock(r->lock);
        done = *r->done;
        pthread_mutex_unlock(r->lock);
        if (done) break;
        cfg = pathconfig_loader_current(r->loader);
        version_of(cfg, v, sizeof v);
        pathconfig_release(cfg);
        r->lookups++;
        /* Yield now and then: under valgrind every thread shares one core, and
         * readers that never pause starve the refreshing thread's download. */
        if (r->lookups % 256 == 0) {
            struct timespec nap = {0, 200000};
            nanosleep(&nap, NULL);
        }
        if (v[0] != 't' || pathconfig_last_error()->code != 0) {
            if (r->bad++ == 0) snprintf(r->first_bad, sizeof r->first_bad, "version \"%s\"", v);
        } else if (strcmp(v, last) != 0) {
            r->changes++;
            snprintf(last, sizeof last, "%s", v);
        }
    }
    return NULL;
}

static void test_threads(int threads, int refreshes)
{
    char sources[1024], options[1024], name[32];
    struct reader *readers;
    pthread_mutex_t lock;
    pathconfig_loader *loader;
    pathconfig_error err;
    int i, done = 0, ok = 0, lookups = 0;
    char first_failure[600] = "";

    test_set_context("threads: current while refreshing");
    snprintf(sources, sizeof sources, "[{\"server\": \"%s\"}]", url);
    /* A generous download budget: this test is about torn reads, not timeouts,
     * and it also runs under valgrind with busy reader threads. */
    snprintf(options, sizeof options, "{\"cache_dir\": \"%s\", \"timeout_ms\": 60000}", cache_dir);
    put_version("t0");
    loader = new_loader(sources, options);
    if (loader == NULL) return;
    if (!CHECK(pathconfig_loader_load(loader, &err) == 0, "load: %s", err.message)) {
        pathconfig_loader_free(loader);
        return;
    }
    pthread_mutex_init(&lock, NULL);
    readers = calloc((size_t)threads, sizeof *readers);
    for (i = 0; i < threads; i++) {
        readers[i].loader = loader;
        readers[i].lock = &lock;
        readers[i].done = &done;
        CHECK(pthread_create(&readers[i].thread, NULL, read_loop, &readers[i]) == 0, "pthread_create %d", i);
    }
    for (i = 1; i <= refreshes; i++) {
        snprintf(name, sizeof name, "t%d", i);
        put_version(name);
        if (pathconfig_loader_refresh(loader, &err) != 0) {
            if (first_failure[0] == '\0') snprintf(first_failure, sizeof first_failure, "refresh %d: %s", i, err.message);
        } else if (strcmp(current_version(loader), name) == 0) {
            ok++;
        } else if (first_failure[0] == '\0') {
            snprintf(first_failure, sizeof first_failure, "refresh %d: current is \"%s\"", i, current_version(loader));
        }
    }
    CHECK(ok == refreshes, "%d of %d refreshes applied; first failure: %s", ok, refreshes, first_failure);
    pthread_mutex_lock(&lock);
    done = 1;
    pthread_mutex_unlock(&lock);
    for (i = 0; i < threads; i++) {
        pthread_join(readers[i].thread, NULL);
        CHECK(readers[i].bad == 0, "reader %d: %d bad lookups, first %s", i, readers[i].bad, readers[i].first_bad);
        CHECK(readers[i].lookups > 0, "reader %d resolved", i);
        lookups += readers[i].lookups;
    }
    printf("loader threads: %d readers, %d lookups during %d refreshes\n", threads, lookups, refreshes);
    free(readers);
    pthread_mutex_destroy(&lock);
    pathconfig_loader_free(loader);
}

int main(int argc, char **argv)
{
    char doc[4096];
    int threads = argc > 2 ? atoi(argv[2]) : 4;
    int refreshes = argc > 3 ? atoi(argv[3]) : 40;

    if (argc < 2 || threads < 1 || threads > 64 || refreshes < 1) {
        fprintf(stderr, "usage: %s SCRATCH_DIR [THREADS (1-64) [REFRESHES]]\n", argv[0]);
        return 2;
    }
    /* First, while this process has no other thread for the child to inherit
     * (under valgrind, what a thread not in the child held is lost there). */
    test_exit_with_a_download_in_progress();
    test_codes();
    test_bad_arguments();

    /* Absolute: nginx reads relative paths from its prefix. */
    if (argv[1][0] == '/') snprintf(doc, sizeof doc, "%s", argv[1]);
    else if (!CHECK(getcwd(doc, 256) != NULL, "getcwd")) return test_summary();
    else snprintf(doc + strlen(doc), sizeof doc - strlen(doc), "/%s", argv[1]);
    if (!CHECK(snprintf(dir, sizeof dir, "%s/loader-XXXXXX", doc) < (int)sizeof dir, "scratch path fits")) return test_summary();
    if (!CHECK(mkdtemp(dir) != NULL, "mkdtemp %s", dir)) return test_summary();
    snprintf(bundle, sizeof bundle, "%s/bundle.json", dir);
    snprintf(cache_dir, sizeof cache_dir, "%s/cache", dir);
    fixture("bundle", doc, sizeof doc);
    test_write_file(bundle, doc, strlen(doc));

    test_set_context("nginx");
    if (CHECK(server_start(&server, dir) == 0, "nginx started")) {
        server_url(&server, "config.json", url, sizeof url);
        put_version("v1");
        test_chain();
        test_more_sources();
        test_header_names_under_a_turkish_locale();
        test_polling();
        test_polling_thread_stack();
        test_refused_load_starts_nothing();
        test_set_callback_does_not_wait();
        test_threads(threads, refreshes);
    }
    server_destroy(&server);
    test_callback_depth();
    test_fork();
    test_remove_tree(dir);
    test_set_context("");
    return test_summary();
}
