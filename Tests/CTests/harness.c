#define _POSIX_C_SOURCE 200809L  /* nanosleep, dirent */

#include "harness.h"

#include <pathconfig.h>

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

char test_context[256];
static int passed;
static int failed;

int test_check(int ok, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    if (ok) {
        passed++;
        return 1;
    }
    failed++;
    fprintf(stderr, "%s:%d: FAILED", file, line);
    if (test_context[0] != '\0') fprintf(stderr, " [%s]", test_context);
    fputs(": ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 0;
}

void test_set_context(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(test_context, sizeof test_context, fmt, ap);
    va_end(ap);
}

int test_summary(void)
{
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}

char *test_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, n = 0;
    if (f == NULL) return NULL;
    for (;;) {
        size_t got;
        if (n + 4096 + 1 > cap) {
            char *bigger;
            cap = (cap == 0) ? 65536 : cap * 2;
            bigger = realloc(buf, cap);
            if (bigger == NULL) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = bigger;
        }
        got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0) break;
    }
    fclose(f);
    buf[n] = '\0';
    if (len != NULL) *len = n;
    return buf;
}

/* The id of a thread the sanitizer runtime runs for itself, which the
 * counts leave out; 0 when there is none. */
static long runtime_thread;

int test_thread_count(void)
{
    DIR *tasks = opendir("/proc/self/task");
    struct dirent *entry;
    int n = 0;
    if (tasks == NULL) return -1;
    while ((entry = readdir(tasks)) != NULL)
        if (entry->d_name[0] != '.' && atol(entry->d_name) != runtime_thread) n++;
    closedir(tasks);
    return n;
}

#ifdef HARNESS_TSAN
#include <pthread.h>
#include <unistd.h>

static void *no_work(void *arg) { return arg; }

/* ThreadSanitizer starts a background thread of its own with the program's
 * first pthread_create, and keeps it: the tests that count threads would see
 * one more after their first thread ends than before it began. Start (and
 * join) a thread before main, wait for it to leave, and note the one that
 * stays besides the main thread. */
__attribute__((constructor)) static void find_runtime_thread(void)
{
    struct timespec pause = { 0, 10 * 1000 * 1000 };
    pthread_t thread;
    int i;
    if (pthread_create(&thread, NULL, no_work, NULL) != 0) return;
    pthread_join(thread, NULL);
    for (i = 0; i < 200; i++) {
        DIR *tasks = opendir("/proc/self/task");
        struct dirent *entry;
        long other = 0;
        int n = 0;
        if (tasks == NULL) return;
        while ((entry = readdir(tasks)) != NULL) {
            if (entry->d_name[0] == '.') continue;
            n++;
            if (atol(entry->d_name) != (long)getpid()) other = atol(entry->d_name);
        }
        closedir(tasks);
        if (n == 2) {
            runtime_thread = other;
            return;
        }
        nanosleep(&pause, NULL);
    }
}
#endif

int test_thread_count_reaching(int expected)
{
    struct timespec pause = { 0, 10 * 1000 * 1000 };
    int i, n = test_thread_count();
    for (i = 0; i < 200 && n != expected; i++) {
        nanosleep(&pause, NULL);
        n = test_thread_count();
    }
    return n;
}

int test_last_code(void)
{
    return pathconfig_last_error()->code;
}

const char *test_show(const char *s)
{
    return s ? s : "(null)";
}

char *test_properties(const pathconfig *cfg, const char *url_or_path)
{
    pathconfig_result *res = pathconfig_resolve(cfg, url_or_path, NULL, NULL);
    const char *json;
    char *copy;
    if (res == NULL) return NULL; /* the last error is the lookup's */
    json = pathconfig_result_json(res);
    copy = json != NULL ? strdup(json) : NULL;
    pathconfig_result_release(res);
    return copy;
}
