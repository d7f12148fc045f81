//! [`Keys`] and [`Iter`]: the keys of a [`Properties`] and its
//! `(key, value JSON)` pairs, borrowed from it.

use std::ffi::c_char;
use std::fmt;
use std::iter::FusedIterator;
use std::ptr;

use super::Properties;
use crate::sys;

/// The keys of a [`Properties`], borrowed from it ([`Properties::keys`]).
#[derive(Clone)]
pub struct Keys<'a> {
    props: &'a Properties,
    front: usize,
    back: usize,
}

impl<'a> Keys<'a> {
    pub(super) fn new(props: &'a Properties) -> Keys<'a> {
        Keys { props, front: 0, back: props.len() }
    }

    fn next_index(&mut self) -> Option<usize> {
        if self.front == self.back {
            return None;
        }
        self.front += 1;
        Some(self.front - 1)
    }

    fn next_back_index(&mut self) -> Option<usize> {
        if self.front == self.back {
            return None;
        }
        self.back -= 1;
        Some(self.back)
    }
}

impl<'a> Iterator for Keys<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let i = self.next_index()?;
        Some(self.props.key_at(i))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for Keys<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        let i = self.next_back_index()?;
        Some(self.props.key_at(i))
    }
}

impl ExactSizeIterator for Keys<'_> {}
impl FusedIterator for Keys<'_> {}

impl fmt::Debug for Keys<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.clone()).finish()
    }
}

/// `(key, value JSON)` pairs of a [`Properties`], borrowed from it ([`Properties::iter`]).
#[derive(Clone, Debug)]
pub struct Iter<'a> {
    keys: Keys<'a>,
}

impl<'a> Iter<'a> {
    pub(super) fn new(props: &'a Properties) -> Iter<'a> {
        Iter { keys: Keys::new(props) }
    }

    fn pair(&self, i: usize) -> (&'a str, &'a str) {
        let props = self.keys.props;
        let key = props.key_ptr(i);
        let mut out: *const c_char = ptr::null();
        // SAFETY: a live result, the key as the library gave it (borrowed
        // from the result) and a writable pointer slot.
        let rc = unsafe { sys::pathconfig_result_get_json(props.ptr(), key, &mut out) };
        // A key the result lists is always found (one with an embedded NUL
        // cannot be asked for through the C API: shown as null).
        let value = if rc == sys::PATHCONFIG_OK { props.required(out, "pathconfig_result_get_json") } else { "null" };
        (props.required(key, "pathconfig_result_key"), value)
    }
}

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a str, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        let i = self.keys.next_index()?;
        Some(self.pair(i))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.keys.size_hint()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        let i = self.keys.next_back_index()?;
        Some(self.pair(i))
    }
}

impl ExactSizeIterator for Iter<'_> {}
impl FusedIterator for Iter<'_> {}
