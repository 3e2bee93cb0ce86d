#!/usr/bin/env bash
# Reruns the runtime checker's benchmarks, each against its reference in the
# same run, for the "Runtime checker" section of BENCHMARKS.md:
#   - Verify keys/s vs redis-benchmark -P 16 -n 200000 CLUSTER KEYSLOT foo
#     on one node of the same cluster;
#   - Audit keys/s over 1,000,000 keys vs redis-cli --scan on every master
#     (one after the other, and all at once);
#   - the hook's overhead on round trips (plain and hooked clients taking
#     turns against one standalone server) and its own CPU time per command.
# Needs redis-server, redis-benchmark and redis-cli on PATH. Usage:
#   bash clustercheck/bench.sh            # all of it, about two minutes
#   SLOTLINT_AUDIT_KEYS=100000 bash clustercheck/bench.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export SLOTLINT_REQUIRE_REDIS=1
echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(go version) $(redis-server --version | cut -d' ' -f1-3) on $(nproc) cores"
go test -run '^$' -bench 'BenchmarkVerify' -benchtime 5x -count 3 ./clustercheck
go test -run '^$' -bench 'BenchmarkAudit' -benchtime 2x -count 2 -timeout 30m ./clustercheck
go test -run '^$' -bench 'BenchmarkHookRoundTrip' -benchtime 40000x -count 3 ./clustercheck
go test -run '^$' -bench 'BenchmarkHookCPU' -benchmem -count 3 ./clustercheck
go test -run '^$' -bench 'BenchmarkHookWatchCPU' -count 3 ./clustercheck
