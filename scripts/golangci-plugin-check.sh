#!/usr/bin/env bash
# Build a golangci-lint v2 with slotlint's module plugin, from this checkout,
# and run it on the demo application, expecting the demo's findings.
#
#   scripts/golangci-plugin-check.sh
#
# It is slow, minutes: "golangci-lint custom" clones golangci-lint, runs go
# mod tidy and builds it, after go run has built golangci-lint itself. It is
# not part of go test or .ci/run.
#
# Environment:
#   GOLANGCI_LINT_VERSION  the golangci-lint to build (default v2.15.0)
#   KEEP=1                 keep the work directory, with the binary in bin/
#
# "golangci-lint custom" clones https://github.com/golangci/golangci-lint.
# When github.com cannot be reached, the script makes that clone from the
# copy of golangci-lint on the Go module proxy instead (a git repository
# with one commit, tagged with the version), and points git at it with
# url.<base>.insteadOf.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
version=${GOLANGCI_LINT_VERSION:-v2.15.0}
work=$(mktemp -d "${TMPDIR:-/tmp}/slotlint-gcl.XXXXXX")
if [ "${KEEP:-}" = 1 ]; then
	echo "work directory: $work"
else
	trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
fi

step() { printf '\n==== %s ====\n' "$*"; }

step "golangci-lint $version with slotlint from $root"
cat >"$work/.custom-gcl.yml" <<EOF
version: $version
name: custom-gcl
destination: $work/bin
plugins:
  - module: github.com/slotlint/slotlint
    import: github.com/slotlint/slotlint/gclplugin
    path: $root
EOF
cat "$work/.custom-gcl.yml"

upstream=https://github.com/golangci/golangci-lint.git
if ! git ls-remote --exit-code "$upstream" "refs/tags/$version" >/dev/null 2>&1; then
	step "github.com is not reachable: a clone of golangci-lint $version from the module proxy"
	(cd "$work" && go mod download "github.com/golangci/golangci-lint/v2@$version")
	src="$(go env GOMODCACHE)/github.com/golangci/golangci-lint/v2@$version"
	mirror="$work/golangci-lint.git"
	mkdir "$mirror"
	cp -R "$src/." "$mirror/"
	chmod -R u+w "$mirror"
	git -C "$mirror" init -q
	git -C "$mirror" add -A
	git -C "$mirror" -c user.name=slotlint -c user.email=slotlint@localhost commit -q -m "golangci-lint $version from the Go module proxy"
	git -C "$mirror" tag "$version"
	# golangci-lint custom passes GIT_CONFIG_COUNT/KEY/VALUE on to git.
	export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0="url.file://$mirror.insteadOf" GIT_CONFIG_VALUE_0="$upstream"
fi

step "golangci-lint custom"
(cd "$work" && time go run "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$version" custom -v)
gcl="$work/bin/custom-gcl"
"$gcl" version

# lint runs the custom golangci-lint on the demo with the slotlint settings
# given, only slotlint enabled, and prints its output.
lint() {
	cat >"$work/.golangci.yml" <<EOF
version: "2"
run:
  relative-path-mode: wd
linters:
  default: none
  enable: [slotlint]
  settings:
    custom:
      slotlint:
        type: module
        description: Redis Cluster keys of one command must share a slot
        settings:
$(sed 's/^/          /')
issues:
  max-issues-per-linter: 0
  max-same-issues: 0
EOF
	(cd "$root" && "$gcl" run --config "$work/.golangci.yml" --output.text.path stdout ./testdata/demo/...) >"$work/out" 2>&1 || echo "exit status $?" >>"$work/out"
	cat "$work/out"
}

fail=0
want() {
	if ! grep -qF -- "$1" "$work/out"; then
		echo "MISSING: $1" >&2
		fail=1
	fi
}
unwanted() {
	if grep -qF -- "$1" "$work/out"; then
		echo "UNEXPECTED: $1" >&2
		fail=1
	fi
}

step "the demo, default settings"
lint <<'EOF'
proven-only: false
EOF
want 'testdata/demo/shop/shop.go:32:9: RENAME keys "tmp:user:123:cache" (slot 4489) and "user:123:cache" (slot 7641) hash to different slots'
want 'testdata/demo/shop/shop.go:38:9: WATCH transaction keys "inventory:sku123" (slot 5242) and "order:456:status" (slot 9813) hash to different slots'
want 'testdata/demo/shop/shop.go:23:9: RENAME keys "tmp:user:<uid>:cache" (no hashtag) and "user:<uid>:cache" (no hashtag) may hash to different slots'
want 'testdata/demo/queue/queue.go:63:9: LMOVE keys "emq:{<q.name>}:pending"'
want '(slotlint)'
want 'exit status 1'

step "the demo, maybe-cross-slot off in inline rules"
lint <<'EOF'
rules: |
  version: 1
  checks:
    maybe-cross-slot: off
EOF
want 'testdata/demo/shop/shop.go:32:9: RENAME keys'
unwanted 'may hash to different slots'

step "the demo, proven-only and disable"
lint <<'EOF'
proven-only: true
disable: [copy-db]
EOF
want 'testdata/demo/shop/shop.go:38:9: WATCH transaction keys'
unwanted 'may hash to different slots'

step "a fault in inline rules"
lint <<'EOF'
rules: |
  version: 1
  checks:
    no-such-check: off
EOF
want 'rules-inline:3:3: unknown check "no-such-check"'

step "a check that does not exist, in disable"
lint <<'EOF'
disable: [los-update]
EOF
want 'unknown check "los-update" (did you mean lost-update?)'
unwanted 'hash to different slots'

if [ "$fail" != 0 ]; then
	step "FAILED"
	exit 1
fi
step "ok: golangci-lint $version with the slotlint plugin reports the demo's findings"
