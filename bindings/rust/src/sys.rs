//! Raw declarations of `include/pathconfig.h`, one for one, with the C names.
//!
//! Everything here is `unsafe` to call and follows the header's rules (see the
//! header for each function's ownership and error contract). The safe API in
//! the rest of the crate is built on these; use them directly only to pass a
//! handle to other C code (see [`crate::Binding`]).
//!
//! `tests/sys_header.rs` reads the header and checks that every constant,
//! struct field and prototype here matches it, the way git2-rs's `systest`
//! does with ctest.
//!
//! The loader's declarations (`pathconfig_loader_*`) are wrapped by
//! [`crate::Loader`]; the request rules' (`pathconfig/rules.h`) by
//! [`crate::PathConfiguration::add_rule`] and friends.

#![allow(non_camel_case_types)]

use std::ffi::{c_char, c_double, c_int, c_void};
use std::marker::{PhantomData, PhantomPinned};

// ---------------------------------------------------------------------------
// Version
// ---------------------------------------------------------------------------

/// The version of the header these declarations mirror.
pub const PATHCONFIG_VERSION: &str = "1.1.0";
pub const PATHCONFIG_VERSION_MAJOR: c_int = 1;
pub const PATHCONFIG_VERSION_MINOR: c_int = 1;
pub const PATHCONFIG_VERSION_PATCH: c_int = 0;
/// MAJOR * 1000000 + MINOR * 1000 + PATCH; compare with `pathconfig_version_number()`.
pub const PATHCONFIG_VERSION_NUMBER: c_int = 1001000;

// ---------------------------------------------------------------------------
// Status codes
// ---------------------------------------------------------------------------

pub const PATHCONFIG_OK: c_int = 0;
pub const PATHCONFIG_E_JSON: c_int = 1;
pub const PATHCONFIG_E_SCHEMA: c_int = 2;
pub const PATHCONFIG_E_REGEX: c_int = 3;
pub const PATHCONFIG_E_OPTIONS: c_int = 4;
pub const PATHCONFIG_E_IO: c_int = 5;
pub const PATHCONFIG_E_LIMIT: c_int = 6;
pub const PATHCONFIG_E_BACKEND: c_int = 7;
pub const PATHCONFIG_E_ARGUMENT: c_int = 8;
pub const PATHCONFIG_E_NOMEM: c_int = 9;
pub const PATHCONFIG_E_INTERNAL: c_int = 10;
pub const PATHCONFIG_E_TYPE: c_int = 11;
pub const PATHCONFIG_E_DOWNLOAD: c_int = 12;
pub const PATHCONFIG_E_CACHE: c_int = 13;
pub const PATHCONFIG_E_MISUSE: c_int = 14;
pub const PATHCONFIG_E_CALLBACK: c_int = 15;
pub const PATHCONFIG_E_URL: c_int = 16;
/// (1.1.0) A typed read the profile's app crashes on (`pathconfig_result_typed_bool`,
/// `_typed_string`).
pub const PATHCONFIG_E_CRASH: c_int = 17;
/// (1.1.0) `pathconfig_loader_load`/`_refresh` in a child of `fork()` on a
/// loader made before the fork.
pub const PATHCONFIG_E_FORKED: c_int = 18;

/// A value getter's key is absent (not an error: the last error is cleared).
pub const PATHCONFIG_NOT_FOUND: c_int = 100;

// pathconfig_result_type: the JSON type of a value
pub const PATHCONFIG_TYPE_NULL: c_int = 1;
pub const PATHCONFIG_TYPE_BOOL: c_int = 2;
pub const PATHCONFIG_TYPE_INT: c_int = 3;
pub const PATHCONFIG_TYPE_DOUBLE: c_int = 4;
pub const PATHCONFIG_TYPE_STRING: c_int = 5;
pub const PATHCONFIG_TYPE_ARRAY: c_int = 6;
pub const PATHCONFIG_TYPE_OBJECT: c_int = 7;

// Typed keys: a key's PATHCONFIG_KEY_* constant is its index in the catalog
pub const PATHCONFIG_KEY_CONTEXT: c_int = 0;
pub const PATHCONFIG_KEY_PRESENTATION: c_int = 1;
pub const PATHCONFIG_KEY_MODAL_STYLE: c_int = 2;
pub const PATHCONFIG_KEY_PULL_TO_REFRESH_ENABLED: c_int = 3;
pub const PATHCONFIG_KEY_MODAL_DISMISS_GESTURE_ENABLED: c_int = 4;
pub const PATHCONFIG_KEY_VIEW_CONTROLLER: c_int = 5;
pub const PATHCONFIG_KEY_ANIMATED: c_int = 6;
pub const PATHCONFIG_KEY_QUERY_STRING_PRESENTATION: c_int = 7;
pub const PATHCONFIG_KEY_TITLE: c_int = 8;
pub const PATHCONFIG_KEY_URI: c_int = 9;
pub const PATHCONFIG_KEY_FALLBACK_URI: c_int = 10;
pub const PATHCONFIG_KEY_HISTORICAL_LOCATION: c_int = 11;

// ---------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------

/// `typedef struct pathconfig pathconfig;`: a loaded configuration, opaque.
///
/// An opaque, unconstructible, `!Send`/`!Sync`/`!Unpin` struct (the
/// Rustonomicon's pattern) rather than an empty enum: a reference to an empty
/// enum would claim a value of an uninhabited type exists.
#[repr(C)]
pub struct pathconfig {
    _data: [u8; 0],
    _marker: PhantomData<(*mut u8, PhantomPinned)>,
}

/// `typedef struct pathconfig_result pathconfig_result;`: the properties of one lookup, opaque.
#[repr(C)]
pub struct pathconfig_result {
    _data: [u8; 0],
    _marker: PhantomData<(*mut u8, PhantomPinned)>,
}

/// Why a call failed. Caller-allocated; filled on failure, cleared on success.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct pathconfig_error {
    /// 0 = ok, else a `PATHCONFIG_E_*` constant.
    pub code: c_int,
    /// 1-based line in the JSON document, 0 when not applicable.
    pub line: c_int,
    /// 1-based column (in Unicode scalars), 0 when not applicable.
    pub column: c_int,
    /// NUL-terminated UTF-8, without the position.
    pub message: [c_char; 512],
    /// 0-based index of the rule at fault, -1 when not applicable.
    pub rule_index: c_int,
    /// 0-based index of the pattern within that rule, -1 when not applicable.
    pub pattern_index: c_int,
    /// For `PATHCONFIG_E_IO`, the `errno` of the failed system call; 0 otherwise.
    pub os_error: c_int,
}

// The layout the header fixes (six ints around a 512-byte buffer, no padding
// on any ABI where int is 4 bytes), checked at compile time.
const _: () = {
    use std::mem::{align_of, offset_of, size_of};
    assert!(size_of::<c_int>() == 4);
    assert!(offset_of!(pathconfig_error, code) == 0);
    assert!(offset_of!(pathconfig_error, line) == 4);
    assert!(offset_of!(pathconfig_error, column) == 8);
    assert!(offset_of!(pathconfig_error, message) == 12);
    assert!(offset_of!(pathconfig_error, rule_index) == 524);
    assert!(offset_of!(pathconfig_error, pattern_index) == 528);
    assert!(offset_of!(pathconfig_error, os_error) == 532);
    assert!(size_of::<pathconfig_error>() == 536);
    assert!(align_of::<pathconfig_error>() == align_of::<c_int>());
};

// ---------------------------------------------------------------------------
// What the library knows; warnings as structs
// ---------------------------------------------------------------------------

// pathconfig_typed_key_kind
pub const PATHCONFIG_TYPED_STRING: c_int = 1;
pub const PATHCONFIG_TYPED_BOOL: c_int = 2;
pub const PATHCONFIG_TYPED_ENUM: c_int = 3;

// pathconfig_warning.kind
pub const PATHCONFIG_WARNING_DUPLICATE_KEY: c_int = 1;
pub const PATHCONFIG_WARNING_SKIPPED_PATTERN: c_int = 2;
pub const PATHCONFIG_WARNING_IGNORED_SETTINGS: c_int = 3;
pub const PATHCONFIG_WARNING_NOT_PORTABLE: c_int = 4;

/// The `version` of the warning struct this header describes.
pub const PATHCONFIG_WARNING_VERSION: c_int = 1;

/// One warning of a load, filled by `pathconfig_warning_get`; the caller sets
/// `version`. `message` is borrowed from the configuration.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct pathconfig_warning {
    pub version: c_int,
    pub kind: c_int,
    pub line: c_int,
    pub column: c_int,
    pub rule_index: c_int,
    pub pattern_index: c_int,
    pub message: *const c_char,
}

const _: () = {
    use std::mem::offset_of;
    assert!(offset_of!(pathconfig_warning, pattern_index) == 20);
    assert!(offset_of!(pathconfig_warning, message) == 24);
};

// ---------------------------------------------------------------------------
// Loader
// ---------------------------------------------------------------------------

/// `typedef struct pathconfig_loader pathconfig_loader;`: keeps a configuration current from several sources, opaque.
#[repr(C)]
pub struct pathconfig_loader {
    _data: [u8; 0],
    _marker: PhantomData<(*mut u8, PhantomPinned)>,
}

// pathconfig_loader_event.kind
pub const PATHCONFIG_EVENT_APPLIED: c_int = 1;
pub const PATHCONFIG_EVENT_SUPERSEDED: c_int = 2;
pub const PATHCONFIG_EVENT_NOT_MODIFIED: c_int = 3;
pub const PATHCONFIG_EVENT_FAILED: c_int = 4;
pub const PATHCONFIG_EVENT_WARNING: c_int = 5;

// pathconfig_loader_event.source_kind
pub const PATHCONFIG_SOURCE_DATA: c_int = 0;
pub const PATHCONFIG_SOURCE_FILE: c_int = 1;
pub const PATHCONFIG_SOURCE_CACHE: c_int = 2;
pub const PATHCONFIG_SOURCE_SERVER: c_int = 3;

// pathconfig_loader_event.reason when error->code is PATHCONFIG_E_DOWNLOAD
pub const PATHCONFIG_DOWNLOAD_UNAVAILABLE: c_int = 1;
pub const PATHCONFIG_DOWNLOAD_TRANSPORT: c_int = 2;
pub const PATHCONFIG_DOWNLOAD_TIMEOUT: c_int = 3;
pub const PATHCONFIG_DOWNLOAD_TOO_LARGE: c_int = 4;
pub const PATHCONFIG_DOWNLOAD_TRUNCATED: c_int = 5;
pub const PATHCONFIG_DOWNLOAD_HTTP_STATUS: c_int = 6;
pub const PATHCONFIG_DOWNLOAD_NOMEM: c_int = 7;

// pathconfig_loader_event.reason when error->code is PATHCONFIG_E_CACHE
pub const PATHCONFIG_CACHE_CORRUPT: c_int = 1;
pub const PATHCONFIG_CACHE_UNREADABLE: c_int = 2;
pub const PATHCONFIG_CACHE_UNWRITABLE: c_int = 3;

/// The `version` of the events this header describes.
pub const PATHCONFIG_LOADER_EVENT_VERSION: c_int = 1;

/// One step of a loader's chain, as its callback receives it; it and every
/// pointer in it are borrowed for the callback call only.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct pathconfig_loader_event {
    pub version: c_int,
    pub kind: c_int,
    pub source_kind: c_int,
    pub source_index: c_int,
    pub byte_count: i64,
    pub http_status: c_int,
    pub reason: c_int,
    pub location: *const c_char,
    pub url: *const c_char,
    pub error: *const pathconfig_error,
    pub configuration: *mut pathconfig,
    pub description: *const c_char,
}

#[cfg(target_pointer_width = "64")]
const _: () = {
    use std::mem::{offset_of, size_of};
    assert!(offset_of!(pathconfig_loader_event, byte_count) == 16);
    assert!(offset_of!(pathconfig_loader_event, http_status) == 24);
    assert!(offset_of!(pathconfig_loader_event, reason) == 28);
    assert!(offset_of!(pathconfig_loader_event, location) == 32);
    assert!(offset_of!(pathconfig_loader_event, description) == 64);
    assert!(size_of::<pathconfig_loader_event>() == 72);
};

/// `typedef void (*pathconfig_loader_callback)(const pathconfig_loader_event *event, void *payload);`
/// (`None` is NULL). A Rust callback must not unwind into C: catch panics in the trampoline.
pub type pathconfig_loader_callback =
    Option<unsafe extern "C" fn(event: *const pathconfig_loader_event, payload: *mut c_void)>;

/// `typedef void (*pathconfig_loader_payload_free)(void *payload);` (`None` is
/// NULL): frees a callback's payload once the library no longer uses it.
pub type pathconfig_loader_payload_free = Option<unsafe extern "C" fn(payload: *mut c_void)>;

// ---------------------------------------------------------------------------
// Request rules (pathconfig/rules.h)
// ---------------------------------------------------------------------------

/// `typedef struct pathconfig_request pathconfig_request;`: one lookup as a
/// rule's callback sees it, opaque, borrowed for the callback call only.
#[repr(C)]
pub struct pathconfig_request {
    _data: [u8; 0],
    _marker: PhantomData<(*mut u8, PhantomPinned)>,
}

/// `typedef int (*pathconfig_rule_fn)(void *context, pathconfig_request *request);`
/// (`None` is NULL): a host predicate (1 applies, 0 not) or configurer (0); a
/// negative value fails the lookup with `PATHCONFIG_E_CALLBACK`. A Rust
/// callback must not unwind into C: catch panics in the trampoline.
pub type pathconfig_rule_fn =
    Option<unsafe extern "C" fn(context: *mut c_void, request: *mut pathconfig_request) -> c_int>;

extern "C" {
    // -- Version and errors (pathconfig/common.h) -----------------------------
    pub fn pathconfig_version() -> *const c_char;
    pub fn pathconfig_version_number() -> c_int;
    pub fn pathconfig_last_error() -> *const pathconfig_error;
    pub fn pathconfig_error_name(code: c_int) -> *const c_char;
    pub fn pathconfig_string_free(s: *mut c_char);

    // -- Loading (pathconfig/config.h) ----------------------------------------
    pub fn pathconfig_load_json(
        json: *const c_char,
        len: usize,
        options_json: *const c_char,
        err: *mut pathconfig_error,
    ) -> *mut pathconfig;
    pub fn pathconfig_load_file(
        path: *const c_char,
        options_json: *const c_char,
        err: *mut pathconfig_error,
    ) -> *mut pathconfig;
    pub fn pathconfig_retain(cfg: *mut pathconfig) -> *mut pathconfig;
    pub fn pathconfig_release(cfg: *mut pathconfig);

    // -- Resolving and inspecting ---------------------------------------------
    pub fn pathconfig_resolve(
        cfg: *const pathconfig,
        url_or_path: *const c_char,
        method: *const c_char,
        err: *mut pathconfig_error,
    ) -> *mut pathconfig_result;
    pub fn pathconfig_explain(
        cfg: *const pathconfig,
        url_or_path: *const c_char,
        method: *const c_char,
        err: *mut pathconfig_error,
    ) -> *mut c_char;
    pub fn pathconfig_matched_string(
        cfg: *const pathconfig,
        url_or_path: *const c_char,
        err: *mut pathconfig_error,
    ) -> *mut c_char;
    pub fn pathconfig_settings(cfg: *const pathconfig) -> *const c_char;
    pub fn pathconfig_options(cfg: *const pathconfig) -> *const c_char;
    pub fn pathconfig_warning_count(cfg: *const pathconfig) -> usize;
    pub fn pathconfig_warning_get(cfg: *const pathconfig, i: usize, out: *mut pathconfig_warning) -> c_int;
    pub fn pathconfig_warning_kind_name(kind: c_int) -> *const c_char;
    pub fn pathconfig_rule_count(cfg: *const pathconfig) -> usize;
    pub fn pathconfig_document_rule_count(cfg: *const pathconfig) -> usize;

    // -- A result (pathconfig/result.h) ---------------------------------------
    pub fn pathconfig_result_release(res: *mut pathconfig_result);
    pub fn pathconfig_result_retain(res: *mut pathconfig_result) -> *mut pathconfig_result;
    pub fn pathconfig_result_id(res: *const pathconfig_result) -> u64;
    pub fn pathconfig_result_json(res: *const pathconfig_result) -> *const c_char;
    pub fn pathconfig_result_count(res: *const pathconfig_result) -> usize;
    pub fn pathconfig_result_key(res: *const pathconfig_result, i: usize) -> *const c_char;
    pub fn pathconfig_result_type(res: *const pathconfig_result, i: usize) -> c_int;
    pub fn pathconfig_result_get_string(
        res: *const pathconfig_result,
        key: *const c_char,
        out: *mut *const c_char,
        len: *mut usize,
    ) -> c_int;
    pub fn pathconfig_result_get_bool(res: *const pathconfig_result, key: *const c_char, out: *mut c_int) -> c_int;
    pub fn pathconfig_result_get_int64(res: *const pathconfig_result, key: *const c_char, out: *mut i64) -> c_int;
    pub fn pathconfig_result_get_double(res: *const pathconfig_result, key: *const c_char, out: *mut c_double)
        -> c_int;
    pub fn pathconfig_result_get_json(
        res: *const pathconfig_result,
        key: *const c_char,
        out: *mut *const c_char,
    ) -> c_int;
    pub fn pathconfig_result_typed_string(res: *const pathconfig_result, key: c_int) -> *const c_char;
    pub fn pathconfig_result_typed_bool(res: *const pathconfig_result, key: c_int) -> c_int;

    // -- What this library knows (pathconfig/catalog.h) -----------------------
    pub fn pathconfig_profile_count() -> usize;
    pub fn pathconfig_profile_name(i: usize) -> *const c_char;
    pub fn pathconfig_profile_platform(i: usize) -> *const c_char;
    /// (1.1.0)
    pub fn pathconfig_profile_release_count(i: usize) -> usize;
    /// (1.1.0)
    pub fn pathconfig_profile_release_name(i: usize, j: usize) -> *const c_char;
    /// (1.1.0)
    pub fn pathconfig_profile_release_tags(i: usize, j: usize) -> *const c_char;
    /// (1.1.0)
    pub fn pathconfig_profile_release_commit(i: usize, j: usize) -> *const c_char;
    /// (1.1.0)
    pub fn pathconfig_profile_default_release(i: usize) -> usize;
    pub fn pathconfig_backend_count() -> usize;
    pub fn pathconfig_backend_name(i: usize) -> *const c_char;
    pub fn pathconfig_typed_key_count() -> usize;
    pub fn pathconfig_typed_key_name(key: c_int) -> *const c_char;
    pub fn pathconfig_typed_key_kind(key: c_int) -> c_int;
    pub fn pathconfig_typed_key_value_count(key: c_int, profile: *const c_char) -> usize;
    pub fn pathconfig_typed_key_value(key: c_int, profile: *const c_char, j: usize) -> *const c_char;
    pub fn pathconfig_typed_key_default_string(key: c_int, profile: *const c_char) -> *const c_char;
    pub fn pathconfig_typed_key_default_bool(key: c_int, profile: *const c_char) -> c_int;

    // -- Loader (pathconfig/loader.h) -----------------------------------------
    pub fn pathconfig_loader_new(
        sources_json: *const c_char,
        options_json: *const c_char,
        err: *mut pathconfig_error,
    ) -> *mut pathconfig_loader;
    pub fn pathconfig_loader_set_callback(
        loader: *mut pathconfig_loader,
        cb: pathconfig_loader_callback,
        payload: *mut c_void,
        free_payload: pathconfig_loader_payload_free,
    ) -> c_int;
    pub fn pathconfig_loader_load(loader: *mut pathconfig_loader, err: *mut pathconfig_error) -> c_int;
    pub fn pathconfig_loader_refresh(loader: *mut pathconfig_loader, err: *mut pathconfig_error) -> c_int;
    pub fn pathconfig_loader_current(loader: *const pathconfig_loader) -> *mut pathconfig;
    pub fn pathconfig_loader_cache_file(loader: *const pathconfig_loader, url: *const c_char) -> *mut c_char;
    pub fn pathconfig_loader_free(loader: *mut pathconfig_loader);

    // -- Request rules (pathconfig/rules.h) -----------------------------------
    pub fn pathconfig_add_rule(
        cfg: *mut pathconfig,
        rule_json: *const c_char,
        predicate: pathconfig_rule_fn,
        configurer: pathconfig_rule_fn,
        context: *mut c_void,
        free_context: Option<unsafe extern "C" fn(context: *mut c_void)>,
        index: *mut usize,
        err: *mut pathconfig_error,
    ) -> c_int;
    pub fn pathconfig_invalidate(cfg: *mut pathconfig) -> c_int;
    pub fn pathconfig_request_url(request: *const pathconfig_request) -> *const c_char;
    pub fn pathconfig_request_method(request: *const pathconfig_request) -> *const c_char;
    pub fn pathconfig_request_properties(request: *const pathconfig_request) -> *const c_char;
    pub fn pathconfig_request_set_string(
        request: *mut pathconfig_request,
        key: *const c_char,
        value: *const c_char,
    ) -> c_int;
    pub fn pathconfig_request_set_int64(request: *mut pathconfig_request, key: *const c_char, value: i64) -> c_int;
    pub fn pathconfig_request_set_double(
        request: *mut pathconfig_request,
        key: *const c_char,
        value: c_double,
    ) -> c_int;
    pub fn pathconfig_request_set_bool(request: *mut pathconfig_request, key: *const c_char, value: c_int) -> c_int;
    pub fn pathconfig_request_set_header(
        request: *mut pathconfig_request,
        name: *const c_char,
        value: *const c_char,
    ) -> c_int;
    pub fn pathconfig_request_remove(request: *mut pathconfig_request, key: *const c_char) -> c_int;
    pub fn pathconfig_request_set_properties(request: *mut pathconfig_request, json_object: *const c_char) -> c_int;
    pub fn pathconfig_request_merge_properties(request: *mut pathconfig_request, json_patch: *const c_char) -> c_int;
    pub fn pathconfig_request_fail(request: *mut pathconfig_request, message: *const c_char) -> c_int;
}
