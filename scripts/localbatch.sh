#!/usr/bin/env bash
# localbatch.sh lints a batch of local Go modules, each a copy of real code
# that the Go module proxy does not serve, and prints the findings of each
# with positions relative to its module directory, to set beside the
# batch's labels (docs/realcode.md, "The eighteenth held-out batch").
#
#   bash scripts/localbatch.sh DIR
#
# DIR holds one directory per module and entries-*.txt files, one line per
# module: NAME|PACKAGE PATTERNS (import paths of the module's packages,
# space separated). The findings of module NAME go to DIR/NAME.findings.txt.
# Environment: SLOTLINT_BIN, a slotlint binary to use instead of building
# one from this checkout.
set -u -o pipefail

if [ $# -ne 1 ] || [ ! -d "$1" ]; then
	echo "usage: bash scripts/localbatch.sh DIR (a directory of module directories and entries-*.txt)" >&2
	exit 2
fi
dir=$(cd "$1" && pwd)
repo=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "${SLOTLINT_BIN:-}" ]; then
	bin=$SLOTLINT_BIN
else
	bin=$(mktemp -d)/slotlint
	(cd "$repo" && go build -o "$bin" ./cmd/slotlint) || {
		echo "building slotlint failed" >&2
		exit 1
	}
	echo "slotlint: built from $repo at $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)"
fi

shopt -s nullglob
entries=("$dir"/entries-*.txt)
if [ ${#entries[@]} -eq 0 ]; then
	echo "localbatch.sh: no entries-*.txt in $dir" >&2
	exit 2
fi
status=0
while IFS='|' read -r name pkgs; do
	[ -n "$name" ] || continue
	mod=$dir/$name
	echo
	echo "== $name"
	if [ ! -f "$mod/go.mod" ]; then
		echo "  dropped: $mod/go.mod is missing"
		status=1
		continue
	fi
	rc=0
	# shellcheck disable=SC2086 # the patterns are words
	(cd "$mod" && "$bin" -cache=false $pkgs) >"$mod.findings.raw" 2>&1 || rc=$?
	if [ $rc -ne 0 ] && [ $rc -ne 3 ]; then
		echo "  dropped: slotlint exited $rc:"
		tail -5 "$mod.findings.raw" | sed 's/^/    /'
		status=1
		continue
	fi
	# Positions relative to the module, each finding once (a package and
	# its test variant report it twice).
	sed "s#^$mod/##" "$mod.findings.raw" | awk '!seen[$0]++' >"$mod.findings.txt"
	echo "  findings: $(grep -c . "$mod.findings.txt")"
	sed 's/^/    /' "$mod.findings.txt"
done < <(cat "${entries[@]}")
exit $status
