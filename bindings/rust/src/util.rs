//! The glue between the safe types and `sys`: the [`Binding`] trait and the
//! string conversions every call needs.

use std::ffi::{c_char, CStr, CString};
use std::mem::MaybeUninit;
use std::ptr;

use crate::error::{Error, ErrorCode};
use crate::sys;

/// A safe type that owns one C handle (git2-rs's `Binding`).
///
/// For handing a handle to C code, or adopting one C code made. The safe API
/// never needs it.
pub trait Binding: Sized {
    /// The C pointer type.
    type Raw;

    /// Takes ownership of `raw`: the value releases it when dropped.
    ///
    /// # Safety
    ///
    /// `raw` must be a live handle of the right type that the caller owns
    /// (one reference, for a configuration) and does not use or free again
    /// except through the returned value.
    ///
    /// # Panics
    ///
    /// If `raw` is NULL.
    unsafe fn from_raw(raw: Self::Raw) -> Self;

    /// The handle, still owned by `self`: valid while `self` lives; never
    /// release or free it. (For a configuration, `pathconfig_retain` it to
    /// keep it longer.)
    fn raw(&self) -> Self::Raw;
}

/// `s` as a C string; an interior NUL is an [`ErrorCode::Argument`] error.
pub(crate) fn cstring(s: &str) -> Result<CString, Error> {
    Ok(CString::new(s)?)
}

/// Calls `f` with `s` as a NUL-terminated C string, copied into a buffer on
/// the stack when it is short (the keys of the getters: no allocation per
/// read), into a `CString` otherwise. An interior NUL is an
/// [`ErrorCode::Argument`] error.
pub(crate) fn with_cstr<R>(s: &str, f: impl FnOnce(*const c_char) -> R) -> Result<R, Error> {
    const STACK: usize = 128;
    let bytes = s.as_bytes();
    if bytes.len() < STACK {
        if bytes.contains(&0) {
            return Err(CString::new(s).unwrap_err().into());
        }
        // Not zeroed first: only the copied bytes and the NUL are read.
        let mut buf = [MaybeUninit::<u8>::uninit(); STACK];
        // SAFETY: `bytes.len() < STACK`, so the bytes and the NUL after them
        // fit in `buf`, which does not overlap `bytes`.
        unsafe {
            ptr::copy_nonoverlapping(bytes.as_ptr(), buf.as_mut_ptr().cast::<u8>(), bytes.len());
        }
        buf[bytes.len()].write(0);
        return Ok(f(buf.as_ptr().cast()));
    }
    let c = cstring(s)?;
    Ok(f(c.as_ptr()))
}

/// The text behind a pointer the library returned, as `&str` borrowed for
/// `'a`; `None` for NULL. Not UTF-8 (which the library never returns) is an
/// [`ErrorCode::Internal`] error.
///
/// # Safety
///
/// `p` is NULL or points to a NUL-terminated string that stays valid and
/// unchanged for `'a`.
pub(crate) unsafe fn borrowed_str<'a>(p: *const c_char, what: &str) -> Result<Option<&'a str>, Error> {
    if p.is_null() {
        return Ok(None);
    }
    // SAFETY: guaranteed by the caller (see above).
    let c = unsafe { CStr::from_ptr(p) };
    c.to_str()
        .map(Some)
        .map_err(|e| Error::new(ErrorCode::Internal, format!("{what} returned text that is not UTF-8: {e}")))
}

/// The `len` bytes at `p` as `&str` borrowed for `'a` (U+0000 included). Not
/// UTF-8 (which the library never returns) is an [`ErrorCode::Internal`] error.
///
/// # Safety
///
/// `p` points to `len` readable bytes that stay valid and unchanged for `'a`
/// (any pointer when `len` is 0).
pub(crate) unsafe fn borrowed_str_len<'a>(p: *const c_char, len: usize, what: &str) -> Result<&'a str, Error> {
    if len == 0 {
        return Ok("");
    }
    // SAFETY: guaranteed by the caller (see above); `len > 0` so `p` is not NULL.
    let bytes = unsafe { std::slice::from_raw_parts(p.cast::<u8>(), len) };
    std::str::from_utf8(bytes)
        .map_err(|e| Error::new(ErrorCode::Internal, format!("{what} returned text that is not UTF-8: {e}")))
}

/// Copies and frees a `char *` the library returned ("caller frees with
/// pathconfig_string_free"); NULL means the call failed, and the thread's last
/// error says why.
///
/// # Safety
///
/// `p` is NULL or a string returned by a libpathconfig function documented as
/// "caller frees with pathconfig_string_free", not freed yet; it is freed here.
/// Nothing may call into the library on this thread between that function and
/// this one (the last error would be overwritten).
pub(crate) unsafe fn take_string(p: *mut c_char, what: &str) -> Result<String, Error> {
    if p.is_null() {
        return Err(Error::last());
    }
    /// Frees the string even if copying it fails.
    struct Owned(*mut c_char);
    impl Drop for Owned {
        fn drop(&mut self) {
            // SAFETY: self.0 came from the library, which allocated it with
            // malloc, and is freed exactly once, here.
            unsafe { sys::pathconfig_string_free(self.0) }
        }
    }
    let owned = Owned(p);
    // SAFETY: owned.0 is non-NULL and NUL-terminated (see the contract) and is
    // freed only when `owned` drops, after this copy.
    let text = unsafe { borrowed_str(owned.0, what) }?;
    Ok(text.unwrap_or_default().to_owned())
}
