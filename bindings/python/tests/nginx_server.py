"""A real nginx on 127.0.0.1 for the loader tests, as Tests/CTests/server.c
starts it: its own temporary prefix, a free port, ``nginx -p DIR -c
DIR/nginx.conf -e DIR/error.log`` in the foreground (``daemon off``), stopped
by the test.

- The document root is DIR/www. :meth:`Nginx.put` writes a file atomically
  with a strictly increasing modification time, so every version has its own
  ETag and Last-Modified (nginx derives both from mtime and size) and a
  conditional request for the previous one answers 200, for the same one 304.
- :meth:`Nginx.fail500` makes every request answer 500; :meth:`Nginx.slow`
  makes every file trickle out at 1 byte per second (``limit_rate 1``), so a
  download of a real file under its real URL times out.
- The access log has one line per request:
  ``METHOD URI STATUS inm=[If-None-Match] accept=[Accept] ua=[User-Agent]``.

The binary is $PATHCONFIG_TEST_NGINX, else nginx in /usr/sbin,
/usr/local/sbin, /usr/local/bin, /usr/bin. When there is none the test fails
(never skips): `make test` at the top level installs nginx-light
(scripts/install-deps.sh).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import List, Optional

import pytest

PLACES = ("/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/local/bin/nginx", "/usr/bin/nginx")


def find_nginx() -> str:
    env = os.environ.get("PATHCONFIG_TEST_NGINX")
    if env:
        if os.access(env, os.X_OK):
            return env
        pytest.fail(f"PATHCONFIG_TEST_NGINX={env} is not executable", pytrace=False)
    for place in PLACES:
        if os.access(place, os.X_OK):
            return place
    found = shutil.which("nginx")
    if found:
        return found
    pytest.fail(
        "nginx is not installed, and the loader tests need a real HTTP server on 127.0.0.1: "
        "run scripts/install-deps.sh (make test does) or apt-get install nginx-light, "
        "or set PATHCONFIG_TEST_NGINX to an nginx binary",
        pytrace=False,
    )


def free_port() -> int:
    """A port nothing listens on now: bind port 0, read it back, close."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def accepts(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


CONFIG = """daemon off;
master_process off;
worker_processes 1;
pid {p}/nginx.pid;
error_log {p}/error.log;
events {{ worker_connections 64; }}
http {{
    log_format probe escape=none '$request_method $request_uri $status inm=[$http_if_none_match] accept=[$http_accept] ua=[$http_user_agent]';
    access_log {p}/access.log probe;
    client_body_temp_path {p}/tmp/client;
    proxy_temp_path {p}/tmp/proxy;
    fastcgi_temp_path {p}/tmp/fastcgi;
    uwsgi_temp_path {p}/tmp/uwsgi;
    scgi_temp_path {p}/tmp/scgi;
    types {{ application/json json; }}
    default_type application/octet-stream;
    server {{
        listen 127.0.0.1:{port};
        root {p}/www;
        location / {{
            if (-f $document_root/.fail500) {{ return 500; }}
            if (-f $document_root/.slow) {{ limit_rate 1; }}
        }}
    }}
}}
"""


class Nginx:
    def __init__(self, parent: Path) -> None:
        self.binary = find_nginx()
        self.prefix = Path(tempfile.mkdtemp(prefix="nginx-", dir=parent))
        (self.prefix / "www").mkdir()
        (self.prefix / "tmp").mkdir()
        self.port = free_port()
        (self.prefix / "nginx.conf").write_text(CONFIG.format(p=self.prefix, port=self.port), encoding="utf-8")
        self.mtime = int(time.time()) - 100000
        self.process: Optional[subprocess.Popen[bytes]] = None
        self.start()

    def start(self) -> None:
        """Starts nginx (again, on the same port) and waits until it accepts."""
        p = str(self.prefix)
        self.process = subprocess.Popen(
            [self.binary, "-p", p, "-c", f"{p}/nginx.conf", "-e", f"{p}/error.log"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                _, err = self.process.communicate()
                log = self.prefix / "error.log"
                text = log.read_text(errors="replace") if log.exists() else "(no error log)"
                self.process = None
                pytest.fail(f"nginx exited ({err.decode(errors='replace').strip()}) on port {self.port}: {text}",
                            pytrace=False)
            if accepts(self.port):
                return
            time.sleep(0.01)
        self.stop()
        pytest.fail(f"nginx did not accept connections on port {self.port} within 10 s", pytrace=False)

    def stop(self) -> None:
        """Stops nginx and waits for it to exit. Idempotent."""
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.process.stderr is not None:
            self.process.stderr.close()
        self.process = None

    def destroy(self) -> None:
        self.stop()
        shutil.rmtree(self.prefix, ignore_errors=True)

    def url(self, name: str) -> str:
        return f"http://127.0.0.1:{self.port}/{name}"

    def put(self, name: str, contents: str) -> None:
        """Writes www/name atomically, with a fresh modification time."""
        path = self.prefix / "www" / name
        temporary = path.with_name(path.name + ".tmp")
        temporary.write_bytes(contents.encode("utf-8"))
        self.mtime += 1
        os.utime(temporary, (self.mtime, self.mtime))
        os.replace(temporary, path)

    def _flag(self, name: str, on: bool) -> None:
        flag = self.prefix / "www" / name
        if on:
            flag.write_bytes(b"")
        else:
            flag.unlink(missing_ok=True)

    def fail500(self, on: bool) -> None:
        """on: every request answers 500; off: files are served again."""
        self._flag(".fail500", on)

    def slow(self, on: bool) -> None:
        """on: every file is sent at 1 byte per second; off: at full speed."""
        self._flag(".slow", on)

    def log(self, *needles: str, expected: int = 0) -> List[str]:
        """The access log lines containing every needle. nginx writes a line
        after sending the response, so this waits up to 2 s for ``expected``."""
        deadline = time.monotonic() + 2
        while True:
            path = self.prefix / "access.log"
            lines = path.read_text(errors="replace").splitlines() if path.exists() else []
            found = [line for line in lines if all(n in line for n in needles)]
            if len(found) >= expected or time.monotonic() > deadline:
                return found
            time.sleep(0.01)
