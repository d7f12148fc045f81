/*
 * pathconfig/loader.h -- the loader: sources, cache, live updates and
 * callbacks.
 *
 * Part of libpathconfig's C API: include <pathconfig.h>, not this file. The
 * conventions stated there (handles, ownership, text, errors) hold here.
 */
#ifndef PATHCONFIG_LOADER_H
#define PATHCONFIG_LOADER_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------
 * Loader: sources, cache and live updates
 *
 * A loader keeps a configuration current from an ordered list of sources:
 * JSON in memory, files, and server URLs downloaded over HTTP(S) (libcurl,
 * loaded at first use), each server copy cached on disk. pathconfig_loader_load
 * runs the chain once: each data or file source, then for each server source
 * its cached copy (if any) and its download. A later source's good
 * configuration replaces an earlier one, never merging with it. Bad news never
 * replaces good news: a failed download, a status other than 200, a body that
 * does not load leaves the current configuration and the cache file untouched
 * and is reported to the callback. A download sends If-None-Match /
 * If-Modified-Since when a copy is known; 304 keeps the copy.
 *
 *     static void on_event(const pathconfig_loader_event *ev, void *payload)
 *     {
 *         fprintf(payload, "%s\n", ev->description);
 *     }
 *
 *     pathconfig_error err;
 *     pathconfig_loader *loader = pathconfig_loader_new(
 *         "[{\"file\": \"bundle/path-configuration.json\"},"
 *         " {\"server\": \"https://example.com/path-configuration.json\","
 *         "  \"headers\": {\"Accept\": \"application/json\"}}]",
 *         "{\"cache_dir\": \"/var/cache/app\", \"timeout_ms\": 10000}", &err);
 *     if (loader == NULL) { fprintf(stderr, "%s\n", err.message); return 1; }
 *     pathconfig_loader_set_callback(loader, on_event, stderr, NULL);
 *     pathconfig_loader_load(loader, &err);      // file, cached copy, download
 *     pathconfig *cfg = pathconfig_loader_current(loader);
 *     ... pathconfig_resolve(cfg, url, NULL, &err) ...
 *     pathconfig_release(cfg);
 *     pathconfig_loader_free(loader);
 *
 * sources_json is a JSON array, in order, of objects of one of these forms
 * (anything else fails with PATHCONFIG_E_OPTIONS, naming the source's index):
 *   {"file": PATH}                         a JSON file, read each time the
 *                                          chain runs;
 *   {"data": TEXT, "name": NAME}           the configuration as a JSON string
 *                                          (e.g. bundled); "name" (optional,
 *                                          default "data") names it in events;
 *   {"server": URL, "headers": {NAME: VALUE, ...}}
 *                                          an absolute http:// or https:// URL,
 *                                          with extra request headers
 *                                          (optional, sent in the order given).
 * A relative PATH, like a relative "cache_dir" below, is opened against the
 * working directory of the moment, each time the chain runs or polls (as
 * open(2) reads it): a process that changes directory after making the
 * loader (a daemon's chdir("/")) gives absolute paths.
 *
 * options_json is NULL (or blank) for the defaults, or a JSON object with any
 * key of the load options (see "Loading": profile, match_query_strings,
 * backend, lenient, base_url, merge, result_cache_size, max_url_bytes; they
 * apply to every source) and any of these; unknown
 * keys and bad values fail with PATHCONFIG_E_OPTIONS:
 *   "cache_dir"            a directory for server copies, one file per URL,
 *                          created (mode 0700) when missing; null (default):
 *                          no cache;
 *   "timeout_ms"           positive integer, the longest one download may take,
 *                          connecting and redirects included (default 30000);
 *   "max_body_bytes"       positive integer, the largest body accepted
 *                          (default 8388608), counted after content decoding
 *                          (gzip, deflate, and br or zstd when libcurl has
 *                          them, are asked for and decoded);
 *   "refresh_interval_ms"  positive integer: pathconfig_loader_load starts a
 *                          thread that refreshes at this interval until
 *                          pathconfig_loader_free; null (default): no polling;
 *   "user_agent"           the User-Agent header (default
 *                          "libpathconfig/VERSION", see pathconfig_version);
 *   "ca_file"              a PEM file of CA certificates to trust for HTTPS
 *                          instead of the system's: only these are trusted
 *                          (libcurl's default CA file and directory are not),
 *                          which pins a private CA; null (default): the
 *                          system's;
 *   "follow_redirects_to_other_hosts"
 *                          true or false (default): whether a redirect to
 *                          another host is followed. Redirects on the same
 *                          host (any port) are followed, at most 5; one from
 *                          https to http never is. A redirect not followed
 *                          fails the download (PATHCONFIG_DOWNLOAD_HTTP_STATUS,
 *                          http_status the 3xx, the message naming the
 *                          target). Followed to another host, the request
 *                          drops Authorization and Cookie headers.
 *
 * An HTTPS certificate that does not verify (against ca_file, or the
 * system's CAs) fails the download with PATHCONFIG_DOWNLOAD_TRANSPORT and
 * libcurl's reason as the message ("SSL certificate problem: self-signed
 * certificate", "SSL: no alternative certificate subject name matches target
 * host name ...").
 *
 * Threads. Every function below may be called from any thread, the loader's
 * operations (load, refresh, polling) run one at a time, and
 * pathconfig_loader_current never waits for the network: it returns the last
 * whole configuration, which stays valid for the caller holding it while
 * another is installed.
 *
 * fork(). A loader belongs to the process that created it: its polling
 * thread is not copied into a child, and a download that thread was running
 * holds the loader's locks there for good. In a child, a loader made before
 * the fork refuses pathconfig_loader_load and _refresh (PATHCONFIG_E_FORKED,
 * 1.1.0), while pathconfig_loader_current returns the configuration current
 * at the fork and pathconfig_loader_free frees it without waiting for
 * anything. A preforking server creates each worker's loader after the fork.
 *
 * Process exit. A process may exit (exit(), a return from main) with loaders
 * not freed, their polling threads running. From the moment exit begins,
 * every download in progress (a polling thread's, or a load on another
 * thread) is abandoned, exit waits for them to end (at most 2 seconds;
 * 1.1.0), and none starts after: such a download fails with
 * PATHCONFIG_DOWNLOAD_TRANSPORT ("... the process is exiting"), reported as
 * any failure is. Otherwise the TLS library's own exit handler (OpenSSL's)
 * would free what a download in progress uses, and crash the process. Free
 * a loader before exit to stop its polling thread altogether.
 * ------------------------------------------------------------------------- */

/**
 * Keeps a configuration current from several sources: thread-safe.
 * CONSTRUCTOR pathconfig_loader_new; DESTRUCTOR pathconfig_loader_free.
 */
typedef struct pathconfig_loader pathconfig_loader;

/* pathconfig_loader_event.kind: what one step of the chain did. */
#define PATHCONFIG_EVENT_APPLIED       1  /**< The source's configuration is now the current one. */
#define PATHCONFIG_EVENT_SUPERSEDED    2  /**< The source's configuration loaded, but a later source's stays current. */
#define PATHCONFIG_EVENT_NOT_MODIFIED  3  /**< The server answered 304 (or sent the same bytes): the copy stays, nothing changed. */
#define PATHCONFIG_EVENT_FAILED        4  /**< The source gave no configuration; the current one stays. `error` says why. */
#define PATHCONFIG_EVENT_WARNING       5  /**< Something was skipped or not saved (a corrupt cache file ignored, a cache write that failed); `error` says what. */

/* pathconfig_loader_event.source_kind: which kind of source. */
#define PATHCONFIG_SOURCE_DATA    0  /**< A {"data": ...} source. */
#define PATHCONFIG_SOURCE_FILE    1  /**< A {"file": ...} source. */
#define PATHCONFIG_SOURCE_CACHE   2  /**< The cached copy of a {"server": ...} source. */
#define PATHCONFIG_SOURCE_SERVER  3  /**< The download of a {"server": ...} source. */

/* pathconfig_loader_event.reason when error->code is PATHCONFIG_E_DOWNLOAD. */
#define PATHCONFIG_DOWNLOAD_UNAVAILABLE  1  /**< libcurl could not be loaded (not installed, or too old). */
#define PATHCONFIG_DOWNLOAD_TRANSPORT    2  /**< Connection refused, DNS, TLS or protocol failure. */
#define PATHCONFIG_DOWNLOAD_TIMEOUT      3  /**< No complete response within timeout_ms. */
#define PATHCONFIG_DOWNLOAD_TOO_LARGE    4  /**< The body was larger than max_body_bytes. */
#define PATHCONFIG_DOWNLOAD_TRUNCATED    5  /**< The connection closed before the announced body was complete. */
#define PATHCONFIG_DOWNLOAD_HTTP_STATUS  6  /**< A status other than 200 (or 304 answering a conditional request), a redirect not followed among them; see http_status. */
#define PATHCONFIG_DOWNLOAD_NOMEM        7  /**< Memory ran out while receiving. */

/* pathconfig_loader_event.reason when error->code is PATHCONFIG_E_CACHE. */
#define PATHCONFIG_CACHE_CORRUPT     1  /**< The cache file is not a complete copy for the URL; it was ignored. */
#define PATHCONFIG_CACHE_UNREADABLE  2  /**< The cache file could not be read; it was ignored. */
#define PATHCONFIG_CACHE_UNWRITABLE  3  /**< A new copy could not be written; the previous file is unchanged. */

/** The `version` of the events this header describes. */
#define PATHCONFIG_LOADER_EVENT_VERSION 1

/**
 * One step of a loader's chain, as its callback receives it. Made by the
 * library: the struct and every pointer in it are borrowed from the callback
 * call and invalid once it returns (copy what you keep; pathconfig_retain the
 * configuration). Fields are only ever appended; a field added in version N is
 * present when `version >= N`.
 */
typedef struct pathconfig_loader_event {
    int version;          /**< PATHCONFIG_LOADER_EVENT_VERSION of the library that made it (1 or more). */
    int kind;             /**< A PATHCONFIG_EVENT_* constant. */
    int source_kind;      /**< A PATHCONFIG_SOURCE_* constant. */
    int source_index;     /**< 0-based index of the source in sources_json. */
    int64_t byte_count;   /**< Bytes read or downloaded, -1 when no body was. */
    int http_status;      /**< The HTTP status of a failed download when one arrived, else 0. */
    int reason;           /**< A PATHCONFIG_DOWNLOAD_* or PATHCONFIG_CACHE_* constant when error->code is PATHCONFIG_E_DOWNLOAD or _CACHE, else 0. */
    const char *location; /**< The data's name, the file's path, the cache file's path or the URL; never NULL. */
    const char *url;      /**< The server URL for cache and server events, else NULL. */
    const pathconfig_error *error; /**< Why, for FAILED and WARNING (code, message, and line/column/rule_index/pattern_index when the configuration did not load); NULL otherwise. */
    pathconfig *configuration; /**< The configuration the source produced (APPLIED, SUPERSEDED, and NOT_MODIFIED when one is known), else NULL. Borrowed: pathconfig_retain it to keep it. */
    const char *description;   /**< One line for logs, e.g. "server https://example.com/p.json: applied (412 bytes)"; never NULL. */
} pathconfig_loader_event;

/**
 * Receives a loader's events. See pathconfig_loader_set_callback for the
 * thread it runs on and what it may do.
 * @param event    borrowed for the call; never NULL.
 * @param payload  what was passed to pathconfig_loader_set_callback.
 */
typedef void (*pathconfig_loader_callback)(const pathconfig_loader_event *event, void *payload);

/**
 * Frees a callback's payload, when the library no longer needs it: see
 * pathconfig_loader_set_callback.
 * @param payload  what was passed with the callback.
 */
typedef void (*pathconfig_loader_payload_free)(void *payload);

/**
 * CONSTRUCTOR. Creates a loader; loads nothing yet (call
 * pathconfig_loader_load).
 * @param sources_json  NUL-terminated JSON array of sources (see above).
 * @param options_json  NUL-terminated options (see above), or NULL.
 * @param err           filled on failure, cleared on success; may be NULL.
 * @return a new loader, caller frees with pathconfig_loader_free; NULL on
 *         failure with code PATHCONFIG_E_OPTIONS (malformed sources or
 *         options, an unknown key, a bad value, a URL that is not absolute
 *         http(s), a header that cannot be sent), _BACKEND or _ARGUMENT
 *         (sources_json NULL, either argument not UTF-8).
 */
PATHCONFIG_API pathconfig_loader *pathconfig_loader_new(const char *sources_json,
                                                        const char *options_json,
                                                        pathconfig_error *err);

/**
 * METHOD of pathconfig_loader. Sets the function called after every step of
 * the chain (one event per source step, in order), replacing the previous
 * one; cb NULL removes it.
 *
 * The callback runs on the thread that called pathconfig_loader_load or
 * _refresh, or on the loader's polling thread (refresh_interval_ms), one
 * event at a time, never two at once and never nested. Inside it, on its
 * loader, pathconfig_loader_current, _cache_file, _set_callback and _free
 * work (see below); _load and _refresh fail with PATHCONFIG_E_MISUSE, having
 * done nothing and started nothing (no polling thread). It may retain
 * event->configuration and use any configuration. It must return normally
 * (no longjmp, no C++ exception out of it).
 *
 * (1.1.0) No loader function waits for a running callback, so a callback may
 * hand its work to another thread and wait for it, as an FFI that runs a
 * callback's body on a thread of its own does (ruby-ffi, for a call from
 * the polling thread): from any thread while a call of the callback is in
 * progress, _set_callback and _free return at once (the call goes on to its
 * end, and no later event is delivered to the callback they replaced or
 * removed), and _load and _refresh fail with PATHCONFIG_E_MISUSE, having done
 * nothing, as they do inside it (call them again once it has returned).
 *
 * The library calls free_payload(payload) exactly once, when the payload is
 * no longer used, so a host needs no bookkeeping of its own (a binding's
 * boxed closure is freed there):
 *   - when cb is replaced or removed (by pathconfig_loader_set_callback or
 *     pathconfig_loader_free) while no call of it is in progress, by the
 *     thread replacing it, before that call returns;
 *   - when it is replaced or removed while a call of it is in progress (from
 *     inside it, or from any other thread), by the thread running that call,
 *     right after it has returned. Without free_payload, a payload replaced
 *     from another thread may still be in use by that call when
 *     pathconfig_loader_set_callback returns: pass free_payload to know when
 *     it is not.
 * free_payload may use the loader as the callback may, free it included (a
 * binding's closure may own the last reference to the loader's owner);
 * except when called by pathconfig_loader_free, when the loader is going.
 * @param cb            the callback; NULL removes it (free_payload and
 *                      payload are then ignored).
 * @param payload       handed to cb and then to free_payload; owned by the
 *                      library from a successful call on.
 * @param free_payload  frees payload; NULL when nothing needs freeing (the
 *                      payload is then the caller's, to keep valid until it
 *                      is no longer used, as above).
 * @return a status: PATHCONFIG_OK; PATHCONFIG_E_ARGUMENT when loader is NULL
 *         (free_payload is not called: the payload is still the caller's).
 */
PATHCONFIG_API int pathconfig_loader_set_callback(pathconfig_loader *loader,
                                                  pathconfig_loader_callback cb, void *payload,
                                                  pathconfig_loader_payload_free free_payload);

/**
 * METHOD of pathconfig_loader. Runs the whole chain once, synchronously
 * (downloads included, each bounded by timeout_ms), reporting every step to
 * the callback; then starts polling when refresh_interval_ms is set.
 * @param err  cleared on success; on failure filled from the last failed
 *             step, its message starting with the source ("server URL: ...");
 *             may be NULL.
 * @return a status: PATHCONFIG_OK when a configuration is current, even if
 *         some sources failed (they were reported to the callback); otherwise
 *         the code of the last failure: PATHCONFIG_E_DOWNLOAD, _IO, _JSON,
 *         _SCHEMA, _REGEX, _LIMIT; PATHCONFIG_E_ARGUMENT when loader is NULL;
 *         PATHCONFIG_E_MISUSE from inside the loader's callback, or while
 *         it runs on another thread (see pathconfig_loader_set_callback):
 *         nothing is loaded or reported, and polling is not started;
 *         PATHCONFIG_E_FORKED in a child of fork() (see above): the same.
 */
PATHCONFIG_API int pathconfig_loader_load(pathconfig_loader *loader, pathconfig_error *err);

/**
 * METHOD of pathconfig_loader. Downloads every server source again,
 * synchronously, conditionally when a copy with ETag/Last-Modified is known;
 * before the first pathconfig_loader_load, runs load's chain instead (without
 * starting to poll). A failure leaves the current configuration and the
 * cache file as they were.
 * @param err  cleared on success, filled from the last failed download
 *             otherwise; may be NULL.
 * @return a status: PATHCONFIG_OK when no step failed (new configurations
 *         applied, or not modified; also with no server source); otherwise
 *         the code of the last failure (PATHCONFIG_E_DOWNLOAD, _JSON,
 *         _SCHEMA, _REGEX, _LIMIT, ...); PATHCONFIG_E_ARGUMENT when loader is
 *         NULL; PATHCONFIG_E_MISUSE from inside the loader's callback, or
 *         while it runs on another thread, and PATHCONFIG_E_FORKED in a child
 *         of fork(): nothing is downloaded or reported.
 */
PATHCONFIG_API int pathconfig_loader_refresh(pathconfig_loader *loader, pathconfig_error *err);

/**
 * CONSTRUCTOR of pathconfig. The current configuration: the newest good one.
 * Never waits for the network; each call returns a new reference to the
 * configuration current at that moment.
 * @return caller frees with pathconfig_release (it stays valid after the
 *         loader moves on or is freed); NULL when nothing has loaded yet
 *         (last error cleared: code 0), or on failure (PATHCONFIG_E_ARGUMENT:
 *         loader NULL).
 */
PATHCONFIG_API pathconfig *pathconfig_loader_current(const pathconfig_loader *loader);

/**
 * METHOD of pathconfig_loader. The path of the cache file that holds (or would
 * hold) url's copy; the file name is a hash of the whole URL.
 * @param url  NUL-terminated UTF-8, any URL (need not be one of the sources).
 * @return caller frees with pathconfig_string_free; NULL when the loader has
 *         no cache_dir (last error cleared: code 0), or on failure
 *         (PATHCONFIG_E_ARGUMENT, _NOMEM).
 */
PATHCONFIG_API char *pathconfig_loader_cache_file(const pathconfig_loader *loader, const char *url);

/**
 * DESTRUCTOR. Delivers no more events, stops polling, removes the callback
 * (freeing its payload, see pathconfig_loader_set_callback), then frees the
 * loader; no call of the callback starts after it returns. Configurations
 * obtained from it stay valid until released. No other call on the loader
 * may be in progress or start, except the one whose callback is running.
 *
 * A polling refresh in progress abandons its download, within about a second
 * (1.1.0; before, free waited for the download, up to timeout_ms), and free
 * waits for that refresh to end; but never for a running callback (1.1.0):
 * called while one runs, from inside it or from any other thread (a garbage
 * collector's finalizer, the thread an FFI runs the callback's body on), it
 * returns at once, the running call goes on to its end, and no later event
 * is delivered. The operation running the callback ends normally (a
 * pathconfig_loader_load or _refresh returns to its caller, who must not use
 * the loader again; a polling thread stops, with no refresh after), and the
 * loader's memory is released when it has. In a child of fork(), a loader
 * made before the fork is freed without stopping or waiting for anything;
 * what its polling thread held at the fork stays allocated in the child.
 * NULL is a no-op.
 */
PATHCONFIG_API void pathconfig_loader_free(pathconfig_loader *loader);

#ifdef __cplusplus
}
#endif

#endif /* PATHCONFIG_LOADER_H */
