/* The stack a call needs (pathconfig.h, "Stack"): documents at the nesting
 * limits, loaded, resolved, explained and read, and a rule as deep added,
 * under every release of every profile, each on a thread with the stack
 * the header asks of a caller's thread. A call that needs more overflows it;
 * each profile runs in a child process, so that the overflow fails its check
 * rather than the suite. */
#include "tests.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* What pathconfig.h asks of a thread that calls the library. Sanitizers
 * enlarge every frame (the library's too, under make test-sanitize): there
 * each document still runs, on more. */
#ifdef HARNESS_SANITIZED
enum { STACK = 8 * 512 * 1024 };
#else
enum { STACK = 512 * 1024 };
#endif

/* The JSON nesting limit (Limits.maxNestingDepth): a document nests at most
 * this deep. The root object, "rules", the rule and "properties" (or the
 * root and "settings") are four levels of it. */
enum { MAX_DEPTH = 256 };

struct job {
    const char *profile;
    const char *document;
    const char *rule;  /* added with pathconfig_add_rule, or NULL */
    int loaded;        /* out: the load succeeded */
    int failed;        /* out: a call after the load failed */
};

/* n copies of `unit`, then `middle`, then n of `close`: a new string. */
static char *nest(const char *head, const char *unit, int n, const char *middle, const char *close, const char *tail)
{
    size_t size = strlen(head) + (strlen(unit) + strlen(close)) * (size_t)n + strlen(middle) + strlen(tail) + 1;
    char *s = malloc(size), *p = s;
    if (s == NULL) return NULL;
    p += sprintf(p, "%s", head);
    for (int i = 0; i < n; i++) p += sprintf(p, "%s", unit);
    p += sprintf(p, "%s", middle);
    for (int i = 0; i < n; i++) p += sprintf(p, "%s", close);
    sprintf(p, "%s", tail);
    return s;
}

static void *run_job(void *arg)
{
    struct job *job = arg;
    pathconfig_error err;
    char options[160];
    snprintf(options, sizeof options, "{\"profile\": \"%s\", \"merge\": \"deep\"}", job->profile);
    pathconfig *cfg = pathconfig_load_json(job->document, strlen(job->document), options, &err);
    if (cfg == NULL) return NULL;
    job->loaded = 1;
    size_t index;
    if (job->rule != NULL && pathconfig_add_rule(cfg, job->rule, NULL, NULL, NULL, NULL, &index, &err) != PATHCONFIG_OK)
        job->failed = 1;
    pathconfig_result *res = pathconfig_resolve(cfg, "https://example.com/a", "GET", &err);
    char *explained = pathconfig_explain(cfg, "https://example.com/a", "GET", &err);
    if (res == NULL || explained == NULL) job->failed = 1;
    for (size_t i = 0; res != NULL && i < pathconfig_result_count(res); i++) {
        const char *json = NULL;
        if (pathconfig_result_get_json(res, pathconfig_result_key(res, i), &json) != PATHCONFIG_OK) job->failed = 1;
    }
    if (res != NULL && pathconfig_result_json(res) == NULL) job->failed = 1;
    pathconfig_string_free(explained);
    pathconfig_result_release(res);
    pathconfig_release(cfg);
    return NULL;
}

/* Runs the job on a thread with STACK bytes of stack; 0 when it could. */
static int run_on_small_stack(struct job *job)
{
    pthread_attr_t attributes;
    pthread_t thread;
    int rc = pthread_attr_init(&attributes);
    if (rc == 0) rc = pthread_attr_setstacksize(&attributes, STACK);
    if (rc == 0) rc = pthread_create(&thread, &attributes, run_job, job);
    if (rc == 0) rc = pthread_join(thread, NULL);
    pthread_attr_destroy(&attributes);
    return rc;
}

void run_stack_tests(void)
{
    /* Deepest first: at the limit, one past Gson's (255, hotwire-android
     * from 1.2 refuses it), and one past the library's (refused by all). */
    char *documents[12];
    int n = 0, at_limit = -1, below_limit = -1; /* the arrays MAX_DEPTH and MAX_DEPTH - 1 deep */
    for (int depth = MAX_DEPTH + 1; depth >= MAX_DEPTH - 1; depth--) {
        if (depth == MAX_DEPTH) at_limit = n;
        if (depth == MAX_DEPTH - 1) below_limit = n;
        documents[n++] = nest("{\"rules\": [{\"patterns\": [\".*\"], \"properties\": {\"x\": ", "[", depth - 4, "1", "]", "}}]}");
        documents[n++] = nest("{\"rules\": [{\"patterns\": [\".*\"], \"properties\": {\"x\": ", "{\"k\": ", depth - 4, "1", "}", "}}]}");
        documents[n++] = nest("{\"settings\": {\"x\": ", "{\"k\": ", depth - 2, "1", "}", "}, \"rules\": []}");
    }
    /* Patterns as deep as PCRE2 compiles (250 groups, the translation's
     * own among them): groups, repeated groups, lookaheads. */
    documents[n++] = nest("{\"rules\": [{\"patterns\": [\"", "(", 248, "/a", ")", "\"], \"properties\": {\"x\": 1}}]}");
    documents[n++] = nest("{\"rules\": [{\"patterns\": [\"", "(?:", 248, "/a", ")*", "\"], \"properties\": {\"x\": 1}}]}");
    documents[n++] = nest("{\"rules\": [{\"patterns\": [\"", "(?=", 248, "/a", ")", ".*\"], \"properties\": {\"x\": 1}}]}");
    /* A rule from code nested as deep as a file's may be, merged deep into the arrays at the limit. */
    char *rule = nest("{\"patterns\": [\".*\"], \"properties\": {\"x\": ", "{\"k\": ", MAX_DEPTH - 2, "1", "}", "}}");

    for (int i = 0; i < n; i++)
        if (!CHECK(documents[i] != NULL, "out of memory")) return;
    for (size_t p = 0; p < pathconfig_profile_count(); p++) {
        const char *app = pathconfig_profile_name(p);
        int gson_limit = 0; /* hotwire-android from 1.2 reads with Gson 2.12.1: at most 255 levels */
        for (size_t r = 0; r < pathconfig_profile_release_count(p); r++) {
            char profile[96];
            int status = 0;
            snprintf(profile, sizeof profile, "%s", pathconfig_profile_release_name(p, r));
            if (strcmp(profile, "hotwire-android@1.2.0") == 0) gson_limit = 1;
            test_set_context("stack: %s", profile);
            fflush(NULL);
            pid_t child = fork();
            if (child == 0) {
                /* The child reports through its exit status: bit 0, a call
                 * failed on a configuration that loaded; bit 1, the arrays
                 * MAX_DEPTH deep loaded; bit 2, those one level less. exit(), not _exit(): the
                 * library's exit-time destructor runs, so that a leak
                 * checker tracing the child sees the runtime's tables as
                 * reachable (Sources/CRuntimeHooks/runtime_roots.c). */
                for (int i = 0; i < n; i++) {
                    struct job job = {profile, documents[i], i == at_limit ? rule : NULL, 0, 0};
                    if (run_on_small_stack(&job) != 0) exit(100);
                    if (job.failed) status |= 1;
                    if (job.loaded && i == at_limit) status |= 2;
                    if (job.loaded && i == below_limit) status |= 4;
                }
                exit(status);
            }
            if (!CHECK(child > 0 && waitpid(child, &status, 0) == child, "fork")) continue;
            if (!CHECK(WIFEXITED(status) && WEXITSTATUS(status) < 8, "on a thread of %d KiB of stack: %s %d", STACK / 1024,
                       WIFSIGNALED(status) ? "killed by signal" : "exit status",
                       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status)))
                continue;
            status = WEXITSTATUS(status);
            CHECK(!(status & 1), "a lookup, explain or read failed on a configuration that loaded");
            /* That the depth was reached: the Android releases that keep
             * values as strings refuse arrays, and so load neither. */
            if (strstr(app, "android") == NULL)
                CHECK(status & 2, "the arrays %d levels deep did not load", MAX_DEPTH);
            if (gson_limit)
                CHECK((status & 6) == 4, "Gson's limit: %d levels deep loaded %s, %d levels %s", MAX_DEPTH, status & 2 ? "yes" : "no",
                      MAX_DEPTH - 1, status & 4 ? "yes" : "no");
        }
    }
    test_set_context("");
    for (int i = 0; i < n; i++) free(documents[i]);
    free(rule);
}
