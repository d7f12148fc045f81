//! [`Loader`]: a configuration kept current from several sources
//! (`pathconfig_loader *`). What it reads is in `source.rs` ([`Source`],
//! [`LoaderOptions`]), what its callback receives in `event.rs`
//! ([`LoaderEvent`]), and how the closure crosses the boundary in
//! `callback.rs`.

use std::any::Any;
use std::ffi::{c_int, CStr};
use std::fmt;
use std::panic;
use std::path::PathBuf;
use std::ptr::{self, NonNull};
use std::sync::Arc;

use crate::callback::{self, Callback, PanicSlot};
use crate::config::PathConfiguration;
#[cfg(doc)]
use crate::error::ErrorCode;
use crate::error::{self, Error};
use crate::event::LoaderEvent;
use crate::source::{sources_json, LoaderOptions, Source};
use crate::sys;
use crate::util::{self, Binding};

/// Keeps a configuration current from an ordered list of [`Source`]s: JSON
/// text, files, and server URLs downloaded over HTTP(S), each server copy
/// cached on disk (`pathconfig_loader *`).
///
/// [`load`](Self::load) runs the chain once: each data or file source, then
/// for each server source its cached copy (if any) and its download. A later
/// source's good configuration replaces an earlier one. Bad news never
/// replaces good news: a failed download, a status other than 200, a body
/// that does not load leaves the current configuration and the cache file
/// untouched and is reported to the [callback](Self::set_callback). A
/// download sends `If-None-Match` / `If-Modified-Since` when a copy is
/// known; 304 keeps the copy.
///
/// [`current`](Self::current) never waits for the network: it returns the
/// last whole configuration, which stays valid while another is installed.
///
/// ```
/// use pathconfig::{EventKind, Loader, LoaderOptions, Source, SourceKind};
/// use std::sync::mpsc;
///
/// let bundled = r#"{"rules": [{"patterns": ["/new$"], "properties": {"context": "modal"}}]}"#;
/// let loader = Loader::new(&[Source::data(bundled, "bundled")], &LoaderOptions::new())?;
/// assert!(loader.current().is_none()); // nothing loaded yet
///
/// let (events, received) = mpsc::channel();
/// loader.set_callback(Some(move |event: &pathconfig::LoaderEvent| {
///     events.send((event.source_kind, event.kind, event.location.clone())).unwrap();
/// }));
/// loader.load()?;
/// assert_eq!(received.try_recv().unwrap(), (SourceKind::Data, EventKind::Applied, "bundled".to_string()));
///
/// let config = loader.current().expect("loaded");
/// assert_eq!(config.properties("https://example.com/messages/new")?.context(), "modal");
/// # Ok::<(), pathconfig::Error>(())
/// ```
///
/// # Threads
///
/// `Loader` is `Send + Sync`: share it with `Arc` and call
/// [`current`](Self::current) from any number of threads while another
/// [refreshes](Self::refresh). The library runs the loader's operations
/// (load, refresh, polling) one at a time.
///
/// The callback (`FnMut + Send + 'static`) runs on the thread calling
/// [`load`](Self::load) or [`refresh`](Self::refresh), or on the loader's
/// polling thread ([`LoaderOptions::refresh_interval`]), one event at a time.
/// It may call [`current`](Self::current) and
/// [`set_callback`](Self::set_callback) on its loader, and drop the last
/// reference to it; [`load`](Self::load) and [`refresh`](Self::refresh) fail
/// there with [`ErrorCode::Misuse`].
///
/// A loader belongs to the process that made it: in a child of `fork()`,
/// [`load`](Self::load) and [`refresh`](Self::refresh) fail with
/// [`ErrorCode::Forked`] (the polling thread stayed in the parent), while
/// [`current`](Self::current) and dropping still work.
///
/// # Panics in the callback
///
/// They never cross into C: the panic is caught, the closure is not called
/// again until the panic has been dealt with, and the next
/// [`load`](Self::load) or [`refresh`](Self::refresh) resumes it once the
/// C call has returned (the loader is intact; its chain ran to the end).
/// [`take_panic`](Self::take_panic) takes it instead, e.g. after a panic on
/// the polling thread. A panic still pending when the loader is dropped is
/// discarded (the panic hook has printed it when it happened).
pub struct Loader {
    raw: NonNull<sys::pathconfig_loader>,
    panic: Arc<PanicSlot>,
}

// SAFETY: (Send) the header documents the loader as thread-safe ("Every
// function below may be called from any thread"): the handle is not tied to
// the thread that made it, and pathconfig_loader_free may run on any thread
// once no other call is in progress, which `Drop` (owning the value)
// guarantees. The panic slot is a Mutex behind an Arc.
unsafe impl Send for Loader {}
// SAFETY: (Sync) the `&self` methods call pathconfig_loader_load, _refresh,
// _current, _cache_file and _set_callback, which the header allows on one
// handle from any number of threads at once (it serialises load, refresh and
// polling, documents pathconfig_loader_current as never waiting, and orders
// callback replacements itself). Each call's error is read on the calling
// thread, from its own `err` struct or thread-local last error. This is why
// the loader, unlike git2-rs's Repository (`Send` only), is Sync.
unsafe impl Sync for Loader {}

impl Loader {
    /// Creates a loader; loads nothing yet (call [`load`](Self::load)).
    ///
    /// # Errors
    ///
    /// [`ErrorCode::Options`] for no sources, a URL that is not absolute
    /// `http(s)`, a header that cannot be sent or a header on a source that
    /// is not a server, a bad option value (e.g. a zero timeout, control
    /// characters in the user agent); [`ErrorCode::Backend`] for a backend
    /// the library lacks; [`ErrorCode::Argument`] for a path that is not
    /// UTF-8 or contains a NUL byte.
    pub fn new(sources: &[Source], options: &LoaderOptions) -> Result<Loader, Error> {
        let sources = util::cstring(&sources_json(sources)?)?;
        let options = if options.is_default() { None } else { Some(util::cstring(&options.to_json()?)?) };
        Loader::create(&sources, options.as_deref())
    }

    /// Creates a loader from the C API's JSON forms: `sources_json` an array
    /// of `{"file": PATH}`, `{"data": TEXT, "name": NAME}` and
    /// `{"server": URL, "headers": {NAME: VALUE, ...}}` objects,
    /// `options_json` an object with the load and loader options (see
    /// `include/pathconfig.h`), or `None` for the defaults. For sources kept
    /// in a configuration file of the host's.
    ///
    /// # Errors
    ///
    /// As [`new`](Self::new); malformed JSON is [`ErrorCode::Options`].
    pub fn from_json(sources_json: &str, options_json: Option<&str>) -> Result<Loader, Error> {
        let sources = util::cstring(sources_json)?;
        let options = options_json.map(util::cstring).transpose()?;
        Loader::create(&sources, options.as_deref())
    }

    fn create(sources: &CStr, options: Option<&CStr>) -> Result<Loader, Error> {
        let mut err = error::blank();
        // SAFETY: `sources` and `options` (or NULL) are NUL-terminated and
        // `err` is writable, all alive across the call and not retained.
        let raw = unsafe {
            sys::pathconfig_loader_new(sources.as_ptr(), options.map_or(ptr::null(), CStr::as_ptr), &mut err)
        };
        match NonNull::new(raw) {
            Some(raw) => Ok(Loader::adopt(raw)),
            None => Err(Error::from_raw(&err)),
        }
    }

    /// Takes ownership of a live loader handle, with no callback.
    fn adopt(raw: NonNull<sys::pathconfig_loader>) -> Loader {
        let loader = Loader { raw, panic: Arc::default() };
        loader.clear_callback();
        loader
    }

    /// Runs the whole chain once, synchronously (downloads included, each
    /// bounded by the [timeout](LoaderOptions::timeout)), reporting every
    /// step to the callback; then starts polling when a
    /// [refresh interval](LoaderOptions::refresh_interval) is set.
    ///
    /// `Ok` when a configuration is current, even if some sources failed
    /// (the callback heard about them).
    ///
    /// # Errors
    ///
    /// When no configuration is current: the last failure, its message
    /// starting with the source (`"server URL: ..."`):
    /// [`ErrorCode::Download`], [`Io`](ErrorCode::Io),
    /// [`Json`](ErrorCode::Json), [`Schema`](ErrorCode::Schema),
    /// [`Regex`](ErrorCode::Regex), [`Limit`](ErrorCode::Limit);
    /// [`ErrorCode::Misuse`] from inside this loader's callback (nothing is
    /// run, and polling is not started); [`ErrorCode::Forked`] in a child of
    /// `fork()` on a loader made before the fork (the same).
    ///
    /// # Panics
    ///
    /// Resumes a panic of the callback (see the type's documentation).
    pub fn load(&self) -> Result<(), Error> {
        self.run(sys::pathconfig_loader_load)
    }

    /// Downloads every server source again, synchronously, conditionally
    /// when a copy with `ETag` / `Last-Modified` is known; before the first
    /// [`load`](Self::load), runs load's chain instead (without polling).
    /// A failure leaves the current configuration and the cache file as
    /// they were.
    ///
    /// `Ok` when no step failed (new configurations applied, or not
    /// modified; also with no server source).
    ///
    /// # Errors
    ///
    /// The last failure: [`ErrorCode::Download`], [`Json`](ErrorCode::Json),
    /// [`Schema`](ErrorCode::Schema), [`Regex`](ErrorCode::Regex),
    /// [`Limit`](ErrorCode::Limit), ...; [`ErrorCode::Misuse`] from inside
    /// this loader's callback, [`ErrorCode::Forked`] in a child of `fork()`
    /// (nothing is run).
    ///
    /// # Panics
    ///
    /// Resumes a panic of the callback (see the type's documentation).
    pub fn refresh(&self) -> Result<(), Error> {
        self.run(sys::pathconfig_loader_refresh)
    }

    /// Calls load or refresh, then resumes a pending panic of the callback.
    fn run(
        &self,
        f: unsafe extern "C" fn(*mut sys::pathconfig_loader, *mut sys::pathconfig_error) -> c_int,
    ) -> Result<(), Error> {
        let mut err = error::blank();
        // SAFETY: `f` is pathconfig_loader_load or _refresh, which take a
        // live loader (self.raw, alive for `&self`) and a writable error
        // struct (alive across the call, not retained).
        let rc = unsafe { f(self.raw.as_ptr(), &mut err) };
        if let Some(payload) = self.take_panic() {
            panic::resume_unwind(payload);
        }
        if rc == sys::PATHCONFIG_OK {
            Ok(())
        } else {
            Err(Error::from_raw(&err))
        }
    }

    /// The current configuration, the newest good one; `None` until one has
    /// loaded. Never waits for the network. The value is a new reference: it
    /// stays valid (and unchanged) after the loader moves on or is dropped.
    pub fn current(&self) -> Option<PathConfiguration> {
        // SAFETY: self.raw is a live loader.
        let raw = unsafe { sys::pathconfig_loader_current(self.raw.as_ptr()) };
        // SAFETY: a non-NULL result is a new reference the caller owns
        // ("caller frees with pathconfig_release"), handed to the value.
        // NULL on a live loader means nothing has loaded yet (code 0).
        NonNull::new(raw).map(|raw| unsafe { PathConfiguration::from_raw(raw.as_ptr()) })
    }

    /// The path of the cache file that holds (or would hold) `url`'s copy
    /// (the file name is a hash of the whole URL); `None` when the loader
    /// has no [cache directory](LoaderOptions::cache_dir). Any URL may be
    /// asked about, not only the sources'.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::Argument`] when `url` contains a NUL byte;
    /// [`ErrorCode::NoMem`].
    pub fn cache_file(&self, url: &str) -> Result<Option<PathBuf>, Error> {
        let url = util::cstring(url)?;
        // SAFETY: self.raw is a live loader and `url` NUL-terminated, alive
        // across the call.
        let path = unsafe { sys::pathconfig_loader_cache_file(self.raw.as_ptr(), url.as_ptr()) };
        if path.is_null() {
            // NULL with the last error cleared: no cache_dir.
            return match Error::last_if_set() {
                None => Ok(None),
                Some(e) => Err(e),
            };
        }
        // SAFETY: a non-NULL result is a string the caller frees; take_string
        // copies and frees it, with no library call in between.
        let path = unsafe { util::take_string(path, "pathconfig_loader_cache_file") }?;
        Ok(Some(PathBuf::from(path)))
    }

    /// Sets the closure called after every step of the chain (one
    /// [`LoaderEvent`] per source step, in order), replacing the previous
    /// one; `None` removes it.
    ///
    /// It never waits: once this returns, the previous closure is never
    /// called again. When no call of it is running, it has been dropped on
    /// this thread; when one is (on this thread or another), that call goes
    /// on to its end and the closure is dropped on its thread as it returns.
    /// [`load`](Self::load) and [`refresh`](Self::refresh) fail with
    /// `ErrorCode::Misuse` while a call of the closure runs.
    ///
    /// ```
    /// use pathconfig::{Loader, LoaderEvent, LoaderOptions, Source};
    ///
    /// let loader = Loader::new(&[Source::data(r#"{"rules": []}"#, "empty")], &LoaderOptions::new())?;
    /// loader.set_callback(Some(|event: &LoaderEvent| eprintln!("{event}")));
    /// loader.load()?; // prints "data empty: applied (13 bytes)"
    /// loader.set_callback(None::<fn(&LoaderEvent)>); // or loader.clear_callback()
    /// # Ok::<(), pathconfig::Error>(())
    /// ```
    ///
    /// A closure that reads its own loader holds a [`Weak`](std::sync::Weak)
    /// of it: the loader holds the closure, so an `Arc` there makes a cycle,
    /// and the loader, with its polling thread, is never dropped.
    ///
    /// ```
    /// use std::sync::{Arc, Weak};
    /// use pathconfig::{Loader, LoaderEvent, LoaderOptions, Source};
    ///
    /// let loader = Arc::new(Loader::new(&[Source::data(r#"{"rules": []}"#, "empty")], &LoaderOptions::new())?);
    /// let weak: Weak<Loader> = Arc::downgrade(&loader);
    /// loader.set_callback(Some(move |_: &LoaderEvent| {
    ///     if let Some(loader) = weak.upgrade() {
    ///         assert!(loader.current().is_some()); // the configuration just applied
    ///     }
    /// }));
    /// loader.load()?;
    /// assert_eq!(Arc::strong_count(&loader), 1); // dropping it drops the loader
    /// # Ok::<(), pathconfig::Error>(())
    /// ```
    ///
    /// The closure must be `Send` (it runs on the polling thread or on any
    /// thread that loads) but not `Sync` (it never runs on two threads at
    /// once):
    ///
    /// ```compile_fail
    /// use std::rc::Rc;
    /// use pathconfig::{Loader, LoaderEvent, LoaderOptions, Source};
    ///
    /// let loader = Loader::new(&[Source::data(r#"{"rules": []}"#, "empty")], &LoaderOptions::new()).unwrap();
    /// let counter = Rc::new(0);
    /// loader.set_callback(Some(move |_: &LoaderEvent| drop(counter.clone())));
    /// ```
    pub fn set_callback<F>(&self, callback: Option<F>)
    where
        F: FnMut(&LoaderEvent) + Send + 'static,
    {
        // SAFETY: self.raw is a live loader.
        unsafe { callback::register(self.raw.as_ptr(), callback.map(|f| Box::new(f) as Callback), &self.panic) }
    }

    /// Removes the closure: `set_callback(None)`.
    pub fn clear_callback(&self) {
        self.set_callback(None::<fn(&LoaderEvent)>);
    }

    /// Takes a panic of the callback that has not been resumed yet (e.g. one
    /// on the polling thread), so that the closure runs again; `None` when
    /// there is none.
    pub fn take_panic(&self) -> Option<Box<dyn Any + Send + 'static>> {
        self.panic.take()
    }
}

impl Drop for Loader {
    /// Stops polling (a refresh in progress abandons its download within
    /// about a second, and is waited for; a running closure never is: it
    /// goes on to its end), drops the closure, and frees the loader; no
    /// event is delivered after. Configurations obtained from it stay valid.
    ///
    /// Dropped inside its own callback (the closure held the last `Arc` of
    /// it), it does not wait for that callback: the library frees the loader
    /// as the call running the callback ends, and drops the closure once it
    /// has returned; no later event is delivered.
    fn drop(&mut self) {
        // SAFETY: self.raw is a live loader owned by this value; no other
        // call on it is in progress (Drop has it exclusively) except, when
        // dropped inside its own callback, the one running it, which the
        // header allows.
        unsafe { sys::pathconfig_loader_free(self.raw.as_ptr()) }
    }
}

impl Binding for Loader {
    type Raw = *mut sys::pathconfig_loader;

    /// Takes ownership of a loader made by C code. Its C callback, if any,
    /// is removed (a running one goes on to its end).
    unsafe fn from_raw(raw: *mut sys::pathconfig_loader) -> Loader {
        Loader::adopt(NonNull::new(raw).expect("Loader::from_raw: NULL handle"))
    }

    /// The handle, for C code that calls `pathconfig_loader_current`,
    /// `_load`, `_refresh` or `_cache_file` on it. Never free it or set its
    /// callback (the crate's closure would stop being called).
    fn raw(&self) -> *mut sys::pathconfig_loader {
        self.raw.as_ptr()
    }
}

impl fmt::Debug for Loader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Loader").field("raw", &self.raw).finish_non_exhaustive()
    }
}
