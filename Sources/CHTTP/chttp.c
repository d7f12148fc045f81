/*
 * chttp: one HTTP GET through libcurl, loaded at run time. See chttp.h.
 *
 * Why dlopen: libpathconfig.so may only depend on libc, libm, libstdc++,
 * libgcc_s, libpcre2-8 and libidn2. libcurl does HTTP, HTTPS, decoding and timeouts
 * for us, but linking it would pull OpenSSL and a dozen libraries into every
 * host, including hosts that never download anything. So the first download
 * opens libcurl.so.4 and resolves ten functions; nothing else of libcurl is
 * used, and only the option numbers below need to agree with its ABI (they
 * are fixed forever by libcurl's compatibility promise, and checked against
 * curl.h whenever that header is installed).
 */
#include "chttp.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- The slice of libcurl's ABI we use ---------------------------------- */

enum {
    /* CURLoption values: type base (0 long, 10000 pointer, 20000 function) + number. */
    OPT_WRITEDATA = 10001,
    OPT_URL = 10002,
    OPT_ERRORBUFFER = 10010,
    OPT_USERAGENT = 10018,
    OPT_HTTPHEADER = 10023,
    OPT_HEADERDATA = 10029,
    OPT_XFERINFODATA = 10057,
    OPT_CAINFO = 10065,
    OPT_CAPATH = 10097,
    OPT_ACCEPT_ENCODING = 10102,
    OPT_WRITEFUNCTION = 20011,
    OPT_HEADERFUNCTION = 20079,
    OPT_XFERINFOFUNCTION = 20219,
    OPT_NOPROGRESS = 43,
    OPT_FOLLOWLOCATION = 52,
    OPT_NOSIGNAL = 99,
    OPT_TIMEOUT_MS = 155,
    OPT_CONNECTTIMEOUT_MS = 156,
    OPT_PROTOCOLS = 181,
    /* CURLINFO_LONG + 2, CURLINFO_STRING + 31 */
    INFO_RESPONSE_CODE = 0x200002,
    INFO_REDIRECT_URL = 0x10001F,
    /* CURLcode values we tell apart. */
    E_OK = 0,
    E_PARTIAL_FILE = 18,
    E_WRITE_ERROR = 23,
    E_OPERATION_TIMEDOUT = 28,
    E_ABORTED_BY_CALLBACK = 42,
    /* Flags. */
    GLOBAL_DEFAULT = 3, /* CURL_GLOBAL_SSL | CURL_GLOBAL_WIN32 */
    PROTO_HTTP = 1,
    PROTO_HTTPS = 2,
    ERROR_SIZE = 256,
};

#if defined(__has_include)
#if __has_include(<curl/curl.h>)
#include <curl/curl.h>
_Static_assert(OPT_WRITEDATA == CURLOPT_WRITEDATA, "curl ABI");
_Static_assert(OPT_URL == CURLOPT_URL, "curl ABI");
_Static_assert(OPT_ERRORBUFFER == CURLOPT_ERRORBUFFER, "curl ABI");
_Static_assert(OPT_USERAGENT == CURLOPT_USERAGENT, "curl ABI");
_Static_assert(OPT_HTTPHEADER == CURLOPT_HTTPHEADER, "curl ABI");
_Static_assert(OPT_HEADERDATA == CURLOPT_HEADERDATA, "curl ABI");
_Static_assert(OPT_CAINFO == CURLOPT_CAINFO, "curl ABI");
_Static_assert(OPT_CAPATH == CURLOPT_CAPATH, "curl ABI");
_Static_assert(OPT_ACCEPT_ENCODING == CURLOPT_ACCEPT_ENCODING, "curl ABI");
_Static_assert(OPT_WRITEFUNCTION == CURLOPT_WRITEFUNCTION, "curl ABI");
_Static_assert(OPT_HEADERFUNCTION == CURLOPT_HEADERFUNCTION, "curl ABI");
_Static_assert(OPT_XFERINFODATA == CURLOPT_XFERINFODATA, "curl ABI");
_Static_assert(OPT_XFERINFOFUNCTION == CURLOPT_XFERINFOFUNCTION, "curl ABI");
_Static_assert(OPT_NOPROGRESS == CURLOPT_NOPROGRESS, "curl ABI");
_Static_assert(OPT_FOLLOWLOCATION == CURLOPT_FOLLOWLOCATION, "curl ABI");
_Static_assert(OPT_NOSIGNAL == CURLOPT_NOSIGNAL, "curl ABI");
_Static_assert(OPT_TIMEOUT_MS == CURLOPT_TIMEOUT_MS, "curl ABI");
_Static_assert(OPT_CONNECTTIMEOUT_MS == CURLOPT_CONNECTTIMEOUT_MS, "curl ABI");
_Static_assert(OPT_PROTOCOLS == CURLOPT_PROTOCOLS, "curl ABI");
_Static_assert(INFO_RESPONSE_CODE == CURLINFO_RESPONSE_CODE, "curl ABI");
_Static_assert(INFO_REDIRECT_URL == CURLINFO_REDIRECT_URL, "curl ABI");
_Static_assert(E_PARTIAL_FILE == CURLE_PARTIAL_FILE, "curl ABI");
_Static_assert(E_WRITE_ERROR == CURLE_WRITE_ERROR, "curl ABI");
_Static_assert(E_OPERATION_TIMEDOUT == CURLE_OPERATION_TIMEDOUT, "curl ABI");
_Static_assert(E_ABORTED_BY_CALLBACK == CURLE_ABORTED_BY_CALLBACK, "curl ABI");
_Static_assert(GLOBAL_DEFAULT == CURL_GLOBAL_DEFAULT, "curl ABI");
_Static_assert(PROTO_HTTP == CURLPROTO_HTTP && PROTO_HTTPS == CURLPROTO_HTTPS, "curl ABI");
_Static_assert(ERROR_SIZE == CURL_ERROR_SIZE, "curl ABI");
#endif
#endif

typedef void chttp_curl;
typedef struct chttp_slist chttp_slist;
typedef size_t (*data_callback)(char *data, size_t size, size_t count, void *context);
/* CURLOPT_XFERINFOFUNCTION's: the four counts are curl_off_t, 64 bits. */
typedef int (*progress_callback)(void *context, int64_t download_total, int64_t downloaded, int64_t upload_total,
                                 int64_t uploaded);

/* The functions we resolve, with libcurl's signatures. */
static struct {
    int (*global_init)(long flags);
    chttp_curl *(*easy_init)(void);
    int (*easy_setopt)(chttp_curl *handle, int option, ...);
    int (*easy_perform)(chttp_curl *handle);
    int (*easy_getinfo)(chttp_curl *handle, int info, ...);
    void (*easy_cleanup)(chttp_curl *handle);
    const char *(*easy_strerror)(int code);
    chttp_slist *(*slist_append)(chttp_slist *list, const char *string);
    void (*slist_free_all)(chttp_slist *list);
    int (*strnequal)(const char *a, const char *b, size_t n);
} curl;

/* ---- Process exit ------------------------------------------------------ */

/* A process may exit (exit(), a return from main) while a download runs on
 * another thread: a loader's polling thread, or a host's thread inside a
 * load. The TLS library's exit handler (OPENSSL_cleanup, which OpenSSL
 * registers when libcurl initialises it) then frees what that download is
 * using, and the process crashes. stop_transfers, registered after libcurl's
 * initialisation and so run before that handler, abandons the downloads in
 * progress (each sees it at its next progress call: as data arrives, and
 * about once a second while none does), waits for them to end, at most
 * EXIT_PATIENCE_MS, and lets no other start. */
enum { EXIT_PATIENCE_MS = 2000 };
static int transfers; /* in progress; atomic */
static int exiting;   /* atomic */

static void stop_transfers(void) {
    __atomic_store_n(&exiting, 1, __ATOMIC_SEQ_CST);
    const struct timespec pause = {0, 1000 * 1000};
    for (int waited = 0; waited < EXIT_PATIENCE_MS && __atomic_load_n(&transfers, __ATOMIC_SEQ_CST) > 0; waited++)
        nanosleep(&pause, NULL);
}

/* In a child of fork(), the parent's downloads are not there to end. */
static void forget_transfers(void) {
    __atomic_store_n(&transfers, 0, __ATOMIC_SEQ_CST);
}

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_failed;
static char load_error[400];

/* Opens libcurl once per process. PATHCONFIG_LIBCURL names the file to use
 * instead of the usual sonames (for hosts that ship their own, and tests). */
static void load_curl(void) {
    static const char *const names[] = {
#ifdef __APPLE__
        "libcurl.4.dylib", "libcurl.dylib",
#else
        "libcurl.so.4", "libcurl-gnutls.so.4", "libcurl-nss.so.4", "libcurl.so",
#endif
    };
    const char *override = getenv("PATHCONFIG_LIBCURL");
    void *lib = NULL;
    const char *last = "not found";
    if (override && *override) {
        lib = dlopen(override, RTLD_NOW | RTLD_LOCAL);
        if (!lib) last = dlerror();
    } else {
        for (size_t i = 0; i < sizeof names / sizeof names[0] && !lib; i++) {
            lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
            if (!lib) last = dlerror();
        }
    }
    if (!lib) {
        snprintf(load_error, sizeof load_error,
                 "libcurl is not available (%s); install it (Debian: apt-get install libcurl4)", last);
        load_failed = 1;
        return;
    }
#define RESOLVE(field, symbol)                                                                  \
    do {                                                                                        \
        *(void **)(&curl.field) = dlsym(lib, symbol);                                           \
        if (!curl.field) {                                                                      \
            snprintf(load_error, sizeof load_error, "libcurl lacks %s; it is too old", symbol); \
            load_failed = 1;                                                                    \
            return;                                                                             \
        }                                                                                       \
    } while (0)
    RESOLVE(global_init, "curl_global_init");
    RESOLVE(easy_init, "curl_easy_init");
    RESOLVE(easy_setopt, "curl_easy_setopt");
    RESOLVE(easy_perform, "curl_easy_perform");
    RESOLVE(easy_getinfo, "curl_easy_getinfo");
    RESOLVE(easy_cleanup, "curl_easy_cleanup");
    RESOLVE(easy_strerror, "curl_easy_strerror");
    RESOLVE(slist_append, "curl_slist_append");
    RESOLVE(slist_free_all, "curl_slist_free_all");
    RESOLVE(strnequal, "curl_strnequal");
#undef RESOLVE
    /* Not thread-safe in old libcurls, hence inside pthread_once. */
    if (curl.global_init(GLOBAL_DEFAULT) != E_OK) {
        snprintf(load_error, sizeof load_error, "libcurl failed to initialise");
        load_failed = 1;
        return;
    }
    /* After libcurl's initialisation, which registers the TLS library's
     * exit handler, so that this one runs first. */
    atexit(stop_transfers);
    pthread_atfork(NULL, NULL, forget_transfers);
}

/* ---- One transfer ------------------------------------------------------- */

/* What the callbacks see while a transfer runs. */
typedef struct transfer {
    chttp_response *out;
    size_t capacity;      /* of out->body */
    size_t max_body;
    long status;          /* of the response being received */
    int too_large;
    int no_memory;
} transfer;

static char *copy_trimmed(const char *start, const char *end) {
    while (start < end && (*start == ' ' || *start == '\t')) start++;
    while (end > start && (end[-1] == '\r' || end[-1] == '\n' || end[-1] == ' ' || end[-1] == '\t')) end--;
    char *s = malloc((size_t)(end - start) + 1);
    if (!s) return NULL;
    memcpy(s, start, (size_t)(end - start));
    s[end - start] = 0;
    return s;
}

/* Replaces *slot with the value of header line [line, end) when it is `name`.
 * Names are compared in ASCII, whatever the host's locale: strncasecmp under
 * a Turkish LC_CTYPE (a Python or Ruby host's, from the environment) takes
 * "I" and "i" for different letters, and missed "LAST-MODIFIED". */
static int take_header(const char *line, const char *end, const char *name, char **slot) {
    size_t n = strlen(name);
    if ((size_t)(end - line) <= n || !curl.strnequal(line, name, n) || line[n] != ':') return 0;
    free(*slot);
    *slot = copy_trimmed(line + n + 1, end);
    return 1;
}

/* Called once per header line, status lines included. A new status line
 * (after a 1xx interim response) starts a new response: forget the old one. */
static size_t on_header(char *data, size_t size, size_t count, void *context) {
    transfer *t = context;
    size_t length = size * count;
    const char *end = data + length;
    if (length > 5 && strncmp(data, "HTTP/", 5) == 0) {
        const char *p = data + 5;
        while (p < end && *p != ' ') p++;
        long status = 0;
        while (p < end && *p == ' ') p++;
        while (p < end && *p >= '0' && *p <= '9') status = status * 10 + (*p++ - '0');
        t->status = status;
        t->out->body_length = 0;
        free(t->out->etag);
        free(t->out->last_modified);
        t->out->etag = t->out->last_modified = NULL;
        return length;
    }
    if (!take_header(data, end, "ETag", &t->out->etag)) take_header(data, end, "Last-Modified", &t->out->last_modified);
    return length;
}

/* Keeps the body of a 200, up to the limit; returning short aborts the transfer. */
static size_t on_body(char *data, size_t size, size_t count, void *context) {
    transfer *t = context;
    size_t length = size * count;
    if (t->status != 200) return length; /* not kept: only a 200 body is used */
    chttp_response *out = t->out;
    if (length > t->max_body || out->body_length > t->max_body - length) {
        t->too_large = 1;
        return 0;
    }
    if (out->body_length + length > t->capacity) {
        size_t capacity = t->capacity ? t->capacity : 16384;
        while (capacity < out->body_length + length) capacity *= 2;
        if (capacity > t->max_body) capacity = t->max_body;
        unsigned char *grown = realloc(out->body, capacity);
        if (!grown) {
            t->no_memory = 1;
            return 0;
        }
        out->body = grown;
        t->capacity = capacity;
    }
    memcpy(out->body + out->body_length, data, length);
    out->body_length += length;
    return length;
}

/* libcurl calls it as data arrives and about once a second while none does,
 * connecting included, with the request; non-zero abandons the transfer
 * (CURLE_ABORTED_BY_CALLBACK, which no other callback set here returns). */
static int on_progress(void *context, int64_t download_total, int64_t downloaded, int64_t upload_total,
                       int64_t uploaded) {
    (void)download_total, (void)downloaded, (void)upload_total, (void)uploaded;
    const chttp_request *request = context;
    return __atomic_load_n(&exiting, __ATOMIC_SEQ_CST) ||
           (request->cancelled && request->cancelled(request->cancel_context) != 0);
}

static int get(const chttp_request *request, chttp_response *out);

int chttp_get(const chttp_request *request, chttp_response *out) {
    memset(out, 0, sizeof *out);
    pthread_once(&load_once, load_curl);
    if (load_failed) {
        snprintf(out->message, sizeof out->message, "%s", load_error);
        return CHTTP_UNAVAILABLE;
    }
    /* Counted, then checked: stop_transfers sets `exiting`, then counts. */
    __atomic_add_fetch(&transfers, 1, __ATOMIC_SEQ_CST);
    int result = CHTTP_CANCELLED;
    if (__atomic_load_n(&exiting, __ATOMIC_SEQ_CST))
        snprintf(out->message, sizeof out->message, "the process is exiting");
    else
        result = get(request, out);
    __atomic_sub_fetch(&transfers, 1, __ATOMIC_SEQ_CST);
    return result;
}

static int get(const chttp_request *request, chttp_response *out) {
    chttp_curl *handle = curl.easy_init();
    if (!handle) {
        snprintf(out->message, sizeof out->message, "libcurl could not create a handle");
        return CHTTP_NO_MEMORY;
    }
    chttp_slist *headers = NULL;
    for (size_t i = 0; i < request->header_count; i++) {
        chttp_slist *appended = curl.slist_append(headers, request->headers[i]);
        if (!appended) {
            curl.slist_free_all(headers);
            curl.easy_cleanup(handle);
            snprintf(out->message, sizeof out->message, "out of memory");
            return CHTTP_NO_MEMORY;
        }
        headers = appended;
    }

    transfer t = {.out = out, .max_body = request->max_body_bytes};
    char error[ERROR_SIZE] = {0};
    curl.easy_setopt(handle, OPT_URL, request->url);
    curl.easy_setopt(handle, OPT_ERRORBUFFER, error);
    curl.easy_setopt(handle, OPT_NOSIGNAL, 1L); /* no SIGALRM: we run on any thread */
    curl.easy_setopt(handle, OPT_PROTOCOLS, (long)(PROTO_HTTP | PROTO_HTTPS));
    /* Redirects come back to the caller (redirect_url), which decides. */
    curl.easy_setopt(handle, OPT_FOLLOWLOCATION, 0L);
    /* Accept-Encoding lists every encoding this libcurl decodes (gzip and
     * deflate always; br and zstd when built with them), and it decodes the
     * body before on_body sees it, so max_body_bytes bounds the decoded size.
     * A body it cannot decode fails the transfer (CURLE_BAD_CONTENT_ENCODING). */
    curl.easy_setopt(handle, OPT_ACCEPT_ENCODING, "");
    curl.easy_setopt(handle, OPT_TIMEOUT_MS, request->timeout_ms);
    curl.easy_setopt(handle, OPT_CONNECTTIMEOUT_MS, request->timeout_ms);
    if (headers) curl.easy_setopt(handle, OPT_HTTPHEADER, headers);
    if (request->user_agent) curl.easy_setopt(handle, OPT_USERAGENT, request->user_agent);
    if (request->ca_file) {
        /* The file's CAs only: without this, the CA directory libcurl was
         * built with (Debian: /etc/ssl/certs) is trusted as well. */
        curl.easy_setopt(handle, OPT_CAINFO, request->ca_file);
        curl.easy_setopt(handle, OPT_CAPATH, (const char *)NULL);
    }
    curl.easy_setopt(handle, OPT_HEADERFUNCTION, (data_callback)on_header);
    curl.easy_setopt(handle, OPT_HEADERDATA, &t);
    curl.easy_setopt(handle, OPT_WRITEFUNCTION, (data_callback)on_body);
    curl.easy_setopt(handle, OPT_WRITEDATA, &t);
    /* Progress on only once the function is in place: a libcurl without
     * the option (before 7.32) would print its own meter instead. */
    if (curl.easy_setopt(handle, OPT_XFERINFOFUNCTION, (progress_callback)on_progress) == E_OK) {
        curl.easy_setopt(handle, OPT_XFERINFODATA, (void *)request);
        curl.easy_setopt(handle, OPT_NOPROGRESS, 0L);
    }

    int code = curl.easy_perform(handle);
    long status = 0;
    curl.easy_getinfo(handle, INFO_RESPONSE_CODE, &status);
    out->http_status = status;
    const char *location = NULL;
    if (code == E_OK && status >= 300 && status < 400 &&
        curl.easy_getinfo(handle, INFO_REDIRECT_URL, &location) == E_OK && location) {
        out->redirect_url = strdup(location);
        if (!out->redirect_url) t.no_memory = 1;
    }
    curl.slist_free_all(headers);
    curl.easy_cleanup(handle);

    const char *why = error[0] ? error : curl.easy_strerror(code);
    int result = CHTTP_OK;
    if (code == E_ABORTED_BY_CALLBACK) {
        result = CHTTP_CANCELLED;
        snprintf(out->message, sizeof out->message, "%s",
                 __atomic_load_n(&exiting, __ATOMIC_SEQ_CST) ? "the download was abandoned: the process is exiting"
                                                            : "the download was cancelled");
    } else if (t.too_large) {
        result = CHTTP_TOO_LARGE;
        snprintf(out->message, sizeof out->message, "the body is larger than the limit of %zu bytes", request->max_body_bytes);
    } else if (t.no_memory) {
        result = CHTTP_NO_MEMORY;
        snprintf(out->message, sizeof out->message, "out of memory while receiving the body");
    } else if (code == E_OK) {
        return CHTTP_OK;
    } else if (code == E_OPERATION_TIMEDOUT) {
        result = CHTTP_TIMEOUT;
        snprintf(out->message, sizeof out->message, "%s", why);
    } else if (code == E_PARTIAL_FILE) {
        result = CHTTP_TRUNCATED;
        snprintf(out->message, sizeof out->message, "%s", why);
    } else {
        result = CHTTP_TRANSPORT;
        snprintf(out->message, sizeof out->message, "%s", why);
    }
    /* A failed transfer keeps nothing. */
    free(out->body);
    out->body = NULL;
    out->body_length = 0;
    return result;
}

void chttp_response_dispose(chttp_response *response) {
    if (!response) return;
    free(response->body);
    free(response->etag);
    free(response->last_modified);
    free(response->redirect_url);
    response->body = NULL;
    response->etag = response->last_modified = response->redirect_url = NULL;
    response->body_length = 0;
}
