/* A real nginx on 127.0.0.1 for the loader tests, started in its own
 * temporary prefix (nginx -p DIR -c DIR/nginx.conf) on a free port.
 *
 * The document root is DIR/www. Files written with server_put get strictly
 * increasing modification times, so every version has its own ETag and
 * Last-Modified (nginx derives both from mtime and size). server_fail500
 * makes every request answer 500. The access log (DIR/access.log) has one line
 * per request: "METHOD URI STATUS inm=[If-None-Match] accept=[Accept]".
 *
 * The nginx binary is $PATHCONFIG_TEST_NGINX or nginx in /usr/sbin,
 * /usr/local/sbin, /usr/bin; scripts/install-deps.sh installs nginx-light. */
#ifndef PATHCONFIG_TEST_SERVER_H
#define PATHCONFIG_TEST_SERVER_H

#include <sys/types.h>

struct test_server {
    char prefix[512];  /* the temporary prefix */
    int port;
    pid_t pid;         /* 0 when stopped */
    long mtime;        /* the modification time of the last server_put */
    char nginx[256];   /* the binary */
};

/* Makes a prefix under dir, picks a free port, starts nginx and waits until it
 * accepts connections. Returns 0, or -1 after printing why. */
int server_start(struct test_server *s, const char *dir);

/* Starts nginx again on the same port (after server_stop). 0 or -1. */
int server_restart(struct test_server *s);

/* Stops nginx and waits for it to exit. Idempotent. */
void server_stop(struct test_server *s);

/* Stops nginx and removes the prefix. */
void server_destroy(struct test_server *s);

/* Writes contents to www/name atomically, with a fresh modification time. 0 or -1. */
int server_put(struct test_server *s, const char *name, const char *contents);

/* on: every request answers 500; off: files are served again. 0 or -1. */
int server_fail500(struct test_server *s, int on);

/* The URL of www/name, "http://127.0.0.1:PORT/name", in buf. */
void server_url(const struct test_server *s, const char *name, char *buf, size_t size);

/* How many access log lines contain every one of `a` and `b` (b may be NULL).
 * nginx writes a line after sending the response, so this waits up to 2 s
 * for at least `expected` lines before counting. */
int server_log_count(const struct test_server *s, const char *a, const char *b, int expected);

/* Writes contents to path (plain, not atomic). 0 or -1. */
int test_write_file(const char *path, const char *contents, size_t len);

/* Removes a directory tree (files and directories only). */
void test_remove_tree(const char *path);

#endif
