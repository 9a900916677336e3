#!/usr/bin/env bash
# Installs a built tern on this machine as the in-car appliance (run as root on the Pi):
#   swift build -c release --product tern --static-swift-stdlib && sudo bash deploy/install.sh [TERN]
# TERN: the binary (default .build/release/tern). Only what the appliance runs is installed:
# gpsd, libgps, ALSA, espeak-ng and its data; the build and test tools are scripts/setup.sh's.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" -eq 0 ] || { echo "install: run as root (sudo)" >&2; exit 1; }
bin=${1:-.build/release/tern}
[ -x "$bin" ] || { echo "install: no tern binary at $bin: build first: swift build -c release --product tern --static-swift-stdlib" >&2; exit 1; }
. deploy/apt-measured.sh
apt_measured "install: runtime packages" gpsd libgps28 libasound2 libespeak-ng1 espeak-ng-data alsa-utils
# a binary built without --static-swift-stdlib needs the Swift runtime, which is not installed here
if missing=$(ldd "$bin" 2>/dev/null | awk '/not found/ { print $1 }' | tr '\n' ' ') && [ -n "$missing" ]; then
    echo "install: $bin needs libraries this machine lacks: $missing" >&2
    echo "install: build it with the Swift libraries inside: swift build -c release --product tern --static-swift-stdlib" >&2
    exit 1
fi
id tern >/dev/null 2>&1 || useradd --system --home /var/lib/tern --shell /usr/sbin/nologin --user-group tern
usermod -a -G gpsd,audio,dialout tern 2>/dev/null || usermod -a -G audio,dialout tern
install -m 0755 "$bin" /usr/local/bin/tern
install -d -m 0755 /etc/tern
[ -f /etc/tern/tern.conf ] || install -m 0644 deploy/tern.conf /etc/tern/tern.conf
install -D -m 0644 deploy/gpsd.default /etc/default/gpsd
install -D -m 0644 deploy/99-tern.rules /etc/udev/rules.d/99-tern.rules
[ -f /etc/asound.conf ] || install -D -m 0644 deploy/asound.conf /etc/asound.conf
install -D -m 0644 deploy/tern.service /etc/systemd/system/tern.service
install -d -o tern -g tern -m 0750 /var/lib/tern /var/lib/tern/maps /var/lib/tern/drives /var/lib/tern/state
# the person installing talks to the unit with `tern ctl` (the control socket is group tern);
# the new group counts from their next login
if [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ]; then
    usermod -a -G tern "$SUDO_USER" && echo "install: $SUDO_USER added to group tern (log in again for tern ctl)"
fi
udevadm control --reload-rules 2>/dev/null || true
if [ ! -d /run/systemd/system ]; then
    # not booted with systemd (a chroot, an image being prepared): the units are enabled for the
    # next boot, nothing is started
    if command -v systemctl >/dev/null && systemctl enable gpsd.socket tern.service; then
        echo "install: systemd is not running here: gpsd and tern start at the next boot"
    else
        echo "install: no systemd here: start gpsd and tern (tern run --config /etc/tern/tern.conf) another way"
    fi
    exit 0
fi
systemctl daemon-reload
systemctl enable --now gpsd.socket
systemctl enable tern.service
# without a map tern cannot start: started anyway, it would fail and be restarted every 5 s
# (RestartSec=) until a map is there, filling the journal
map=$(sed -n 's/^[[:space:]]*map[[:space:]]*=[[:space:]]*\([^#[:space:]]*\).*/\1/p' /etc/tern/tern.conf | tail -n 1)
if [ -n "$map" ] && [ -f "$map" ]; then
    systemctl restart tern.service
    echo "install: tern is running with $map; check it with: journalctl -u tern, tern ctl status"
else
    echo "install: tern is installed and enabled but not started: no map at ${map:-<map = in /etc/tern/tern.conf>}." >&2
    echo "install: build one (tern import region.osm.pbf -o region.tmap), copy it there, then: sudo systemctl start tern" >&2
fi
