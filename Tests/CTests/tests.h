/* The C test suites of libpathconfig's ABI. */
#ifndef PATHCONFIG_TESTS_H
#define PATHCONFIG_TESTS_H

#include "harness.h"
#include "pathconfig.h"

/* Every case of ios.json and android.json in `dir`, through the C ABI. */
void run_conformance(const char *dir);

/* Every read path of a result (keys, types, raw getters, JSON of each
 * value) against its JSON text, on every case of ios.json and android.json
 * in `dir` and on random configurations; typed reads across results of one
 * answer. */
void run_differential_tests(const char *dir);

/* The "profile" of pathconfig_options(cfg) (a static buffer), "" when none. */
const char *test_profile_of(const pathconfig *cfg);

/* Version, error struct layout and codes, every error path, NULL arguments,
 * raw and typed getters, retain/release, explain/warnings/settings. */
void run_api_tests(const char *scratch_dir);

/* What the library lists about itself (profiles, backends, typed keys,
 * warning kinds), each entry exercised, and warnings as structs. */
void run_catalog_tests(void);

/* App versions (1.1.0): profiles named "APP@VERSION" (matching, options,
 * unknown versions), the catalog's release lines, typed reads the app
 * crashes on (PATHCONFIG_E_CRASH), hotwire-android before 1.2 reading strings. */
void run_version_tests(void);

/* Documents at the nesting limits, under every release of every profile,
 * on a thread with the stack pathconfig.h asks callers for: no call
 * overflows it. */
void run_stack_tests(void);

/* Every case of siesta.json about choosing and merging configuration, in
 * `dir`, through pathconfig/rules.h (globs, patterns, C predicates, rules from
 * code merged deep, invalidation). */
void run_siesta_conformance(const char *dir);

/* pathconfig/rules.h on its own: the header's auth-token example, method
 * filters, what a configurer sees and may change. */
void run_rule_tests(void);

/* Callbacks of rules from code: failures (PATHCONFIG_E_CALLBACK, not
 * memoised), free_context exactly once, calls back into the library from a
 * callback, pathconfig_explain with a method; the typed setters and hostile
 * header values. */
void run_rule_callback_tests(void);

/* What conformance.c shares with differential.c (cJSON * as void *, so that
 * this header needs no cJSON): the parsed file `name` of `dir` (NULL, with
 * a failed check, when unreadable); a fixture loaded under a profile and
 * match_query_strings (-1: the profile's); the profile of a case's
 * "library" (ios.json) or "implementation" (android.json), NULL if none. */
void *conformance_file(const char *dir, const char *name);
pathconfig *conformance_load_fixture(const void *fixture, const char *profile, int mqs, pathconfig_error *err);
const char *conformance_ios_profile(const char *library);
const char *conformance_android_profile(const char *implementation);

#endif
