#!/usr/bin/env bash
# Checks and unit-tests the argcheck Prometheus rules and configuration, and the
# Alertmanager configuration:
#   promtool check rules   rules/*.rules.yml
#   promtool test rules    tests/*.test.yml
#   promtool check config  prometheus.yml
#   amtool check-config    ../alertmanager/alertmanager.yml
#   amtool config routes test: each argcheck alert reaches the argcheck webhook,
#                          other alerts do not
# Needs promtool and amtool (Debian/Ubuntu: deploy/install-tools.sh).
# Exit status is non-zero when anything fails or a tool is missing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

missing=()
command -v promtool >/dev/null || missing+=(promtool)
command -v amtool >/dev/null || missing+=(amtool)
if ((${#missing[@]})); then
  echo "missing: ${missing[*]} — run deploy/install-tools.sh (installs the Debian packages prometheus and prometheus-alertmanager)" >&2
  exit 127
fi

shopt -s nullglob
rules=(rules/*.rules.yml)
tests=(tests/*.test.yml)
((${#rules[@]})) || { echo "no rule files in deploy/prometheus/rules/" >&2; exit 1; }
((${#tests[@]})) || { echo "no rule tests in deploy/prometheus/tests/" >&2; exit 1; }

echo "== promtool check rules"
promtool check rules "${rules[@]}"
echo "== promtool test rules"
promtool test rules "${tests[@]}"
echo "== promtool check config"
promtool check config prometheus.yml
echo "== amtool check-config"
amtool check-config ../alertmanager/alertmanager.yml
echo "== amtool config routes test"
am=../alertmanager/alertmanager.yml
route_test() { # expected-receiver label=value...
  local want=$1
  shift
  amtool config routes test --config.file="$am" --verify.receivers="$want" "$@" 2>/dev/null ||
    { echo "routing: {$*} did not go to $want" >&2; exit 1; }
}
route_test argcheck-webhook alertname=ToolArgumentInventionRate component=argcheck severity=warning tool=refund_order argument=reason_code
route_test argcheck-webhook alertname=ToolArgumentCheckUnavailable component=argcheck severity=warning set=identity.active_handles
route_test argcheck-webhook alertname=ToolArgumentValueSetStale component=argcheck severity=warning set=wms.warehouses source=static
route_test default alertname=SomethingElse severity=critical
# Every alert in the rules carries component="argcheck" (the route depends on it).
for f in "${rules[@]}"; do
  n_alerts=$(grep -cE '^\s*- alert:' "$f" || true)
  n_component=$(grep -cE '^\s*component: argcheck\s*$' "$f" || true)
  [[ "$n_alerts" == "$n_component" ]] || { echo "$f: $n_alerts alerts but $n_component carry component: argcheck" >&2; exit 1; }
done

echo "OK: rules, rule tests, Prometheus and Alertmanager configuration"
