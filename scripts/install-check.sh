#!/usr/bin/env bash
# Proves docs/install.md on this machine (run as root on a clean Debian 12 root, e.g.
#   ../shared/tools/fresh-machine.sh --shared ../shared . 'bash scripts/install-check.sh'):
# runs every ```sh block of the guide in order, as a user following it would, with the map
# imported from ../shared/data/osm/liechtenstein.osm.pbf instead of a download, then starts
# `tern run --config /etc/tern/tern.conf` as user tern and waits for its "ready" line.
# The ```console blocks (flashing, raspi-config, the Swift download, hardware checks) need a Pi.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" -eq 0 ] || { echo "install-check: run as root (it installs, as the guide does with sudo)" >&2; exit 1; }
src=${PBF:-$(pwd)/../shared/data/osm/liechtenstein.osm.pbf}
[ -f "$src" ] || { echo "install-check: no map source at $src (set PBF=FILE.osm.pbf)" >&2; exit 1; }
# (where user tern can read it, as a download in the user's home would be after chmod)
export PBF=/tmp/install-check-region.osm.pbf
install -m 0644 "$src" "$PBF"
script=$(mktemp /tmp/install-guide.XXXXXX.sh)
trap 'rm -f "$script"' EXIT
{
    echo 'set -euo pipefail'
    # root needs no sudo (a minimal Debian has none); `sudo -u USER` becomes runuser
    echo 'sudo() { if [ "$1" = -u ]; then local u=$2; shift 2; runuser -u "$u" -- "$@"; else "$@"; fi; }'
    awk '/^```sh$/ { on = 1; print "echo \"install-check: --- block " ++n " ---\""; next } /^```/ { on = 0; next } on' docs/install.md
} > "$script"
echo "install-check: $(grep -c '^echo "install-check: --- block' "$script") blocks from docs/install.md"
bash "$script"

# the unit's command, as systemd would run it (as user tern), until it says it is ready
log=$(mktemp /tmp/tern-run.XXXXXX.log)
install -d -o tern -g tern /run/tern
runuser -u tern -- timeout 20 tern run --config /etc/tern/tern.conf >"$log" 2>&1 &
pid=$!
for _ in $(seq 1 100); do
    grep -q '^tern: ready:' "$log" && break
    sleep 0.2
done
kill "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
cat "$log"
grep -q '^tern: ready:' "$log" || { echo "install-check: tern run did not report ready" >&2; exit 1; }
echo "install-check: the guide's commands installed tern, and tern run --config /etc/tern/tern.conf reported ready"
