#!/usr/bin/env bash
# Compares two builds of the service in the same run (numbers in BENCHMARKS.md): rounds alternate the minimal
# C server, snapdiff built at OLD (a commit) and snapdiff built from this working tree, each `wrk -t2 -c64` on the
# ~10 KB /diff body, and read each snapdiff's CPU time from /proc around its round. Then the ~29 MB /diff
# (DifferenceKit's 100k recipe) end to end with curl, five times per build, alternating old and new.
#
#   Benchmarks/service/compare.sh OLD [seconds-per-wrk-run] [rounds]      (defaults: 5 s, 8 rounds)
#
# OLD is built in a git worktree under /tmp (from scratch: several minutes); set OLD_BINARY to a snapdiff binary
# built before to skip that. Prints each round and the medians of new ÷ old and of each build's rate ÷ C's.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
old=${1:?usage: compare.sh OLD-COMMIT [seconds] [rounds]}
seconds=${2:-5}
rounds=${3:-8}
source Benchmarks/service/setup.sh
if [[ -z "${OLD_BINARY:-}" ]]; then
    tree=/tmp/snapdiff-compare-$(git rev-parse --short "$old")
    [[ -d "$tree" ]] || git worktree add -f "$tree" "$old" >&2
    swift build -c release --product snapdiff --package-path "$tree" >&2
    OLD_BINARY=$tree/.build/release/snapdiff
fi
cc -O2 -o "$work/minimal" Benchmarks/c-baseline/minimal.c $(pkg-config --cflags --libs libmicrohttpd)
python3 Benchmarks/service/make_requests.py "$work"

"$work/minimal" 18191 >/dev/null & pids+=($!)
"$OLD_BINARY" serve --port 18192 --log-level error & pids+=($!); old_pid=$!
.build/release/snapdiff serve --port 18193 --log-level error & pids+=($!); new_pid=$!
sleep 1

# Prints "rate user-µs-per-request system-µs-per-request" for one wrk run against $2, reading pid $1's CPU time.
run() {
    local before after rate
    before=$(awk '{print $14, $15}' "/proc/$1/stat")
    rate=$(BODY="$work/small.json" wrk -t2 -c64 -d"${seconds}s" -s Benchmarks/service/post-file.lua "$2" |
        awk '/Requests\/sec/ {print $2}')
    after=$(awk '{print $14, $15}' "/proc/$1/stat")
    python3 -c "import sys; b, a, r = [float(x) for x in sys.argv[1].split()], [float(x) for x in sys.argv[2].split()], float(sys.argv[3]); t = 1e6 / $(getconf CLK_TCK) / (r * $seconds); print(f'{r:.0f} {(a[0] - b[0]) * t:.1f} {(a[1] - b[1]) * t:.1f}')" "$before" "$after" "$rate"
}
echo "# old: $old; new: working tree ($(git rev-parse --short HEAD)); wrk -t2 -c64 -d${seconds}s, ~10 KB /diff"
results=()
for round in $(seq "$rounds"); do
    c=$(BODY="$work/small.json" wrk -t2 -c64 -d"${seconds}s" -s Benchmarks/service/post-file.lua http://127.0.0.1:18191/post |
        awk '/Requests\/sec/ {print $2}')
    read -r o ou os < <(run "$old_pid" http://127.0.0.1:18192/diff)
    read -r n nu ns < <(run "$new_pid" http://127.0.0.1:18193/diff)
    echo "round $round: C $c req/s | old $o req/s, CPU µs/request $ou user + $os system | new $n req/s, $nu user + $ns system"
    results+=("$c,$o,$n")
done
python3 - "${results[@]}" <<'PY'
import statistics, sys
rows = [[float(x) for x in arg.split(",")] for arg in sys.argv[1:]]
median = lambda xs: statistics.median(xs)
print(f"median new / old {median([n / o for c, o, n in rows]):.3f}; "
      f"old / C {median([o / c for c, o, n in rows]):.1%}; new / C {median([n / c for c, o, n in rows]):.1%}")
PY

echo "# the ~29 MB /diff (100,000 items per snapshot) end to end with curl, alternating old and new"
large=()
for round in 1 2 3 4 5; do
    o=$(curl -s -o /dev/null -w '%{time_total}' --json @"$work/large.json" http://127.0.0.1:18192/diff)
    n=$(curl -s -o /dev/null -w '%{time_total}' --json @"$work/large.json" http://127.0.0.1:18193/diff)
    echo "large round $round: old ${o}s | new ${n}s"
    large+=("$o,$n")
done
python3 - "${large[@]}" <<'PY'
import statistics, sys
rows = [[float(x) for x in arg.split(",")] for arg in sys.argv[1:]]
print(f"large: median old {statistics.median([o for o, n in rows]) * 1e3:.0f} ms, "
      f"new {statistics.median([n for o, n in rows]) * 1e3:.0f} ms; median new / old {statistics.median([n / o for o, n in rows]):.3f}")
PY
