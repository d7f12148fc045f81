/* A small host of libpathconfig: load a path configuration, resolve URLs.
 *
 *   host CONFIG.json URL-OR-PATH...
 *
 * Prints, for each URL, the typed context and presentation and the merged
 * properties as JSON. Build: make (uses pkg-config --cflags --libs pathconfig). */
#include <pathconfig.h>

#include <stdio.h>

int main(int argc, char **argv)
{
    pathconfig_error err;
    pathconfig *cfg;
    int i, status = 0;

    if (argc < 2) {
        fprintf(stderr, "usage: %s CONFIG.json URL-OR-PATH...\n", argv[0]);
        return 2;
    }

    /* NULL options: the hotwire-ios profile; pass e.g. "{\"profile\":\"turbo-android\"}" for another app. */
    cfg = pathconfig_load_file(argv[1], NULL, &err);
    if (cfg == NULL) {
        if (err.line > 0)
            fprintf(stderr, "%s:%d:%d: error: %s\n", argv[1], err.line, err.column, err.message);
        else
            fprintf(stderr, "%s: error: %s\n", argv[1], err.message);
        return 1;
    }

    for (i = 2; i < argc; i++) {
        /* The result owns every string it hands out; one free releases them all. */
        pathconfig_result *res = pathconfig_resolve(cfg, argv[i], &err);
        if (res == NULL) {
            fprintf(stderr, "%s: error: %s\n", argv[i], err.message);
            status = 1;
            continue;
        }
        printf("context=%s presentation=%s url=%s\n", pathconfig_result_context(res),
               pathconfig_result_presentation(res), argv[i]);
        printf("  %s\n", pathconfig_result_json(res));
        pathconfig_result_free(res);
    }

    pathconfig_release(cfg);
    return status;
}
