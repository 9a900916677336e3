#!/usr/bin/env bash
# Installs a built tern on this machine as the in-car appliance (run as root on the Pi):
#   swift build -c release --product tern && sudo bash deploy/install.sh
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" -eq 0 ] || { echo "install: run as root (sudo)" >&2; exit 1; }
[ -x .build/release/tern ] || { echo "install: build first: swift build -c release --product tern" >&2; exit 1; }
apt-get install -y --no-install-recommends gpsd libgps28 libasound2 libespeak-ng1 espeak-ng-data alsa-utils
id tern >/dev/null 2>&1 || useradd --system --home /var/lib/tern --shell /usr/sbin/nologin --user-group tern
usermod -a -G gpsd,audio,dialout tern 2>/dev/null || usermod -a -G audio,dialout tern
install -m 0755 .build/release/tern /usr/local/bin/tern
install -d -m 0755 /etc/tern
[ -f /etc/tern/tern.conf ] || install -m 0644 deploy/tern.conf /etc/tern/tern.conf
install -m 0644 deploy/gpsd.default /etc/default/gpsd
install -m 0644 deploy/99-tern.rules /etc/udev/rules.d/99-tern.rules
[ -f /etc/asound.conf ] || install -m 0644 deploy/asound.conf /etc/asound.conf
install -m 0644 deploy/tern.service /etc/systemd/system/tern.service
install -d -o tern -g tern -m 0750 /var/lib/tern /var/lib/tern/maps /var/lib/tern/drives
udevadm control --reload-rules || true
systemctl daemon-reload
systemctl enable --now gpsd.socket tern.service
echo "install: tern is running; put a map at /var/lib/tern/maps/region.tmap (tern import) and check: journalctl -u tern"
