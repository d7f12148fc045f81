/*
 * pathconfig/common.h -- what every part needs: the version macros and
 * the ABI promise, PATHCONFIG_API, the status codes, the handle and error
 * types, the version and error functions, and pathconfig_string_free.
 *
 * Part of libpathconfig's C API: include <pathconfig.h>, not this file. The
 * conventions stated there (handles, ownership, text, errors) hold here.
 */
#ifndef PATHCONFIG_COMMON_H
#define PATHCONFIG_COMMON_H

#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------------------------------------
 * Version and ABI stability
 *
 * PATHCONFIG_VERSION is the one version of a release: the library's
 * pathconfig_version(), the pathconfig command, pathconfig.pc, the Python
 * package and the Rust crate all carry it (`make check-version`).
 *
 * The promise: a program built against this header runs, without being
 * rebuilt, with any later library of the same MAJOR, which is also the
 * number of the SONAME (libpathconfig.so.MAJOR) it links against. Within a
 * MAJOR, functions are never removed and never change their prototype;
 * pathconfig_error, which the caller allocates, never changes size or
 * layout; the versioned structs (pathconfig_warning,
 * pathconfig_loader_event) only grow at their end, and their `version` says
 * which fields are there; status codes, warning kinds and other numbered
 * constants keep their numbers and are only appended; every exported symbol
 * carries the version node PATHCONFIG_1. A MINOR release may add functions, constants and fields (so
 * a program that uses them needs at least that MINOR: compare
 * pathconfig_version_number() with PATHCONFIG_VERSION_NUMBER); a PATCH
 * release changes no declaration. Anything else takes a new MAJOR, and with
 * it a new SONAME, so that programs built against the old one keep loading
 * the old library. `make abi-check` holds the library to this with
 * libabigail against the ABI recorded in packaging/libpathconfig.abi.
 * What the functions return (the text of messages, the JSON's layout beyond
 * what the documentation states) is not part of the ABI.
 * ------------------------------------------------------------------------- */

/** The version of this header, "MAJOR.MINOR.PATCH". */
#define PATHCONFIG_VERSION "1.1.0"
#define PATHCONFIG_VERSION_MAJOR 1
#define PATHCONFIG_VERSION_MINOR 1
#define PATHCONFIG_VERSION_PATCH 0
/** MAJOR * 1000000 + MINOR * 1000 + PATCH; compare with pathconfig_version_number(). */
#define PATHCONFIG_VERSION_NUMBER 1001000

/* ---------------------------------------------------------------------------
 * Linkage
 * ------------------------------------------------------------------------- */

#if defined(__GNUC__) && __GNUC__ >= 4
#  define PATHCONFIG_API extern __attribute__((visibility("default")))
#else
#  define PATHCONFIG_API extern
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------
 * Status codes
 *
 * `pathconfig_error.code` holds one of these, and every function that
 * returns a status (an `int` documented as "a status") returns one:
 * PATHCONFIG_OK, or a PATHCONFIG_E_* code (always positive), or, from a
 * value getter only, PATHCONFIG_NOT_FOUND. The numbers are stable; new codes
 * are only appended. Codes 1 to 7 are load failures, 8 to 11 failures of any
 * call, 12 to 14 the loader's (its events and pathconfig_loader_load/_refresh
 * also report codes 1 to 7 for a source that does not load), 15 a lookup
 * whose rule from code failed (see pathconfig/rules.h), 16 a lookup of a URL
 * the profile's app crashes on, 17 a typed read the app crashes on and 18 a
 * loader used in a child of fork() (both since 1.1.0).
 * ------------------------------------------------------------------------- */

#define PATHCONFIG_OK          0  /**< Success. */
#define PATHCONFIG_E_JSON      1  /**< The document is not JSON (or not UTF-8); line/column say where. */
#define PATHCONFIG_E_SCHEMA    2  /**< JSON, but not a path configuration (missing or mistyped key); line/column, and rule_index/pattern_index when a rule is at fault. */
#define PATHCONFIG_E_REGEX     3  /**< A pattern the regex engine rejects; rule_index, pattern_index, line/column of the pattern string; the message gives the offset in the pattern. Also a pattern the app accepts that the pcre2 backend cannot match exactly (a construct the dialect table of docs/format-and-profiles.md lists as refused): the message then starts "unsupported regular expression" rather than "invalid", and says what to do; with lenient loading it is skipped, which the app does not do. */
#define PATHCONFIG_E_OPTIONS   4  /**< options_json is malformed, has an unknown key or a bad value (e.g. an unknown profile). */
#define PATHCONFIG_E_IO        5  /**< The file could not be opened or read; os_error holds errno. */
#define PATHCONFIG_E_LIMIT     6  /**< The input exceeds a limit: document size, nesting depth, rule or pattern counts, pattern length, a lookup's URL length. */
#define PATHCONFIG_E_BACKEND   7  /**< The requested regex backend is not built into this library ("foundation" never is). */
#define PATHCONFIG_E_ARGUMENT  8  /**< A NULL, non-UTF-8 or out-of-range argument, an unknown typed key (PATHCONFIG_KEY_*), or a value a setter cannot store (a non-finite double). */
#define PATHCONFIG_E_NOMEM     9  /**< The library could not allocate a string it returns. */
#define PATHCONFIG_E_INTERNAL 10  /**< A bug in libpathconfig; please report it. */
#define PATHCONFIG_E_TYPE     11  /**< A value getter found the key with another JSON type (or a typed reader of the other kind was used). */
#define PATHCONFIG_E_DOWNLOAD 12  /**< A download brought no usable response: libcurl missing, connection, timeout, a status other than 200/304, a body too large or cut short; the loader event's `reason` and `http_status` say which. */
#define PATHCONFIG_E_CACHE    13  /**< A cache file was ignored (corrupt, unreadable) or could not be written; a warning, never fatal. */
#define PATHCONFIG_E_MISUSE   14  /**< A call the object's state forbids: pathconfig_loader_load/_refresh from inside that loader's own callback, or while it runs on another thread (refused before doing or starting anything); a setter of pathconfig_request called from a predicate. */
#define PATHCONFIG_E_CALLBACK 15  /**< A host predicate or configurer of a rule added with pathconfig_add_rule reported failure; rule_index names the rule, the message says what the callback said (pathconfig_request_fail). */
#define PATHCONFIG_E_URL      16  /**< The profile's app crashes on this URL rather than match it, so there is no answer: turbo-android, and hotwire-android before 1.3.1, on a URL java.net.URL rejects (an unknown scheme such as mailto:, a port that is not a number, a bad IPv6 literal), either Android profile on a jar: URL read with a null path; the message says why. */
#define PATHCONFIG_E_CRASH    17  /**< (1.1.0) The profile's app throws where it reads this typed key, so there is no value: hotwire-android 1.2 and later read a boolean key with `as Boolean`, which throws ClassCastException for a string ("true" included) or a number; turbo-android reads a missing "uri" with Uri.parse(null), a NullPointerException. The message names the exception. */
#define PATHCONFIG_E_FORKED   18  /**< (1.1.0) pathconfig_loader_load/_refresh in a child of fork() on a loader made before the fork (refused before doing anything): its polling thread, and a download in progress with the locks it held, stayed in the parent. Unlike PATHCONFIG_E_MISUSE's refusal while the callback runs, calling again never helps: create a loader in the child (pathconfig_loader_current and _free still work on the inherited one). */

/** A value getter's key is absent. Not an error: the last error is cleared.
 *  (Outside the range of error codes, so that `rc != PATHCONFIG_OK` is
 *  "no value", and pathconfig_error.code never holds it.) */
#define PATHCONFIG_NOT_FOUND 100

/* ---------------------------------------------------------------------------
 * Types
 * ------------------------------------------------------------------------- */

/**
 * A loaded configuration: thread-safe, reference-counted; immutable but for
 * the rules a host adds from code and its memoised results (pathconfig/rules.h).
 * CONSTRUCTORS pathconfig_load_json, pathconfig_load_file, pathconfig_retain;
 * DESTRUCTOR pathconfig_release.
 */
typedef struct pathconfig pathconfig;

/**
 * The merged properties of one URL: immutable, reference-counted,
 * independent of the configuration it came from (it may outlive
 * pathconfig_release of it). Everything read from it (JSON text, keys,
 * values, typed values) is worked out once per distinct answer and shared by
 * every result of that answer, so reading costs no allocation; what is read
 * is borrowed from the result. pathconfig_result_id names the answer, for a
 * host that keeps what it derives from one.
 * CONSTRUCTORS pathconfig_resolve, pathconfig_result_retain;
 * DESTRUCTOR pathconfig_result_release.
 */
typedef struct pathconfig_result pathconfig_result;

/**
 * Why a call failed. Caller-allocated (e.g. on the stack); the library fills
 * it on failure and clears it (code 0, message "", positions 0, indices -1,
 * os_error 0) on success. Nothing in it needs freeing. The caller
 * allocates it, so its size and layout are fixed for a MAJOR version (see
 * "Version and ABI stability"): a new field needs a new MAJOR.
 */
typedef struct pathconfig_error {
    int  code;           /**< 0 = ok, else a PATHCONFIG_E_* constant. */
    int  line, column;   /**< 1-based position in the JSON document (column in Unicode scalars), 0 when not applicable. */
    char message[512];   /**< NUL-terminated UTF-8, human readable; does not repeat line and column (print "LINE:COLUMN: MESSAGE" when line > 0). Cut at a character boundary if longer. */
    int  rule_index;     /**< 0-based index of the rule at fault, -1 when not applicable. */
    int  pattern_index;  /**< 0-based index of the pattern within that rule, -1 when not applicable. */
    int  os_error;       /**< For PATHCONFIG_E_IO, the errno(3) value of the failed system call (ENOENT, EACCES, EISDIR, ...), to classify the failure without reading the message; 0 otherwise. */
} pathconfig_error;

/* ---------------------------------------------------------------------------
 * Version and errors
 * ------------------------------------------------------------------------- */

/**
 * The library's version string, "MAJOR.MINOR.PATCH" as PATHCONFIG_VERSION
 * spells it.
 * @return static; never NULL. Compare with PATHCONFIG_VERSION to detect a
 *         header/library mismatch.
 */
PATHCONFIG_API const char *pathconfig_version(void);

/**
 * The library's version as MAJOR * 1000000 + MINOR * 1000 + PATCH.
 * @return the number PATHCONFIG_VERSION_NUMBER had when the library was built.
 */
PATHCONFIG_API int pathconfig_version_number(void);

/**
 * The outcome of the calling thread's last call that can fail.
 * Every such call sets it (on failure) or clears it to code 0 (on success),
 * so read it right after the call you want to diagnose: it is how a reader
 * that returned 0 or NULL tells "no value" from a failure.
 * @return borrowed from the calling thread: valid until the thread's next
 *         pathconfig_* call or its exit. Never NULL.
 */
PATHCONFIG_API const pathconfig_error *pathconfig_last_error(void);

/**
 * The name of a status, e.g. "PATHCONFIG_E_JSON" for 1, "PATHCONFIG_OK" for 0,
 * "PATHCONFIG_NOT_FOUND" for PATHCONFIG_NOT_FOUND.
 * @param code a status a function returned, or pathconfig_error.code.
 * @return static; never NULL; "PATHCONFIG_E_UNKNOWN" for a code this library
 *         does not know.
 */
PATHCONFIG_API const char *pathconfig_error_name(int code);

/* ---------------------------------------------------------------------------
 * Strings the library allocates
 * ------------------------------------------------------------------------- */

/**
 * DESTRUCTOR. Frees a string returned as `char *` by this library
 * (pathconfig_explain, pathconfig_matched_string,
 * pathconfig_loader_cache_file). It is free(3); NULL is a no-op. Never pass
 * a borrowed `const char *`.
 */
PATHCONFIG_API void pathconfig_string_free(char *s);

#ifdef __cplusplus
}
#endif

#endif /* PATHCONFIG_COMMON_H */
