#!/usr/bin/env bash
# The service benchmark (numbers in BENCHMARKS.md). Needs wrk (apt) and curl; builds what it runs.
#
#   Benchmarks/service/run.sh [seconds-per-wrk-run] [rounds]      (defaults: 5 s, 10 rounds)
#   THREADS=N Benchmarks/service/run.sh …   both servers with N worker threads (default: one per core)
#   LOG_LEVEL=error Benchmarks/service/run.sh …   snapdiff without its access log (default: info, the access log
#                                                 on, as deployed; written to a file in the work directory)
#
# 1. Request rate of POST /diff with a ~10 KB body (~50 items per snapshot) against a minimal C
#    libmicrohttpd server reading the same POST, in the same run: rounds alternate the two servers (wrk -t2
#    -c64), and the median of the rounds' ratios is the figure (this machine's speed drifts between rounds).
# 2. A ~25 MB request (DifferenceKit's 100k recipe) end to end with curl, alternating with the C server reading the
#    same body (as is, and with glibc told to give large blocks back as snapdiff does): medians and ratios over 12 rounds,
#    and the server's peak RSS (VmHWM) against the body size.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
seconds=${1:-5}
rounds=${2:-10}
threads=${THREADS:-$(nproc)}
log_level=${LOG_LEVEL:-info}
source Benchmarks/service/setup.sh
cc -O2 -o "$work/minimal" Benchmarks/c-baseline/minimal.c $(pkg-config --cflags --libs libmicrohttpd)
python3 Benchmarks/service/make_requests.py "$work"
small=$(stat -c %s "$work/small.json"); large=$(stat -c %s "$work/large.json")

echo "# service benchmark"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores; wrk -t2 -c64 -d${seconds}s on the same machine; $threads worker threads per server; snapdiff --log-level $log_level"
echo "small body: $small bytes; large body: $large bytes"

.build/release/snapdiff serve --port 18180 --threads "$threads" --log-level "$log_level" >"$work/snapdiff.log" 2>&1 & pids+=($!)
"$work/minimal" 18181 "$threads" >/dev/null & pids+=($!)
sleep 1
curl -sf -o /dev/null --json @"$work/small.json" http://127.0.0.1:18180/diff || { echo "snapdiff does not answer" >&2; exit 1; }

rate() { BODY="$1" wrk -t2 -c64 -d"${seconds}s" -s Benchmarks/service/post-file.lua "$2" | tee -a "$work/wrk.log" | awk '/Requests\/sec/ {print $2}'; }
echo; echo "## POST ~10 KB: snapdiff /diff vs minimal C libmicrohttpd server (req/s)"
ratios=()
for round in $(seq "$rounds"); do
    c=$(rate "$work/small.json" http://127.0.0.1:18181/post)
    s=$(rate "$work/small.json" http://127.0.0.1:18180/diff)
    ratio=$(python3 -c "print(f'{$s/$c:.3f}')")
    ratios+=("$ratio")
    echo "round $round: C $c   snapdiff $s   ratio $(python3 -c "print(f'{$ratio:.1%}')")"
done
python3 -c "import statistics, sys; r = sorted(map(float, sys.argv[1:])); print(f'median ratio {statistics.median(r):.1%} over {len(r)} rounds (lowest {r[0]:.1%}, highest {r[-1]:.1%})')" "${ratios[@]}"
grep -E 'non-2xx' "$work/wrk.log" | sort | uniq -c

kill "${pids[0]}"; wait "${pids[0]}" 2>/dev/null || true
.build/release/snapdiff serve --port 18182 --log-level error & server=$!; pids+=($server)
# The C server again with glibc's malloc told to give every block of 4 MiB or more back when freed, as snapdiff does
# (ProcessMemory): by default glibc keeps a freed 28 MB block in its heap, so the next body costs no page faults.
MALLOC_MMAP_THRESHOLD_=4194304 "$work/minimal" 18183 "$threads" >/dev/null & pids+=($!)
sleep 1
before=$(awk '/VmRSS/ {print $2}' /proc/$server/status)
echo; echo "## ~25 MB request (100,000 items per snapshot) end to end, curl, 12 rounds: snapdiff /diff, the C server reading it"
times=()
for run in $(seq 12); do
    s=$(curl -s -o "$work/large.out" -w '%{time_total}' --json @"$work/large.json" http://127.0.0.1:18182/diff)
    c=$(curl -s -o /dev/null -w '%{time_total}' --json @"$work/large.json" http://127.0.0.1:18181/post)
    f=$(curl -s -o /dev/null -w '%{time_total}' --json @"$work/large.json" http://127.0.0.1:18183/post)
    times+=("$s,$c,$f")
done
python3 - "$work/large.out" "${times[@]}" <<'PY'
import json, statistics, sys
out = json.load(open(sys.argv[1]))
rounds = [[float(t) * 1000 for t in row.split(",")] for row in sys.argv[2:]]
for index, name in enumerate(["snapdiff /diff", "C server, reading the body", "C server, memory given back as snapdiff does"]):
    times = sorted(row[index] for row in rounds)
    print(f"{name}: ms {', '.join(f'{t:.1f}' for t in times)}  median {statistics.median(times):.1f}  min {times[0]:.1f}")
for index, name in ((1, "the C server's read"), (2, "the C server's read, memory given back")):
    ratios = sorted(row[0] / row[index] for row in rounds)
    print(f"snapdiff / {name}: median {statistics.median(ratios):.2f} (range {ratios[0]:.2f}-{ratios[-1]:.2f}, per round)")
print("counts:", out["counts"])
PY
peak=$(awk '/VmHWM/ {print $2}' /proc/$server/status)
echo "server RSS before: $((before / 1024)) MiB; peak (VmHWM): $((peak / 1024)) MiB = $(python3 -c "print(f'{$peak*1024/$large:.2f}')") x the body ($((large / 1048576)) MiB)"
