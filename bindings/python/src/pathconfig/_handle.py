"""Ownership of one C handle by one Python object.

``close()`` is idempotent and safe to call while other threads are inside a
call on the same object: the handle is freed when the last call in flight
returns, and calls that start after ``close()`` raise :class:`ClosedError`
(never a use-after-free). ``__del__`` frees a handle that was never closed,
except while the interpreter shuts down, when module state may already be gone
and the process is about to release everything anyway.
"""

from __future__ import annotations

import sys
import threading
from typing import Any, Callable, Optional, TypeVar

from ._errors import ClosedError

T = TypeVar("T")


class OwnedHandle:
    """Base of :class:`PathConfiguration` and :class:`Properties`."""

    _ptr: Any
    _free: Callable[[Any], None]
    _lock: threading.Lock
    _busy: int
    _closed: bool

    def _own(self, ptr: Any, free: Callable[[Any], None], lock: Optional[threading.Lock] = None) -> None:
        """Takes ``ptr``; ``lock`` (default: a lock of its own) guards the
        in-flight count. Objects made by the thousand share one: its holders
        keep it for a few instructions."""
        self._free = free
        self._lock = threading.Lock() if lock is None else lock
        self._busy = 0
        self._closed = False
        self._ptr = ptr

    def _acquire(self) -> Any:
        with self._lock:
            if self._closed:
                raise ClosedError(f"operation on a closed {type(self).__name__}")
            self._busy += 1
            return self._ptr

    def _done(self) -> None:
        ptr = None
        with self._lock:
            self._busy -= 1
            if self._closed and self._busy == 0:
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
        """Releases the C handle now. Idempotent; later use raises
        :class:`ClosedError`."""
        ptr = None
        with self._lock:
            if self._closed:
                return
            self._closed = True
            if self._busy == 0:
                ptr, self._ptr = self._ptr, None
        if ptr:
            self._free(ptr)

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
