#!/usr/bin/env bash
# The keyspace map against the standalone lint of the same packages, in one
# run, on the generated corpus (internal/gencorpus, N packages):
#
#   slotlint keys -cache=MODE ./...   against   slotlint -cache=MODE -test=false ./...
#
#   cold  -cache=false: every package, dependencies included, is analysed
#         from source; both take their dependencies' types from export data
#         that "go list -export" finds in the go command's build cache,
#         which is seeded first.
#   warm  the same command again with the cache on, after a run that
#         filled it: what a rerun without changes costs.
#
# Each is repeated RUNS times, the two commands taking turns and the first
# of each pair alternating, so that a drift of the shared machine's load
# hits both alike. Wall time, CPU time (user + system, the go command's
# included) and peak RSS (of the largest process of the tree) come from GNU
# time; the summary gives medians and the ratios keys / lint. On a shared,
# loaded machine wall time mostly measures the wait for a CPU; CPU time is
# the steadier measure of the work. The issue's bound: at most 1.2 in time
# and in memory.
#
# Usage: scripts/bench-keys.sh            (from anywhere)
# Environment: RUNS (5), N (100), WORK (a new temporary directory; the raw
# results stay there).
set -euo pipefail

RUNS=${RUNS:-5}
N=${N:-100}
WORK=${WORK:-$(mktemp -d "${TMPDIR:-/tmp}/slotlint-bench-keys.XXXXXX")}
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

if [ ! -x /usr/bin/time ]; then
	echo "bench-keys: needs GNU time as /usr/bin/time (Debian: apt-get install time)" >&2
	exit 1
fi
mkdir -p "$WORK/bin"
WORK=$(cd "$WORK" && pwd)
raw=$WORK/raw.tsv
printf 'tool\tmode\trun\twall_s\tmaxrss_kb\tcpu_s\texit\n' >"$raw"

echo "== building slotlint"
(cd "$repo" && go build -o "$WORK/bin/slotlint" ./cmd/slotlint)
sl=$WORK/bin/slotlint

echo "== machine"
echo "nproc: $(nproc); go: $(go version); slotlint: $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown); load: $(cut -d' ' -f1-3 /proc/loadavg)"

echo "== corpus of $N packages"
(cd "$repo" && go run ./internal/gencorpus -n "$N" "$WORK/corpus")
cd "$WORK/corpus"
go build ./... # seeds the build cache with the export data both read

export SLOTLINT_CACHE=$WORK/cache
# measure TOOL MODE RUN CMD...: one timed run, appended to raw.tsv.
measure() {
	local tool=$1 mode=$2 run=$3
	shift 3
	local rc=0
	/usr/bin/time -f '%e %M %U %S' -o "$WORK/time.txt" "$@" >"$WORK/$tool.out" 2>"$WORK/$tool.err" || rc=$?
	# GNU time puts "Command exited with non-zero status N" first.
	read -r wall rss user sys < <(tail -1 "$WORK/time.txt")
	cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$tool" "$mode" "$run" "$wall" "$rss" "$cpu" "$rc" >>"$raw"
	printf '  %-5s %-5s run %d: %6.2f s wall %6.2f s cpu %8d KB exit %d\n' "$tool" "$mode" "$run" "$wall" "$cpu" "$rss" "$rc"
	# The lint exits 3 on findings; the map exits 0.
	if [ "$rc" != 0 ] && [ "$rc" != 3 ]; then
		tail -5 "$WORK/$tool.err" >&2
		exit 1
	fi
}
lint() { measure lint "$1" "$2" "$sl" -cache="$3" -test=false ./...; }
keys() { measure keys "$1" "$2" "$sl" keys -cache="$3" ./...; }

echo "== cold (-cache=false)"
for run in $(seq 1 "$RUNS"); do
	if [ $((run % 2)) = 1 ]; then lint cold "$run" false; keys cold "$run" false; else keys cold "$run" false; lint cold "$run" false; fi
done
echo "== warm (cache filled by one run of each)"
"$sl" -test=false ./... >/dev/null 2>&1 || true
"$sl" keys ./... >/dev/null
for run in $(seq 1 "$RUNS"); do
	if [ $((run % 2)) = 1 ]; then lint warm "$run" true; keys warm "$run" true; else keys warm "$run" true; lint warm "$run" true; fi
done

echo "== summary (medians of $RUNS runs; ratio keys / lint)"
awk -F'\t' '
NR > 1 { w[$1 "/" $2] = w[$1 "/" $2] " " $4; m[$1 "/" $2] = m[$1 "/" $2] " " $5; c[$1 "/" $2] = c[$1 "/" $2] " " $6 }
function median(s,   a, n, i, j, t) {
	n = split(s, a, " ")
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
END {
	printf "%-5s %8s %8s %8s %8s %9s %9s %7s %7s %7s\n", "mode", "lint s", "keys s", "lint cpu", "keys cpu", "lint MB", "keys MB", "wall x", "cpu x", "mem x"
	split("cold warm", modes, " ")
	for (i = 1; i <= 2; i++) {
		md = modes[i]
		lw = median(w["lint/" md]); kw = median(w["keys/" md])
		lm = median(m["lint/" md]); km = median(m["keys/" md])
		lc = median(c["lint/" md]); kc = median(c["keys/" md])
		printf "%-5s %8.2f %8.2f %8.2f %8.2f %9.1f %9.1f %7.2f %7.2f %7.2f\n", md, lw, kw, lc, kc, lm / 1024, km / 1024, kw / lw, kc / lc, km / lm
	}
}' "$raw" | tee "$WORK/summary.txt"
echo "raw results: $raw"
