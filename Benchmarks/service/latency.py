#!/usr/bin/env python3
"""Small-request latency with and without large requests in flight (numbers in BENCHMARKS.md).

For each binary given, in turn, in the same run: starts `snapdiff serve --threads 2` on a free port, then times
a ~10 KB POST /diff (Benchmarks/service/make_requests.py's small.json) sent one at a time on a keep-alive
connection every 5 ms for SECONDS, first alone, then while two clients (separate curl processes) send the ~25 MB
/diff (large.json, 100,000 items) back to back. Prints p50, p99 and max of each, and how many large requests
were answered meanwhile.

    Benchmarks/service/latency.py --binary NEW [--binary OLD] [--seconds 20]
"""
import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "scripts"))
from load_check import free_port, http, read_response, request_bytes  # noqa: E402


def serve(binary):
    port = free_port()
    server = subprocess.Popen([binary, "serve", "--port", str(port), "--threads", "2", "--log-level", "error"])
    deadline = time.time() + 10
    while time.time() < deadline:
        try:
            if http(port, "GET", "/healthz", timeout=1)[0] == 200:
                return server, port
        except OSError:
            time.sleep(0.05)
    server.kill()
    raise SystemExit(f"{binary} did not come up")


def probe(port, body, seconds):
    latencies = []
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    request = request_bytes("POST", "/diff", body)
    end = time.time() + seconds
    while time.time() < end:
        start = time.perf_counter()
        sock.sendall(request)
        status, _, _ = read_response(sock, time.time() + 30)
        latencies.append((time.perf_counter() - start) * 1000)
        assert status == 200, status
        time.sleep(0.005)
    sock.close()
    return latencies


def summary(latencies):
    ordered = sorted(latencies)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"n={len(ordered):5d}  p50 {statistics.median(ordered):6.2f} ms  p99 {p99:7.2f} ms  max {ordered[-1]:7.2f} ms"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", action="append", required=True)
    parser.add_argument("--seconds", type=float, default=20)
    args = parser.parse_args()
    work = tempfile.mkdtemp()
    subprocess.run([sys.executable, os.path.join(here, "make_requests.py"), work], check=True, stdout=subprocess.DEVNULL)
    small = open(os.path.join(work, "small.json"), "rb").read()
    large = os.path.join(work, "large.json")
    print(f"# small /diff {len(small)} bytes; large /diff {os.path.getsize(large) / 1e6:.1f} MB; "
          f"{args.seconds:.0f} s each; {os.cpu_count()} cores")
    for binary in args.binary:
        server, port = serve(binary)
        try:
            alone = probe(port, small, args.seconds)
            loop = (f'while :; do curl -s -o /dev/null -w "%{{http_code}}\\n" -H "Content-Type: application/json" '
                    f'--data-binary @{large} http://127.0.0.1:{port}/diff; done')
            loaders = [subprocess.Popen(["bash", "-c", loop], stdout=subprocess.PIPE, text=True) for _ in range(2)]
            time.sleep(1)
            loaded = probe(port, small, args.seconds)
            for loader in loaders:
                loader.terminate()
            answered = sum(loader.communicate()[0].count("200") for loader in loaders)
        finally:
            server.terminate()
            server.wait()
        print(f"{binary}")
        print(f"  alone:                    {summary(alone)}")
        print(f"  2 clients x 25 MB /diff:  {summary(loaded)}  ({answered} large answered)")


if __name__ == "__main__":
    main()
