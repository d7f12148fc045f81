/*
 * re2set.h -- RE2::Set behind a C interface, for pathconfig-peers (peers.c).
 * The set is built with RE2's default options (UTF-8, unanchored search)
 * but a larger memory budget (re2set.cc says why), and answers "which rules
 * match": every pattern is tagged with its rule.
 */
#ifndef BENCH_RE2SET_H
#define BENCH_RE2SET_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct re2set re2set;

/** A new, empty set; NULL when out of memory. */
re2set *re2set_new(void);
/** Adds pattern (len bytes) for rule; 0 on success, -1 when RE2 refuses it
 *  (its message copied into error, error_size bytes at most). */
int re2set_add(re2set *set, const char *pattern, size_t len, uint32_t rule, char *error, size_t error_size);
/** Compiles the set; 0 on success, -1 when RE2 runs out of memory. */
int re2set_compile(re2set *set);
/** The number of distinct rules with a pattern matching text. stamp holds one
 *  entry per rule and gen must differ from every earlier call's (so nothing
 *  needs clearing); *failed is set when the DFA gave up (out of memory). */
size_t re2set_match_rules(re2set *set, const char *text, size_t len, uint32_t *stamp, uint32_t gen, int *failed);
void re2set_free(re2set *set);

#ifdef __cplusplus
}
#endif

#endif
