"""Ownership of one C handle by one Python object.

``close()`` is idempotent and safe to call while other threads are inside a
call on the same object: the handle is freed when the last call in flight
returns, and calls that start after ``close()`` raise :class:`ClosedError`
(never a use-after-free). A handle never closed is freed when its object
goes, by the owner it holds: ``_speedups.Owned`` with the C extension, whose
deallocation runs no Python code, so that no signal handler can strike
there; :class:`Owner`, its ctypes twin, through ``__del__`` otherwise.
Neither frees while the interpreter shuts down, when module state may
already be gone and the process is about to release everything anyway.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, List, NoReturn, Optional, TypeVar

from ._errors import ClosedError
from ._ffi import address

T = TypeVar("T")


class Owner:
    """A reference on a library object, which ``release(address)`` gives
    back once: by :meth:`release`, or when this object goes (``__del__``).
    The binding's through ctypes alone; with the C extension,
    ``_speedups.Owned`` does the same in C, where no signal handler can
    strike: a handler that raises as this ``__del__`` starts has its
    exception reported as unraisable, and the reference is kept for good.

    It holds the :class:`~pathconfig._ffi.Handed` the library's call
    returned, and takes the address out of it only to give it back: until
    then that object is the reference's owner, here or, before this Owner
    exists, in its caller's hands."""

    __slots__ = ("_held", "_give_back")

    def __init__(self, handed: Any, release: Callable[[int], None]) -> None:
        # A list, whose pop is one step under the GIL: however many threads
        # release, one gets the handed object. (No lock, which a child of
        # fork() could inherit taken.)
        self._held = [handed] if handed else []
        self._give_back = release

    @property
    def address(self) -> Optional[int]:
        """The object's address, ``None`` once released."""
        held = self._held
        return address(held[0]) if held else None

    def release(self) -> None:
        """Gives the reference back now (once; later calls do nothing)."""
        try:
            handed = self._held.pop()
        except IndexError:
            return
        self._give_back(handed.take())

    def __del__(self, _finalizing: Callable[[], bool] = sys.is_finalizing) -> None:
        if not _finalizing():
            self.release()


class OwnedHandle:
    """Base of :class:`PathConfiguration` and :class:`Loader`.

    A call in flight is an entry in ``_inflight``: ``list.append`` and
    ``list.pop`` are atomic, so a call takes no lock. A call appends, then
    reads ``_closed``; ``close()`` sets ``_closed``, then reads whether the
    list is empty. Whichever comes second sees the other: either the call
    sees the handle closed and backs out, or ``close()`` sees the call and
    leaves the release to the last call to finish (which reads ``_closed``
    after its ``pop``). The owner gives the handle back once, however many
    threads see the list empty.
    """

    _ptr: Any
    _owner: Any  # an Owner or a _speedups.Owned
    _inflight: List[None]
    _closed: bool

    def _own(self, ptr: Any, owner: Any) -> None:
        """Calls go to ``ptr``, a typed pointer that owns nothing; ``owner``
        (an :class:`Owner` or a ``_speedups.Owned``) holds the reference
        and gives it back."""
        self._owner = owner
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
        self._owner.release()
        self._ptr = None

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
