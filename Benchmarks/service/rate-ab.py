#!/usr/bin/env python3
"""The small-request rate of two snapdiff binaries in the same run, rounds alternating which goes first.

Both servers stay up (default settings) on free ports; each round runs `wrk -t2 -c64` on the body against each, and
reads from /proc the server's CPU time per request and the CPU that anything else on the machine used meanwhile
(busy time minus the server's and wrk's): a round with other load is worth little on a shared machine.

    python3 Benchmarks/service/make_requests.py /tmp/req
    python3 Benchmarks/service/rate-ab.py OLD NEW [--rounds 10] [--seconds 3] [--body /tmp/req/small.json] [--log-level info]

Prints each round, then the geometric mean and the median of new / old (and of the rounds without other load).
With --wait-quiet S, each round first waits up to S seconds for 2 s in which the machine is idle (under 0.1 CPU
busy), and a round disturbed by other load (0.05 CPU or more) is shown and run again (at most 3 x rounds runs).
"""
import argparse
import math
import os
import re
import resource
import socket
import statistics
import subprocess
import tempfile
import time

TICK = os.sysconf("SC_CLK_TCK")
LUA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "post-file.lua")


def busy_seconds():
    values = [int(x) for x in open("/proc/stat").readline().split()[1:]]
    return (sum(values) - values[3] - values[4]) / TICK  # all but idle and iowait


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime + stime, every thread


def wait_quiet(limit):
    """Waits up to `limit` seconds for 2 s with under 0.1 CPU busy."""
    deadline = time.monotonic() + limit
    while True:
        busy = busy_seconds()
        time.sleep(2)
        if (busy_seconds() - busy) / 2 < 0.1 or time.monotonic() > deadline:
            return


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(server, port, seconds, body):
    """(requests per second, server CPU µs per request, other load in CPUs) of one wrk run."""
    busy, own, children = busy_seconds(), cpu_seconds(server.pid), resource.getrusage(resource.RUSAGE_CHILDREN)
    output = subprocess.run(
        ["wrk", "-t2", "-c64", f"-d{seconds}s", "-s", LUA, f"http://127.0.0.1:{port}/diff"],
        capture_output=True, text=True, env=dict(os.environ, BODY=body), check=True).stdout
    busy, own = busy_seconds() - busy, cpu_seconds(server.pid) - own
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    wrk = after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime
    assert "non-2xx: 0," in output, output
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    return rate, own * 1e6 / (rate * seconds), (busy - own - wrk) / seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--seconds", type=int, default=3)
    parser.add_argument("--body", default="/tmp/req/small.json")
    parser.add_argument("--wait-quiet", type=float, default=0, metavar="SECONDS")
    parser.add_argument("--log-level", default="error",
                        help="the servers' --log-level: error (default) leaves the access log out; info writes a line "
                             "a request, as deployed, each server's to a file of its own (deleted afterwards)")
    args = parser.parse_args()
    ports = {"old": free_port(), "new": free_port()}
    logs = {name: tempfile.TemporaryFile() for name in ("old", "new")}
    servers = {name: subprocess.Popen([binary, "serve", "--port", str(ports[name]), "--log-level", args.log_level],
                                      stderr=logs[name])
               for name, binary in (("old", args.old), ("new", args.new))}
    rows = []
    try:
        time.sleep(1.5)
        runs = 0
        while len(rows) < args.rounds and runs < 3 * args.rounds:
            runs += 1
            round = len(rows) + 1
            if args.wait_quiet:
                wait_quiet(args.wait_quiet)
            order = ["old", "new"] if round % 2 else ["new", "old"]
            result = {name: run(servers[name], ports[name], args.seconds, args.body) for name in order}
            (old, old_cpu, old_other), (new, new_cpu, new_other) = result["old"], result["new"]
            other = max(old_other, new_other)
            disturbed = args.wait_quiet and other >= 0.05
            print(f"{'(disturbed, again) ' if disturbed else ''}round {round} ({order[0]} first): old {old:.0f} req/s "
                  f"({old_cpu:.2f} µs CPU per request) | new {new:.0f} req/s ({new_cpu:.2f} µs) | "
                  f"new / old {new / old:.3f} | other load {other:.2f} CPU", flush=True)
            if not disturbed:
                rows.append((old, new, old_cpu, new_cpu, other))
    finally:
        for server in servers.values():
            server.terminate()
            server.wait()
    geometric = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))

    def summary(rows):
        ratios = [new / old for old, new, *_ in rows]
        return (f"new / old: geometric mean {geometric(ratios):.3f}, median {statistics.median(ratios):.3f}, "
                f"range {min(ratios):.3f}-{max(ratios):.3f}; server CPU per request new / old (geometric mean) "
                f"{geometric([new_cpu / old_cpu for _, _, old_cpu, new_cpu, _ in rows]):.3f}")

    if not rows:
        return
    print(f"all {len(rows)} rounds: {summary(rows)}")
    quiet = [row for row in rows if row[4] < 0.05]
    if quiet and len(quiet) < len(rows):
        print(f"the {len(quiet)} rounds with other load under 0.05 CPU: {summary(quiet)}")


if __name__ == "__main__":
    main()
