/* The C ABI test: conformance cases, every error path, getters, ownership,
 * every read path against the JSON text, the stack a call needs.
 *
 *   test_capi CONFORMANCE_DIR SCRATCH_DIR
 *
 * Prints one closing line "N passed, M failed"; exits 1 when any check failed. */
#include "tests.h"

#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s CONFORMANCE_DIR SCRATCH_DIR\n", argv[0]);
        return 2;
    }
    run_api_tests(argv[2]);
    run_catalog_tests();
    run_version_tests();
    run_stack_tests();
    run_conformance(argv[1]);
    run_differential_tests(argv[1]);
    return test_summary();
}
