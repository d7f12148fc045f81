/* A tiny test harness: CHECK counts, reports failures with file:line and the
 * current context, and test_summary() prints "N passed, M failed". */
#ifndef PATHCONFIG_TEST_HARNESS_H
#define PATHCONFIG_TEST_HARNESS_H

/* HARNESS_TSAN: built with ThreadSanitizer; HARNESS_SANITIZED: with it or
 * AddressSanitizer (each in clang's way or gcc's). */
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define HARNESS_TSAN 1
#endif
#if __has_feature(address_sanitizer)
#define HARNESS_ASAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) && !defined(HARNESS_TSAN)
#define HARNESS_TSAN 1
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(HARNESS_ASAN)
#define HARNESS_ASAN 1
#endif
#if defined(HARNESS_TSAN) || defined(HARNESS_ASAN)
#define HARNESS_SANITIZED 1
#endif

#include <stddef.h>

#include <pathconfig.h>

/* What the checks that follow are about (a case name), printed on failure. */
extern char test_context[256];

/* Records one check; on failure prints file:line, the context and the
 * printf-style explanation. Returns ok, so a check can guard later ones. */
int test_check(int ok, const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#define CHECK(cond, ...) test_check((cond) ? 1 : 0, __FILE__, __LINE__, __VA_ARGS__)

/* Sets test_context, printf-style. */
void test_set_context(const char *fmt, ...);

/* Prints "N passed, M failed"; returns the exit status (0 when none failed). */
int test_summary(void);

/* The code of the calling thread's last pathconfig error (pathconfig_last_error). */
int test_last_code(void);

/* The properties of url_or_path for GET as JSON text: pathconfig_resolve,
 * then a copy of pathconfig_result_json (free with free()); NULL when the
 * lookup failed, the last error saying why. */
char *test_properties(const pathconfig *cfg, const char *url_or_path);

/* s, or "(null)" where s is NULL: for printing a string a call may not return. */
const char *test_show(const char *s);

/* Reads a whole file (NUL-terminated, length in *len); NULL on error. Free with free(). */
char *test_read_file(const char *path, size_t *len);

/* How many threads this process has (/proc/self/task), leaving out
 * ThreadSanitizer's own background thread; -1 when unreadable. */
int test_thread_count(void);

/* The thread count once it is `expected`, or after 2 s (a joined thread
 * leaves /proc/self/task a moment after pthread_join returns). */
int test_thread_count_reaching(int expected);

#endif
