"""Ownership of one C handle by one Python object.

``close()`` is idempotent and safe to call while other threads are inside a
call on the same object: the handle is freed when the last call in flight
returns, and calls that start after ``close()`` raise :class:`ClosedError`
(never a use-after-free). ``__del__`` frees a handle that was never closed,
except while the interpreter shuts down, when module state may already be gone
and the process is about to release everything anyway.
"""

from __future__ import annotations

import os
import sys
import threading
from typing import Any, Callable, List, NoReturn, Optional, TypeVar

from ._errors import ClosedError

T = TypeVar("T")


# Taken only to release a handle, which happens once per object. New in a
# child of fork(), where another thread's hold would last for good.
_release_lock = threading.Lock()


def _new_release_lock() -> None:
    global _release_lock
    _release_lock = threading.Lock()


os.register_at_fork(after_in_child=_new_release_lock)


class OwnedHandle:
    """Base of :class:`PathConfiguration` and :class:`Loader`.

    A call in flight is an entry in ``_inflight``: ``list.append`` and
    ``list.pop`` are atomic, so a call takes no lock. A call appends, then
    reads ``_closed``; ``close()`` sets ``_closed``, then reads whether the
    list is empty. Whichever comes second sees the other: either the call
    sees the handle closed and backs out, or ``close()`` sees the call and
    leaves the release to the last call to finish (which reads ``_closed``
    after its ``pop``). ``_release`` takes the pointer under a lock, so
    however many threads see the list empty, the handle is freed once.
    """

    _ptr: Any
    _free: Callable[[Any], None]
    _inflight: List[None]
    _closed: bool

    def _own(self, ptr: Any, free: Callable[[Any], None]) -> None:
        """Takes ``ptr``, which ``free`` releases."""
        self._free = free
        self._inflight = []
        self._closed = False
        self._ptr = ptr

    def _acquire(self) -> Any:
        """The handle, held until the matching :meth:`_done`."""
        self._inflight.append(None)
        if self._closed:
            self._done()
            raise ClosedError(f"operation on a closed {type(self).__name__}")
        return self._ptr

    def _done(self) -> None:
        self._inflight.pop()
        if self._closed and not self._inflight:
            self._release()

    def _release(self) -> None:
        with _release_lock:
            ptr, self._ptr = self._ptr, None
        if ptr:
            self._free(ptr)

    def _call(self, func: Callable[..., T], *args: Any) -> T:
        """``func(handle, *args)`` with the handle kept alive for the call."""
        ptr = self._acquire()
        try:
            return func(ptr, *args)
        finally:
            self._done()

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has been called (or the ``with`` block ended)."""
        return self._closed

    def close(self) -> None:
        """Releases the C handle now (or, when calls on other threads are in
        flight, as the last of them returns). Idempotent; later use raises
        :class:`ClosedError`."""
        self._closed = True
        if not self._inflight:
            self._release()

    def __reduce_ex__(self, protocol: Any) -> NoReturn:
        # Neither pickled nor copied (copy.copy and copy.deepcopy come here
        # too): a copy would hold the same handle, and the first of the two
        # to go would free it under the other. Share the object instead.
        raise TypeError(f"cannot pickle {type(self).__name__!r} object: it owns a library handle")

    def __enter__(self: "T") -> "T":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __del__(self, _finalizing: Callable[[], bool] = sys.is_finalizing) -> None:
        if _finalizing():
            return
        # No other reference exists, so no call is in flight.
        ptr: Optional[Any] = self.__dict__.get("_ptr")
        if ptr:
            self._ptr = None
            self._closed = True
            self._free(ptr)
