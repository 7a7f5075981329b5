#!/usr/bin/env python3
"""The allocation sites live at a massif file's peak, grouped by call path, with Swift names demangled.

    python3 Benchmarks/memory/massif_top.py MASSIF.OUT [--items N] [--frames K] [--min-percent P] [--snapshot S]

Each row: bytes at the peak, share, bytes per item (with --items), then the first K frames of the call
path that are not allocator or generic stdlib plumbing (swift_allocObject, _ContiguousArrayBuffer …).
Uses swift-demangle (--simplified) when it is on PATH or in /opt/swift/usr/bin.
"""
import argparse
import os
import re
import shutil
import subprocess

NOISE = re.compile(
    r"^(malloc|calloc|realloc|operator new|posix_memalign|aligned_alloc|memalign|swift_slowAlloc|swift_allocObject|"
    r"swift_allocBox|swift_allocEmptyBox)\b|_ContiguousArrayBuffer|_allocateUninitialized|Array.*(append|reserveCapacity|"
    r"_createNewBuffer|_copyToNewBuffer)|_StringGuts|_StringObject|__StringStorage|_NativeDictionary|_DictionaryStorage|"
    r"_NativeSet|_SetStorage|_HashTable|ManagedBuffer|std::__new_allocator|std::allocator|std::vector<.*>::_M_|"
    r"__gnu_cxx|_M_realloc|_M_default_append|reserve\(|Swift\.Array|Swift\._ArrayBuffer|__swift_|specialized static Swift|"
    r"Swift\.Dictionary|Swift\.Set|Swift\.String|\(in .*libswiftCore\.so\)")


def parse(path, snapshot=None):
    """Returns the peak snapshot's tree (or snapshot number `snapshot`'s) as nested (bytes, text, children)."""
    with open(path) as f:
        lines = f.read().split("\n")
    peak_start = None
    current = None
    for i, line in enumerate(lines):
        if line.startswith("snapshot="):
            current = int(line.split("=")[1])
        if (snapshot is None and line == "heap_tree=peak") or (
                snapshot is not None and current == snapshot and line.startswith("heap_tree=")):
            if line == "heap_tree=empty":
                raise SystemExit(f"snapshot {snapshot} is not detailed")
            peak_start = i + 1
    if peak_start is None:
        raise SystemExit("no such detailed snapshot (was the peak detailed?)")
    root = None
    stack = []
    for line in lines[peak_start:]:
        m = re.match(r"^( *)n(\d+): (\d+) (.*)$", line)
        if not m:
            break
        depth, bytes_, text = len(m.group(1)), int(m.group(3)), m.group(4)
        node = (bytes_, text, [])
        if depth == 0:
            root = node
        else:
            stack[depth - 1][2].append(node)
        stack[depth:] = [node]
    return root


def demangler():
    tool = shutil.which("swift-demangle") or ("/opt/swift/usr/bin/swift-demangle"
                                              if os.path.exists("/opt/swift/usr/bin/swift-demangle") else None)
    cache = {}

    def demangle(symbols):
        todo = [s for s in symbols if s not in cache]
        if todo and tool:
            out = subprocess.run([tool, "--simplified"], input="\n".join(todo), capture_output=True, text=True).stdout
            for s, d in zip(todo, out.split("\n")):
                cache[s] = d
        return [cache.get(s, s) for s in symbols]
    return demangle


def frame_name(text):
    m = re.match(r"0x[0-9A-F]+: (.*?)(?: \(in (.*)\)| \((.*:\d+)\))?$", text)
    if not m:
        return text
    name = m.group(1)
    lib = m.group(2) or ""
    if "libswiftCore" in lib:
        name += " (in libswiftCore.so)"
    return name


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("massif")
    parser.add_argument("--items", type=int, default=0, help="divide bytes by this item count")
    parser.add_argument("--frames", type=int, default=3)
    parser.add_argument("--min-percent", type=float, default=1.0)
    parser.add_argument("--snapshot", type=int, help="this snapshot instead of the peak")
    args = parser.parse_args()
    root = parse(args.massif, args.snapshot)
    demangle = demangler()
    total = root[0]
    print(f"{'peak' if args.snapshot is None else f'snapshot {args.snapshot}'} heap: {total} B ({total / 1048576:.1f} MiB)" + (f", {total / args.items:.1f} B/item" if args.items else ""))
    rows = []

    def walk(node, path):
        bytes_, text, children = node
        # descend while only one child carries (nearly) everything, or until K interesting frames are known
        names = demangle([frame_name(text)])
        interesting = [n for n in path + names if not NOISE.search(n)]
        big = [c for c in children if c[0] * 100 >= total * args.min_percent and "below massif's threshold" not in c[1]]
        if len(interesting) >= args.frames or not children or not big:
            rows.append((bytes_, interesting[: args.frames] or (path + names)[-2:]))
            return
        rest = bytes_ - sum(c[0] for c in big)
        for c in big:
            walk(c, path + names)
        if rest * 100 >= total * args.min_percent:
            rows.append((rest, interesting + ["(smaller sites)"]))

    for child in root[2]:
        if "below massif's threshold" in child[1]:
            rows.append((child[0], ["(sites below the threshold)"]))
        elif child[0] * 100 >= total * args.min_percent:
            walk(child, [])
    rows.sort(key=lambda r: -r[0])
    for bytes_, frames in rows:
        per = f"{bytes_ / args.items:8.1f} B/item  " if args.items else ""
        short = [re.sub(r"\s+", " ", f)[:150] for f in frames]
        print(f"{bytes_:>12,} {bytes_ * 100 / total:5.1f}%  {per}" + "  <-  ".join(short))


if __name__ == "__main__":
    main()
