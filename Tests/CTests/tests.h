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

#endif
