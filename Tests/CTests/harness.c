#define _POSIX_C_SOURCE 200809L  /* nanosleep, dirent */

#include "harness.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
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

int test_thread_count(void)
{
    DIR *tasks = opendir("/proc/self/task");
    struct dirent *entry;
    int n = 0;
    if (tasks == NULL) return -1;
    while ((entry = readdir(tasks)) != NULL)
        if (entry->d_name[0] != '.') n++;
    closedir(tasks);
    return n;
}

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
