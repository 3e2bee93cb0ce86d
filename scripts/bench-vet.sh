#!/usr/bin/env bash
# What slotlint costs on a large codebase, measured against plain go vet on
# the same packages, in one run:
#
#   go vet -vettool=slotlint PKGS   against   go vet PKGS
#
# over three sets of packages: a generated corpus of services that use
# go-redis (internal/gencorpus), the Go standard library, and go-redis v9
# itself. Each is measured in three states of the build cache:
#
#   cold     GOCACHE is an empty directory: both sides compile every
#            dependency (go vet needs them) and vet every package.
#   vetcold  GOCACHE holds every compiled package but no vet result of
#            either side: it is a copy of a cache seeded with
#            "go vet -printf=false PKGS", whose results neither side can
#            reuse (the flags are part of the cache key). This is the cost
#            of the analysis itself.
#   warm     the same command again on the cache that vetcold left, what a
#            rerun without changes costs, WARM_REPEAT times, the sides
#            taking turns. go vet (Go 1.26) runs the tool with -json and
#            caches its output, so findings are replayed from the cache too.
#
# Then the standalone "slotlint PKGS" (one process, no vet cache) with the
# build cache warm. Each measurement is repeated RUNS times, the tools
# alternating; the summary gives medians and slotlint/vet ratios of the wall
# time, the CPU time (user+sys of the whole process tree, in milliseconds,
# from bash's time) and the peak RSS, which GNU time reports as that of the
# largest single process in the tree, with the load average (1 minute) seen
# before each measurement.
#
# A third side, "quiet", is slotlint with every check turned off
# (-disable=<every check>): it runs on the same packages but reports
# nothing, so that a warm rerun has no findings to replay. Its warm cost
# against slotlint's is the cost of the findings; against plain vet's, the
# cost of the tool alone. (Its vetcold figures are not slotlint's: with
# every check off there is less to do.)
#
# Usage: scripts/bench-vet.sh            (from anywhere)
# Environment: RUNS (5), RUNS_COLD (RUNS: a cold run compiles every
# dependency, minutes on a large module), WARM_REPEAT (5: warm reruns in
# each run, a second or two each, so that their median rises above noise),
# N (400 packages), HUGE (1500 cases), CORPORA ("corpus std goredis"),
# MODES ("cold vetcold warm standalone"), TOOLS ("vet slotlint"; add quiet
# for the side without findings), WORK (a new temporary directory; the raw
# results and logs stay there), BASELINE (another slotlint executable, for
# a side "baseline" in TOOLS, such as one built before a change),
# SLOTLINT_REV (the commit to name when the script runs in a tree exported
# with git archive).
#
# The go vet figures of record since the -V=full change, many warm reruns
# taking turns:
#
#   RUNS=1 WARM_REPEAT=21 CORPORA="corpus goredis" MODES="vetcold warm" \
#     TOOLS="vet slotlint quiet" scripts/bench-vet.sh
set -euo pipefail

RUNS=${RUNS:-5}
RUNS_COLD=${RUNS_COLD:-$RUNS}
WARM_REPEAT=${WARM_REPEAT:-5}
N=${N:-400}
HUGE=${HUGE:-1500}
CORPORA=${CORPORA:-corpus std goredis}
MODES=${MODES:-cold vetcold warm standalone}
TOOLS=${TOOLS:-vet slotlint}
WORK=${WORK:-$(mktemp -d "${TMPDIR:-/tmp}/slotlint-bench.XXXXXX")}
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

if [ ! -x /usr/bin/time ]; then
	echo "bench-vet: needs GNU time as /usr/bin/time (Debian: apt-get install time)" >&2
	exit 1
fi
mkdir -p "$WORK/bin" "$WORK/logs"
WORK=$(cd "$WORK" && pwd)
raw=$WORK/raw.tsv
printf 'corpus\ttool\tmode\trun\twall_s\tuser_s\tsys_s\tmaxrss_kb\texit\tload1\n' >"$raw"

echo "== machine"
{
	echo "nproc: $(nproc)"
	echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
	echo "memory: $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)"
	echo "go: $(go version)"
	# SLOTLINT_REV names the commit of a tree exported with git archive.
	echo "slotlint: ${SLOTLINT_REV:-$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$repo" diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')}"
	echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$WORK/machine.txt"

echo "== building slotlint"
(cd "$repo" && go build -o "$WORK/bin/slotlint" ./cmd/slotlint)
sl=$WORK/bin/slotlint
# Every check, for the quiet side's -disable, from the message that an
# unknown name gets.
checks=$("$sl" -disable=_ 2>&1 | sed -n 's/.*the checks are //p' | tr -d ' ' || true)
if [[ " $TOOLS " == *" quiet "* ]] && [ -z "$checks" ]; then
	echo "bench-vet: could not list slotlint's checks for the quiet side (slotlint -disable=_)" >&2
	exit 1
fi
echo "slotlint -V=full: $("$sl" -V=full)" | tee -a "$WORK/machine.txt"
if [[ " $TOOLS " == *" baseline "* ]]; then
	if [ ! -x "${BASELINE:-}" ]; then
		echo "bench-vet: TOOLS has baseline: set BASELINE to a slotlint executable" >&2
		exit 2
	fi
	echo "baseline -V=full: $("$BASELINE" -V=full)" | tee -a "$WORK/machine.txt"
fi

# Each corpus: a directory to run in, and the package patterns.
declare -A dir pkgs
for c in $CORPORA; do
	case $c in
	corpus)
		echo "== generating the corpus: -n $N -huge $HUGE"
		rm -rf "$WORK/corpus"
		(cd "$repo" && go run ./internal/gencorpus -n "$N" -huge "$HUGE" "$WORK/corpus")
		dir[$c]=$WORK/corpus
		pkgs[$c]=./...
		;;
	std)
		mkdir -p "$WORK/stdmod"
		(cd "$WORK/stdmod" && [ -f go.mod ] || go mod init bench.example/std >/dev/null 2>&1)
		dir[$c]=$WORK/stdmod
		pkgs[$c]=std
		;;
	goredis)
		echo "== a module with go-redis v9.23.0 and its test dependencies"
		mkdir -p "$WORK/goredis"
		(
			cd "$WORK/goredis"
			[ -f go.mod ] || go mod init bench.example/goredis >/dev/null 2>&1
			go get -t github.com/redis/go-redis/v9/...@v9.23.0 >/dev/null 2>&1
		)
		dir[$c]=$WORK/goredis
		pkgs[$c]=github.com/redis/go-redis/v9/...
		;;
	*)
		echo "bench-vet: unknown corpus $c" >&2
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
	# Write back what the previous step left in the page cache (a copied
	# build cache, vet results), so that it does not land in this timing.
	sync
	local load
	load=$(cut -d' ' -f1 /proc/loadavg)
	# bash's time gives wall, user and sys to the millisecond (GNU time, to
	# 10 ms); GNU time gives the peak RSS. Both count the whole tree.
	local TIMEFORMAT='%3R %3U %3S'
	{ time (cd "${dir[$corpus]}" && /usr/bin/time -o "$log.time" -f '%e %U %S %M' "$@" >"$log.out" 2>&1); } 2>"$log.cpu" || rc=$?
	if grep -q -E '^panic: |^fatal error: |internal error' "$log.out"; then
		echo "bench-vet: $tool crashed; see $log.out" >&2
		exit 1
	fi
	local wall user sys rss
	read -r wall user sys < <(tail -1 "$log.cpu")
	read -r _ _ _ rss < <(tail -1 "$log.time")
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$corpus" "$tool" "$mode" "$run" "$wall" "$user" "$sys" "$rss" "$rc" "$load" >>"$raw"
	printf '  %-8s %-9s %-10s run %-5s %8.3fs wall %8.0fms cpu %7d KB  exit %s  load %s\n' "$corpus" "$tool" "$mode" "$run" "$wall" "$(echo "($user + $sys) * 1000" | bc)" "$rss" "$rc" "$load"
}

has() { [[ " $MODES " == *" $1 "* ]]; }

# vetcmd TOOL PATTERN: the go vet command of one side.
vetcmd() {
	case $1 in
	vet) echo go vet "$2" ;;
	slotlint) echo go vet -vettool="$sl" "$2" ;;
	quiet) echo go vet -vettool="$sl" -disable="$checks" "$2" ;;
	baseline) echo go vet -vettool="$BASELINE" "$2" ;;
	esac
}

for c in $CORPORA; do
	echo "== $c: go vet ${pkgs[$c]}"
	if has vetcold || has warm; then
		echo "  seeding the build cache (go vet -printf=false)"
		rm -rf "$WORK/seed"
		mkdir -p "$WORK/seed"
		(cd "${dir[$c]}" && GOCACHE=$WORK/seed go vet -printf=false ${pkgs[$c]} >"$WORK/logs/$c.seed.out" 2>&1) || true
	fi
	for run in $(seq 1 "$RUNS"); do
		for tool in $TOOLS; do
			# shellcheck disable=SC2046
			if has cold && [ "$run" -le "$RUNS_COLD" ]; then
				rm -rf "$WORK/cache"
				mkdir -p "$WORK/cache"
				GOCACHE=$WORK/cache measure "$c" "$tool" cold "$run" $(vetcmd $tool "${pkgs[$c]}")
			fi
			if has vetcold || has warm; then
				# Each side keeps its cache for the warm reruns below.
				rm -rf "$WORK/cache.$tool"
				cp -a "$WORK/seed" "$WORK/cache.$tool"
				if has vetcold; then
					GOCACHE=$WORK/cache.$tool measure "$c" "$tool" vetcold "$run" $(vetcmd $tool "${pkgs[$c]}")
				else
					(cd "${dir[$c]}" && GOCACHE=$WORK/cache.$tool $(vetcmd $tool "${pkgs[$c]}") >/dev/null 2>&1) || true
				fi
			fi
		done
		if has warm; then
			# The sides take turns, rerun by rerun, so that a drift of the
			# machine's speed hits both, in one order and then the other.
			order=$TOOLS
			for k in $(seq 1 "$WARM_REPEAT"); do
				if [ $((k % 2)) = 0 ]; then order=$(echo "$TOOLS" | tr ' ' '\n' | tac | tr '\n' ' '); else order=$TOOLS; fi
				for tool in $order; do
					# shellcheck disable=SC2046
					GOCACHE=$WORK/cache.$tool measure "$c" "$tool" warm "$run.$k" $(vetcmd $tool "${pkgs[$c]}")
				done
			done
		fi
		for tool in $TOOLS; do rm -rf "$WORK/cache.$tool"; done
		if has standalone; then
			# The standalone checker takes the same patterns; -test=true is
			# its default, like go vet's.
			measure "$c" standalone standalone "$run" "$sl" "${pkgs[$c]}"
		fi
	done
	rm -rf "$WORK/cache" "$WORK/seed"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$WORK/machine.txt"

# The summary: medians, each side over plain vet, and the median of the
# ratios of measurements taken side by side (the same run and rerun).
awk -F'\t' -v runs="$RUNS" -v runs_cold="$RUNS_COLD" -v warm_repeat="$WARM_REPEAT" -v tools="$TOOLS" '
function median(list,    n, i, j, t, a) {
	n = split(list, a, " ")
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
	if (n == 0) return ""
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function count(list,    a) { return split(list, a, " ") }
NR > 1 {
	k = $1 SUBSEP $2 SUBSEP $3
	vals[k SUBSEP "wall"] = vals[k SUBSEP "wall"] " " $5
	vals[k SUBSEP "cpu"] = vals[k SUBSEP "cpu"] " " ($6 + $7) * 1000
	vals[k SUBSEP "rss"] = vals[k SUBSEP "rss"] " " ($8 / 1024)
	cpu[k SUBSEP $4] = ($6 + $7) * 1000
	runids[$1 SUBSEP $3] = runids[$1 SUBSEP $3] " " $4
	m = $1 SUBSEP $3
	if (!(m in lo) || $10 + 0 < lo[m]) lo[m] = $10 + 0
	if (!(m in hi) || $10 + 0 > hi[m]) hi[m] = $10 + 0
	if (!(m in seen)) { seen[m] = 1; order[++n] = m }
}
END {
	nt = split(tools, tl, " ")
	printf "| corpus | cache | side | n | go vet wall | side wall | ratio | go vet CPU | side CPU | ratio | paired CPU ratio | go vet peak RSS | side peak RSS | ratio | load |\n"
	printf "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
	for (i = 1; i <= n; i++) {
		split(order[i], p, SUBSEP)
		if (p[2] == "standalone") continue
		v = p[1] SUBSEP "vet" SUBSEP p[2]
		for (t = 1; t <= nt; t++) {
			if (tl[t] == "vet") continue
			s = p[1] SUBSEP tl[t] SUBSEP p[2]
			if (vals[s SUBSEP "cpu"] == "" || vals[v SUBSEP "cpu"] == "") continue
			vw = median(vals[v SUBSEP "wall"]); sw = median(vals[s SUBSEP "wall"])
			vc = median(vals[v SUBSEP "cpu"]); sc = median(vals[s SUBSEP "cpu"])
			vr = median(vals[v SUBSEP "rss"]); sr = median(vals[s SUBSEP "rss"])
			# Paired: the ratio of each measurement to plain vet'"'"'s of the same run id.
			pr = ""; delete done
			nr = split(runids[order[i]], ids, " ")
			for (r = 1; r <= nr; r++) {
				if (ids[r] in done) continue
				done[ids[r]] = 1
				if ((s SUBSEP ids[r]) in cpu && (v SUBSEP ids[r]) in cpu && cpu[v SUBSEP ids[r]] > 0)
					pr = pr " " cpu[s SUBSEP ids[r]] / cpu[v SUBSEP ids[r]]
			}
			printf "| %s | %s | %s | %d | %.3f s | %.3f s | %.3f | %.0f ms | %.0f ms | %.3f | %.3f | %.1f MiB | %.1f MiB | %.3f | %.2f to %.2f |\n", p[1], p[2], tl[t], count(vals[s SUBSEP "cpu"]), vw, sw, sw / vw, vc, sc, sc / vc, median(pr), vr, sr, sr / vr, lo[order[i]], hi[order[i]]
		}
	}
	header = "\n| corpus | standalone slotlint wall | CPU | peak RSS |\n|---|---|---|---|\n"
	for (i = 1; i <= n; i++) {
		split(order[i], p, SUBSEP)
		if (p[2] != "standalone") continue
		printf "%s", header; header = ""
		s = p[1] SUBSEP "standalone" SUBSEP "standalone"
		printf "| %s | %.2f s | %.0f ms | %.0f MiB |\n", p[1], median(vals[s SUBSEP "wall"]), median(vals[s SUBSEP "cpu"]), median(vals[s SUBSEP "rss"])
	}
	printf "\nMedians of %d runs (cold: %d; warm: %d reruns in each).\n", runs, runs_cold, warm_repeat
}' "$raw" | tee "$WORK/summary.md"
echo "raw results: $raw; logs: $WORK/logs"
