#!/usr/bin/env python3
"""The load check behind scripts/load-check (standard library only; needs wrk).

Starts `snapdiff serve --max-body-bytes 65536`, then for DURATION seconds at once:

- wrk -t2 -c64 at saturation with a mix (one of each in turn on every connection): a valid POST /diff (~8 KB),
  a valid POST /layout, malformed JSON (400), duplicate ids (422), an unsupported media type (415), an unknown
  route (404), and a ~130 KB body over the limit (413, answered early with `Connection: close`). Its Lua
  `response()` counts every status and checks every response is well-formed (a JSON object, problem+json for
  4xx with the same `status` inside);
- 200 idle connections held open (each reopened when the server's idle timeout closes it);
- 5 slow clients, each sending a POST /diff whose 47-byte body goes one byte every 100 ms, over and over;
- a probe client sending GET /healthz and a small POST /diff every 100 ms on fresh connections, timing each;
- the server's VmRSS sampled every second from /proc/PID/status.

Passes when: only 200/400/404/413/415/422 statuses and no malformed response; no connect errors or timeouts
in wrk, and no more read/write errors than 413s (the early 413 closes the connection while wrk may still be
writing the body); every slow client answered 200; every probe answered, p99 within 200 ms and the slowest within 1 s;
the max RSS of the last window not above the max of the first window after warm-up × 1.1 + 8 MiB; and the
server exits 0 on SIGTERM afterwards.

    load_check.py --binary PATH --duration SECONDS [--make-requests Benchmarks/service/make_requests.py]
"""
import argparse
import json
import os
import re
import select
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ALLOWED = {200, 400, 404, 413, 415, 422}
PROBE_P99_LIMIT_MS = 200  # a slow-client stall would show as seconds (up to the 30 s idle timeout)
PROBE_MAX_LIMIT_MS = 1000  # a stalled connection thread would show as seconds; a shared machine gives outliers
MAX_BODY = 65536

LUA = r"""
local dir = os.getenv("LOAD_DIR")
local function slurp(name)
  local f = assert(io.open(dir .. "/" .. name, "rb")); local s = f:read("*a"); f:close(); return s
end
local json = { ["Content-Type"] = "application/json" }
local reqs, i = {}, 0
init = function(args)
  reqs = {
    wrk.format("POST", "/diff", json, slurp("small.json")),
    wrk.format("POST", "/layout", json, slurp("layout.json")),
    wrk.format("POST", "/diff", json, '{"old": {"items": [1, 2'),
    wrk.format("POST", "/diff", json, '{"old":{"items":[{"id":1},{"id":1}]},"new":{"items":[]}}'),
    wrk.format("POST", "/diff", { ["Content-Type"] = "text/plain" }, "hello"),
    wrk.format("GET", "/no-such-route", nil, nil),
    wrk.format("POST", "/diff", json, slurp("oversized.json")),
  }
  i = math.random(#reqs) - 1
end
request = function()
  i = i % #reqs + 1
  return reqs[i]
end
counts = {}
malformed = 0
sample = ""
response = function(status, headers, body)
  local key = tostring(status)
  counts[key] = (counts[key] or 0) + 1
  local ct = headers["Content-Type"] or headers["content-type"] or ""
  local ok = body ~= nil and body:match("^%s*{") ~= nil and body:match("}%s*$") ~= nil
  if status >= 400 then
    ok = ok and ct == "application/problem+json" and body:find('"status":' .. status, 1, true) ~= nil
  elseif status == 200 then
    ok = ok and ct == "application/json"
  end
  if not ok then
    malformed = malformed + 1
    if sample == "" then
      sample = (key .. " " .. ct .. " " .. string.sub(body or "", 1, 200)):gsub('[%c"\\]', "?")
    end
  end
end
local threads = {}
setup = function(thread) table.insert(threads, thread) end
done = function(summary, latency, requests)
  local total, bad, text = {}, 0, ""
  for _, t in ipairs(threads) do
    for k, v in pairs(t:get("counts")) do total[k] = (total[k] or 0) + v end
    bad = bad + t:get("malformed")
    if text == "" then text = t:get("sample") end
  end
  local parts = {}
  for k, v in pairs(total) do table.insert(parts, string.format('"%s": %d', k, v)) end
  io.write(string.format('LOADRESULT {"statuses": {%s}, "malformed": %d, "requests": %d, ' ..
    '"connect": %d, "read": %d, "write": %d, "timeout": %d, "latency_p50_ms": %.2f, "latency_p99_ms": %.2f, ' ..
    '"latency_max_ms": %.2f, "sample": "%s"}\n',
    table.concat(parts, ", "), bad, summary.requests, summary.errors.connect, summary.errors.read,
    summary.errors.write, summary.errors.timeout, latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    latency.max / 1000, text))
end
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(binary, *flags):
    port = free_port()
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen([binary, "serve", "--port", str(port), "--log-level", "error", *flags], stderr=log)
    deadline = time.time() + 10
    while time.time() < deadline:
        try:
            status, _, _ = http(port, "GET", "/healthz", timeout=1)
            if status == 200:
                return proc, port, log
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("the server did not come up")


def stop_server(server, grace=20):
    """SIGTERM (unless it has exited), then its exit status, or "hung (killed)" after `grace` seconds."""
    if server.poll() is not None:
        return server.returncode
    server.send_signal(signal.SIGTERM)
    try:
        return server.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
        return "hung (killed)"


class Incomplete(ValueError):
    """The bytes ran out inside a message (a BufferReader's data, or a connection closed too early)."""


class SocketReader:
    """Buffered reads from a socket until `deadline` (time.time()): whole lines, exact byte counts, or all to EOF."""

    def __init__(self, sock, deadline, data=b""):
        self.sock, self.deadline = sock, deadline
        self.buffer, self.pos = bytearray(data), 0
        self.received = None  # set to a bytearray to keep a copy of every byte received

    def _fill(self, what):
        if self.pos > 1 << 20:  # keep the buffer from holding what was consumed
            del self.buffer[:self.pos]
            self.pos = 0
        self.sock.settimeout(max(0.001, self.deadline - time.time()))
        chunk = self.sock.recv(1 << 16)
        if not chunk:
            raise Incomplete(f"closed {what}")
        self.buffer += chunk
        if self.received is not None:
            self.received += chunk

    def line(self, limit, what):
        """The next line, without its CRLF; a bare LF, or no CRLF within `limit` bytes, is a ValueError."""
        while True:
            end = self.buffer.find(b"\r\n", self.pos, self.pos + limit + 2)
            if end >= 0:
                break
            if len(self.buffer) - self.pos > limit + 1:
                start = bytes(self.buffer[self.pos:self.pos + 60])
                raise ValueError(f"{what}: no CRLF within {limit} bytes: {start!r}")
            self._fill(f"inside {what}")
        line = bytes(self.buffer[self.pos:end])
        if b"\n" in line or b"\r" in line:
            raise ValueError(f"{what}: a bare CR or LF in {line[:60]!r}")
        self.pos = end + 2
        return line

    def take(self, n, what):
        while len(self.buffer) - self.pos < n:
            self._fill(f"after {len(self.buffer) - self.pos} of {n} bytes of {what}")
        data = bytes(self.buffer[self.pos:self.pos + n])
        self.pos += n
        return data

    def rest(self):
        """Everything until the peer closes (a reset or the deadline is an error: the end is then unknown)."""
        while True:
            try:
                self._fill("")
            except Incomplete:
                break
        data = bytes(self.buffer[self.pos:])
        self.pos = len(self.buffer)
        return data


class BufferReader(SocketReader):
    """The same reads over bytes already received; running out of them is Incomplete."""

    def __init__(self, data, pos=0):
        super().__init__(None, 0, data)
        self.pos = pos

    def _fill(self, what):
        raise Incomplete(f"the bytes end {what}")

    def rest(self):
        data = bytes(self.buffer[self.pos:])
        self.pos = len(self.buffer)
        return data


TOKEN = r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+"
QUOTED = r'"(?:[\t \x21\x23-\x5b\x5d-\x7e\x80-\xff]|\\[\t \x21-\x7e\x80-\xff])*"'
CHUNK_LINE = re.compile((r"([0-9A-Fa-f]{1,16})((?:[ \t]*;[ \t]*%s(?:[ \t]*=[ \t]*(?:%s|%s))?)*)"
                         % (TOKEN, TOKEN, QUOTED)).encode())
FIELD_LINE = re.compile((r"%s:[ \t]*[\t\x20-\x7e\x80-\xff]*" % TOKEN).encode())
CHUNK_LINE_LIMIT = 4096  # a size line (with extensions) or a trailer field line longer than this is refused


def read_chunked(reader):
    """Decodes a chunked message body (RFC 9112 section 7.1) strictly: each chunk a hex chunk-size with optional
    chunk extensions and CRLF, that many bytes of data and CRLF; then the last chunk `0` (extensions allowed),
    optional trailer fields, and the final CRLF. Returns (body, trailer lines); anything else is a ValueError
    (Incomplete when the bytes end first)."""
    body = bytearray()
    while True:
        line = reader.line(CHUNK_LINE_LIMIT, "a chunk-size line")
        match = CHUNK_LINE.fullmatch(line)
        if not match:
            raise ValueError(f"chunked body: not a chunk-size line: {line[:80]!r} (after {len(body)} body bytes)")
        size = int(match.group(1), 16)
        if size == 0:
            break
        body += reader.take(size, "a chunk's data")
        after = reader.take(2, "the CRLF after a chunk's data")
        if after != b"\r\n":
            raise ValueError(f"chunked body: a chunk of {size} bytes is followed by {after!r}, not CRLF")
    trailers = []
    while True:
        line = reader.line(CHUNK_LINE_LIMIT, "the trailer section")
        if not line:
            return bytes(body), trailers
        if not FIELD_LINE.fullmatch(line):
            raise ValueError(f"chunked body: not a trailer field line: {line[:80]!r}")
        trailers.append(line)


HEAD_LIMIT = 65536
NO_BODY_STATUSES = (204, 304)


def response_head(reader):
    """The status line and header fields: (version, status, {lowercased name: [values]})."""
    status_line = reader.line(HEAD_LIMIT, "the status line").decode("latin-1")
    match = re.fullmatch(r"(HTTP/1\.[01]) ([0-9]{3})(?: .*)?", status_line)
    if not match:
        raise ValueError(f"not an HTTP status line: {status_line!r}")
    fields = {}
    while True:
        line = reader.line(HEAD_LIMIT, "the head")
        if not line:
            return match.group(1), int(match.group(2)), fields
        if not FIELD_LINE.fullmatch(line):
            raise ValueError(f"not a header field line: {line[:80]!r}")
        name, _, value = line.decode("latin-1").partition(":")
        fields.setdefault(name.lower(), []).append(value.strip(" \t"))


def framing(version, status, fields):
    """How the body of a response is delimited: ("length", n), ("chunked", None), ("close", None) or
    ("none", None) (1xx, 204, 304); a response with no valid framing is a ValueError."""
    lengths = fields.get("content-length", [])
    codings = [c.strip().lower() for value in fields.get("transfer-encoding", []) for c in value.split(",")]
    if lengths and "transfer-encoding" in fields:
        raise ValueError(f"both Content-Length {lengths} and Transfer-Encoding {codings} in a {status} response")
    if status < 200 or status in NO_BODY_STATUSES:
        return "none", None
    if "transfer-encoding" in fields:
        if codings != ["chunked"]:
            raise ValueError(f"Transfer-Encoding {codings}: only a single chunked is understood")
        return "chunked", None
    if lengths:
        if len(set(lengths)) != 1 or not re.fullmatch(r"[0-9]+", lengths[0]):
            raise ValueError(f"not one numeric Content-Length: {lengths}")
        return "length", int(lengths[0])
    closes = any(t.strip().lower() == "close" for v in fields.get("connection", []) for t in v.split(","))
    if version == "HTTP/1.0" or closes:
        return "close", None
    raise ValueError(f"no Content-Length in a {version} {status} response, not chunked and not Connection: close")


def read_response(sock, deadline):
    """Reads one HTTP/1.x response; returns (status, headers, body): the headers lowercased (a repeated name
    keeps its last value), the body decoded from its framing, which is Content-Length, chunked (parsed strictly
    by read_chunked), or, with neither, everything until the server closes when the status line is HTTP/1.0 or
    the response says Connection: close (RFC 9112 section 6.3). Content-Length with Transfer-Encoding, or a
    response with no framing at all, is a ValueError; a connection closed inside the response a ConnectionError."""
    reader = SocketReader(sock, deadline)
    try:
        version, status, fields = response_head(reader)
    except Incomplete:  # (fault-check tells "after 0 bytes of headers" apart: closed before any response byte)
        raise ConnectionError(f"closed after {len(reader.buffer)} bytes of headers") from None
    try:
        kind, length = framing(version, status, fields)
        if kind == "length":
            body = reader.take(length, "the body")
        elif kind == "chunked":
            body, _ = read_chunked(reader)
        elif kind == "close":
            body = reader.rest()
        else:
            body = b""
    except Incomplete as error:
        raise ConnectionError(str(error)) from None
    return status, {name: values[-1] for name, values in fields.items()}, body


def http(port, method, path, body=None, content_type="application/json", timeout=10):
    """One request on a fresh connection; returns (status, headers, body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(request_bytes(method, path, body, content_type))
        return read_response(sock, time.time() + timeout)


def request_bytes(method, path, body=None, content_type="application/json"):
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    if body is not None:
        head += f"Content-Type: {content_type}\r\nContent-Length: {len(body)}\r\n"
    return head.encode() + b"\r\n" + (body or b"")


def well_formed(status, headers, body):
    """A JSON object whose content type fits the status (problem+json with the same status for 4xx/5xx)."""
    try:
        value = json.loads(body)
    except ValueError:
        return False
    if not isinstance(value, dict):
        return False
    if status >= 400:
        return headers.get("content-type") == "application/problem+json" and value.get("status") == status
    return headers.get("content-type") == "application/json"


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


TINY_DIFF = b'{"old":{"items":[{"id":1}]},"new":{"items":[]}}'
SMALL_DIFF = b'{"old":{"items":[{"id":1},{"id":2},{"id":3}]},"new":{"items":[{"id":3},{"id":1,"v":2}]}}'
LAYOUT = {"settings": {"containerWidth": 375, "scale": 3, "columns": 2, "columnSpacing": 8, "itemSpacing": 8},
          "items": [{"id": f"p{i}", "aspectRatio": 0.5 + (i % 7) / 4} for i in range(40)], "pageSize": 20}


def write_bodies(work, make_requests):
    subprocess.run([sys.executable, make_requests, work], check=True)
    with open(f"{work}/layout.json", "w") as f:
        json.dump(LAYOUT, f, separators=(",", ":"))
    with open(f"{work}/oversized.json", "w") as f:
        f.write('{"old":{"items":[' + ",".join(f'{{"id":{i},"pad":"{"x" * 40}"}}' for i in range(2200))
                + ']},"new":{"items":[]}}')
    assert os.path.getsize(f"{work}/oversized.json") > MAX_BODY
    with open(f"{work}/load.lua", "w") as f:
        f.write(LUA)


class Background:
    """The slow clients, idle connections and probe, each on its own thread until `stop` is set."""

    def __init__(self, port, idle, slow):
        self.port, self.idle, self.slow = port, idle, slow
        self.stop = threading.Event()
        self.probe_ms, self.probe_at, self.probe_failures = [], [], []
        self.started = time.time()
        self.slow_answers, self.slow_failures = 0, []
        self.idle_closed_by_server, self.idle_open_failures = 0, 0
        self.threads = [threading.Thread(target=self.hold_idle, daemon=True),
                        threading.Thread(target=self.probe, daemon=True)]
        self.threads += [threading.Thread(target=self.slow_client, args=(n,), daemon=True) for n in range(slow)]

    def start(self):
        for t in self.threads:
            t.start()

    def join(self):
        self.stop.set()
        for t in self.threads:
            t.join(timeout=15)

    def open_idle(self):
        try:
            return socket.create_connection(("127.0.0.1", self.port), timeout=5)
        except OSError:
            self.idle_open_failures += 1
            return None

    def hold_idle(self):
        socks = [s for s in (self.open_idle() for _ in range(self.idle)) if s]
        while not self.stop.wait(0.5):
            readable, _, _ = select.select(socks, [], [], 0)
            for s in readable:  # only EOF can arrive on a connection that never sent anything
                s.close()
                socks.remove(s)
                self.idle_closed_by_server += 1
            while len(socks) < self.idle and not self.stop.is_set():
                s = self.open_idle()
                if s is None:
                    break
                socks.append(s)
        for s in socks:
            s.close()

    def slow_client(self, n):
        head = request_bytes("POST", "/diff", TINY_DIFF)[:-len(TINY_DIFF)]
        while not self.stop.is_set():
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=10) as sock:
                    sock.sendall(head)
                    for i in range(len(TINY_DIFF)):
                        sock.sendall(TINY_DIFF[i:i + 1])
                        if self.stop.wait(0.1):
                            return
                    status, headers, body = read_response(sock, time.time() + 10)
                    if status == 200 and well_formed(status, headers, body):
                        self.slow_answers += 1
                    else:
                        self.slow_failures.append(f"slow client {n}: {status} {body[:100]!r}")
            except (OSError, ValueError) as error:
                self.slow_failures.append(f"slow client {n}: {error}")
                self.stop.wait(1)

    def probe(self):
        requests = [("GET", "/healthz", None), ("POST", "/diff", SMALL_DIFF)]
        n = 0
        while not self.stop.wait(0.1):
            method, path, body = requests[n % 2]
            n += 1
            start = time.perf_counter()
            try:
                status, headers, answer = http(self.port, method, path, body, timeout=10)
                elapsed = (time.perf_counter() - start) * 1000
                if status != 200 or not well_formed(status, headers, answer):
                    self.probe_failures.append(f"{method} {path}: {status} {answer[:100]!r}")
                self.probe_ms.append(elapsed)
                self.probe_at.append(time.time() - self.started)
            except (OSError, ValueError) as error:
                self.probe_failures.append(f"{method} {path}: {error}")


def install_hint():
    return "apt-get install -y wrk"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--duration", type=int, default=60)
    parser.add_argument("--make-requests", default="Benchmarks/service/make_requests.py")
    parser.add_argument("--idle", type=int, default=200)
    parser.add_argument("--slow", type=int, default=5)
    args = parser.parse_args()
    duration = args.duration
    warmup = min(10, max(2, duration // 6))
    window = min(10, max(2, duration // 5))

    problems = []
    with tempfile.TemporaryDirectory() as work:
        write_bodies(work, args.make_requests)
        server, port, log = start_server(args.binary, "--max-body-bytes", str(MAX_BODY))
        try:
            rss_start = rss_kib(server.pid)
            background = Background(port, args.idle, args.slow)
            background.start()
            time.sleep(1)
            wrk = subprocess.Popen(
                ["wrk", "-t2", "-c64", f"-d{duration}s", "--timeout", "5s", "-s", f"{work}/load.lua",
                 f"http://127.0.0.1:{port}"],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, "LOAD_DIR": work})
            rss = []
            started = time.time()
            while wrk.poll() is None:
                rss.append((time.time() - started, rss_kib(server.pid)))
                time.sleep(1)
            output = wrk.stdout.read()
            background.join()
            rss_end = rss_kib(server.pid)
            alive = server.poll() is None
        finally:
            exit_code = stop_server(server)
            log.seek(0)
            server_log = log.read().decode(errors="replace")

    lines = [line for line in output.splitlines() if line.startswith("LOADRESULT ")]
    if not lines:
        print(output)
        raise SystemExit("load-check: wrk printed no result")
    result = json.loads(lines[0][len("LOADRESULT "):])
    statuses = {int(k): v for k, v in result["statuses"].items()}

    print(f"wrk -t2 -c64 -d{duration}s (mix of 7 requests), {args.idle} idle connections, {args.slow} slow clients, "
          f"probe every 100 ms; server --max-body-bytes {MAX_BODY}, {os.cpu_count()} cores")
    print(f"wrk: {result['requests']} responses ({result['requests'] / duration:.0f}/s), statuses "
          + ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items()))
          + f"; malformed {result['malformed']}; socket errors connect {result['connect']} read {result['read']} "
          f"write {result['write']} timeout {result['timeout']}; latency p50 {result['latency_p50_ms']:.1f} ms "
          f"p99 {result['latency_p99_ms']:.1f} ms max {result['latency_max_ms']:.1f} ms")
    unexpected = {k: v for k, v in statuses.items() if k not in ALLOWED}
    if unexpected:
        problems.append(f"unexpected statuses {unexpected}")
    if result["malformed"]:
        problems.append(f"{result['malformed']} malformed responses, e.g. {result['sample']}")
    if result["connect"] or result["timeout"]:
        problems.append(f"wrk connect errors {result['connect']}, timeouts {result['timeout']}")
    if result["read"] + result["write"] > statuses.get(413, 0):
        problems.append(f"wrk read+write errors {result['read'] + result['write']} exceed the 413s ({statuses.get(413, 0)})")
    for status in ALLOWED:
        if statuses.get(status, 0) == 0:
            problems.append(f"no {status} at all: the mix did not run")

    probes = background.probe_ms
    if probes:
        p99 = sorted(probes)[max(0, int(len(probes) * 0.99) - 1)]
        slowest = probes.index(max(probes))
        print(f"probe: {len(probes)} answered, {len(background.probe_failures)} failed; latency p50 "
              f"{statistics.median(probes):.1f} ms, p99 {p99:.1f} ms (limit {PROBE_P99_LIMIT_MS}), max "
              f"{max(probes):.1f} ms at {background.probe_at[slowest]:.0f} s (limit {PROBE_MAX_LIMIT_MS})")
    if not probes or background.probe_failures:
        problems.append(f"probe failures: {background.probe_failures[:5]}")
    elif p99 > PROBE_P99_LIMIT_MS or max(probes) > PROBE_MAX_LIMIT_MS:
        problems.append(f"probes too slow: p99 {p99:.0f} ms, max {max(probes):.0f} ms")
    print(f"slow clients: {background.slow_answers} requests with the body sent a byte per 100 ms answered 200, "
          f"{len(background.slow_failures)} failed")
    if background.slow_failures or background.slow_answers == 0:
        problems.append(f"slow clients: {background.slow_answers} answered, failures {background.slow_failures[:5]}")
    print(f"idle connections: {args.idle} held; closed by the server's idle timeout: {background.idle_closed_by_server}; "
          f"failed to open: {background.idle_open_failures}")
    if background.idle_open_failures:
        problems.append(f"{background.idle_open_failures} idle connections could not be opened")

    base = [kib for t, kib in rss if warmup <= t < warmup + window]
    last = [kib for t, kib in rss if t >= duration - window]
    if base and last:
        limit = max(base) * 1.1 + 8 * 1024
        print(f"RSS (MiB): at start {rss_start / 1024:.1f}; max {max(base) / 1024:.1f} in {warmup}–{warmup + window} s "
              f"(after warm-up); max {max(last) / 1024:.1f} in the last {window} s (limit {limit / 1024:.1f}); "
              f"peak {max(k for _, k in rss) / 1024:.1f}; after the run {rss_end / 1024:.1f}")
        print("RSS samples (MiB, 1/s): " + " ".join(f"{k / 1024:.0f}" for _, k in rss))
        if max(last) > limit:
            problems.append(f"RSS grew: {max(last) / 1024:.1f} MiB > {limit / 1024:.1f} MiB")
    else:
        problems.append("too few RSS samples")

    if not alive:
        problems.append("the server died during the run")
    print(f"server exit after SIGTERM: {exit_code}")
    if exit_code != 0:
        problems.append(f"the server exited {exit_code} after SIGTERM")
    if server_log.strip():
        print("server log:\n" + server_log[-2000:])
    if problems:
        sys.stdout.flush()
        print("load-check: FAILED\n  " + "\n  ".join(problems), file=sys.stderr)
        sys.exit(1)
    print("load-check: passed")


if __name__ == "__main__":
    main()
