/*
 * corpus.h -- what the C benchmarks share: reading a corpus (rules-N.json,
 * urls-N.txt), a monotonic clock, and reading a result as a host builds its
 * map. Plain libc and libpathconfig, so that pathconfig-threads builds with
 * nothing else.
 */
#ifndef BENCH_CORPUS_H
#define BENCH_CORPUS_H

#include <stddef.h>

#include <pathconfig.h>

/** The whole file at path, NUL-terminated; *len its size. Exits with a
 *  message when it cannot be read. Caller frees. */
char *read_file(const char *path, size_t *len);

/** The non-empty lines of the file at path (without their line breaks), in
 *  order; *count how many. Exits when it cannot be read. Caller frees the
 *  array and the lines with free_lines. */
char **read_lines(const char *path, size_t *count);
void free_lines(char **lines, size_t count);

/** Seconds on CLOCK_MONOTONIC. */
double now_seconds(void);

/** Every value of res read through the getter its type needs, as a host
 *  converting an answer to its own map does; a checksum of what was read,
 *  or SIZE_MAX when a getter failed. */
size_t read_map(const pathconfig_result *res);

#endif
