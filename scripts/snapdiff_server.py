"""A `snapdiff serve` process on a free loopback port, for the checks in scripts/ that drive a live server."""

from __future__ import annotations

import http.client
import signal
import socket
import subprocess
import tempfile
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """Starts `binary serve` with `--log-level error` (its log kept for a failure's report) and waits until
    `/readyz` answers 200; `name` prefixes the message when it does not (the check exits)."""

    def __init__(self, binary, name, extra_arguments=(), ready_seconds=30):
        self.port = free_port()
        self.log = tempfile.TemporaryFile()
        self.proc = subprocess.Popen([binary, "serve", "--port", str(self.port), "--log-level", "error", *extra_arguments],
                                     stdout=subprocess.DEVNULL, stderr=self.log)
        deadline = time.time() + ready_seconds
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                conn.request("GET", "/readyz")
                if conn.getresponse().status == 200:
                    conn.close()
                    return
                conn.close()
            except OSError:
                pass
            if self.proc.poll() is not None or time.time() > deadline:
                self.stop()
                raise SystemExit(f"{name}: the server did not become ready:\n{self.log_text()}")
            time.sleep(0.05)

    @property
    def origin(self):
        return f"http://127.0.0.1:{self.port}"

    def log_text(self):
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def alive(self):
        return self.proc.poll() is None

    def stop(self, grace=20):
        """SIGTERM; the exit status, or "hung (killed)"."""
        if self.proc.poll() is not None:
            return self.proc.returncode
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return "hung (killed)"
