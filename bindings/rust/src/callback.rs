//! A [`Loader`](crate::Loader)'s closure across the boundary: boxed as the
//! payload of `pathconfig_loader_set_callback`, called by an
//! `extern "C"` trampoline, freed by the library.
//!
//! The library decides when the box may go: it calls [`free_registration`]
//! once the closure has been replaced or removed and no call of it runs (after
//! that call, when the closure replaced itself or dropped its loader), as the
//! header documents. So this crate keeps no slot, lock or thread of its own
//! for the closure's lifetime.
//!
//! A panic never unwinds into C. As git2-rs's `panic::wrap` / `panic::check`
//! do, the trampoline catches it (`panic.rs`) and stores it in the loader's [`PanicSlot`];
//! later events skip the closure until it is dealt with, and
//! [`Loader::load`](crate::Loader::load) or
//! [`Loader::refresh`](crate::Loader::refresh) resumes it once the C call has
//! returned.

use std::ffi::c_void;
use std::ptr;
use std::sync::{Arc, Mutex, PoisonError};

use crate::event::LoaderEvent;
use crate::panic::{self, PanicPayload};
use crate::sys;

/// The closure a loader calls with each event.
pub(crate) type Callback = Box<dyn FnMut(&LoaderEvent) + Send>;

/// Where a loader's closures leave a panic: shared by the loader and every
/// closure registered on it, so it outlives whichever goes first.
#[derive(Default)]
pub(crate) struct PanicSlot(Mutex<Option<PanicPayload>>);

impl PanicSlot {
    /// The pending panic, if any, now no longer pending.
    pub(crate) fn take(&self) -> Option<PanicPayload> {
        // Nothing panics while holding the lock; a poisoned lock still holds
        // consistent data.
        self.0.lock().unwrap_or_else(PoisonError::into_inner).take()
    }

    fn is_pending(&self) -> bool {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).is_some()
    }

    /// Keeps the first panic until it is resumed or taken; a later one (from
    /// a replaced closure's `Drop`, say) is dropped.
    fn store(&self, payload: PanicPayload) {
        let extra = {
            let mut pending = self.0.lock().unwrap_or_else(PoisonError::into_inner);
            match *pending {
                None => {
                    *pending = Some(payload);
                    None
                }
                Some(_) => Some(payload),
            }
        };
        if let Some(extra) = extra {
            panic::discard(extra);
        }
    }
}

/// What the library holds as a callback's payload.
struct Registration {
    callback: Callback,
    panic: Arc<PanicSlot>,
}

/// Sets `callback` as the loader's closure (`None` removes it), its panics
/// going to `panic`. When it returns, a closure replaced from another thread
/// has returned and been dropped; one that replaced itself is dropped by the
/// library when its call returns.
///
/// # Safety
///
/// `raw` is a live loader.
pub(crate) unsafe fn register(raw: *mut sys::pathconfig_loader, callback: Option<Callback>, panic: &Arc<PanicSlot>) {
    let Some(callback) = callback else {
        // SAFETY: `raw` is live (this function's contract); with cb NULL the
        // payload and its free function are ignored.
        let rc = unsafe { sys::pathconfig_loader_set_callback(raw, None, ptr::null_mut(), None) };
        debug_assert_eq!(rc, 0, "pathconfig_loader_set_callback on a live loader");
        return;
    };
    let payload = Box::into_raw(Box::new(Registration { callback, panic: Arc::clone(panic) }));
    // SAFETY: `raw` is live; `trampoline` and `free_registration` match the
    // header's function types and never unwind; from a successful call on
    // the library owns `payload` and frees it through `free_registration`.
    let rc =
        unsafe { sys::pathconfig_loader_set_callback(raw, Some(trampoline), payload.cast(), Some(free_registration)) };
    if rc != 0 {
        // SAFETY: refused (only for a NULL loader), so the payload is still
        // ours: made by Box::into_raw above and not used since.
        drop(unsafe { Box::from_raw(payload) });
        debug_assert_eq!(rc, 0, "pathconfig_loader_set_callback on a live loader");
    }
}

/// The `pathconfig_loader_callback` of every closure. Never unwinds.
unsafe extern "C" fn trampoline(event: *const sys::pathconfig_loader_event, payload: *mut c_void) {
    // SAFETY: `payload` is a `Registration` from `register`, which the
    // library keeps until it calls `free_registration`, never while a call
    // runs. The library calls a callback one event at a time and never
    // nested (load and refresh are refused inside it), so this is the only
    // reference to it while the call runs.
    let registration = unsafe { &mut *payload.cast::<Registration>() };
    if registration.panic.is_pending() {
        return; // As git2-rs: no callback runs while a panic waits to be resumed.
    }
    let callback = &mut registration.callback;
    let outcome = panic::catch(|| {
        // SAFETY: the library passes an event valid for this call (never
        // NULL, checked anyway).
        let Some(event) = (unsafe { event.as_ref() }) else { return };
        // SAFETY: `event` is this running callback's event.
        let event = unsafe { LoaderEvent::from_raw(event) };
        callback(&event);
    });
    if let Err(payload) = outcome {
        registration.panic.store(payload);
    }
}

/// The `pathconfig_loader_payload_free` of every closure: drops it (its
/// captures may include the last reference to its loader). Never unwinds.
unsafe extern "C" fn free_registration(payload: *mut c_void) {
    // SAFETY: `payload` is a `Registration` from `register`; the library
    // calls this once, when nothing uses it any more.
    let registration = unsafe { Box::from_raw(payload.cast::<Registration>()) };
    let panic = Arc::clone(&registration.panic);
    if let Err(payload) = panic::drop_caught(registration) {
        panic.store(payload);
    }
}
