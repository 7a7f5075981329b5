#!/usr/bin/env python3
"""One shape's request against a server running under valgrind massif (standard library + valgrind).

    python3 Benchmarks/memory/massif_run.py --binary PATH --shape NAME [--body-bytes N] [--out FILE]
                                            [--pages-as-heap] [--depth D]

Generates the shape's body (see shapes.py, default 4 MiB: valgrind is ~50x slower), starts
`valgrind --tool=massif BINARY serve --port 0 --threads 1`, sends the body once, stops the server with
SIGTERM and prints the massif output file's path (read it with ms_print). Peak snapshots are detailed.
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import shapes  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--shape", required=True, choices=sorted(shapes.SHAPES))
    parser.add_argument("--body-bytes", type=int, default=4 << 20)
    parser.add_argument("--out", default=None)
    parser.add_argument("--pages-as-heap", action="store_true")
    parser.add_argument("--depth", type=int, default=40)
    args = parser.parse_args()
    out = args.out or f"/tmp/massif.{args.shape}.{args.body_bytes}.{'pages' if args.pages_as_heap else 'heap'}.out"
    n, body, counts = shapes.fit(shapes.SHAPES[args.shape][1], args.body_bytes)
    print(f"# {args.shape}: n={n} body={len(body)} counts={counts}", file=sys.stderr)
    wrapper = ["valgrind", "--tool=massif", f"--massif-out-file={out}", f"--depth={args.depth}",
               "--threshold=0.5", "--peak-inaccuracy=0.5", "--detailed-freq=1", "--max-snapshots=100",
               f"--pages-as-heap={'yes' if args.pages_as_heap else 'no'}"]
    server = shapes.Server(args.binary, max_body=len(body) + 4096, threads=1, wrapper=wrapper)
    try:
        started = time.time()
        status, _, size = shapes.exchange(server.port, shapes.request_bytes(shapes.SHAPES[args.shape][0], body), 3600)
        print(f"# status {status}, response {size} bytes, {time.time() - started:.1f} s", file=sys.stderr)
    finally:
        code = server.stop()
    print(f"# server exit {code}", file=sys.stderr)
    print(out)


if __name__ == "__main__":
    main()
