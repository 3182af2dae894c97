#!/usr/bin/env bash
# Validates otel-collector.yaml (repository root) with the argcheck collector
# binary: `argcheck-otelcol validate --config otel-collector.yaml`, alone and
# with the agent-tier overlay deploy/collector/agent.yaml.
#
#   deploy/collector/validate.sh           build the collector first if needed
#   deploy/collector/validate.sh --reuse   only reuse an existing build; fail
#                                          (exit 3) asking for build.sh otherwise
# ARGCHECK_OTELCOL_REUSE_ONLY=1 has the same effect as --reuse (the mocha test
# sets it so that `npm test` never starts a multi-minute build).
#
# Validation resolves the ${env:...} defaults, builds every component's config
# and the pipelines (including parsing the OTTL statements), without opening
# any port. It runs twice: with the defaults, and with every ARGCHECK_*
# variable set to a non-default value, so that both forms are known to work.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

build_args=()
if [[ "${1:-}" == --reuse || "${ARGCHECK_OTELCOL_REUSE_ONLY:-}" == 1 ]]; then
  build_args=(--reuse)
fi
BIN="$("$ROOT/deploy/collector/build.sh" "${build_args[@]}")"
CONFIG="$ROOT/otel-collector.yaml"

echo "== $BIN validate --config otel-collector.yaml (defaults)"
# Unset every ARGCHECK_ variable so that the defaults are what is validated.
env $(compgen -e | grep '^ARGCHECK_' | sed 's/^/-u /') "$BIN" validate --config "$CONFIG"

echo "== $BIN validate --config otel-collector.yaml (every variable set)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
ARGCHECK_OTLP_GRPC_ENDPOINT=127.0.0.1:14317 \
  ARGCHECK_OTLP_HTTP_ENDPOINT=127.0.0.1:14319 \
  ARGCHECK_PROMETHEUS_ENDPOINT=127.0.0.1:18889 \
  ARGCHECK_OTLP_LOGS_ENDPOINT=http://127.0.0.1:14320 \
  ARGCHECK_LOG_FILE="$tmp/logs/argcheck.jsonl" \
  ARGCHECK_OTELCOL_MEMORY_LIMIT_MIB=256 \
  ARGCHECK_OTELCOL_TELEMETRY_HOST=127.0.0.1 \
  ARGCHECK_OTELCOL_TELEMETRY_PORT=18888 \
  "$BIN" validate --config "$CONFIG"

echo "== $BIN validate --config otel-collector.yaml --config deploy/collector/agent.yaml (the agent tier)"
ARGCHECK_GATEWAY_ENDPOINT=http://127.0.0.1:14321 \
  "$BIN" validate --config "$CONFIG" --config "$ROOT/deploy/collector/agent.yaml"

echo "OK: otel-collector.yaml (gateway and agent tiers) is valid for $("$BIN" --version)"
