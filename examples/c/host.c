/* A small host of libpathconfig: load a path configuration, resolve URLs,
 * read the answers, release everything.
 *
 *   host CONFIG.json URL-OR-PATH...
 *
 * Prints, for each URL, the typed context, presentation and pull-to-refresh
 * (as the profile's app reads them, defaults applied), the raw "title" when
 * the configuration sets one, and the merged properties as JSON. Build: make
 * (uses pkg-config --cflags --libs pathconfig). */
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
        /* NULL method: a GET. The result owns every string it hands out; one
         * release frees them all. */
        pathconfig_result *res = pathconfig_resolve(cfg, argv[i], NULL, &err);
        const char *title;
        if (res == NULL) {
            fprintf(stderr, "%s: error: %s\n", argv[i], err.message);
            status = 1;
            continue;
        }
        printf("context=%s presentation=%s pull_to_refresh=%d url=%s\n",
               pathconfig_result_typed_string(res, PATHCONFIG_KEY_CONTEXT),
               pathconfig_result_typed_string(res, PATHCONFIG_KEY_PRESENTATION),
               pathconfig_result_typed_bool(res, PATHCONFIG_KEY_PULL_TO_REFRESH_ENABLED), argv[i]);
        if (pathconfig_result_get_string(res, "title", &title, NULL) == PATHCONFIG_OK)
            printf("  title=%s\n", title);
        printf("  %s\n", pathconfig_result_json(res));
        pathconfig_result_release(res);
    }

    pathconfig_release(cfg);
    return status;
}
