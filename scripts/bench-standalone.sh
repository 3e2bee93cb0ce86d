#!/usr/bin/env bash
# slotlint's standalone run against staticcheck on the same packages, in
# one run, cold and warm:
#
#   slotlint -test=false PKGS   against   staticcheck -tests=false PKGS
#
# over three sets of packages: go-redis v9 with asynq (a module that
# requires both), a generated corpus of services that use go-redis
# (internal/gencorpus, N packages), and the Go standard library.
#
#   cold  each tool's own cache is an empty directory (SLOTLINT_CACHE,
#         STATICCHECK_CACHE): every package, dependencies included, is
#         analysed from source. The go command's build cache is warm for
#         both (it is seeded first): both take their dependencies' types
#         from export data that "go list -export" finds there.
#   warm  the same command again on the cache that the cold run left: what
#         a rerun without changes costs.
#
# Each is repeated RUNS times (RUNS_COLD for cold runs, RUNS_COLD_STD for
# the standard library's), and the tools take turns, run by run, the first
# of each pair alternating, so that a drift of the machine's load hits both
# sides alike: other work on a shared machine shows as noise, not as a
# bias. Wall time and peak RSS come from GNU time (/usr/bin/time -v); the
# peak RSS is that of the largest single process of the tree (the tool, or
# the go command it runs). The summary gives medians.
#
# Usage: scripts/bench-standalone.sh      (from anywhere)
# Environment: RUNS (5), RUNS_COLD (3), RUNS_COLD_STD (RUNS_COLD), N (100
# packages), CORPORA ("goredis corpus std"), STATICCHECK (staticcheck on
# PATH, then $(go env GOPATH)/bin/staticcheck; install it with
# go install honnef.co/go/tools/cmd/staticcheck@latest), WORK (a new
# temporary directory; the raw results and logs stay there).
set -euo pipefail

RUNS=${RUNS:-5}
RUNS_COLD=${RUNS_COLD:-3}
RUNS_COLD_STD=${RUNS_COLD_STD:-$RUNS_COLD}
N=${N:-100}
CORPORA=${CORPORA:-goredis corpus std}
WORK=${WORK:-$(mktemp -d "${TMPDIR:-/tmp}/slotlint-bench-standalone.XXXXXX")}
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

if [ ! -x /usr/bin/time ]; then
	echo "bench-standalone: needs GNU time as /usr/bin/time (Debian: apt-get install time)" >&2
	exit 1
fi
sc=${STATICCHECK:-}
if [ -z "$sc" ]; then
	if command -v staticcheck >/dev/null 2>&1; then
		sc=$(command -v staticcheck)
	elif [ -x "$(go env GOPATH)/bin/staticcheck" ]; then
		sc=$(go env GOPATH)/bin/staticcheck
	else
		echo "bench-standalone: staticcheck is not installed; run: go install honnef.co/go/tools/cmd/staticcheck@latest" >&2
		exit 1
	fi
fi
mkdir -p "$WORK/bin" "$WORK/logs"
WORK=$(cd "$WORK" && pwd)
raw=$WORK/raw.tsv
printf 'corpus\ttool\tmode\trun\twall_s\tmaxrss_kb\texit\n' >"$raw"

echo "== building slotlint"
(cd "$repo" && go build -o "$WORK/bin/slotlint" ./cmd/slotlint)
sl=$WORK/bin/slotlint

echo "== machine"
{
	echo "nproc: $(nproc)"
	echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
	echo "memory: $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)"
	echo "go: $(go version)"
	echo "staticcheck: $("$sc" -version)"
	echo "slotlint: $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$repo" diff --quiet -- cmd internal/driver analyzer 2>/dev/null || echo ' (with uncommitted changes)')"
	echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$WORK/machine.txt"

# Each corpus: a directory to run in, and the package patterns.
declare -A dir pkgs
for c in $CORPORA; do
	case $c in
	goredis)
		echo "== a module with go-redis v9.23.0 and asynq"
		mkdir -p "$WORK/goredis"
		(
			cd "$WORK/goredis"
			[ -f go.mod ] || go mod init bench.example/goredis >/dev/null 2>&1
			go get github.com/redis/go-redis/v9/...@v9.23.0 github.com/hibiken/asynq/...@latest >/dev/null 2>&1
			echo "asynq: $(go list -m -f '{{.Version}}' github.com/hibiken/asynq)" | tee -a "$WORK/machine.txt"
		)
		dir[$c]=$WORK/goredis
		pkgs[$c]="github.com/redis/go-redis/v9/... github.com/hibiken/asynq/..."
		;;
	corpus)
		echo "== generating the corpus: -n $N"
		rm -rf "$WORK/corpus"
		(cd "$repo" && go run ./internal/gencorpus -n "$N" "$WORK/corpus")
		dir[$c]=$WORK/corpus
		pkgs[$c]=./...
		;;
	std)
		mkdir -p "$WORK/stdmod"
		(cd "$WORK/stdmod" && [ -f go.mod ] || go mod init bench.example/std >/dev/null 2>&1)
		dir[$c]=$WORK/stdmod
		pkgs[$c]=std
		;;
	*)
		echo "bench-standalone: unknown corpus $c" >&2
		exit 2
		;;
	esac
done

# measure CORPUS TOOL MODE RUN CMD...: runs CMD in the corpus's directory
# under GNU time and records a line of raw.tsv.
measure() {
	local corpus=$1 tool=$2 mode=$3 run=$4
	shift 4
	local log=$WORK/logs/$corpus.$tool.$mode.$run rc=0
	sync
	(cd "${dir[$corpus]}" && /usr/bin/time -v -o "$log.time" "$@") >"$log.out" 2>&1 || rc=$?
	if grep -q -E '^panic: |^fatal error: |internal error' "$log.out"; then
		echo "bench-standalone: $tool crashed; see $log.out" >&2
		exit 1
	fi
	local wall rss
	wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$log.time")
	rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$log.time")
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$corpus" "$tool" "$mode" "$run" "$wall" "$rss" "$rc" >>"$raw"
	printf '  %-8s %-11s %-5s run %s: %7.2fs wall %8d KB  exit %s\n' "$corpus" "$tool" "$mode" "$run" "$wall" "$rss" "$rc"
}

# cmd TOOL CORPUS: the command of one side.
cmd() {
	# shellcheck disable=SC2086
	case $1 in
	slotlint) echo env SLOTLINT_CACHE="$WORK/cache.slotlint" "$sl" -test=false ${pkgs[$2]} ;;
	staticcheck) echo env STATICCHECK_CACHE="$WORK/cache.staticcheck" "$sc" -tests=false ${pkgs[$2]} ;;
	esac
}

# pair CORPUS MODE RUN: both tools, the first alternating with the run.
pair() {
	local tools="slotlint staticcheck"
	if [ $(($3 % 2)) = 0 ]; then tools="staticcheck slotlint"; fi
	for tool in $tools; do
		if [ "$2" = cold ]; then
			rm -rf "$WORK/cache.$tool"
		fi
		# shellcheck disable=SC2046
		measure "$1" "$tool" "$2" "$3" $(cmd "$tool" "$1")
	done
}

for c in $CORPORA; do
	echo "== $c: ${pkgs[$c]}"
	# Seed the build cache with the export data that both tools need.
	# shellcheck disable=SC2086
	(cd "${dir[$c]}" && go list -e -export -deps ${pkgs[$c]} >/dev/null 2>&1) || true
	cold=$RUNS_COLD
	if [ "$c" = std ]; then cold=$RUNS_COLD_STD; fi
	for run in $(seq 1 "$cold"); do
		pair "$c" cold "$run"
	done
	# The caches that the last cold runs left are the warm ones.
	for run in $(seq 1 "$RUNS"); do
		pair "$c" warm "$run"
	done
	rm -rf "$WORK/cache.slotlint" "$WORK/cache.staticcheck"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$WORK/machine.txt"

# The summary: medians, and slotlint over staticcheck.
awk -F'\t' '
function median(key,    n, i, j, t, a) {
	n = split(vals[key], a, " ")
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
	if (n == 0) return ""
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
NR > 1 {
	k = $1 SUBSEP $2 SUBSEP $3
	vals[k SUBSEP "wall"] = vals[k SUBSEP "wall"] " " $5
	vals[k SUBSEP "rss"] = vals[k SUBSEP "rss"] " " ($6 / 1024)
	count[k]++
	if (!(($1 SUBSEP $3) in seen)) { seen[$1 SUBSEP $3] = 1; order[++n] = $1 SUBSEP $3 }
}
END {
	printf "| packages | cache | runs | staticcheck wall | slotlint wall | ratio | staticcheck peak RSS | slotlint peak RSS | ratio |\n"
	printf "|---|---|---|---|---|---|---|---|---|\n"
	for (i = 1; i <= n; i++) {
		split(order[i], p, SUBSEP)
		s = p[1] SUBSEP "staticcheck" SUBSEP p[2]; l = p[1] SUBSEP "slotlint" SUBSEP p[2]
		sw = median(s SUBSEP "wall"); lw = median(l SUBSEP "wall")
		sr = median(s SUBSEP "rss"); lr = median(l SUBSEP "rss")
		printf "| %s | %s | %d | %.2f s | %.2f s | %.2f | %.0f MiB | %.0f MiB | %.2f |\n", p[1], p[2], count[l], sw, lw, lw / sw, sr, lr, lr / sr
	}
}' "$raw" | tee "$WORK/summary.md"
echo "raw results: $raw"
