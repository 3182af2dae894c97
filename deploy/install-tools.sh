#!/usr/bin/env bash
# Installs the programs the rule tests and the end-to-end test need, from the
# Debian/Ubuntu archive, only when they are missing:
#   prometheus              -> prometheus, promtool
#   prometheus-alertmanager -> prometheus-alertmanager (Debian's name for the
#                              alertmanager binary), amtool
#   victoria-metrics        -> victoria-metrics, vmagent, vmalert (the fleet
#                              test's second store; deploy/victoriametrics/)
# Idempotent and non-interactive. Runs `apt-get update` only when it has to
# install something. Uses sudo when not root and sudo is available.
# The Debian packages also enable services that would listen on every
# interface: a policy-rc.d that refuses every start keeps them from starting
# at all while the packages install, and on machines with systemd they are
# then disabled (the tests start their own processes, on loopback, on free
# ports).
set -euo pipefail

need=()
command -v promtool >/dev/null && command -v prometheus >/dev/null || need+=(prometheus)
alertmanager_bin() { command -v alertmanager || command -v prometheus-alertmanager; }
command -v amtool >/dev/null && alertmanager_bin >/dev/null || need+=(prometheus-alertmanager)
command -v victoria-metrics >/dev/null && command -v vmagent >/dev/null && command -v vmalert >/dev/null ||
  need+=(victoria-metrics)

if ((${#need[@]} == 0)); then
  echo "prometheus $(prometheus --version 2>&1 | head -n1 | awk '{print $3}'), alertmanager $("$(alertmanager_bin)" --version 2>&1 | head -n1 | awk '{print $3}'), victoria-metrics $(dpkg-query -W -f='${Version}' victoria-metrics 2>/dev/null || echo '?'): already installed"
  exit 0
fi

SUDO=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "need root (or sudo) to install: ${need[*]}" >&2; exit 1; }
  SUDO=(sudo)
fi

export DEBIAN_FRONTEND=noninteractive
echo "installing: ${need[*]}"
# invoke-rc.d and deb-systemd-invoke ask /usr/sbin/policy-rc.d before they
# start a service; exit 101 means "not allowed". Ours only if there is none.
policy=/usr/sbin/policy-rc.d
if [[ ! -e $policy ]]; then
  printf '#!/bin/sh\n# argcheck install-tools.sh: no service starts while it installs.\nexit 101\n' |
    "${SUDO[@]}" tee "$policy" >/dev/null
  "${SUDO[@]}" chmod 755 "$policy"
  trap '"${SUDO[@]}" rm -f "$policy"' EXIT
fi
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${need[@]}"

# Don't leave package-started daemons holding the default ports (9090, 9093, 8428).
if command -v systemctl >/dev/null && [[ -d /run/systemd/system ]]; then
  for svc in prometheus prometheus-alertmanager victoria-metrics; do
    "${SUDO[@]}" systemctl disable --now "$svc" >/dev/null 2>&1 || true
  done
fi

command -v promtool >/dev/null && command -v amtool >/dev/null && command -v vmalert >/dev/null || {
  echo "install finished but promtool/amtool/vmalert are still not on PATH" >&2
  exit 1
}
echo "installed: ${need[*]}"
