#!/usr/bin/env bash
# What MONITOR costs a busy redis-server, and how fast slotcheck traffic
# reads what MONITOR wrote.
#
# 1. A standalone redis-server (no persistence) is loaded with
#    redis-benchmark (-t TESTS, -n N requests a test, -c C connections,
#    -r 100000 random keys), RUNS times without a MONITOR client and RUNS
#    times while "redis-cli monitor" records to a file, taking turns, so
#    that a drift of the machine's load hits both sides alike. The
#    throughput with MONITOR over the throughput without is its cost.
# 2. go test -bench BenchmarkCapture reads and analyses the first capture
#    (SLOTLINT_TRAFFIC_CAPTURE) and reports x-emit-time: the time the
#    server took to write it (its last timestamp less its first) over the
#    time slotcheck traffic's reader and analyser take to read it.
#
# Usage: scripts/bench-traffic.sh      (from anywhere)
# Environment: PORT (16390), N (100000), C (50), RUNS (3), TESTS
# (set,get,incr,lpush,hset,mset), WORK (a new temporary directory; the
# captures, large, stay there, out of git).
set -euo pipefail

PORT=${PORT:-16390}
N=${N:-100000}
C=${C:-50}
RUNS=${RUNS:-3}
TESTS=${TESTS:-set,get,incr,lpush,hset,mset}
WORK=${WORK:-$(mktemp -d "${TMPDIR:-/tmp}/slotlint-bench-traffic.XXXXXX")}
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

for tool in redis-server redis-cli redis-benchmark; do
	command -v "$tool" >/dev/null || { echo "bench-traffic: needs $tool (Debian: apt-get install redis-server redis-tools)" >&2; exit 1; }
done

redis-server --port "$PORT" --bind 127.0.0.1 --save '' --appendonly no --daemonize no --dir "$WORK" >"$WORK/redis.log" 2>&1 &
server=$!
cli() { redis-cli -p "$PORT" "$@"; }
cleanup() { kill "${mon:-}" 2>/dev/null || true; kill "$server" 2>/dev/null || true; wait 2>/dev/null || true; }
trap cleanup EXIT
until cli ping >/dev/null 2>&1; do sleep 0.05; done

# cpu prints the server's CPU seconds so far, user and system (INFO cpu).
cpu() {
	cli info cpu | tr -d '\r' | awk -F: '$1 == "used_cpu_user" || $1 == "used_cpu_sys" { s += $2 } END { printf "%.3f", s }'
}

# bench prints the requests per second of each test, "test rps", one a
# line, then "cpu-us" and the server's CPU microseconds per request over
# all the tests: a measure that other work on the machine disturbs less.
bench() {
	local before after
	before=$(cpu)
	redis-benchmark -p "$PORT" -t "$TESTS" -n "$N" -c "$C" -r 100000 --csv |
		awk -F'","' 'NR > 1 { gsub(/"/, "", $1); gsub(/"/, "", $2); sub(/ .*/, "", $1); print $1, $2 }'
	after=$(cpu)
	awk -v b="$before" -v a="$after" -v n="$N" -v t="$TESTS" 'BEGIN { k = split(t, x, ","); printf "cpu-us %.2f\n", (a - b) * 1e6 / (n * k) }'
}

echo "redis-server $(redis-server --version | awk '{print $3}'), $(nproc) cores, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "redis-benchmark -t $TESTS -n $N -c $C -r 100000, $RUNS runs each way, taking turns"
for run in $(seq 1 "$RUNS"); do
	for side in $( ((run % 2)) && echo "plain monitor" || echo "monitor plain"); do
		cli flushall >/dev/null
		if [ "$side" = monitor ]; then
			redis-cli -p "$PORT" monitor >"$WORK/capture-$run.txt" &
			mon=$!
			until cli client list | grep -q 'cmd=monitor'; do sleep 0.01; done
			bench >"$WORK/monitor-$run.txt"
			# Let redis-cli write what the server still holds for it.
			cli ping >/dev/null
			until tail -c 200 "$WORK/capture-$run.txt" | grep -q '"ping"\|"PING"'; do sleep 0.05; done
			kill "$mon"; wait "$mon" 2>/dev/null || true
			mon=
		else
			bench >"$WORK/plain-$run.txt"
		fi
	done
done

echo
printf '%-10s %14s %14s %8s\n' test "rps plain" "rps monitor" ratio
for t in $(cut -d' ' -f1 "$WORK/plain-1.txt" | grep -v cpu-us); do
	p=$(cat "$WORK"/plain-*.txt | awk -v t="$t" '$1 == t { s += $2; n++ } END { printf "%.0f", s / n }')
	m=$(cat "$WORK"/monitor-*.txt | awk -v t="$t" '$1 == t { s += $2; n++ } END { printf "%.0f", s / n }')
	printf '%-10s %14s %14s %8s\n' "$t" "$p" "$m" "$(awk -v p="$p" -v m="$m" 'BEGIN { printf "%.2f", m / p }')"
done
p=$(cat "$WORK"/plain-*.txt | awk '$1 != "cpu-us" { s += $2; n++ } END { printf "%.0f", s / n }')
m=$(cat "$WORK"/monitor-*.txt | awk '$1 != "cpu-us" { s += $2; n++ } END { printf "%.0f", s / n }')
printf '%-10s %14s %14s %8s\n' "mean" "$p" "$m" "$(awk -v p="$p" -v m="$m" 'BEGIN { printf "%.2f", m / p }')"
echo
echo "server CPU per request (µs), each run: plain $(grep -h cpu-us "$WORK"/plain-*.txt | cut -d' ' -f2 | tr '\n' ' ')/ monitor $(grep -h cpu-us "$WORK"/monitor-*.txt | cut -d' ' -f2 | tr '\n' ' ')"

echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
cap="$WORK/capture-1.txt"
echo
echo "capture: $cap, $(wc -l <"$cap") lines, $(du -h "$cap" | cut -f1)"
cd "$repo"
SLOTLINT_TRAFFIC_CAPTURE=$cap go test -run '^$' -bench 'BenchmarkCapture' -benchtime 3x -count 3 -benchmem ./clustercheck/traffic
go run ./cmd/slotcheck traffic --from "$cap" | head -3
