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
//! The loader API (issue 4) is not in the header yet; its declarations will be
//! appended at the end of the `extern` block.

#![allow(non_camel_case_types)]

use std::ffi::{c_char, c_double, c_int};
use std::marker::{PhantomData, PhantomPinned};

// ---------------------------------------------------------------------------
// Version
// ---------------------------------------------------------------------------

/// The version of the header these declarations mirror.
pub const PATHCONFIG_VERSION: &str = "0.1.0";
pub const PATHCONFIG_VERSION_MAJOR: c_int = 0;
pub const PATHCONFIG_VERSION_MINOR: c_int = 1;
pub const PATHCONFIG_VERSION_PATCH: c_int = 0;
/// MAJOR * 1000000 + MINOR * 1000 + PATCH; compare with `pathconfig_version_number()`.
pub const PATHCONFIG_VERSION_NUMBER: c_int = 1000;

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

/// A value getter found the key (the out value is written).
pub const PATHCONFIG_FOUND: c_int = 1;
/// A value getter did not find the key (not an error).
pub const PATHCONFIG_NOT_FOUND: c_int = 0;

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
}

// The layout the header fixes (five ints around a 512-byte buffer, no padding
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
    assert!(size_of::<pathconfig_error>() == 532);
    assert!(align_of::<pathconfig_error>() == align_of::<c_int>());
};

extern "C" {
    // -- Version and errors -------------------------------------------------
    pub fn pathconfig_version() -> *const c_char;
    pub fn pathconfig_version_number() -> c_int;
    pub fn pathconfig_last_error() -> *const pathconfig_error;
    pub fn pathconfig_error_name(code: c_int) -> *const c_char;

    // -- Loading --------------------------------------------------------------
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

    // -- Resolving ------------------------------------------------------------
    pub fn pathconfig_properties(cfg: *const pathconfig, url_or_path: *const c_char) -> *mut c_char;
    pub fn pathconfig_resolve(
        cfg: *const pathconfig,
        url_or_path: *const c_char,
        err: *mut pathconfig_error,
    ) -> *mut pathconfig_result;
    pub fn pathconfig_result_free(res: *mut pathconfig_result);
    pub fn pathconfig_result_json(res: *const pathconfig_result) -> *const c_char;
    pub fn pathconfig_result_count(res: *const pathconfig_result) -> usize;
    pub fn pathconfig_result_key(res: *const pathconfig_result, i: usize) -> *const c_char;

    // -- Raw values of a result -----------------------------------------------
    pub fn pathconfig_result_get_string(
        res: *const pathconfig_result,
        key: *const c_char,
        out: *mut *const c_char,
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

    // -- Typed accessors of a result ------------------------------------------
    pub fn pathconfig_result_typed_string(res: *const pathconfig_result, key: *const c_char) -> *const c_char;
    pub fn pathconfig_result_typed_bool(res: *const pathconfig_result, key: *const c_char) -> c_int;
    pub fn pathconfig_result_context(res: *const pathconfig_result) -> *const c_char;
    pub fn pathconfig_result_presentation(res: *const pathconfig_result) -> *const c_char;
    pub fn pathconfig_result_modal_style(res: *const pathconfig_result) -> *const c_char;
    pub fn pathconfig_result_query_string_presentation(res: *const pathconfig_result) -> *const c_char;
    pub fn pathconfig_result_view_controller(res: *const pathconfig_result) -> *const c_char;
    pub fn pathconfig_result_title(res: *const pathconfig_result) -> *const c_char;
    pub fn pathconfig_result_uri(res: *const pathconfig_result) -> *const c_char;
    pub fn pathconfig_result_fallback_uri(res: *const pathconfig_result) -> *const c_char;
    pub fn pathconfig_result_pull_to_refresh_enabled(res: *const pathconfig_result) -> c_int;
    pub fn pathconfig_result_modal_dismiss_gesture_enabled(res: *const pathconfig_result) -> c_int;
    pub fn pathconfig_result_animated(res: *const pathconfig_result) -> c_int;
    pub fn pathconfig_result_historical_location(res: *const pathconfig_result) -> c_int;

    // -- Inspecting a configuration -------------------------------------------
    pub fn pathconfig_explain(cfg: *const pathconfig, url_or_path: *const c_char) -> *mut c_char;
    pub fn pathconfig_matched_string(cfg: *const pathconfig, url_or_path: *const c_char) -> *mut c_char;
    pub fn pathconfig_settings(cfg: *const pathconfig) -> *mut c_char;
    pub fn pathconfig_warnings(cfg: *const pathconfig) -> *mut c_char;
    pub fn pathconfig_rule_count(cfg: *const pathconfig) -> usize;
    pub fn pathconfig_document_rule_count(cfg: *const pathconfig) -> usize;
    pub fn pathconfig_profile(cfg: *const pathconfig) -> *const c_char;
    pub fn pathconfig_free_string(s: *mut c_char);

    // -- Loader (issue 4): declarations go here once the header has them. ----
}
