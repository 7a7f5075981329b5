#!/usr/bin/env python3
"""The limits check behind scripts/limits-check (standard library only).

Starts `snapdiff serve` with the settings of deploy/kubernetes/deployment.yaml (its SNAPDIFF_* variables and
its memory limit), inside a memory cgroup with that limit when this machine lets us make one (as root, cgroup
v1 or v2), so that the server sizes its budget from the cgroup as it does in a pod and the kernel enforces the
limit. Then, all at once, every round:

- 4 clients each send a /diff of tiny items ({"id": n}, the worst shape per byte) at the body limit;
- 1 client sends the /diff with the largest peak per byte measured (BENCHMARKS.md): every item moved, updated and
  laid out, every rendering with ids, pretty-printed, at the body limit;
- 1 client sends a /layout of ~1 M items in 64 columns (the largest answer per byte of body);
- 20 clients send a ~5 MB /layout (a ~19 MB answer each) with 4 KiB receive buffers and never read it;
- a separate probe process sends GET /healthz to the probe port (the Deployment's SNAPDIFF_PROBE_PORT, which its
  liveness and readiness probes use) every 50 ms on a fresh connection, with the kubelet's 2 s timeout, and times
  each answer; another does the same on the service's port every 100 ms (where load balancers health-check).

Then, the connection-limit phase (issue 34): twice the Deployment's connection limit of clients each send a valid
/diff one byte every 100 ms (reconnecting when cut), for --trickle-seconds, while one probe process polls
GET /healthz on the probe port and another on the service's port, every 100 ms, fresh connections, 2 s timeout.

Then, the gzip phase (issue 34): one client loops a valid identity /diff and one the same /diff gzipped (about
14.7 MiB each), for --gzip-seconds alone, then as long again beside 4 clients looping gzip bombs (64 KB that
decode to 64 MiB, past the body limit).

It passes when:
- the server's peak RSS (VmHWM) stays at or below the Deployment's memory limit (and the cgroup never killed it);
- every answer the reading clients got is 200, or 503 problem+json with Retry-After;
- every /healthz on the probe port answered 200 (within the probe's 2 s timeout), from the first round's start to
  the last round's end, and all through the connection-limit phase; and every one on the service's port from the
  first round's start to the last round's end (large requests compute off its connection threads); latencies are
  printed, and recorded in HARDENING.md, never asserted: this machine's cores are shared;
- every bomb is answered 413, and a valid gzip /diff is never 503 unless an identity one was too (the valid
  clients' rate with and without the bombs is printed, and recorded in HARDENING.md);
- the never-reading clients lost their connections within the send timeout plus the idle timeout (and their
  answers' memory came back: the budget's reserved bytes return to 0);
- afterwards the server still answers a small /diff, and it exits 0 on SIGTERM.

    limits_check.py --binary PATH [--rounds N] [--trickle-seconds S] [--gzip-seconds S]
                    [--deployment deploy/kubernetes/deployment.yaml]
"""
import argparse
import gzip
import json
import os
import re
import resource
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from load_check import SMALL_DIFF, free_port, http, read_response, request_bytes, stop_server  # noqa: E402

PROBE_TIMEOUT_S = 2  # the Deployment's timeoutSeconds
NEVER_READING = 20
TRICKLE_INTERVAL_S = 0.1


def deployment_settings(path):
    """The SNAPDIFF_* variables and the memory limit (bytes) of the Deployment's container."""
    text = open(path).read()
    env = dict(re.findall(r'- name: (SNAPDIFF_[A-Z_]+)\s+value: "([^"]*)"', text))
    resources = text.index("resources:")
    limits = text[text.index("limits:", resources):]
    quantity = re.search(r"memory:\s*(\d+)(Ki|Mi|Gi)?", limits)
    scale = {None: 1, "Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30}[quantity.group(2)]
    return env, int(quantity.group(1)) * scale


def make_cgroup(limit):
    """A new memory cgroup with `limit`, as (procs file to join, cleanup), or None when this machine has none."""
    try:
        lines = open("/proc/self/cgroup").read().splitlines()
    except OSError:
        return None
    name = f"snapdiff-limits-{os.getpid()}"
    for line in lines:
        number, controllers, path = line.split(":", 2)
        if number == "0" and controllers == "" and os.path.exists("/sys/fs/cgroup/cgroup.controllers"):
            base, limit_file = f"/sys/fs/cgroup{path.rstrip('/')}", "memory.max"
        elif "memory" in controllers.split(","):
            base, limit_file = f"/sys/fs/cgroup/memory{path.rstrip('/')}", "memory.limit_in_bytes"
        else:
            continue
        group = f"{base}/{name}"
        try:
            os.mkdir(group)
            with open(f"{group}/{limit_file}", "w") as handle:
                handle.write(str(limit))
            if limit_file == "memory.limit_in_bytes":  # v1: no swap beyond the limit either, where supported
                try:
                    with open(f"{group}/memory.memsw.limit_in_bytes", "w") as handle:
                        handle.write(str(limit))
                except OSError:
                    pass
        except OSError:
            try:
                os.rmdir(group)
            except OSError:
                pass
            continue

        def cleanup(group=group):
            for _ in range(50):
                try:
                    os.rmdir(group)
                    return
                except OSError:
                    time.sleep(0.1)
        return f"{group}/cgroup.procs", cleanup
    return None


def tiny_diff(body_limit):
    """A /diff of {"id": n} items, as many as fit below the limit; new is old reversed (every item but one moves)."""
    count = body_limit // 20
    while True:
        old = ",".join('{"id":%d}' % i for i in range(count))
        new = ",".join('{"id":%d}' % i for i in range(count - 1, -1, -1))
        body = ('{"old":{"items":[%s]},"new":{"items":[%s]}}' % (old, new)).encode()
        if len(body) <= body_limit:
            return body
        count = int(count * body_limit / len(body) * 0.999)


def everything_diff(body_limit):
    """The /diff with the largest peak per body byte measured (shapes.py's diff-everything): one section, new
    shuffled with half the aspect ratios changed, a 1-column layout, every rendering, changedMembers, ids, pretty."""
    import random
    options = {"renderings": ["staged", "sequential", "ranges", "jsonPatch"], "changedMembers": True, "ids": True,
               "pretty": True, "layouts": [{"section": "s", "settings": {"containerWidth": 1024, "columns": 1}}]}
    count = body_limit // 50
    while True:
        order = list(range(count))
        random.Random(6).shuffle(order)
        old = ",".join('{"id":%d,"aspectRatio":1}' % i for i in range(count))
        new = ",".join('{"id":%d,"aspectRatio":%s}' % (i, "2" if i % 2 == 0 else "1") for i in order)
        body = ('{"old":{"sections":[{"id":"s","items":[%s]}]},"new":{"sections":[{"id":"s","items":[%s]}]},'
                '"options":%s}' % (old, new, json.dumps(options, separators=(",", ":")))).encode()
        if len(body) <= body_limit:
            return body
        count = int(count * body_limit / len(body) * 0.999)


def layout(items, columns):
    body = {"settings": {"containerWidth": 1024, "scale": 2, "columns": columns},
            "items": [{"id": f"p{i}", "aspectRatio": 0.5 + (i % 13) / 8} for i in range(items)]}
    return json.dumps(body, separators=(",", ":")).encode()


def exchange(port, path, body, results, label):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=120) as sock:
            sock.sendall(request_bytes("POST", path, body))
            status, headers, answer = read_response(sock, time.time() + 120)
        results.append((label, status, headers, answer))
    except (OSError, ValueError) as error:
        results.append((label, None, {}, repr(error).encode()))


def never_read(port, body, sockets, results):
    """Sends a request and keeps the connection without reading; a request refused while it is still being sent
    (503 for the memory budget, which closes the connection) is read instead and recorded with the answers."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    try:
        sock.sendall(request_bytes("POST", "/layout", body))
    except OSError:
        try:
            status, headers, answer = read_response(sock, time.time() + 10)
            results.append(("refused never-read /layout", status, headers, answer))
        except (OSError, ValueError) as error:
            # The server closed while the body was still coming: the kernel may turn its answer into a reset.
            results.append(("refused never-read /layout (reset)", 503, {"retry-after": "?",
                            "content-type": "application/problem+json"}, repr(error).encode()))
        sock.close()
        return
    sockets.append(sock)


PROBE = r"""
import json, os, socket, sys, time
port, stop, interval, timeout = int(sys.argv[1]), sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
latencies, failed = [], []
while not os.path.exists(stop):
    start = time.perf_counter()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: probe\r\nConnection: close\r\n\r\n")
            data = b""
            while time.perf_counter() - start < timeout:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                data += chunk
        error = None if data.startswith(b"HTTP/1.1 200") else "answer " + repr(data[:40])
    except OSError as exception:
        error = type(exception).__name__
    elapsed = (time.perf_counter() - start) * 1000
    if error is None and elapsed <= timeout * 1000:
        latencies.append(round(elapsed, 2))
    else:
        failed.append(error or "over %.0f ms" % (timeout * 1000))
    time.sleep(interval)
print(json.dumps({"latencies": latencies, "failed": failed}))
"""


def exchange_loop(port, body, headers, until, outcomes, label):
    """Sends `body` (with extra `headers`) on a fresh connection after each answer until `until`; counts
    (label, status) in `outcomes`; a connection error counts as status None."""
    head = (f"POST /diff HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n{headers}\r\n").encode()
    while time.time() < until:
        status = None
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
                try:
                    sock.sendall(head + body)
                except OSError:
                    pass  # refused early (a bomb's 413): the answer is still there to read
                status, headers_in, answer = read_response(sock, time.time() + 60)
                if status == 503 and "retry-after" not in headers_in:
                    status = "503 without Retry-After"
        except (OSError, ValueError):
            pass
        outcomes[(label, status)] = outcomes.get((label, status), 0) + 1


def gzip_window(port, valid, valid_gzip, bomb, seconds, bombers):
    """One window of the gzip phase: the two valid clients, and `bombers` bomb clients; the outcome counts."""
    outcomes = {}
    until = time.time() + seconds
    threads = [threading.Thread(target=exchange_loop, args=(port, valid, "", until, outcomes, "identity")),
               threading.Thread(target=exchange_loop,
                                args=(port, valid_gzip, "Content-Encoding: gzip\r\n", until, outcomes, "gzip"))]
    threads += [threading.Thread(target=exchange_loop,
                                 args=(port, bomb, "Content-Encoding: gzip\r\n", until, outcomes, "bomb"))
                for _ in range(bombers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def start_probe(port, stop_file, interval):
    """A probe process polling GET /healthz on `port` until `stop_file` exists (see PROBE)."""
    return subprocess.Popen([sys.executable, "-c", PROBE, str(port), stop_file, str(interval), str(PROBE_TIMEOUT_S)],
                            stdout=subprocess.PIPE, text=True)


def probe_result(probe):
    return json.loads(probe.communicate(timeout=60)[0])


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


def describe(result):
    latencies = result["latencies"]
    return (f"{len(latencies) + len(result['failed'])} probes, {len(result['failed'])} failed; "
            f"latency median {percentile(latencies, 0.5):.1f} ms, p99 {percentile(latencies, 0.99):.1f} ms, "
            f"max {max(latencies, default=float('nan')):.1f} ms")


def trickle(port, clients, seconds, request):
    """`clients` connections each sending `request` one byte every TRICKLE_INTERVAL_S for `seconds`, reconnecting
    when the server cuts one (a 408 at the request timeout, a reset) and starting over when one is sent whole.
    Returns (connections made, requests sent whole, connections cut)."""
    sockets = [None] * clients
    sent = [0] * clients
    made = whole = cut = 0
    deadline = time.time() + seconds
    while time.time() < deadline:
        tick = time.time()
        for index in range(clients):
            sock = sockets[index]
            if sock is None:
                sock = socket.socket()
                sock.setblocking(False)
                sock.connect_ex(("127.0.0.1", port))
                sockets[index], sent[index] = sock, 0
                made += 1
                continue
            try:
                sent[index] += sock.send(request[sent[index]:sent[index] + 1])
            except BlockingIOError:
                continue  # still connecting (the listen backlog), or the kernel's buffer is full
            except OSError:
                sock.close()
                sockets[index] = None
                cut += 1
                continue
            if sent[index] == len(request):
                whole += 1
                sock.close()
                sockets[index] = None
        time.sleep(max(0.0, TRICKLE_INTERVAL_S - (time.time() - tick)))
    for sock in sockets:
        if sock is not None:
            sock.close()
    return made, whole, cut


def status_of(pid, field):
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    return 0


def metric(port, name):
    _, _, text = http(port, "GET", "/metrics", timeout=10)
    for line in text.decode().splitlines():
        if line.startswith(name + " ") or line.startswith(name + "{"):
            return float(line.split()[-1])
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--gzip-seconds", type=float, default=10,
                        help="length of each window of the gzip phase (default 10; the long form 30)")
    parser.add_argument("--trickle-seconds", type=float, default=12,
                        help="length of the connection-limit phase (default 12; the long form 60)")
    parser.add_argument("--deployment", default="deploy/kubernetes/deployment.yaml")
    args = parser.parse_args()

    env, limit = deployment_settings(args.deployment)
    body_limit = int(env["SNAPDIFF_MAX_BODY_BYTES"])
    print(f"deployment: memory limit {limit >> 20} MiB, body limit {body_limit >> 20} MiB, "
          f"threads {env.get('SNAPDIFF_THREADS')}, connections {env.get('SNAPDIFF_CONNECTION_LIMIT')}")
    print("making the request bodies …", flush=True)
    tiny = tiny_diff(body_limit)
    everything = everything_diff(body_limit)
    big_layout = layout(1_000_000, 64)
    while len(big_layout) > body_limit:
        big_layout = layout(int(1_000_000 * body_limit / len(big_layout) * 0.99), 64)
    unread = layout(170_000, 3)
    valid = tiny_diff(int(14.7 * 2**20))
    valid_gzip = gzip.compress(valid, 1)
    bomb = gzip.compress(bytes(64 << 20), 9)
    print(f"  tiny /diff {len(tiny) / 2**20:.1f} MiB ×4, everything /diff {len(everything) / 2**20:.1f} MiB, /layout {len(big_layout) / 2**20:.1f} MiB "
          f"(64 columns), never-read /layout {len(unread) / 1e6:.1f} MB ×{NEVER_READING}")

    connection_limit = int(env.get("SNAPDIFF_CONNECTION_LIMIT", "1000"))
    tricklers = 2 * connection_limit
    # The trickling clients' sockets, and the server's, beside everything else.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 2 * tricklers + 1024
    if soft < wanted and (hard == resource.RLIM_INFINITY or hard >= wanted):
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    port, probe_port = free_port(), free_port()
    while probe_port == port:
        probe_port = free_port()
    server_env = {**os.environ, **env, "SNAPDIFF_HOST": "127.0.0.1", "SNAPDIFF_PORT": str(port),
                  "SNAPDIFF_PROBE_PORT": str(probe_port), "SNAPDIFF_LOG_LEVEL": "warning"}
    cgroup = make_cgroup(limit)
    command = [args.binary, "serve"]
    if cgroup:
        procs, cleanup = cgroup
        command = ["sh", "-c", 'echo $$ > "$0" && exec "$@"', procs, *command]
        print(f"the server runs in a memory cgroup limited to {limit >> 20} MiB ({os.path.dirname(procs)})")
    else:
        cleanup = None
        budget = max(limit // 4, limit - (64 << 20) - int(env.get("SNAPDIFF_CONNECTION_LIMIT", "1000")) * 65536)
        server_env["SNAPDIFF_MEMORY_BUDGET"] = str(budget)
        print(f"no memory cgroup can be made here: the budget the server would derive ({budget >> 20} MiB) is passed")
    log = tempfile.TemporaryFile()
    server = subprocess.Popen(command, env=server_env, stderr=log)
    problems = []

    def check(condition, message):
        print(("  ok    " if condition else "  FAIL  ") + message, flush=True)
        if not condition:
            problems.append(message)

    try:
        deadline = time.time() + 10
        while True:
            try:
                if http(port, "GET", "/healthz", timeout=1)[0] == 200:
                    break
            except OSError:
                if time.time() > deadline or server.poll() is not None:
                    log.seek(0)
                    sys.stderr.write(log.read().decode(errors="replace")[-2000:])
                    raise SystemExit("limits-check: the server did not come up")
                time.sleep(0.05)
        budget = metric(port, "snapdiff_memory_budget_bytes")
        print(f"server up: pid {server.pid}, memory budget {budget / 2**20:.0f} MiB, "
              f"idle RSS {status_of(server.pid, 'VmRSS') / 2**20:.1f} MiB", flush=True)

        stop_file = tempfile.mktemp()
        probe = start_probe(probe_port, stop_file, 0.05)
        service_probe = start_probe(port, stop_file, 0.1)
        results, held = [], []
        for round_number in range(args.rounds):
            threads = [threading.Thread(target=exchange, args=(port, "/diff", tiny, results, "tiny /diff"))
                       for _ in range(4)]
            threads.append(threading.Thread(target=exchange, args=(port, "/diff", everything, results, "everything /diff")))
            threads.append(threading.Thread(target=exchange, args=(port, "/layout", big_layout, results, "1 M /layout")))
            threads += [threading.Thread(target=never_read, args=(port, unread, held, results))
                        for _ in range(NEVER_READING)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            print(f"round {round_number + 1}: VmHWM {status_of(server.pid, 'VmHWM') / 2**20:.0f} MiB so far", flush=True)
        # The never-reading clients hold their answers until the send timeout (or the idle timeout) cuts them.
        cut_deadline = time.time() + int(env.get("SNAPDIFF_SEND_TIMEOUT", "10")) + int(
            env.get("SNAPDIFF_CONNECTION_TIMEOUT", "30")) + 5
        # (The GET /metrics that reads the figure holds its own 64 KiB while it is answered. The figure judged is
        # the read that ended the wait: a second read could count the previous scrape's answer, or a probe, still
        # in flight on a busy machine.)
        reserved = metric(port, "snapdiff_memory_reserved_bytes")
        while time.time() < cut_deadline and reserved > 65536:
            time.sleep(0.5)
            reserved = metric(port, "snapdiff_memory_reserved_bytes")
        reserved_after = reserved - 65536
        # Each connection ends in EOF or a reset once the server closes it. It gives the answer's memory back
        # first and then closes the socket (the janitor's lingering close), so on a busy machine a socket may
        # still be open a moment after the memory came back: each is waited for, until the deadline (at least
        # 30 s from now), and a passing run waits no longer than the closes take.
        close_deadline = max(cut_deadline, time.time() + 30)
        cut = 0
        for sock in held:
            try:
                while True:  # drain what the kernel buffered; a closed connection ends in EOF or a reset
                    sock.settimeout(max(0.01, close_deadline - time.time()))
                    if not sock.recv(1 << 20):
                        cut += 1
                        break
            except TimeoutError:
                pass
            except OSError:
                cut += 1
            sock.close()
        open(stop_file, "w").close()
        rounds_probe = probe_result(probe)
        rounds_service_probe = probe_result(service_probe)
        os.unlink(stop_file)

        peak = status_of(server.pid, "VmHWM")
        check(server.poll() is None, "the server is still running (not killed by the cgroup)")
        check(peak <= limit, f"peak RSS (VmHWM) {peak / 2**20:.0f} MiB ≤ the Deployment's limit {limit >> 20} MiB")
        statuses = {}
        bad = []
        for label, status, headers, answer in results:
            statuses[(label, status)] = statuses.get((label, status), 0) + 1
            if status == 200:
                continue
            if status == 503 and "retry-after" in headers and headers.get("content-type") == "application/problem+json":
                continue
            bad.append((label, status, answer[:200]))
        print("        answers: " + ", ".join(f"{label} {status}: {n}" for (label, status), n in sorted(
            statuses.items(), key=str)))
        check(not bad, f"every answer is 200, or 503 problem+json with Retry-After {bad[:3]}")
        check(rounds_probe["latencies"] and not rounds_probe["failed"],
              f"/healthz on the probe port under the worst shapes, every 50 ms: {describe(rounds_probe)} "
              f"{rounds_probe['failed'][:5]}")
        check(rounds_service_probe["latencies"] and not rounds_service_probe["failed"],
              f"/healthz on the service's port under the worst shapes, every 100 ms: {describe(rounds_service_probe)} "
              f"{rounds_service_probe['failed'][:5]}")
        check(cut == len(held), f"the never-reading clients were cut: {cut}/{len(held)}")
        check(reserved_after == 0, f"their answers' memory came back (budget reserved {reserved_after} bytes)")

        # The gzip phase: the valid clients' rate alone, then beside the bomb flood.
        print(f"gzip phase: a {len(valid) / 2**20:.1f} MiB /diff as it is and gzipped ({len(valid_gzip) / 2**20:.1f} MiB), "
              f"one client each, {args.gzip_seconds:.0f} s alone, then {args.gzip_seconds:.0f} s beside 4 clients looping "
              f"a {len(bomb) / 1000:.0f} KB bomb (64 MiB decoded)", flush=True)
        alone = gzip_window(port, valid, valid_gzip, bomb, args.gzip_seconds, 0)
        flooded = gzip_window(port, valid, valid_gzip, bomb, args.gzip_seconds, 4)
        for name, outcomes in (("alone", alone), ("beside the bombs", flooded)):
            print(f"        {name}: " + ", ".join(f"{label} {status}: {n}" for (label, status), n in sorted(
                outcomes.items(), key=str)))
        def valid_count(outcomes):
            return sum(n for (label, status), n in outcomes.items() if label != "bomb" and status == 200)
        rate_alone, rate_flooded = valid_count(alone), valid_count(flooded)
        print(f"        valid /diffs answered 200: {rate_alone} alone, {rate_flooded} beside the bombs "
              f"({100 * rate_flooded / max(1, rate_alone):.0f} %)")
        bombs = {status: n for (label, status), n in flooded.items() if label == "bomb"}
        check(bombs and set(bombs) == {413}, f"every gzip bomb is answered 413: {bombs}")
        answers = dict(alone)
        for key, n in flooded.items():
            answers[key] = answers.get(key, 0) + n
        unexpected = {k: n for k, n in answers.items() if k[0] != "bomb" and k[1] not in (200, 503)}
        check(not unexpected, f"every valid /diff is answered 200 or 503 with Retry-After {unexpected}")
        gzip_503 = answers.get(("gzip", 503), 0)
        identity_503 = answers.get(("identity", 503), 0)
        check(gzip_503 == 0 or identity_503 > 0,
              f"a valid gzip /diff is 503 only when an identity one is too (gzip {gzip_503}, identity {identity_503})")

        # The connection-limit phase: the service's port full of slow clients, the probes on their own port.
        trickled = request_bytes("POST", "/diff", SMALL_DIFF.ljust(1000))
        print(f"connection-limit phase: {tricklers} clients (2 x the connection limit {connection_limit}) each send "
              f"a {len(trickled)}-byte /diff one byte every {TRICKLE_INTERVAL_S * 1000:.0f} ms for "
              f"{args.trickle_seconds:.0f} s; /healthz polled every 100 ms with a {PROBE_TIMEOUT_S} s timeout",
              flush=True)
        stop_file = tempfile.mktemp()
        on_probe_port = start_probe(probe_port, stop_file, 0.1)
        on_service_port = start_probe(port, stop_file, 0.1)
        made, whole, cut = trickle(port, tricklers, args.trickle_seconds, trickled)
        open(stop_file, "w").close()
        probes, service_probes = probe_result(on_probe_port), probe_result(on_service_port)
        os.unlink(stop_file)
        print(f"        trickling clients: {made} connections, {whole} requests sent whole, {cut} connections cut")
        print(f"        /healthz on the service's port (for comparison, not judged): {describe(service_probes)}")
        check(probes["latencies"] and not probes["failed"],
              f"/healthz on the probe port with the service's port full: {describe(probes)} {probes['failed'][:5]}")
        status, _, _ = http(port, "POST", "/diff", SMALL_DIFF, timeout=30)
        check(status == 200, "a small /diff is answered afterwards")
    finally:
        code = stop_server(server, 30)
        if cleanup:
            cleanup()
    check(code == 0, f"exit status after SIGTERM: {code}")
    if problems:
        log.seek(0)
        sys.stderr.write(log.read().decode(errors="replace")[-3000:])
        print(f"limits-check: {len(problems)} problem(s)")
        sys.exit(1)
    print("limits-check: all passed")


if __name__ == "__main__":
    main()
