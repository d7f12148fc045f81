#define _POSIX_C_SOURCE 200809L
#include "corpus.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        exit(2);
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap + 1);
        }
    }
    if (!buf || ferror(f)) {
        fprintf(stderr, "%s: cannot read\n", path);
        exit(2);
    }
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

char **read_lines(const char *path, size_t *count) {
    size_t len;
    char *text = read_file(path, &len);
    size_t cap = 1024, n = 0;
    char **lines = malloc(cap * sizeof *lines);
    for (char *p = text; p < text + len;) {
        char *end = memchr(p, '\n', (size_t)(text + len - p));
        if (!end) end = text + len;
        size_t l = (size_t)(end - p);
        if (l > 0 && p[l - 1] == '\r') l--;
        if (l > 0) {
            if (n == cap) lines = realloc(lines, (cap *= 2) * sizeof *lines);
            lines[n] = strndup(p, l);
            n++;
        }
        p = end + 1;
    }
    free(text);
    *count = n;
    return lines;
}

void free_lines(char **lines, size_t count) {
    for (size_t i = 0; i < count; i++) free(lines[i]);
    free(lines);
}

double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Every value of a result read through the getter its type needs, as a host
 * converting an answer to its own map does; a byte count of what was read,
 * or SIZE_MAX when a getter failed. */
size_t read_map(const pathconfig_result *res) {
    size_t n = 0, count = pathconfig_result_count(res);
    for (size_t k = 0; k < count; k++) {
        const char *key = pathconfig_result_key(res, k), *text = NULL;
        size_t len = 0;
        int rc, b = 0;
        int64_t v = 0;
        double d = 0;
        switch (pathconfig_result_type(res, k)) {
        case PATHCONFIG_TYPE_STRING: rc = pathconfig_result_get_string(res, key, &text, &len); break;
        case PATHCONFIG_TYPE_BOOL: rc = pathconfig_result_get_bool(res, key, &b); break;
        case PATHCONFIG_TYPE_INT: rc = pathconfig_result_get_int64(res, key, &v); break;
        case PATHCONFIG_TYPE_DOUBLE: rc = pathconfig_result_get_double(res, key, &d); break;
        default: rc = pathconfig_result_get_json(res, key, &text); break; /* null, array, object */
        }
        if (rc != PATHCONFIG_OK) return SIZE_MAX;
        n += len + (size_t)b + (size_t)v + (size_t)(d != 0) + (text ? (size_t)(unsigned char)text[0] : 0) + (size_t)(unsigned char)key[0];
    }
    return n;
}
