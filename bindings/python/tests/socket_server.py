"""A bare HTTP server on 127.0.0.1 for the loader tests that need what nginx
will not do: answer late, or never."""

from __future__ import annotations

import contextlib
import socket
import threading
from typing import Callable, Iterator, List, Tuple

#: What :func:`serving` yields: the URL, and the connections so far.
Served = Tuple[str, List[socket.socket]]


def response(body: bytes) -> bytes:
    """A whole 200 response carrying ``body``."""
    return b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n" % len(body) + body


@contextlib.contextmanager
def serving(answer: Callable[[socket.socket, int], None]) -> Iterator[Served]:
    """A server whose URL is yielded with its connections, in order. For
    each request it reads the head, then calls ``answer(connection, n)``
    (``n``: 0 for the first); the connections close when the block ends."""
    listener = socket.create_server(("127.0.0.1", 0))
    held: List[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            conn.recv(65536)  # the request's head
            held.append(conn)
            answer(conn, len(held) - 1)

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield "http://127.0.0.1:%d/config.json" % listener.getsockname()[1], held
    finally:
        listener.shutdown(socket.SHUT_RDWR)
        listener.close()
        for conn in held:
            conn.close()
