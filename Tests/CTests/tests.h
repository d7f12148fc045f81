/* The C test suites of libpathconfig's ABI. */
#ifndef PATHCONFIG_TESTS_H
#define PATHCONFIG_TESTS_H

#include "harness.h"
#include "pathconfig.h"

/* Every case of ios.json and android.json in `dir`, through the C ABI. */
void run_conformance(const char *dir);

/* Version, error struct layout and codes, every error path, NULL arguments,
 * raw and typed getters, retain/release, explain/warnings/settings. */
void run_api_tests(const char *scratch_dir);

/* What the library lists about itself (profiles, backends, typed keys,
 * warning kinds), each entry exercised, and warnings as structs. */
void run_catalog_tests(void);

/* Every case of siesta.json about choosing and merging configuration, in
 * `dir`, through pathconfig/rules.h (globs, patterns, C predicates, rules from
 * code merged deep, invalidation). */
void run_siesta_conformance(const char *dir);

/* pathconfig/rules.h on its own: the header's auth-token example, method
 * filters, what a configurer sees and may change. */
void run_rule_tests(void);

/* Callbacks of rules from code: failures (PATHCONFIG_E_CALLBACK, not
 * memoised), free_context exactly once, calls back into the library from a
 * callback, pathconfig_explain_request. */
void run_rule_callback_tests(void);

#endif
