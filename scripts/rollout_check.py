#!/usr/bin/env python3
"""The rollout check behind scripts/rollout-check (issue 34; standard library only, plus Debian's haproxy).

Three `snapdiff serve` replicas on loopback ports, started with the Deployment's environment (read from
deploy/kubernetes/deployment.yaml; the memory budget its 512Mi limit gives, 416 MiB, set explicitly since no
cgroup limits these processes) and one shared cursor key list, behind HAProxy run from deploy/haproxy/haproxy.cfg
as it is (only its environment variables are set: the listen address, the stats socket, the replicas'
addresses). Then:

1. References: every request body the clients use is answered once by replica s1 directly (not through HAProxy):
   those answers are the reference every answer through HAProxy must equal (a layout page without its
   `nextCursor`, which depends on the sealing key).
2. Framing: scripts/edge_check.py's request-smuggling and framing vectors, each on a fresh connection to HAProxy
   with an `X-Request-ID: rollout-vector-N` header added after its request line, sent whole, then half-closed.
   Per vector: at most one response comes back, and HAProxy's log line for that id (or none, when HAProxy refused
   the head itself) has the status the client got. Over all: the replicas logged no more requests than HAProxy
   forwarded, and none of them is the smuggled `GET /smuggled`. The table is printed (HARDENING.md keeps one).
3. Load, through HAProxy, for the whole run: 3 clients of small /diffs (8 bodies), 1 client of gzip-encoded
   /diffs that asks for gzip answers (4 bodies, each under HAProxy's buffer), 1 client of 1, 3 and 5 MB /diffs,
   1 client uploading a 1 MB /diff over ~2 s (a slow network: a large request is nearly always in flight),
   2 /layout clients paging 6 pages of 20 items with cursors (HAProxy balances each request, so consecutive pages
   land on different replicas: counted from the replicas' logs), 1 probe client (GET /readyz and /healthz every
   100 ms), and 1 client replaying cursors handed out at the start (sealed with the first key) every 0.5 s. Every
   request carries its own X-Request-ID, so HAProxy's log (the retries, the server, the termination state) and the
   replicas' logs (which replica and process answered) are joined to what the client saw.
4. Under that load, in turn:
   - rolling restarts: for each replica, drain it on HAProxy's stats socket (what an ingress controller does
     when a pod leaves the Service's endpoints), wait the Deployment's preStop sleep while it finishes what it has,
     SIGTERM it, require exit 0 within terminationGracePeriodSeconds, start the replacement (with the next
     key list), wait for its /readyz, put it back in HAProxy and wait until HAProxy's own health check has it UP;
     only then the next replica;
   - the key rotation, one step per roll as the README says: `old` -> `old,new` -> `new,old` -> `new` in the long
     form (3 rolls), `old,new` -> `new,old` in the short form (1 roll);
   - crashes: `kill -9` of a replica that has had a request in flight for a second or more (HAProxy's `show
     sess`: the slow upload, usually), then, once HAProxy has it DOWN, its restart (what the kubelet does),
     waited for until UP.

Counted per phase (steady, each roll, each crash): every status, connection errors, resets, answers cut or closed
before their head, cursors refused, answers that differ from their reference, latency p50/p99/max per client kind.

Asserted (counts, never times): outside crashes, every request answered 200 and equal to its reference: 0
failures, 0 resets, 0 cursors refused, except a cursor sealed with the key the last rotation step drops, refused
by a replica that no longer has it (counted apart, and required: once every replica has dropped it, the cursors
saved at the start are refused by each replica, and before that last step they are accepted by each). During a
crash: no request sent after the kill may fail (HAProxy holds it whole and retries it elsewhere, whether the
dead replica's connection is refused, closed or reset); a failure is expected only for a request in flight on the crashed replica at the kill (sent
before it, and HAProxy's log shows that replica aborting; or, for a body over tune.bufsize, HAProxy logged no
line and no replica answered it): a body over tune.bufsize cannot be replayed; a smaller one HAProxy holds whole
(option http-buffer-request) and replays elsewhere, even one sent in the milliseconds after the kill while the
dying process's sockets still take bytes (HARDENING.md). Each is printed.
Each replacement became ready before the next
replica stopped; every SIGTERMed replica exited 0; some consecutive layout pages were answered by different
replicas; every client kind ran in every phase.

    rollout_check.py --binary PATH [--long] [--rolls N --crashes N] [--capacity]
    rollout_check.py --binary PATH --break drain       the same with the drain step left out (expect failures)
    rollout_check.py --binary PATH --break retries     retry-on none, no redispatch (a crash then fails requests)
    rollout_check.py --binary PATH --break rotation    rotate in two steps, `old` -> `new,old` (cursors refused)
    rollout_check.py --binary PATH --break framing     without the file's Content-Length rule (a smuggled request)
"""
import argparse
import base64
import collections
import gzip
import hashlib
import hmac
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from load_check import free_port  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
HAPROXY_CFG = os.path.join(ROOT, "deploy/haproxy/haproxy.cfg")
DEPLOYMENT = os.path.join(ROOT, "deploy/kubernetes/deployment.yaml")
BUDGET = "416Mi"  # what the Deployment's 512Mi limit gives (deployment.yaml's sizing)
REPLAYABLE = 16384 - 1024  # tune.bufsize minus tune.maxrewrite's default: a request HAProxy can replay whole
KEYS = {"old": "rollout-check-old-key-0123456789", "new": "rollout-check-new-key-9876543210"}
SETTINGS = {"containerWidth": 375, "scale": 3, "columns": 2, "columnSpacing": 8, "itemSpacing": 8}
PAGE, PAGES = 20, 6

problems = []


def check(condition, message):
    print(("  ok    " if condition else "  FAIL  ") + message, flush=True)
    if not condition:
        problems.append(message)
    return condition


# -------------------------------------------------------------------------------------------- the manifests

def deployment_settings():
    """The container's environment (plain values), preStop sleep and termination grace from deployment.yaml."""
    text = open(DEPLOYMENT).read()
    env = dict(re.findall(r'- name: (SNAPDIFF_[A-Z_]+)\n\s+value: "([^"]*)"', text))
    pre_stop = int(re.search(r"preStop:\s+sleep:\s+seconds: (\d+)", text).group(1))
    grace = int(re.search(r"terminationGracePeriodSeconds: (\d+)", text).group(1))
    return env, pre_stop, grace


def tag(payload, secret):
    return hmac.new(hashlib.sha256(secret.encode()).digest(), payload, hashlib.sha256).digest()[:16]


def sealing_key(cursor):
    """Which of KEYS sealed a cursor (CursorCodec: base64url of payload + HMAC-SHA256(SHA-256(secret))[:16])."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
    except ValueError:
        return None
    for name, secret in KEYS.items():
        if hmac.compare_digest(tag(raw[:-16], secret), raw[-16:]):
            return name
    return None


# -------------------------------------------------------------------------------------------- the processes

class Replica:
    """One `snapdiff serve` process (a generation of server sN), its log in a file of its own."""

    def __init__(self, name, generation, port, binary, keys, env, work, cpu=None, extra=()):
        self.name, self.generation, self.port, self.keys = name, generation, port, keys
        self.log_path = f"{work}/{name}.{generation}.log"
        environment = {**os.environ, **env, "SNAPDIFF_HOST": "127.0.0.1", "SNAPDIFF_PORT": str(port),
                       "SNAPDIFF_MEMORY_BUDGET": BUDGET,
                       "SNAPDIFF_CURSOR_KEY": ",".join(KEYS[k] for k in keys.split(","))}
        # Any other port the Deployment sets (a probe listener's, say) gets a free one per process: the replicas
        # share one host here, not one pod each.
        for name in env:
            if name.endswith("_PORT") and name != "SNAPDIFF_PORT":
                environment[name] = str(free_port())
        command = [binary, "serve", *extra]
        if cpu is not None:
            command = ["taskset", "-c", str(cpu)] + command
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log, env=environment)
        self.started = time.time()

    def wait_ready(self, timeout=20):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"rollout-check: {self.name} exited {self.proc.returncode} at start:\n"
                                 + open(self.log_path).read()[-2000:])
            try:
                c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                c.request("GET", "/readyz")
                if c.getresponse().status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.05)
        raise SystemExit(f"rollout-check: {self.name} not ready within {timeout} s")

    def log_entries(self):
        entries = []
        with open(self.log_path, errors="replace") as f:
            for line in f:
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue
                if isinstance(entry, dict) and entry.get("message") == "request":
                    entries.append(entry)
        return entries


class HAProxy:
    def __init__(self, config, port, replicas, work, cpu=None):
        self.socket_path = f"{work}/haproxy.sock"
        self.log_path = f"{work}/haproxy.log"
        self.port = port
        env = {**os.environ, "SNAPDIFF_LB_BIND": f"127.0.0.1:{port}", "HAPROXY_STATS_SOCKET": self.socket_path}
        for n, replica in enumerate(replicas, 1):
            env[f"SNAPDIFF_S{n}"] = f"127.0.0.1:{replica.port}"
        command = ["haproxy", "-db", "-f", config]
        if cpu is not None:
            command = ["taskset", "-c", str(cpu)] + command
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)

    def command(self, line):
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(5)
            s.connect(self.socket_path)
            s.sendall(line.encode() + b"\n")
            out = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    return out.decode()
                out += chunk

    def statuses(self):
        """{server: status} from `show stat` (UP, DOWN, DRAIN, MAINT, "UP 1/2", ...)."""
        lines = self.command("show stat").splitlines()
        header = lines[0].lstrip("# ").split(",")
        result = {}
        for line in lines[1:]:
            row = dict(zip(header, line.split(",")))
            if row.get("pxname") == "snapdiff" and row.get("svname") not in ("FRONTEND", "BACKEND", None):
                result[row["svname"]] = row["status"]
        return result

    def wait_status(self, server, wanted, timeout=30):
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                if self.statuses().get(server) == wanted:
                    return True
            except OSError:
                pass
            time.sleep(0.05)
        return False

    def log_entries(self):
        """HAProxy's httplog lines: {request id: [entry]} (an id may appear twice if a client resent it)."""
        pattern = re.compile(r'\] (\S+) (\S+)/(\S+) (\S+) (-?\d+) (\d+) \S+ \S+ (\S{4}) '
                             r'\d+/\d+/\d+/\d+/(\+?\d+) \d+/\d+ \{([^}]*)\} "(.*)"$')
        found = collections.defaultdict(list)
        with open(self.log_path, errors="replace") as f:
            for line in f:
                m = pattern.search(line.rstrip("\n"))
                if not m:
                    continue
                found[m.group(9)].append({
                    "server": m.group(3), "timers": m.group(4), "status": int(m.group(5)), "state": m.group(7),
                    "retries": m.group(8), "line": line.strip()})
        return found


# ----------------------------------------------------------------------------------------------- the bodies

def small_bodies(rng):
    bodies = []
    for n in range(8):
        old = [{"id": f"s{n}-{i}", "title": f"Item {i}", "likes": rng.randrange(100)} for i in range(20 + 5 * n)]
        new = [dict(item) for item in old if rng.random() > 0.15]
        rng.shuffle(new[:6])
        for item in new[::4]:
            item["likes"] += 1
        new += [{"id": f"s{n}-new-{i}", "title": "fresh"} for i in range(3)]
        bodies.append(json.dumps({"old": {"items": old}, "new": {"items": new},
                                  "options": {"renderings": ["staged", "sequential"]}}).encode())
    return bodies


def gzip_bodies(rng):
    bodies = []
    for n in range(4):
        sections = []
        for s in range(8):
            sections.append({"id": f"sec{s}", "items": [{"id": f"g{n}-{s}-{i}", "title": f"Photo {i} of {s}",
                                                         "w": 400 + i % 5, "h": 300} for i in range(60)]})
        newer = json.loads(json.dumps(sections))
        for section in newer:
            section["items"] = [i for k, i in enumerate(section["items"]) if k % (5 + n)]
            section["items"].reverse() if n % 2 else None
            section["items"][0]["title"] = "edited"
        plain = json.dumps({"old": {"sections": sections}, "new": {"sections": newer}}).encode()
        packed = gzip.compress(plain, 6)
        assert len(packed) < REPLAYABLE - 1024, len(packed)
        bodies.append((plain, packed))
    return bodies


def large_bodies(rng, sizes_mb=(1, 3, 5)):
    bodies = []
    for mb in sizes_mb:
        count = int(mb * 1_000_000 / 150)
        old = [{"id": f"L{mb}-{i:07d}", "title": f"A large list's item number {i}", "likes": i % 97}
               for i in range(count)]
        new = [dict(item) for item in old if rng.random() > 0.002]
        for k in range(0, len(new), 997):
            new[k]["likes"] += 1
        for _ in range(40):
            a, b = rng.randrange(len(new)), rng.randrange(len(new))
            new[a], new[b] = new[b], new[a]
        new += [{"id": f"L{mb}-new-{i}", "title": "inserted"} for i in range(50)]
        body = json.dumps({"old": {"items": old}, "new": {"items": new}}, separators=(",", ":")).encode()
        bodies.append(body)
    return bodies


def layout_sequences():
    sequences = []
    for n in range(3):
        items = [{"id": f"p{n}-{i}", "aspectRatio": 0.5 + ((i * (n + 3)) % 9) / 6} for i in range(PAGE * PAGES)]
        sequences.append([items[k * PAGE:(k + 1) * PAGE] for k in range(PAGES)])
    return sequences


def layout_body(items, cursor=None):
    body = {"settings": SETTINGS, "items": items, "pageSize": PAGE}
    if cursor:
        body["cursor"] = cursor
    return json.dumps(body).encode()


def without_cursor(answer):
    value = json.loads(answer)
    cursor = value.pop("nextCursor", None)
    return value, cursor


# ---------------------------------------------------------------------------------------------- the clients

class Ledger:
    """Every request a client made: what it was and what it saw."""

    def __init__(self):
        self.lock = threading.Lock()
        self.records = []
        self.counter = 0

    def next_id(self, kind):
        with self.lock:
            self.counter += 1
            return f"rc-{kind}-{self.counter}"

    def add(self, record):
        with self.lock:
            self.records.append(record)


class Connection:
    """A keep-alive connection to HAProxy, reopened after any failure."""

    def __init__(self, port):
        self.port, self.conn = port, None

    def close(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def send(self, method, path, body=None, headers=None):
        """(outcome, status, headers, answer): outcome "answered", or how the exchange failed."""
        if self.conn is None:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        try:
            self.conn.request(method, path, body=body, headers=headers or {})
            response = self.conn.getresponse()
            answer = response.read()
            fields = {k.lower(): v for k, v in response.getheaders()}
            if response.will_close:
                self.close()
            if fields.get("content-encoding") == "gzip":
                answer = gzip.decompress(answer)
            return "answered", response.status, fields, answer
        except http.client.RemoteDisconnected:  # (a ConnectionResetError too: caught first)
            outcome = "closed before the answer"
        except (ConnectionResetError, BrokenPipeError) as error:
            outcome = f"reset ({type(error).__name__})"
        except http.client.IncompleteRead:
            outcome = "answer cut"
        except ConnectionRefusedError:
            outcome = "connection refused"
        except (socket.timeout, TimeoutError):
            outcome = "timeout"
        except (OSError, http.client.HTTPException, EOFError, gzip.BadGzipFile) as error:
            outcome = f"connection error ({type(error).__name__}: {error})"
        self.close()
        return outcome, None, {}, b""


class Load:
    """The client threads; each loops until `stop`, recording every request in the ledger."""

    def __init__(self, port, refs, ledger):
        self.port, self.refs, self.ledger = port, refs, ledger
        self.stop = threading.Event()
        self.threads = []

    def spawn(self, target, *args):
        t = threading.Thread(target=target, args=args, daemon=True)
        self.threads.append(t)
        t.start()

    def start(self):
        for n in range(3):
            self.spawn(self.small, n)
        self.spawn(self.gzipped)
        self.spawn(self.large)
        self.spawn(self.slow_large)
        for n in range(2):
            self.spawn(self.layout, n)
        self.spawn(self.probe)
        self.spawn(self.saved)

    def join(self):
        self.stop.set()
        for t in self.threads:
            t.join(timeout=150)

    def request(self, conn, kind, method, path, body=None, headers=None, wire_size=None, **extra):
        rid = self.ledger.next_id(kind)
        fields = {"X-Request-ID": rid}
        if body is not None:
            fields["Content-Type"] = "application/json"
        fields.update(headers or {})
        start = time.time()
        outcome, status, answer_fields, answer = conn.send(method, path, body, fields)
        end = time.time()
        record = {"id": rid, "kind": kind, "start": start, "end": end, "outcome": outcome, "status": status,
                  "size": wire_size if wire_size is not None else len(body or b""), "ok": False, **extra}
        return record, answer_fields, answer

    def judge_bytes(self, record, answer, reference):
        if record["outcome"] == "answered":
            if record["status"] != 200:
                record["outcome"] = f"status {record['status']}"
                record["detail"] = answer[:200].decode("utf-8", "replace")
            elif answer != reference:
                record["outcome"] = "answer differs from the reference"
                record["detail"] = answer[:200].decode("utf-8", "replace")
            else:
                record["ok"] = True
        self.ledger.add(record)

    def small(self, n):
        conn, rng = Connection(self.port), random.Random(n)
        bodies = self.refs["small"]
        while not self.stop.is_set():
            k = rng.randrange(len(bodies))
            record, _, answer = self.request(conn, "small", "POST", "/diff", bodies[k][0])
            self.judge_bytes(record, answer, bodies[k][1])
            self.stop.wait(0.02)
        conn.close()

    def gzipped(self):
        conn, rng = Connection(self.port), random.Random(7)
        while not self.stop.is_set():
            plain, packed, reference = rng.choice(self.refs["gzip"])
            record, fields, answer = self.request(conn, "gzip", "POST", "/diff", packed,
                                                  {"Content-Encoding": "gzip", "Accept-Encoding": "gzip"})
            record["gzip_answer"] = fields.get("content-encoding") == "gzip"
            self.judge_bytes(record, answer, reference)
            self.stop.wait(0.05)
        conn.close()

    def large(self):
        conn, n = Connection(self.port), 0
        while not self.stop.is_set():
            body, reference = self.refs["large"][n % len(self.refs["large"])]
            n += 1
            record, _, answer = self.request(conn, "large", "POST", "/diff", body)
            self.judge_bytes(record, answer, reference)
            self.stop.wait(0.1)
        conn.close()

    def slow_large(self):
        """A 1 MB /diff uploaded over about 2 s (32 KiB every 60 ms), as from a slow network: such a request is
        in flight most of the time, and over tune.bufsize, so HAProxy cannot replay it."""
        conn = Connection(self.port)
        while not self.stop.is_set():
            body, reference = self.refs["large"][0]

            def pieces():
                for at in range(0, len(body), 32768):
                    yield body[at:at + 32768]
                    time.sleep(0.06)

            record, _, answer = self.request(conn, "slow-large", "POST", "/diff", pieces(),
                                             {"Content-Length": str(len(body))}, wire_size=len(body))
            self.judge_bytes(record, answer, reference)
            self.stop.wait(0.1)
        conn.close()

    def layout_page(self, conn, kind, sequence, page, cursor):
        body = layout_body(self.refs["layout"][sequence][page][0], cursor)
        record, _, answer = self.request(conn, kind, "POST", "/layout", body, sequence=sequence, page=page,
                                         cursor_key=sealing_key(cursor) if cursor else None)
        next_cursor = None
        if record["outcome"] == "answered":
            if record["status"] == 200:
                try:
                    value, next_cursor = without_cursor(answer)
                except ValueError:
                    value = None
                record["issued_key"] = sealing_key(next_cursor) if next_cursor else None
                if value != self.refs["layout"][sequence][page][1]:
                    record["outcome"] = "answer differs from the reference"
                    record["detail"] = answer[:200].decode("utf-8", "replace")
                elif page < PAGES - 1 and not next_cursor:
                    record["outcome"] = "no nextCursor"
                else:
                    record["ok"] = True
            elif cursor and record["status"] == 400 and b"invalid-cursor" in answer:
                record["outcome"] = "cursor refused"
            else:
                record["outcome"] = f"status {record['status']}"
                record["detail"] = answer[:200].decode("utf-8", "replace")
        self.ledger.add(record)
        return record, next_cursor

    def layout(self, n):
        conn, rng, walk = Connection(self.port), random.Random(100 + n), 0
        while not self.stop.is_set():
            sequence, cursor, walk = rng.randrange(len(self.refs["layout"])), None, walk + 1
            for page in range(PAGES):
                record, cursor = self.layout_page(conn, "layout", sequence, page, cursor)
                record["walk"] = f"{n}-{walk}"
                if not record["ok"]:
                    break  # start again from the first page, as a client would
                self.stop.wait(0.03)
        conn.close()

    def probe(self):
        conn, n = Connection(self.port), 0
        while not self.stop.is_set():
            path = ("/readyz", "/healthz")[n % 2]
            n += 1
            record, _, answer = self.request(conn, "probe", "GET", path)
            if record["outcome"] == "answered":
                if record["status"] == 200:
                    record["ok"] = True
                else:
                    record["outcome"] = f"status {record['status']}"
                    record["detail"] = answer[:200].decode("utf-8", "replace")
            self.ledger.add(record)
            self.stop.wait(0.1)
        conn.close()

    def saved(self):
        """Replays the cursors handed out before the rotation (each the second page of a sequence)."""
        conn, n = Connection(self.port), 0
        while not self.stop.is_set():
            sequence, cursor = self.refs["saved"][n % len(self.refs["saved"])]
            n += 1
            self.layout_page(conn, "saved-cursor", sequence, 1, cursor)
            self.stop.wait(0.5)
        conn.close()


# --------------------------------------------------------------------------------------------- the framing

def with_request_id(data, rid):
    """The vector with `X-Request-ID: rid` added after its request line (None when it has no HTTP/1.x line)."""
    at = data.find(b" HTTP/1.")
    end = data.find(b"\r\n", at) if at >= 0 else -1
    if end < 0:
        return None
    return data[:end + 2] + b"X-Request-ID: " + rid.encode() + b"\r\n" + data[end + 2:]


def framing(hap, processes):
    """edge_check's vectors through HAProxy, each on a fresh connection (sent whole, then a half-close). Per
    vector: at most one response reaches the client, and HAProxy's log line for its id has the status the client
    got. Over all: the replicas logged no more requests than HAProxy forwarded (a request a replica found inside
    another one's bytes would be one more), and none of them is the smuggled `GET /smuggled`."""
    import concurrent.futures
    import edge_check
    vectors = [(n, v) for n, v in enumerate(edge_check.VECTORS) if v.kind in ("error", "http10", "control")]
    # Found behind HAProxy: a Content-Length HAProxy 2.6.12 reads modulo 2^64, with the smuggled GET as the body.
    for value in (b"18446744073709551616", b"18446744073709551651"):
        vectors.append((len(edge_check.VECTORS) + len(vectors), edge_check.Vector(
            f"behind HAProxy: Content-Length: {value.decode()}, smuggled GET as body",
            edge_check.post(b"Content-Length: " + value, body=edge_check.SMUGGLED), 413)))
    print(f"(framing) {len(vectors)} request-smuggling and framing vectors of scripts/edge_check.py through HAProxy")

    def requests_logged():
        return [e for r in processes for e in r.log_entries() if e.get("path") != "/readyz"]

    def forwarded():
        return [e for entries in hap.log_entries().values() for e in entries if e["server"] != "<NOSRV>"]

    before, lb_before = len(requests_logged()), len(forwarded())

    def run(item):
        n, vector = item
        rid = f"rollout-vector-{n}"
        result = edge_check.exchange(hap.port, with_request_id(vector.data, rid), half_close=True, timeout=10)
        return n, vector, rid, result

    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        outcomes = list(pool.map(run, vectors))
    time.sleep(1)
    logged = requests_logged()[before:]
    lb = hap.log_entries()
    lb_forwarded = len(forwarded()) - lb_before
    smuggled = sum(1 for e in logged if str(e.get("path", "")).startswith("/smuggled"))
    rows = []
    for n, vector, rid, result in outcomes:
        responses, error = result.parse()
        got = ", ".join(r.summary() for r in responses) or "no response"
        lines = lb.get(rid, [])
        by = ", ".join(f"{'HAProxy itself' if e['server'] == '<NOSRV>' else e['server']}: {e['status']}"
                       for e in lines) or "no log line"
        agree = error is None and len(responses) <= 1 and len(lines) <= 1 and \
            (not lines or (responses and responses[0].status == lines[0]["status"]))
        rows.append((vector.name, f"{got}, then {result.end}" + (f" (unparsable: {error})" if error else ""), by,
                     agree))
        check(agree, f"{vector.name}: the client got {got}, then {result.end}; HAProxy's log: {by}")
    check(len(logged) <= lb_forwarded, f"the replicas logged {len(logged)} requests, no more than HAProxy forwarded "
          f"({lb_forwarded}; fewer when HAProxy refused a body it had begun to forward): no replica found a request "
          f"inside another")
    check(smuggled == 0, f"the smuggled `GET /smuggled` reached no replica (log lines with it: {smuggled})")
    return rows, smuggled


# ------------------------------------------------------------------------------------------------ the run

class Fleet:
    def __init__(self, args, work):
        self.args, self.work = args, work
        self.env, self.pre_stop, self.grace = deployment_settings()
        self.replicas, self.processes, self.exits, self.phases, self.order = [], [], [], [], []
        self.generation = collections.Counter()

    def start_replica(self, name, port, keys):
        self.generation[name] += 1
        replica = Replica(name, self.generation[name], port, self.args.binary, keys, self.env, self.work)
        self.processes.append(replica)
        return replica

    def roll(self, index, keys, hap, drain=True):
        old = self.replicas[index]
        began = time.time()
        if drain:
            hap.command(f"set server snapdiff/{old.name} state drain")
        time.sleep(self.pre_stop)  # the preStop sleep: it still serves what it has
        old.proc.send_signal(signal.SIGTERM)
        try:
            code = old.proc.wait(timeout=self.grace - self.pre_stop)
        except subprocess.TimeoutExpired:
            old.proc.kill()
            old.proc.wait()
            code = "SIGKILL after terminationGracePeriodSeconds"
        stopped = time.time()
        self.exits.append((f"{old.name}.{old.generation}", code, round(stopped - began - self.pre_stop, 2)))
        new = self.start_replica(old.name, old.port, keys)
        new.wait_ready()
        if drain:
            hap.command(f"set server snapdiff/{old.name} state ready")
        up = hap.wait_status(old.name, "UP", 30)
        check(up, f"{new.name}.{new.generation} ({keys}) is UP in HAProxy before the next replica stops "
              f"(stopped {stopped - began - self.pre_stop:.1f} s after SIGTERM, exit {code})")
        self.replicas[index] = new
        self.order.append((old.name, began, stopped, time.time()))

    def crash(self, index, hap, load):
        """kill -9 a replica that has a request in flight for a second or more (the slow upload, as HAProxy's
        `show sess` tells: srv= and age=), else replica `index` after 10 s; then its restart."""
        victim, deadline = None, time.time() + 10
        while victim is None and time.time() < deadline:
            for line in hap.command("show sess").splitlines():
                m = re.search(r" srv=(s\d+) .*?age=(\S+)", line)
                if m and m.group(2) not in ("0s",):
                    victim = next(i for i, r in enumerate(self.replicas) if r.name == m.group(1))
                    break
            else:
                time.sleep(0.05)
        index = index if victim is None else victim
        victim = self.replicas[index]
        killed = time.time()
        victim.proc.kill()
        victim.proc.wait()
        down = hap.wait_status(victim.name, "DOWN", 20)
        new = self.start_replica(victim.name, victim.port, victim.keys)
        new.wait_ready()
        up = hap.wait_status(victim.name, "UP", 30)
        check(down and up, f"kill -9 {victim.name}.{victim.generation}: HAProxy had it DOWN, then its restart UP "
              f"{time.time() - killed:.1f} s after the kill")
        self.replicas[index] = new
        return killed, time.time(), victim.name


def references(replica, rng):
    conn = Connection(replica.port)

    def answer(body, headers=None):
        outcome, status, _, data = conn.send("POST", "/diff", body, {"Content-Type": "application/json",
                                                                      **(headers or {})})
        if outcome != "answered" or status != 200:
            raise SystemExit(f"rollout-check: the reference request failed: {outcome} {status} {data[:300]!r}")
        return data

    refs = {"small": [(b, answer(b)) for b in small_bodies(rng)]}
    refs["gzip"] = [(plain, packed, answer(plain)) for plain, packed in gzip_bodies(rng)]
    refs["large"] = [(b, answer(b)) for b in large_bodies(rng)]
    refs["layout"] = []
    for sequence in layout_sequences():
        pages, cursor = [], None
        for items in sequence:
            outcome, status, _, data = conn.send("POST", "/layout", layout_body(items, cursor),
                                                 {"Content-Type": "application/json"})
            if outcome != "answered" or status != 200:
                raise SystemExit(f"rollout-check: the reference layout failed: {outcome} {status} {data[:300]!r}")
            value, cursor = without_cursor(data)
            pages.append((items, value))
        refs["layout"].append(pages)
    conn.close()
    sizes = [len(b) for b, _ in refs["large"]]
    print(f"references from {replica.name} directly: {len(refs['small'])} small /diff bodies "
          f"({min(len(b) for b, _ in refs['small'])}-{max(len(b) for b, _ in refs['small'])} B), "
          f"{len(refs['gzip'])} gzip bodies ({', '.join(str(len(p)) for _, p, _ in refs['gzip'])} B gzipped, "
          f"{', '.join(str(len(p)) for p, _, _ in refs['gzip'])} B plain), large /diff bodies of "
          f"{', '.join(f'{s / 1e6:.1f}' for s in sizes)} MB, {len(refs['layout'])} layout sequences of {PAGES} pages")
    return refs


def percentile(values, p):
    if not values:
        return 0.0
    values = sorted(values)
    return values[min(len(values) - 1, max(0, int(round(p / 100 * len(values))) - 1))]


def analyse(ledger, fleet, hap, windows, dropped_at, initial_seal):
    """Judges every record; prints the counts per phase; returns the violations."""
    keys_of = {(r.name, r.generation): r.keys.split(",") for r in fleet.processes}
    served = collections.defaultdict(list)  # request id -> [(name, generation, status)]
    for replica in fleet.processes:
        for entry in replica.log_entries():
            served[str(entry.get("request_id", ""))].append((replica.name, replica.generation,
                                                            int(entry.get("status", 0))))
    lb = hap.log_entries()

    def window_of(record):
        for kind in ("crash", "roll"):
            for w in windows:
                if w["kind"] == kind and record["start"] < w["end"] and record["end"] > w["start"]:
                    return w
        return None

    violations, expected = [], []
    by_phase = collections.OrderedDict()
    for w in [{"label": "steady"}] + windows:
        by_phase[w["label"]] = {"kinds": collections.defaultdict(collections.Counter),
                                "latency": collections.defaultdict(list), "retried": 0, "expected": 0}
    for record in sorted(ledger.records, key=lambda r: r["start"]):
        w = window_of(record)
        phase = by_phase[w["label"] if w else "steady"]
        phase["kinds"][record["kind"]][record["outcome"] if not record["ok"] else "200 ok"] += 1
        phase["latency"][record["kind"]].append((record["end"] - record["start"]) * 1000)
        entries = lb.get(record["id"], [])
        if any(e["retries"] not in ("0", "+0") for e in entries):
            phase["retried"] += 1
        if record["ok"]:
            continue
        where = served.get(record["id"], [])
        lb_text = "; ".join(f"HAProxy: {e['server']} {e['status']} {e['state']} retries {e['retries']}"
                            for e in entries) or "no HAProxy log line"
        detail = " " + " ".join(record["detail"][:120].split()) if record.get("detail") else ""
        text = (f"{record['id']} {record['kind']} ({record['size']} B) {record['outcome']}{detail}; {lb_text}; "
                "replicas: " + (", ".join(f"{n}.{g} {s}" for n, g, s in where) or "none"))
        if record["outcome"] == "cursor refused":
            dropped = [k for k, t in dropped_at.items() if t <= record["start"]]
            refusers = [(n, g) for n, g, s in where if s == 400]
            lacking = refusers and all(record["cursor_key"] not in keys_of[r] for r in refusers)
            if record["cursor_key"] in dropped and lacking:
                expected.append("dropped key: " + text)
                phase["expected"] += 1
                continue
        elif w is not None and w["kind"] == "crash":
            # In flight on the victim when it was killed (sent before the kill): HAProxy's log shows the victim and a
            # server-side abort, or, for a body over tune.bufsize, there is no log line at all and no replica saw
            # it. HAProxy replays only a request it held whole when it began sending it (option
            # http-buffer-request makes it wait for that): a larger body's failure on a dying replica closes the
            # kept-alive client connection without an answer or a log line (HAProxy's abort_keep_alive), or is
            # logged as the victim's abort. Anything else must not fail: a request HAProxy holds whole is replayed
            # on another replica whether the victim's connection is refused, closed or reset, also when it was
            # sent in the milliseconds after the kill in which the dying process's sockets still take bytes
            # (HARDENING.md, "Rollout behind HAProxy").
            on_victim = any(e["server"] == w["victim"] and e["state"][0] == "S" for e in entries)
            unlogged = not entries and not where
            if record["start"] < w["start"] and (on_victim or (unlogged and record["size"] > REPLAYABLE)):
                why = "body over tune.bufsize, not replayable" if record["size"] > REPLAYABLE else \
                    "replayable, but not replayed by HAProxy"
                expected.append(f"in flight on {w['victim']} when killed, {why}: " + text)
                phase["expected"] += 1
                phase.setdefault("in_flight", collections.Counter())[why] += 1
                continue
            if unlogged and record["outcome"] == "closed before the answer":
                text += (" (closed by HAProxy without an answer or a log line: a replica's reset with no retry, "
                         "HAProxy's abort_keep_alive; was the request held whole, option http-buffer-request?)")
        violations.append(f"[{w['label'] if w else 'steady'}] " + text)

    for label, phase in by_phase.items():
        total = sum(sum(c.values()) for c in phase["kinds"].values())
        print(f"  {label}: {total} requests, {phase['retried']} retried by HAProxy, "
              f"{phase['expected']} expected failures"
              + (f" ({', '.join(f'{v} {k}' for k, v in phase['in_flight'].items())})" if "in_flight" in phase else ""))
        for kind, counts in sorted(phase["kinds"].items()):
            lat = phase["latency"][kind]
            print(f"      {kind:13} " + ", ".join(f"{k}: {v}" for k, v in counts.most_common())
                  + f"; latency p50 {statistics.median(lat):.0f} ms, p99 {percentile(lat, 99):.0f} ms, "
                  f"max {max(lat):.0f} ms")
    everything = [(r["end"] - r["start"]) * 1000 for r in ledger.records]
    small = [(r["end"] - r["start"]) * 1000 for r in ledger.records if r["kind"] == "small"]
    print(f"  all: {len(ledger.records)} requests, latency p99 {percentile(everything, 99):.0f} ms "
          f"(small /diff p99 {percentile(small, 99):.0f} ms)")
    for line in expected[:12]:
        print("      expected: " + line)
    if len(expected) > 12:
        print(f"      ... and {len(expected) - 12} more expected failures")

    # Consecutive layout pages answered by different replicas (and by processes with different key lists).
    walks = collections.defaultdict(list)
    for r in ledger.records:
        if r["kind"] == "layout" and r["ok"]:
            walks[r["walk"]].append(r)
    pairs = hops = cross_keys = 0
    for pages in walks.values():
        pages.sort(key=lambda r: r["page"])
        for a, b in zip(pages, pages[1:]):
            if b["page"] != a["page"] + 1:
                continue
            sa = [x for x in served.get(a["id"], []) if x[2] == 200]
            sb = [x for x in served.get(b["id"], []) if x[2] == 200]
            if sa and sb:
                pairs += 1
                hops += sa[-1][0] != sb[-1][0]
                cross_keys += keys_of[sa[-1][:2]] != keys_of[sb[-1][:2]]
    issued = collections.Counter(r.get("issued_key") for r in ledger.records if r.get("issued_key"))
    print(f"  layout: {pairs} consecutive page pairs, {hops} of them answered by different replicas, "
          f"{cross_keys} by processes with different key lists; cursors issued by key: {dict(issued)}")
    check(hops > 0, "consecutive layout pages were answered by different replicas")
    check(initial_seal in issued, f"cursors sealed with `{initial_seal}` were handed out")
    return violations, expected


def plan(args):
    """(initial keys, [keys of each roll]) and the number of crashes."""
    if "rotation" in args.break_:
        return "old", ["new,old", "new"][:max(1, args.rolls or 1)], args.crashes if args.crashes is not None else 0
    if args.long:
        return "old", ["old,new", "new,old", "new"], 3 if args.crashes is None else args.crashes
    rolls = ["new,old", "new"][:args.rolls or 1]
    return "old,new", rolls, 1 if args.crashes is None else args.crashes


def run(args):
    initial, rolls, crashes = plan(args)
    config = HAPROXY_CFG
    work = tempfile.mkdtemp(prefix="rollout-check-")
    if "retries" in args.break_ or "framing" in args.break_:  # negative experiments: the same file, less a rule
        text = open(HAPROXY_CFG).read()
        if "retries" in args.break_:
            text = re.sub(r"\n\s+retry-on [^\n]*", "\n    retry-on none", text)
            text = re.sub(r"\n\s+option redispatch[^\n]*", "\n    no option redispatch", text)
        if "framing" in args.break_:
            text = re.sub(r"\n\s+http-request deny [^\n]*content-length[^\n]*", "", text)
        config = f"{work}/haproxy-broken.cfg"
        open(config, "w").write(text)
    fleet = Fleet(args, work)
    print(f"rollout-check: 3 replicas ({args.binary}), HAProxy {config}; Deployment env {fleet.env}, "
          f"memory budget {BUDGET}, preStop {fleet.pre_stop} s, terminationGracePeriodSeconds {fleet.grace}; "
          f"keys {initial} then " + " -> ".join(rolls) + f"; {crashes} crash(es)"
          + (f"; BROKEN ON PURPOSE: {args.break_}" if args.break_ else ""), flush=True)
    hap = None
    load = None
    try:
        for n in range(3):
            fleet.replicas.append(fleet.start_replica(f"s{n + 1}", free_port(), initial))
        for r in fleet.replicas:
            r.wait_ready()
        hap = HAProxy(config, free_port(), fleet.replicas, work)
        for r in fleet.replicas:
            if not hap.wait_status(r.name, "UP", 20):
                raise SystemExit("rollout-check: HAProxy did not have every replica UP:\n" + open(hap.log_path).read())
        refs = references(fleet.replicas[0], random.Random(34))
        rows, smuggled = framing(hap, fleet.processes) if not args.no_framing else ([], 0)

        # Cursors handed out before the rotation, through HAProxy.
        conn, saved = Connection(hap.port), []
        for sequence, pages in enumerate(refs["layout"]):
            outcome, status, _, data = conn.send("POST", "/layout", layout_body(pages[0][0]),
                                                 {"Content-Type": "application/json"})
            if outcome == "answered" and status == 200:
                saved.append((sequence, json.loads(data)["nextCursor"]))
        conn.close()
        initial_seal = initial.split(",")[0]
        check(len(saved) == len(refs["layout"]) and all(sealing_key(c) == initial_seal for _, c in saved),
              f"{len(saved)} cursors saved before the rotation, sealed with `{initial_seal}`")
        refs["saved"] = saved

        ledger = Ledger()
        load = Load(hap.port, refs, ledger)
        load.start()
        windows, dropped_at = [], {}
        time.sleep(args.steady)
        keys = initial
        for number, next_keys in enumerate(rolls, 1):
            began = time.time()
            for k in set(keys.split(",")) - set(next_keys.split(",")):
                dropped_at[k] = began
            print(f"(roll {number}) keys {keys} -> {next_keys}", flush=True)
            for index in range(3):
                fleet.roll(index, next_keys, hap, drain="drain" not in args.break_)
            windows.append({"kind": "roll", "label": f"roll {number} ({keys} -> {next_keys})", "start": began,
                            "end": time.time() + 1})
            keys = next_keys
            time.sleep(args.steady)
        for number in range(crashes):
            print(f"(crash {number + 1})", flush=True)
            killed, up, victim = fleet.crash(number % 3, hap, load)
            windows.append({"kind": "crash", "label": f"crash {number + 1} (kill -9 {victim})", "start": killed,
                            "end": up + 1, "victim": victim})
            time.sleep(args.steady)
        load.join()
        running = sum(t.is_alive() for t in load.threads)
        check(running == 0, f"every client finished ({running} still running)")

        # The saved cursors, on each replica directly: accepted while their key is listed, refused once dropped.
        final = keys.split(",")
        for r in fleet.replicas:
            conn = Connection(r.port)
            answers = []
            for sequence, cursor in saved:
                outcome, status, _, data = conn.send("POST", "/layout", layout_body(refs["layout"][sequence][1][0],
                                                                                   cursor),
                                                     {"Content-Type": "application/json"})
                answers.append((status, b"invalid-cursor" in data))
            conn.close()
            if initial_seal in final:
                check(all(s == 200 for s, _ in answers), f"{r.name} ({keys}) still opens the cursors saved at the "
                      f"start: {answers}")
            else:
                check(all(s == 400 and refused for s, refused in answers), f"{r.name} ({keys}) refuses the cursors "
                      f"sealed with the dropped key `{initial_seal}` (400 invalid-cursor): {[s for s, _ in answers]}")

        print("(results) what the clients saw, per phase (a request belongs to the phase it overlaps)")
        time.sleep(0.5)
        violations, expected = analyse(ledger, fleet, hap, windows, dropped_at, initial_seal)
        for w in windows:
            kinds = {r["kind"] for r in ledger.records if r["start"] < w["end"] and r["end"] > w["start"]}
            check(kinds >= {"small", "gzip", "large", "slow-large", "layout", "probe", "saved-cursor"},
                  f"every client kind ran during {w['label']}: {sorted(kinds)}")
        for line in violations[:25]:
            print("      FAILED: " + line)
        check(not violations, f"no request failed, was reset, had a cursor refused or got an answer other than its "
              f"reference, except the expected ones ({len(expected)}): {len(violations)} violations")
        codes = [c for _, c, _ in fleet.exits]
        check(all(c == 0 for c in codes), "every SIGTERMed replica exited 0: " +
              ", ".join(f"{n} {c} ({t} s)" for n, c, t in fleet.exits))
        if rows:
            print("(framing table)\n| vector | the client got | HAProxy's log (who answered) | agree |\n"
                  "|---|---|---|---|")
            for name, got, replica, agree in rows:
                print(f"| {name} | {got} | {replica} | {'yes' if agree else 'NO'} |")
    finally:
        if load is not None:
            load.stop.set()
        for r in fleet.replicas:
            if r.proc.poll() is None:
                r.proc.send_signal(signal.SIGTERM)
        for r in fleet.replicas:
            try:
                code = r.proc.wait(timeout=fleet.grace)
            except subprocess.TimeoutExpired:
                r.proc.kill()
                code = "hung"
            if code != 0 and code != -9:
                problems.append(f"{r.name}.{r.generation} exited {code} at the end")
        if hap is not None:
            hap.proc.terminate()
            try:
                hap.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                hap.proc.kill()
        if args.keep:
            print(f"logs kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


CAPACITY_LUA = r"""
local f = assert(io.open(os.getenv("CAPACITY_BODY"), "rb")); local body = f:read("*a"); f:close()
local pause = tonumber(os.getenv("CAPACITY_DELAY_MS"))
local req
init = function(args) req = wrk.format("POST", "/diff", { ["Content-Type"] = "application/json" }, body) end
request = function() return req end
delay = function() return pause end
local statuses = {}
response = function(status) statuses[status] = (statuses[status] or 0) + 1 end
done = function(summary, latency, requests)
  io.write(string.format('CAPACITY {"requests": %d, "errors": %d, "non2xx": %d, "p50": %.3f, "p99": %.3f, '
    .. '"max": %.3f, "seconds": %.3f}\n', summary.requests, summary.errors.connect + summary.errors.read
    + summary.errors.write + summary.errors.timeout, summary.errors.status, latency:percentile(50) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000, summary.duration / 1e6))
end
"""


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def capacity(args):
    """Item 5: the small-/diff rate one replica on one core sustains through HAProxy with p99 under 50 ms.

    The replica runs with the Deployment's environment but one connection thread and one compute thread, pinned
    to CPU 1 (taskset); HAProxy (its other servers in maintenance) and wrk are pinned to CPU 0. wrk keeps 32
    connections, each pausing (wrk's delay()) so that together they offer the target rate; each rate runs
    --steady seconds (10 by default here), rising until two rates in a row miss (p99 50 ms or more, or errors),
    then one step without pauses (saturation). wrk's pause is per connection and each answer's latency adds to it,
    so the achieved rate runs below the offered one: the achieved rate is the figure. Prints offered and achieved
    rates, p50/p99/max, the replica's CPU use and the load average; a measurement, nothing is asserted."""
    work = tempfile.mkdtemp(prefix="rollout-capacity-")
    env, _, _ = deployment_settings()
    env = {**env, "SNAPDIFF_THREADS": "1", "SNAPDIFF_COMPUTE_THREADS": "1", "SNAPDIFF_LOG_LEVEL": "warning"}
    seconds = args.steady if args.steady != 3.0 else 10.0
    replica = Replica("s1", 1, free_port(), args.binary, "old", env, work, cpu=1)
    replica.wait_ready()
    idle = [type("Idle", (), {"port": free_port()})() for _ in range(2)]
    hap = HAProxy(HAPROXY_CFG, free_port(), [replica] + idle, work, cpu=0)
    try:
        hap.wait_status("s1", "UP", 20)
        for name in ("s2", "s3"):
            hap.command(f"set server snapdiff/{name} state maint")
        body = small_bodies(random.Random(34))[0]
        with open(f"{work}/body.json", "wb") as f:
            f.write(body)
        with open(f"{work}/rate.lua", "w") as f:
            f.write(CAPACITY_LUA)
        connections = 32
        print(f"capacity: one replica (SNAPDIFF_THREADS=1, SNAPDIFF_COMPUTE_THREADS=1, taskset -c 1), HAProxy and "
              f"wrk on CPU 0, a {len(body)} B /diff, {connections} connections, {seconds:.0f} s per rate")
        print("| offered req/s | achieved req/s | p50 ms | p99 ms | max ms | errors | replica CPU (cores) "
              "| load average |")
        print("|---|---|---|---|---|---|---|---|")
        best, misses = None, 0
        for rate in (500, 1000, 2000, 3000, 4000, 5000, 6000, 8000, 10000, 12000, 16000, None):
            if rate is not None and misses >= 2:
                continue  # two paced rates in a row missed (p99, rate or errors): only the saturation step is left
            pause = 0 if rate is None else int(connections * 1000 / rate)
            before, began = cpu_seconds(replica.proc.pid), time.time()
            out = subprocess.run(["taskset", "-c", "0", "wrk", "-t1", f"-c{connections}", f"-d{seconds:.0f}s",
                                  "--timeout", "5s", "-s", f"{work}/rate.lua", f"http://127.0.0.1:{hap.port}/diff"],
                                 capture_output=True, text=True,
                                 env={**os.environ, "CAPACITY_BODY": f"{work}/body.json",
                                      "CAPACITY_DELAY_MS": str(pause)}).stdout
            used = (cpu_seconds(replica.proc.pid) - before) / (time.time() - began)
            line = [l for l in out.splitlines() if l.startswith("CAPACITY ")]
            if not line:
                print(out)
                break
            result = json.loads(line[0][len("CAPACITY "):])
            achieved = result["requests"] / result["seconds"]
            load = open("/proc/loadavg").read().split()[:3]
            print(f"| {rate or 'no pause (saturation)'} | {achieved:.0f} | {result['p50']:.1f} | {result['p99']:.1f} | "
                  f"{result['max']:.1f} | {result['errors'] + result['non2xx']} | {used:.2f} | {' '.join(load)} |",
                  flush=True)
            good = result["p99"] < 50 and not result["errors"] and not result["non2xx"]
            if good and (best is None or achieved > best[1]):
                best = (rate or "no pause", achieved, used, result["p99"])
            misses = 0 if good else misses + 1
            if rate is None:
                print(f"capacity: at saturation {achieved:.0f} req/s, {used:.2f} cores of the replica, so "
                      f"{used / achieved * 1e6:.0f} us of the replica's CPU per small /diff")
        if best:
            print(f"capacity: the highest rate with p99 under 50 ms: {best[1]:.0f} req/s (offered {best[0]}), p99 "
                  f"{best[3]:.1f} ms, {best[2]:.2f} cores of the replica")
    finally:
        replica.proc.send_signal(signal.SIGTERM)
        replica.proc.wait(timeout=30)
        hap.proc.terminate()
        hap.proc.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--long", action="store_true", help="3 rolls (old -> old,new -> new,old -> new), 3 crashes")
    parser.add_argument("--rolls", type=int)
    parser.add_argument("--crashes", type=int)
    parser.add_argument("--steady", type=float, default=3.0, help="seconds of plain load between the steps")
    parser.add_argument("--break", dest="break_", default="",
                        help="comma-separated: drain, retries, rotation, framing (negative experiments: the check "
                             "must fail)")
    parser.add_argument("--no-framing", action="store_true")
    parser.add_argument("--keep", action="store_true", help="keep the logs (printed directory)")
    parser.add_argument("--capacity", action="store_true", help="measure one replica's small-/diff capacity")
    args = parser.parse_args()
    unknown = set(filter(None, args.break_.split(","))) - {"drain", "retries", "rotation", "framing"}
    if unknown:
        parser.error(f"--break: unknown {sorted(unknown)}")
    started = time.time()
    if args.capacity:
        capacity(args)
        return
    run(args)
    print(f"rollout-check: {time.time() - started:.0f} s")
    if problems:
        print("rollout-check: FAILED\n  " + "\n  ".join(problems[:30]), file=sys.stderr)
        sys.exit(1)
    print("rollout-check: passed")


if __name__ == "__main__":
    main()
