#!/usr/bin/env python3
"""The ~29 MB `/diff` (or any body, on any route) end to end through two snapdiff binaries in the same run
(standard library only).

    python3 Benchmarks/service/make_requests.py /tmp/req
    python3 Benchmarks/service/large-ab.py OLD NEW [--body /tmp/req/large.json] [--path /diff] [--rounds 8]

Starts both servers (default settings, a 64 MiB body limit) on loopback ports, then sends the body to each in
turn, alternating which goes first each round, and prints the median and range of each's wall time (request sent
to answer read). Both servers are stopped at the end.
"""
import argparse
import socket
import statistics
import subprocess
import time
import urllib.request


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--body", default="/tmp/req/large.json")
    parser.add_argument("--path", default="/diff")
    parser.add_argument("--rounds", type=int, default=8)
    args = parser.parse_args()
    body = open(args.body, "rb").read()
    servers = {}
    try:
        for name, binary in (("old", args.old), ("new", args.new)):
            port = free_port()
            process = subprocess.Popen(
                [binary, "serve", "--port", str(port), "--max-body-bytes", str(64 << 20), "--log-level", "error"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            servers[name] = (process, port)
            for _ in range(100):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).read()
                    break
                except OSError:
                    time.sleep(0.05)
        times = {"old": [], "new": []}
        for round_ in range(args.rounds):
            for name in ("old", "new") if round_ % 2 == 0 else ("new", "old"):
                port = servers[name][1]
                request = urllib.request.Request(
                    f"http://127.0.0.1:{port}{args.path}", data=body, headers={"Content-Type": "application/json"})
                start = time.perf_counter()
                urllib.request.urlopen(request, timeout=120).read()
                times[name].append((time.perf_counter() - start) * 1000)
        for name, values in times.items():
            print(f"{name}: median {statistics.median(values):.1f} ms, range {min(values):.1f}-{max(values):.1f} ms")
        print(f"new / old (medians): {statistics.median(times['new']) / statistics.median(times['old']):.2f}")
    finally:
        for process, _ in servers.values():
            process.terminate()
            process.wait()


if __name__ == "__main__":
    main()
