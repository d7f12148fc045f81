/*
 * corpus.h -- what the C benchmarks share: reading a corpus (rules-N.json,
 * urls-N.txt) and a monotonic clock. Plain libc, so that pathconfig-threads
 * builds with nothing but libpathconfig.
 */
#ifndef BENCH_CORPUS_H
#define BENCH_CORPUS_H

#include <stddef.h>

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

#endif
