/* The C ABI of request rules (pathconfig/rules.h): siesta.json's cases and
 * every function of the part, its callbacks and their failures.
 *
 *   test_rules CONFORMANCE_DIR
 *
 * Prints one closing line "N passed, M failed"; exits 1 when any check failed. */
#include "tests.h"

#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s CONFORMANCE_DIR\n", argv[0]);
        return 2;
    }
    run_rule_tests();
    run_rule_callback_tests();
    run_siesta_conformance(argv[1]);
    return test_summary();
}
