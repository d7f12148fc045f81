/*
 * pathconfig/catalog.h -- what this library knows: profiles, backends,
 * typed keys.
 *
 * Part of libpathconfig's C API: include <pathconfig.h>, not this file. The
 * conventions stated there (handles, ownership, text, errors) hold here.
 */
#ifndef PATHCONFIG_CATALOG_H
#define PATHCONFIG_CATALOG_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------
 * What this library knows: profiles, backends, typed keys
 *
 * The names options_json accepts and the typed keys with their kinds, allowed
 * values and defaults, listed by the library itself, so that a host needs no
 * copy of its own (as sqlite3_compileoption_get lists compile options):
 *
 *     for (int key = 0; key < (int)pathconfig_typed_key_count(); key++)
 *         printf("%s %s\n", pathconfig_typed_key_name(key),
 *                pathconfig_typed_key_kind(key) == PATHCONFIG_TYPED_BOOL ? "bool" : "string");
 *
 * Every function here is a READER (pathconfig.h, "Returns"). An index runs
 * from 0 to the count minus one; one out of range is PATHCONFIG_E_ARGUMENT,
 * but for pathconfig_profile_release_count and _default_release, which
 * answer 0 for it and, like the counts, leave the last error alone.
 * A typed key is its PATHCONFIG_KEY_* constant (pathconfig/result.h), which
 * is its index here. A `profile` argument is a name pathconfig_profile_name
 * returns, optionally with "@VERSION" (the app's tables do not change with
 * its version); NULL or another name is PATHCONFIG_E_ARGUMENT. Every string
 * returned is static. The counts without arguments never fail and leave the
 * last error alone; pathconfig_typed_key_value_count fails as the readers do.
 * ------------------------------------------------------------------------- */

/** pathconfig_typed_key_kind: how a typed key is read. */
#define PATHCONFIG_TYPED_STRING 1  /**< Any string (pathconfig_result_typed_string); may have no value. */
#define PATHCONFIG_TYPED_BOOL   2  /**< A boolean (pathconfig_result_typed_bool). */
#define PATHCONFIG_TYPED_ENUM   3  /**< One of the allowed values (pathconfig_result_typed_string); always has one. */

/**
 * The number of profiles.
 * @return at least 1; profile 0 is the default.
 */
PATHCONFIG_API size_t pathconfig_profile_count(void);

/**
 * The i-th profile's name, as options_json's "profile" takes it, e.g.
 * "hotwire-ios".
 * @return static; NULL when i is out of range (PATHCONFIG_E_ARGUMENT).
 */
PATHCONFIG_API const char *pathconfig_profile_name(size_t i);

/**
 * The platform whose typed accessors and defaults the i-th profile uses:
 * "ios" or "android".
 * @return static; NULL when i is out of range (PATHCONFIG_E_ARGUMENT).
 */
PATHCONFIG_API const char *pathconfig_profile_platform(size_t i);

/**
 * (1.1.0) The number of release lines of the i-th profile's app: its
 * tagged releases grouped by how they read a configuration, oldest first,
 * its main branch last (docs/app-versions.md). A profile name may carry any
 * tag of a line, or "main", after "@": "hotwire-ios@1.2.2".
 * @return at least 1; 0 when i is out of range.
 */
PATHCONFIG_API size_t pathconfig_profile_release_count(size_t i);

/**
 * (1.1.0) The j-th release line of the i-th profile, named as options_json's
 * "profile" takes it: the app, "@" and the line's first tag
 * ("hotwire-ios@1.2.0"), or "@main" for the main branch.
 * @return static; NULL when i or j is out of range (PATHCONFIG_E_ARGUMENT).
 */
PATHCONFIG_API const char *pathconfig_profile_release_name(size_t i, size_t j);

/**
 * (1.1.0) Every tag of the j-th release line of the i-th profile, oldest
 * first, separated by single spaces ("1.2.0 1.2.1 1.2.2 1.3.0-beta"); ""
 * for the main branch.
 * @return static; NULL when i or j is out of range (PATHCONFIG_E_ARGUMENT).
 */
PATHCONFIG_API const char *pathconfig_profile_release_tags(size_t i, size_t j);

/**
 * (1.1.0) The upstream commit (abbreviated) that made the j-th release line
 * of the i-th profile read files as it does; for the main branch, the
 * commit it models.
 * @return static; NULL when i or j is out of range (PATHCONFIG_E_ARGUMENT).
 */
PATHCONFIG_API const char *pathconfig_profile_release_commit(size_t i, size_t j);

/**
 * (1.1.0) The release line the i-th profile's bare name reads as: the app's
 * latest stable release.
 * @return an index below pathconfig_profile_release_count(i); 0 when i is
 *         out of range.
 */
PATHCONFIG_API size_t pathconfig_profile_default_release(size_t i);

/**
 * The number of regex backends built into this library.
 * @return at least 1; backend 0 is the default.
 */
PATHCONFIG_API size_t pathconfig_backend_count(void);

/**
 * The i-th backend built into this library, as options_json's "backend"
 * takes it, e.g. "pcre2".
 * @return static; NULL when i is out of range (PATHCONFIG_E_ARGUMENT).
 */
PATHCONFIG_API const char *pathconfig_backend_name(size_t i);

/**
 * The number of typed keys (the table under "Typed values" in
 * pathconfig/result.h): the PATHCONFIG_KEY_* constants run from 0 to it
 * minus one.
 */
PATHCONFIG_API size_t pathconfig_typed_key_count(void);

/**
 * A typed key's name, e.g. "presentation" for PATHCONFIG_KEY_PRESENTATION.
 * @return static; NULL when key is out of range (PATHCONFIG_E_ARGUMENT).
 */
PATHCONFIG_API const char *pathconfig_typed_key_name(int key);

/**
 * How a typed key is read.
 * @return PATHCONFIG_TYPED_STRING, _BOOL or _ENUM (a newer library may add
 *         kinds); 0 when key is out of range (PATHCONFIG_E_ARGUMENT).
 */
PATHCONFIG_API int pathconfig_typed_key_kind(int key);

/**
 * The number of values a typed key allows under profile (an enum key's
 * values; 0 for the other kinds).
 * @return the count; 0 also on failure (PATHCONFIG_E_ARGUMENT).
 */
PATHCONFIG_API size_t pathconfig_typed_key_value_count(int key, const char *profile);

/**
 * The j-th value a typed key allows under profile, in lower case as the
 * typed readers return it, e.g. "modal".
 * @return static; NULL when key or j is out of range or profile unknown
 *         (PATHCONFIG_E_ARGUMENT).
 */
PATHCONFIG_API const char *pathconfig_typed_key_value(int key, const char *profile, size_t j);

/**
 * The value pathconfig_result_typed_string gives a string or enum key under
 * profile when the key is missing, mistyped or unknown.
 * @return static; NULL when the key has no default (last error cleared: code
 *         0), or on failure: PATHCONFIG_E_ARGUMENT (key out of range, profile
 *         unknown), _TYPE (a bool key).
 */
PATHCONFIG_API const char *pathconfig_typed_key_default_string(int key, const char *profile);

/**
 * The value pathconfig_result_typed_bool gives a bool key under profile when
 * the key is missing, mistyped or unknown.
 * @return 1 or 0; 0 on failure, with the last error set:
 *         PATHCONFIG_E_ARGUMENT (key out of range, profile unknown),
 *         PATHCONFIG_E_TYPE (a string or enum key).
 */
PATHCONFIG_API int pathconfig_typed_key_default_bool(int key, const char *profile);

#ifdef __cplusplus
}
#endif

#endif /* PATHCONFIG_CATALOG_H */
