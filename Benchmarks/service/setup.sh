# Sourced by run.sh and compare.sh (from the repository root): a scratch directory and the servers started
# (their pids in `pids`) cleaned up on exit, wrk checked, the release build made.
work=$(mktemp -d)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
swift build -c release --product snapdiff >&2
