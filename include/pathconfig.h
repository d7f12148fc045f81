/*
 * pathconfig.h -- the C API of libpathconfig.
 *
 * libpathconfig maps URLs to path properties the way Turbo and Hotwire Native
 * apps read a path configuration: load the JSON once, then ask for the
 * properties of each URL the app visits.
 *
 *     pathconfig_error err;
 *     pathconfig *cfg = pathconfig_load_file("path-configuration.json",
 *                                            "{\"profile\":\"hotwire-ios\"}", &err);
 *     if (cfg == NULL) {
 *         fprintf(stderr, "%d:%d: %s\n", err.line, err.column, err.message);
 *         return 1;
 *     }
 *     pathconfig_result *res = pathconfig_resolve(cfg, "https://example.com/messages/new",
 *                                                 NULL, &err);
 *     if (res != NULL) {
 *         printf("context=%s modal=%d json=%s\n",
 *                pathconfig_result_typed_string(res, PATHCONFIG_KEY_CONTEXT),
 *                pathconfig_result_typed_bool(res, PATHCONFIG_KEY_MODAL_DISMISS_GESTURE_ENABLED),
 *                pathconfig_result_json(res));
 *         pathconfig_result_release(res);
 *     }
 *     pathconfig_release(cfg);
 *
 * Build with `pkg-config --cflags --libs pathconfig`.
 *
 * CONVENTIONS (they hold for every function below)
 *
 *   Handles.   `pathconfig` (a loaded configuration) and `pathconfig_result`
 *   (the properties of one lookup) are opaque. A configuration is immutable:
 *   any number of threads may use one handle at once, and retain/release are
 *   atomic. A result is immutable too and may be read from several threads.
 *   A `pathconfig_loader` keeps a configuration current from several sources
 *   (see "Loader" below); it is thread-safe too.
 *
 *   Ownership.  One pair of verbs per kind of handle: a reference-counted
 *   handle (pathconfig, pathconfig_result) has _retain and _release; an
 *   owned one (pathconfig_loader) has _new and _free. Every pointer is
 *   marked in its function's documentation:
 *     - "caller frees with X": the caller owns it and must pass it to X once.
 *     - "borrowed from Y": owned by Y; valid while the caller holds Y (a
 *       reference, for a counted handle); never free it.
 *     - "static": valid for the life of the process; never free it.
 *   Strings returned as `char *` are allocated with malloc(3) and are freed
 *   with pathconfig_string_free() (which is free(3)). Text the library works
 *   out once per object (a result's JSON, keys and values, a configuration's
 *   settings and options) is borrowed from the object instead.
 *
 *   Returns.  One convention per kind of call:
 *     - A CONSTRUCTOR returns the new handle, or NULL on failure.
 *     - A call that does something (an action, a setter, a value getter with
 *       an out parameter) returns a status: PATHCONFIG_OK (0) on success, a
 *       PATHCONFIG_E_* code (> 0) on failure, and, from a value getter only,
 *       PATHCONFIG_NOT_FOUND for an absent key. `if (rc != PATHCONFIG_OK)`
 *       reads every non-answer.
 *     - A READER (a count, a name, a typed value, a borrowed text) returns
 *       the value itself, and 0 or NULL on failure, with the last error set;
 *       where 0 or NULL is also a value, pathconfig_last_error()->code tells
 *       them apart (0: it was the value). A reader never returns a negative
 *       number or a code that could pass for a value.
 *     - A call that allocates text returns a `char *`, NULL on failure.
 *     - A DESTRUCTOR returns nothing and accepts NULL.
 *   No function asks the caller to cast a pointer or to compare pointers.
 *
 *   Text.  Every string in and out is NUL-terminated UTF-8. An argument that is
 *   not valid UTF-8 is rejected with PATHCONFIG_E_ARGUMENT (it is never
 *   silently repaired). JSON text out is compact (no spaces), keeps the key
 *   order of the document and the literal text of numbers.
 *
 *   Errors.  No function crashes on a NULL handle or string argument: NULL is
 *   reported as PATHCONFIG_E_ARGUMENT. The calls that read input (loading,
 *   resolving, explaining, adding a rule, the loader's chain) take a
 *   `pathconfig_error *err`: they fill it when they fail and clear it (code 0)
 *   when they succeed; `err` may be NULL. Every function that can fail also
 *   records its outcome in a thread-local error read with
 *   pathconfig_last_error(), so functions without an `err` parameter can be
 *   diagnosed. Destructors (pathconfig_release, pathconfig_result_release,
 *   pathconfig_string_free, pathconfig_loader_free) accept NULL and never
 *   touch the last error.
 *
 *   Out of memory.  Where the library itself allocates (C strings), failure
 *   is reported as PATHCONFIG_E_NOMEM. Memory exhaustion inside the Swift
 *   runtime cannot be reported and aborts the process, as in most runtimes.
 *
 *   Stack.  A call recurses as deep as its input nests (JSON at most 256
 *   levels, a pattern's groups at most 250) and needs up to about 340 KiB of
 *   stack at those limits, under the Android profiles (their Gson reader;
 *   the others under 100 KiB). Call from threads of 512 KiB or more: glibc's
 *   default (8 MiB, or `ulimit -s`), Rust's (2 MiB) and the JVM's (1 MiB)
 *   are; musl's (128 KiB) is not (pthread_attr_setstacksize). The loader's
 *   polling thread takes 1 MiB where the default is less.
 *
 *   Linking.  libpathconfig.so carries its own copy of the Swift runtime
 *   (hidden: only pathconfig_* symbols are exported), so hosts need no Swift
 *   installation. Once loaded it stays loaded: dlclose(3) does not unmap it.
 *
 *   fork().  A child of fork(2) may go on using the configurations and
 *   results made before it, from any number of its threads, provided no
 *   other thread was inside a call at that moment: a lock held then stays
 *   held in the child, as with any library that takes locks. A loader's
 *   polling thread is such a thread only between the end of its download
 *   and its next wait. A loader itself belongs to the process that made it
 *   (see "fork()" in pathconfig/loader.h).
 *
 * PARTS (included below, in this order, as libgit2's git2.h includes the
 * headers of git2/; include this file, not them)
 *
 *   pathconfig/common.h   version macros and the ABI promise (what stays
 *                         stable within a major version), PATHCONFIG_API,
 *                         status codes, the handle and error types, version
 *                         and error functions, pathconfig_string_free
 *   pathconfig/config.h   loading a configuration, resolving, inspecting it
 *   pathconfig/result.h   a result's JSON, keys, raw values and typed values
 *   pathconfig/catalog.h  what this library knows: profiles, backends, typed
 *                         keys
 *   pathconfig/loader.h   the loader: sources, cache, live updates, callbacks
 *   pathconfig/rules.h    request lookups: HTTP methods, rules added from
 *                         code (predicates, configurers), invalidation
 */
#ifndef PATHCONFIG_H
#define PATHCONFIG_H

#include "pathconfig/common.h"
#include "pathconfig/config.h"
#include "pathconfig/result.h"
#include "pathconfig/catalog.h"
#include "pathconfig/loader.h"
#include "pathconfig/rules.h"

#endif /* PATHCONFIG_H */
