#!/usr/bin/env bash
# Builds the argcheck OpenTelemetry Collector from deploy/collector/builder-config.yaml
# into the git-ignored .cache/otelcol/ folder, or reuses the binary that is already
# there. Prints the absolute path of the binary on stdout (and nothing else);
# progress goes to stderr.
#
#   deploy/collector/build.sh            build when missing or stale, else reuse
#   deploy/collector/build.sh --reuse    never build: fail (exit 3) when the binary
#                                        is missing or was built from another manifest
#
# Reuse rule: the binary is reused when .cache/otelcol/argcheck-otelcol exists and
# .cache/otelcol/manifest.sha256 holds the hash of (builder version + manifest).
# Any edit to builder-config.yaml therefore rebuilds. A lock (flock) keeps two
# concurrent callers from building into the same folder.
#
# Needs: Go (1.24+) and access to the Go module proxy, the first time only.
# Takes about 2.5 minutes on 2 cores the first time; module downloads are cached in
# the usual Go module cache.
set -euo pipefail

BUILDER_VERSION=v0.161.0
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
MANIFEST="$ROOT/deploy/collector/builder-config.yaml"
CACHE="$ROOT/.cache"
OUT="$CACHE/otelcol"
BIN="$OUT/argcheck-otelcol"
STAMP="$OUT/manifest.sha256"
GOBIN_DIR="$CACHE/bin"
BUILDER="$GOBIN_DIR/builder"

reuse_only=0
case "${1:-}" in
  --reuse) reuse_only=1 ;;
  '') ;;
  *) echo "usage: $0 [--reuse]" >&2; exit 2 ;;
esac

want_hash() {
  { echo "builder $BUILDER_VERSION"; cat "$MANIFEST"; } | sha256sum | cut -d' ' -f1
}

is_current() {
  [[ -x "$BIN" && -f "$STAMP" && "$(cat "$STAMP")" == "$(want_hash)" ]]
}

if is_current; then
  echo "$BIN"
  exit 0
fi

if ((reuse_only)); then
  if [[ -x "$BIN" ]]; then
    echo "argcheck-otelcol at $BIN was built from another manifest; run deploy/collector/build.sh" >&2
  else
    echo "argcheck-otelcol is not built; run deploy/collector/build.sh first (about 2.5 minutes the first time)" >&2
  fi
  exit 3
fi

mkdir -p "$CACHE"
exec 9>"$CACHE/otelcol.lock"
if command -v flock >/dev/null; then
  echo "waiting for the collector build lock ($CACHE/otelcol.lock)..." >&2
  flock 9
fi
# Another caller may have finished the build while we waited.
if is_current; then
  echo "$BIN"
  exit 0
fi

command -v go >/dev/null || { echo "go is not on PATH: install Go 1.24+ to build the collector" >&2; exit 1; }

start=$SECONDS
if [[ ! -x "$BUILDER" ]] || ! "$BUILDER" version 2>&1 | grep -q "${BUILDER_VERSION}"; then
  echo "installing go.opentelemetry.io/collector/cmd/builder@$BUILDER_VERSION into $GOBIN_DIR" >&2
  GOBIN="$GOBIN_DIR" go install "go.opentelemetry.io/collector/cmd/builder@$BUILDER_VERSION" >&2
fi

echo "building argcheck-otelcol from $MANIFEST (about 2.5 minutes the first time)" >&2
rm -f "$STAMP"
# output_path in the manifest is relative to the repository root.
(cd "$ROOT" && "$BUILDER" --config "$MANIFEST") >&2
[[ -x "$BIN" ]] || { echo "builder finished but $BIN is missing" >&2; exit 1; }
want_hash >"$STAMP"
echo "built $BIN in $((SECONDS - start)) s" >&2
echo "$BIN"
