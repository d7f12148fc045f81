//! The map view of a [`Properties`]: [`value`](Properties::value) for one
//! key and [`map`](Properties::map) for all, as Rust [`Value`]s, the map
//! built once per answer from the C API's typed getters and cached per
//! thread.

use std::cell::RefCell;
use std::ffi::{c_char, c_double, c_int};
use std::ptr;
use std::sync::Arc;

use super::Properties;
use crate::error::Error;
use crate::sys;
use crate::util;
use crate::value::{Map, Value};

/// Slots of each thread's cache of native maps, by answer id.
const MAP_SLOTS: usize = 512;

/// One slot of that cache: an answer's id and its map.
type MapSlot = Option<(u64, Arc<Map>)>;

thread_local! {
    /// The native maps this thread made, in a direct-mapped table indexed by
    /// the answer's id (ids are never reused, so a hit is always that
    /// answer's map): the map of an answer is built once, not per lookup.
    static MAPS: RefCell<Vec<MapSlot>> = const { RefCell::new(Vec::new()) };
}

impl Properties {
    /// The value of `key` as a Rust [`Value`] (`Ok(None)` when absent).
    ///
    /// # Errors
    ///
    /// [`ErrorCode::Argument`](crate::ErrorCode::Argument) for a key with a NUL byte.
    pub fn value(&self, key: &str) -> Result<Option<Value>, Error> {
        match self.get_json(key)? {
            Some(json) => Value::from_json(json).map(Some),
            None => Ok(None),
        }
    }

    /// Every key and value, in key order, as a [`Map`] of Rust [`Value`]s:
    /// the host's native map. It is worked out once per distinct answer
    /// (per thread: a cache keyed by [`id`](Self::id)), not per lookup, from
    /// the C API's count, keys, types (`pathconfig_result_type`) and typed
    /// getters, without parsing JSON (only nested arrays and objects are
    /// read from their text); clone it to own it.
    ///
    /// ```
    /// use std::collections::HashMap;
    /// use pathconfig::{Options, PathConfiguration, Value};
    ///
    /// let json = r#"{"rules": [{"patterns": [".*"], "properties": {"context": "modal", "retry": 3, "headers": {"A": "b"}}}]}"#;
    /// let props = PathConfiguration::from_json(json, &Options::new())?.properties("/x")?;
    /// let map = props.map();
    /// assert_eq!(map["context"].as_str(), Some("modal"));
    /// assert_eq!(map["headers"]["A"], Value::from("b"));
    /// assert_eq!(map.to_string(), props.json());
    /// let hashed: HashMap<String, Value> = map.clone().into_iter().collect();
    /// assert_eq!(hashed["retry"], Value::Int(3));
    /// # Ok::<(), pathconfig::Error>(())
    /// ```
    pub fn map(&self) -> &Map {
        self.map.get_or_init(|| {
            let id = self.id();
            let slot = (id % MAP_SLOTS as u64) as usize;
            let cached = MAPS.try_with(|maps| match maps.borrow().get(slot) {
                Some(Some((held, map))) if *held == id => Some(Arc::clone(map)),
                _ => None,
            });
            if let Ok(Some(map)) = cached {
                return map;
            }
            let map = Arc::new(self.build_map());
            // During the thread's teardown there is no cache: nothing is kept.
            let _ = MAPS.try_with(|maps| {
                let mut maps = maps.borrow_mut();
                if maps.is_empty() {
                    maps.resize(MAP_SLOTS, None);
                }
                maps[slot] = Some((id, Arc::clone(&map)));
            });
            map
        })
    }

    /// The native map, built from the C API (what [`map`](Self::map) caches).
    fn build_map(&self) -> Map {
        let n = self.len();
        let mut map = Map::with_capacity(n);
        for i in 0..n {
            let key = self.key_ptr(i);
            let name = self.required(key, "pathconfig_result_key");
            map.push(name.to_owned(), self.value_at(i, key));
        }
        map
    }

    /// The value of the i-th key (`key` is its name as the library gave it).
    fn value_at(&self, i: usize, key: *const c_char) -> Value {
        let res = self.ptr();
        // SAFETY: a live result and `i` below the count.
        let ty = unsafe { sys::pathconfig_result_type(res, i) };
        // Each getter below is called with a live result, `key` (the i-th key
        // as the library gave it, borrowed from `res`) and a writable out
        // parameter of the getter's type.
        let found = |rc: c_int| rc == sys::PATHCONFIG_OK;
        match ty {
            sys::PATHCONFIG_TYPE_BOOL => {
                let mut out: c_int = 0;
                // SAFETY: see above.
                if found(unsafe { sys::pathconfig_result_get_bool(res, key, &mut out) }) {
                    return Value::Bool(out != 0);
                }
            }
            sys::PATHCONFIG_TYPE_INT => {
                let mut out: i64 = 0;
                // SAFETY: see above.
                if found(unsafe { sys::pathconfig_result_get_int64(res, key, &mut out) }) {
                    return Value::Int(out);
                }
            }
            sys::PATHCONFIG_TYPE_DOUBLE => {
                let mut out: c_double = 0.0;
                // SAFETY: see above.
                if found(unsafe { sys::pathconfig_result_get_double(res, key, &mut out) }) {
                    return Value::Float(out);
                }
            }
            sys::PATHCONFIG_TYPE_STRING => {
                let (mut out, mut len): (*const c_char, usize) = (ptr::null(), 0);
                // SAFETY: see above.
                if found(unsafe { sys::pathconfig_result_get_string(res, key, &mut out, &mut len) }) {
                    // SAFETY: `len` bytes borrowed from the result, alive while `self` is.
                    match unsafe { util::borrowed_str_len(out, len, "pathconfig_result_get_string") } {
                        Ok(s) => return Value::String(s.to_owned()),
                        Err(e) => panic!("{e}"),
                    }
                }
            }
            sys::PATHCONFIG_TYPE_ARRAY | sys::PATHCONFIG_TYPE_OBJECT => {
                let mut out: *const c_char = ptr::null();
                // SAFETY: see above.
                if found(unsafe { sys::pathconfig_result_get_json(res, key, &mut out) }) {
                    let text = self.required(out, "pathconfig_result_get_json");
                    return Value::from_json(text).unwrap_or_else(|e| {
                        panic!("pathconfig_result_get_json returned JSON this crate cannot read: {e}")
                    });
                }
            }
            _ => {}
        }
        // JSON null, or a key the getters cannot be asked for (one holding
        // U+0000 ends early as a C string).
        Value::Null
    }
}
