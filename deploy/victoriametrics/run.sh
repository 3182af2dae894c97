#!/usr/bin/env bash
# Runs one program of the VictoriaMetrics side of the pipeline, on loopback,
# in the foreground (it execs the program, so its process id is the script's):
#
#   deploy/victoriametrics/run.sh victoria-metrics [flags...]
#       the store: Prometheus remote write in (/api/v1/write), Prometheus
#       query API out (/api/v1/query). A VictoriaMetrics cluster (vminsert,
#       vmselect, vmstorage) serves the same two APIs.
#   deploy/victoriametrics/run.sh vmagent [flags...]
#       scrapes the collector's Prometheus exporter (vmagent.yml) and
#       remote-writes every sample to the store.
#   deploy/victoriametrics/run.sh vmalert [flags...]
#       evaluates deploy/prometheus/rules/argcheck.rules.yml, unchanged,
#       against the store; writes the recording rules' results back into it
#       and sends alerts to Alertmanager.
#
# Extra flags are passed on after the defaults below (the last one wins).
# Addresses and paths come from environment variables, with loopback defaults:
#
#   ARGCHECK_VM_LISTEN             VictoriaMetrics HTTP address  127.0.0.1:8428
#   ARGCHECK_VM_DATA               its storage directory         ./.argcheck/victoria-metrics
#   ARGCHECK_VMAGENT_LISTEN        vmagent's HTTP address        127.0.0.1:8429
#   ARGCHECK_VMAGENT_DATA          vmagent's remote-write buffer ./.argcheck/vmagent
#   ARGCHECK_PROMETHEUS_ENDPOINT   what vmagent scrapes (the collector's exporter)
#                                                                127.0.0.1:8889
#   ARGCHECK_SCRAPE_INTERVAL       vmagent's scrape interval     15s
#   ARGCHECK_VMALERT_LISTEN        vmalert's HTTP address        127.0.0.1:8880
#   ARGCHECK_VMALERT_INTERVAL      vmalert's evaluation interval 15s
#   ARGCHECK_ALERTMANAGER_URL      where vmalert sends alerts    http://127.0.0.1:9093
#
# Install the programs with deploy/install-tools.sh (Debian package
# victoria-metrics). Relative paths are relative to the working directory.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

vm_listen="${ARGCHECK_VM_LISTEN:-127.0.0.1:8428}"
program="${1:-}"
shift || true

case "$program" in
  victoria-metrics)
    exec victoria-metrics \
      -httpListenAddr="$vm_listen" \
      -storageDataPath="${ARGCHECK_VM_DATA:-./.argcheck/victoria-metrics}" \
      "$@"
    ;;
  vmagent)
    export ARGCHECK_PROMETHEUS_ENDPOINT="${ARGCHECK_PROMETHEUS_ENDPOINT:-127.0.0.1:8889}"
    export ARGCHECK_SCRAPE_INTERVAL="${ARGCHECK_SCRAPE_INTERVAL:-15s}"
    exec vmagent \
      -httpListenAddr="${ARGCHECK_VMAGENT_LISTEN:-127.0.0.1:8429}" \
      -promscrape.config="$ROOT/deploy/victoriametrics/vmagent.yml" \
      -remoteWrite.url="http://$vm_listen/api/v1/write" \
      -remoteWrite.tmpDataPath="${ARGCHECK_VMAGENT_DATA:-./.argcheck/vmagent}" \
      "$@"
    ;;
  vmalert)
    exec vmalert \
      -httpListenAddr="${ARGCHECK_VMALERT_LISTEN:-127.0.0.1:8880}" \
      -rule="$ROOT/deploy/prometheus/rules/argcheck.rules.yml" \
      -datasource.url="http://$vm_listen" \
      -remoteWrite.url="http://$vm_listen" \
      -notifier.url="${ARGCHECK_ALERTMANAGER_URL:-http://127.0.0.1:9093}" \
      -evaluationInterval="${ARGCHECK_VMALERT_INTERVAL:-15s}" \
      "$@"
    ;;
  *)
    echo "usage: $0 victoria-metrics|vmagent|vmalert [flags...]" >&2
    exit 2
    ;;
esac
