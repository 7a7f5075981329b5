#!/usr/bin/env python3
"""Instructions per request through the whole server (callgrind), for one binary.

Runs `snapdiff serve --threads 1 --compute-threads 1` under `valgrind --tool=callgrind` twice, drives 100 and then
400 keep-alive `POST /diff` (or `--path`) requests of one body over one connection (each answer read whole), stops the server
with SIGTERM and prints (I400 - I100) / 300: one request's instructions, start-up and shutdown cancelled out.
Deterministic to within 0.1 %, whatever the machine's load.

    python3 Benchmarks/service/make_requests.py /tmp/req
    python3 Benchmarks/service/server-instructions.py BINARY [--accept-encoding identity] [--body /tmp/req/small.json]
                                                      [--path /layout] [--log-level info]

valgrind 3.19 cannot read the debug information of a Swift 6 release binary, so a copy stripped of it is
profiled (`objcopy --strip-debug`); symbols stay. The callgrind files stay in --keep (for callgrind_annotate).
"""
import argparse
import http.client
import os
import re
import signal
import socket
import subprocess
import tempfile
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def drive(port, count, body, accept_encoding, path):
    for _ in range(300):  # valgrind starts slowly
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            connection.connect()
            break
        except OSError:
            time.sleep(0.2)
    for _ in range(count):
        connection.putrequest("POST", path, skip_accept_encoding=True)
        connection.putheader("Content-Type", "application/json")
        connection.putheader("Content-Length", str(len(body)))
        if accept_encoding is not None:
            connection.putheader("Accept-Encoding", accept_encoding)
        connection.endheaders(body)
        response = connection.getresponse()
        response.read()
        assert response.status == 200, response.status
    connection.close()


def instructions(binary, count, body, accept_encoding, path, out, log_level):
    port = free_port()
    server = subprocess.Popen(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", binary, "serve", "--threads", "1",
         "--compute-threads", "1", "--port", str(port), "--log-level", log_level],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        drive(port, count, body, accept_encoding, path)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait()
    with open(out) as f:
        return int(re.search(r"^(?:summary|totals): (\d+)", f.read(), re.M).group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--body", default="/tmp/req/small.json")
    parser.add_argument("--accept-encoding", help="send this Accept-Encoding (default: none)")
    parser.add_argument("--path", default="/diff", help="the route posted to (default: /diff)")
    parser.add_argument("--log-level", default="error",
                        help="the server's --log-level: error (default) leaves the access log out, info counts it")
    parser.add_argument("--keep", default=tempfile.gettempdir(), help="directory for the callgrind files")
    args = parser.parse_args()
    body = open(args.body, "rb").read()
    stripped = os.path.join(args.keep, "server-instructions-binary")
    subprocess.run(["objcopy", "--strip-debug", args.binary, stripped], check=True)
    totals = {}
    for count in (100, 400):
        out = os.path.join(args.keep, f"server-instructions.{count}.out")
        totals[count] = instructions(stripped, count, body, args.accept_encoding, args.path, out, args.log_level)
    print(f"{args.binary}: {(totals[400] - totals[100]) / 300 / 1000:.1f} k instructions per request "
          f"(POST {args.path}, {len(body)}-byte body, Accept-Encoding: {args.accept_encoding or 'none'}, "
          f"--log-level {args.log_level}; "
          f"callgrind files in {args.keep})")


if __name__ == "__main__":
    main()
