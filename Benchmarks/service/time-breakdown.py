#!/usr/bin/env python3
"""Where a request's wall-clock CPU time goes, from `perf` samples: what callgrind does not see (the kernel's
sockets and page faults, the log's write, the client's share of the cores) beside the server's own code.

    python3 Benchmarks/service/make_requests.py /tmp/req
    cc -O2 -o /tmp/minimal Benchmarks/c-baseline/minimal.c $(pkg-config --cflags --libs libmicrohttpd)
    python3 Benchmarks/service/time-breakdown.py small BINARY [--c-server /tmp/minimal] [--body /tmp/req/small.json]
        [--seconds 5] [--log-level info]
    python3 Benchmarks/service/time-breakdown.py large BINARY [--body /tmp/req/large.json] [--requests 6]

Needs `perf` (apt `linux-perf`) and, for `small`, wrk; run as root or with kernel.perf_event_paranoid <= 0 (the
`small` mode samples every CPU). Software `cpu-clock` sampling at 2 kHz (4 kHz for `large`) with call stacks.

`small`: starts the server (and the C server, if given) on free ports, and runs `wrk -t2 -c64` on the body against
each for `--seconds` while sampling every CPU. Prints, per request answered, the CPU time of the server's code by
phase (the first phase function found from the sampled frame outward), of the server's kernel time by system call,
and of wrk and everything else: the cores are shared, so the rate is 2 cores ÷ the sum. "Interrupts, and
preemption" is the kernel's time between a user instruction and the next: interrupts, and the scheduler switching
threads on the way back (wrk's and the server's threads share the cores).

`large`: starts the server, sends the body `--requests` times with curl (after one warm-up), sampling the server's
threads only, and prints per request the milliseconds of each thread kind (libmicrohttpd's connection threads,
which read the body; the compute threads, which answer it) by phase and by kernel cause (page faults and
unmapping are the cost of taking fresh memory for every large request and giving it back).

A phase is a function of the server's own: reading the request (`parseDiffRequest`), the diff (`ListDiff`),
writing the answer (`DiffEndpoint.write`), the access log and metrics (`ServiceRouter.record`), the router
(`ServiceRouter.respond`), MicroHTTP (the callbacks and request machine), libmicrohttpd (its pool zeroing apart).
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

LUA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "post-file.lua")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from load_check import free_port, http  # noqa: E402

# (phase, pattern on a frame's symbol), tried from the sampled frame outward; the first frame that matches wins.
PHASES = [
    ("read the request (simdjson stage 1)", re.compile(r"dom_parser_implementation::stage1")),
    ("read the request (walk and probe, C++)", re.compile(r"^CSimdJSON_Parser::")),
    ("read the request (Swift: schema, snapshots, id numbering)", re.compile(r"parseDiffRequest|SnapshotJSON|8SimdJSON")),
    ("diff (ListDiff)", re.compile(r"8ListDiff")),
    ("write the answer", re.compile(r"DiffEndpointO5write|10JSONWriter|JSONPatch|13ChangesetV0B7Service")),
    ("access log and metrics", re.compile(r"6RouterV6record|JSONLogHandler|ServiceMetrics|10Prometheus|7Logging")),
    ("the rest of DiffService (routing, request id, headers, the endpoint, freeing the request)",
     re.compile(r"11DiffService")),
    ("MicroHTTP (callbacks, request machine, answer)", re.compile(r"9MicroHTTP")),
    ("libmicrohttpd", re.compile(r"libmicrohttpd")),
]
ZEROING = "libmicrohttpd: zeroing its connection pool (memset)"
SYSCALLS = [
    ("page faults", re.compile(r"asm_exc_page_fault")),
    ("send (sendmsg)", re.compile(r"sendmsg|sendto|writev")),
    ("receive (recv)", re.compile(r"recvfrom|__libc_recv|\brecv\b")),
    ("log line (write)", re.compile(r"__libc_write|__GI___libc_write|\bwrite\b")),
    ("epoll_wait", re.compile(r"epoll_wait")),
    ("giving memory back (munmap, malloc_trim's madvise)", re.compile(r"munmap|madvise|mmap")),
    ("futex (hand-offs, locks)", re.compile(r"futex")),
    ("interrupts, and preemption on the way back to user code", re.compile(r"asm_sysvec|irqentry|asm_common")),
]


def wait_healthy(port):
    """Waits up to 10 s for `GET /healthz` to answer (the C server answers any GET)."""
    deadline = time.time() + 10
    while time.time() < deadline:
        try:
            if http(port, "GET", "/healthz", timeout=1)[0] == 200:
                return
        except OSError:
            time.sleep(0.05)
    sys.exit(f"nothing answers on port {port}")


def samples(data, comm=None):
    """Each sample as (comm, thread id, [frames from the sampled one outward], each frame 'symbol (dso)')."""
    command = ["perf", "script", "-i", data, "-F", "comm,tid,ip,sym,dso"]
    if comm:
        command += ["--comm", comm]
    text = subprocess.run(command, capture_output=True, text=True).stdout
    for block in text.split("\n\n"):
        lines = [line.strip() for line in block.strip().splitlines() if line.strip()]
        if not lines:
            continue
        head = lines[0].rsplit(None, 1)
        frames = [re.sub(r"^[0-9a-f]+\s+", "", line) for line in lines[1:]]
        yield head[0], head[-1], frames


def classify(frames):
    """(kind, what): kind "kernel" with its cause, or "user" with its phase."""
    kernel = bool(frames) and "[kernel.kallsyms]" in frames[0]
    if kernel:
        # MicroHTTP calls madvise only to map a large body's room ahead of its chunks (RequestState.reserveBody).
        if any("madvise" in frame for frame in frames) and any("9MicroHTTP" in frame for frame in frames):
            return "kernel", "mapping a large body's pages ahead (madvise)"
        for name, pattern in SYSCALLS:
            if any(pattern.search(frame) for frame in frames):
                return "kernel", name
        return "kernel", "other"
    # libmicrohttpd is built without frame pointers: its memset's stack ends there. A memset under the server's own
    # code (Swift or the C++ bridge) has those frames.
    if frames and "memset" in frames[0] and not any("$s" in f or "CSimdJSON" in f for f in frames[1:]):
        return "user", ZEROING
    for frame in frames:
        for name, pattern in PHASES:
            if pattern.search(frame):
                return "user", name
    return "user", "other (libc, Swift runtime, unattributed)"


def record(data, target, seconds, frequency):
    return subprocess.Popen(["perf", "record", "-e", "cpu-clock", "-F", str(frequency), "-g", "-o", data]
                            + target + ["--", "sleep", str(seconds)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def table(title, counts, per_sample, unit, order=None):
    total = sum(counts.values())
    print(f"\n{title}: {total * per_sample:.2f} {unit}")
    for key, count in (order or counts.most_common()):
        if isinstance(key, str) and key in counts:
            count = counts[key]
        print(f"  {count * per_sample:8.2f} {unit}  {100 * count / max(total, 1):5.1f} %  {key}")


def small(args):
    servers = {"snapdiff": [args.binary, "serve", "--port", "{port}", "--log-level", args.log_level]}
    if args.c_server:
        servers["C server"] = [args.c_server, "{port}", str(os.cpu_count())]
    work = tempfile.mkdtemp()
    try:
        for name, command in servers.items():
            port = free_port()
            path = "/diff" if name == "snapdiff" else "/post"
            log = open(os.path.join(work, "server.log"), "wb")
            process = subprocess.Popen([part.replace("{port}", str(port)) for part in command],
                                       stdout=subprocess.DEVNULL, stderr=log)
            try:
                wait_healthy(port)
                data = os.path.join(work, "perf.data")
                wrk = subprocess.Popen(["wrk", "-t2", "-c64", f"-d{args.seconds + 2}s", "-s", LUA,
                                        f"http://127.0.0.1:{port}{path}"],
                                       stdout=subprocess.PIPE, text=True, env=dict(os.environ, BODY=args.body))
                time.sleep(1)
                perf = record(data, ["-a"], args.seconds, 2000)
                perf.wait()
                output = wrk.communicate()[0]
                rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
                requests = rate * args.seconds
                server_threads = ("MHD-worker", "MHD-listen", os.path.basename(command[0])[:15])
                user, kernel, other = collections.Counter(), collections.Counter(), collections.Counter()
                for comm, _, frames in samples(data):
                    if comm in server_threads:
                        kind, what = classify(frames)
                        (kernel if kind == "kernel" else user)[what] += 1
                    else:
                        other["wrk" if comm == "wrk" else "everything else (perf, other processes, idle)"] += 1
                per = 1e6 / 2000 / requests  # µs of CPU per request for one sample
                print(f"\n## {name}: {rate:.0f} requests/s (wrk -t2 -c64, {args.body}), "
                      f"{sum(user.values()) + sum(kernel.values()) + sum(other.values())} samples in {args.seconds} s")
                table("server, its own code, per request", user, per, "µs")
                table("server, kernel, per request", kernel, per, "µs")
                table("the rest of the cores' time, per request", other, per, "µs")
            finally:
                process.terminate()
                process.wait()
    finally:
        shutil.rmtree(work, ignore_errors=True)


def large(args):
    port = free_port()
    work = tempfile.mkdtemp()
    process = subprocess.Popen([args.binary, "serve", "--port", str(port), "--max-body-bytes", str(64 << 20),
                                "--log-level", "error"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_healthy(port)
        curl = ["curl", "-s", "-o", "/dev/null", "-w", "%{time_total}", "--json", f"@{args.body}",
                f"http://127.0.0.1:{port}/diff"]
        subprocess.run(curl, capture_output=True, check=True)  # warm-up
        data = os.path.join(work, "perf.data")
        perf = record(data, ["-p", str(process.pid)], 3600, 4000)
        time.sleep(0.5)
        times = [float(subprocess.run(curl, capture_output=True, text=True, check=True).stdout) * 1000
                 for _ in range(args.requests)]
        perf.send_signal(2)
        perf.wait()
        print(f"## {args.binary}: {args.requests} requests of {os.path.getsize(args.body)} bytes, curl total "
              f"{', '.join(f'{t:.1f}' for t in times)} ms")
        threads = {"connection threads (MHD-worker: head, body)": ("MHD-worker",),
                   "compute threads (the answer)": (os.path.basename(args.binary)[:15],)}
        per = 1000 / 4000 / args.requests  # ms per request for one sample
        for title, comms in threads.items():
            user, kernel = collections.Counter(), collections.Counter()
            for comm, _, frames in samples(data):
                if comm not in comms or any("ConnectionJanitor" in f or "__poll" in f for f in frames):
                    continue
                kind, what = classify(frames)
                (kernel if kind == "kernel" else user)[what] += 1
            table(f"{title}, its own code, per request", user, per, "ms")
            table(f"{title}, kernel, per request", kernel, per, "ms")
    finally:
        process.terminate()
        process.wait()
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["small", "large"])
    parser.add_argument("binary")
    parser.add_argument("--c-server", help="the minimal C server's binary (small mode), profiled the same way")
    parser.add_argument("--body")
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--requests", type=int, default=6)
    parser.add_argument("--log-level", default="info")
    args = parser.parse_args()
    args.body = args.body or f"/tmp/req/{args.mode}.json"
    (small if args.mode == "small" else large)(args)


if __name__ == "__main__":
    main()
