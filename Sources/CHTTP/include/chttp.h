/*
 * chttp: one HTTP GET through libcurl, loaded at run time.
 *
 * libpathconfig downloads path configurations without linking libcurl: the
 * first call dlopen()s libcurl.so.4 and looks up the handful of curl_easy_*
 * functions it needs, so the shared library keeps no hard dependency beyond
 * libc. When libcurl is missing, every call fails with CHTTP_UNAVAILABLE and
 * a message saying what to install.
 *
 * Internal to libpathconfig: the symbols are hidden, and the Swift loader
 * (Sources/PathConfigLoading/HTTPClient.swift) is the only caller.
 */
#ifndef CHTTP_H
#define CHTTP_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CHTTP_HIDDEN __attribute__((visibility("hidden")))

/** What a request asks for. Every pointer is borrowed for the call. */
typedef struct chttp_request {
    /** The absolute http:// or https:// URL. */
    const char *url;
    /** Extra request header lines, each "Name: value" without CR/LF. */
    const char *const *headers;
    /** How many entries `headers` has. */
    size_t header_count;
    /** Whole-transfer timeout in milliseconds (connect included); 0 = none. */
    long timeout_ms;
    /** Largest body accepted from a 200 response; larger aborts the transfer. */
    size_t max_body_bytes;
    /** The User-Agent header, or NULL for libcurl's (none). */
    const char *user_agent;
    /** A PEM file of CA certificates for HTTPS, the only ones trusted (not
     * libcurl's default CA file or directory), or NULL for the system's. */
    const char *ca_file;
    /** Asked while the transfer runs (as data arrives, and about once a
     * second while none does): non-zero abandons it (CHTTP_CANCELLED).
     * NULL: never asked. */
    int (*cancelled)(void *context);
    /** Passed to `cancelled`. */
    void *cancel_context;
} chttp_request;

/** How a call ended. */
typedef enum chttp_result {
    /** A response arrived; `http_status` says which (the body is kept for 200 only). */
    CHTTP_OK = 0,
    /** libcurl could not be loaded; `message` says why. */
    CHTTP_UNAVAILABLE = 1,
    /** Connection, DNS, TLS or protocol failure; `message` has libcurl's words. */
    CHTTP_TRANSPORT = 2,
    /** The timeout expired. */
    CHTTP_TIMEOUT = 3,
    /** The body of a 200 was larger than `max_body_bytes`. */
    CHTTP_TOO_LARGE = 4,
    /** The connection closed before the announced body was complete. */
    CHTTP_TRUNCATED = 5,
    /** Memory ran out. */
    CHTTP_NO_MEMORY = 6,
    /** `cancelled` said so, or the process is exiting: the transfer was
     * abandoned (or, when exiting, not started). */
    CHTTP_CANCELLED = 7
} chttp_result;

/** What came back. Filled by chttp_get; release with chttp_response_dispose. */
typedef struct chttp_response {
    /** The HTTP status code, 0 when none arrived. */
    long http_status;
    /** The body of a 200 response (malloc'd, may be NULL when empty). */
    unsigned char *body;
    /** Bytes in `body`. */
    size_t body_length;
    /** The ETag header value (malloc'd), or NULL. */
    char *etag;
    /** The Last-Modified header value (malloc'd), or NULL. */
    char *last_modified;
    /** For a 3xx with a Location header: the absolute URL it points to
     * (resolved against the request's URL; malloc'd), else NULL. */
    char *redirect_url;
    /** A NUL-terminated sentence when the result is not CHTTP_OK. */
    char message[512];
} chttp_response;

/**
 * Performs one GET, over http or https only. Follows no redirect: a 3xx
 * comes back as a response, with `redirect_url`, and the caller decides.
 * Safe to call from several threads at once (one libcurl handle per call).
 * Once the process has begun to exit, every transfer in progress is
 * abandoned, and exit waits (at most 2 s) for them before the TLS library's
 * own exit handler runs; later calls fail at once (see chttp.c).
 *
 * @param request what to fetch; not retained.
 * @param out zeroed and filled; dispose it whatever the result.
 * @return a chttp_result.
 */
CHTTP_HIDDEN int chttp_get(const chttp_request *request, chttp_response *out);

/** Frees what chttp_get allocated in `response`; NULL is a no-op. */
CHTTP_HIDDEN void chttp_response_dispose(chttp_response *response);

#ifdef __cplusplus
}
#endif

#endif /* CHTTP_H */
