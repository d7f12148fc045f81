//! Panics and the C boundary: what every `extern "C"` trampoline of this
//! crate uses so that no panic unwinds into the library (git2-rs's
//! `panic.rs`). The loader's closure (`callback.rs`) keeps a caught panic to
//! resume it later; a rule's closures (`rule.rs`) report it as the lookup's
//! failure.

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};

/// A panic caught in a closure called from C.
pub(crate) type PanicPayload = Box<dyn Any + Send>;

/// Runs `f`, catching a panic instead of letting it unwind (into C).
///
/// The closures run here are the host's, called on its behalf; a panic is
/// either resumed on the host's thread or reported as an error, so
/// `AssertUnwindSafe` does not hide broken state from anyone who could see it.
pub(crate) fn catch<R>(f: impl FnOnce() -> R) -> Result<R, PanicPayload> {
    panic::catch_unwind(AssertUnwindSafe(f))
}

/// Drops `value` (a boxed closure whose captures the library no longer
/// needs); a panic in its `Drop` is caught and returned.
pub(crate) fn drop_caught<T>(value: T) -> Result<(), PanicPayload> {
    catch(move || drop(value))
}

/// Drops a panic payload that nobody will resume. Its own `Drop` may panic
/// too: that payload is leaked rather than unwound (into C).
pub(crate) fn discard(payload: PanicPayload) {
    if let Err(again) = drop_caught(payload) {
        std::mem::forget(again);
    }
}

/// The message of a panic (`panic!("...")`'s text), or a generic one for a
/// payload that is not a string (`std::panic::panic_any`).
pub(crate) fn message(payload: &PanicPayload) -> &str {
    if let Some(s) = payload.downcast_ref::<&'static str>() {
        s
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s
    } else {
        "Box<dyn Any>"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_of_panics() {
        let payload = catch(|| panic!("static text")).unwrap_err();
        assert_eq!(message(&payload), "static text");
        let n = 7;
        let payload = catch(|| panic!("formatted {n}")).unwrap_err();
        assert_eq!(message(&payload), "formatted 7");
        let payload = catch(|| std::panic::panic_any(42_u8)).unwrap_err();
        assert_eq!(message(&payload), "Box<dyn Any>");
        discard(payload);
        assert_eq!(catch(|| 5).ok(), Some(5));
    }

    #[test]
    fn a_panicking_drop_is_caught() {
        struct Bomb;
        impl Drop for Bomb {
            fn drop(&mut self) {
                panic!("boom in drop");
            }
        }
        let payload = drop_caught(Bomb).unwrap_err();
        assert_eq!(message(&payload), "boom in drop");
        assert!(drop_caught(String::from("fine")).is_ok());
    }
}
