#!/usr/bin/env bash
# Installs the Debian 12 / Raspberry Pi OS (bookworm) packages Tern builds and tests with.
# Idempotent: when everything is present it only checks (well under a second).
# Uses sudo when not run as root.
set -euo pipefail

PACKAGES=(
  pkg-config g++ libstdc++-12-dev          # the C++ target (libosmium) and system-library lookup
  libgps-dev gpsd gpsd-clients python3-gps # libgps client; gpsd and gpsfake for replays and tests
  libasound2-dev alsa-utils                # ALSA playback
  libespeak-ng-dev espeak-ng-data          # speech synthesis
  libosmium2-dev libprotozero-dev zlib1g-dev libbz2-dev libexpat1-dev  # OSM import (PBF, XML)
  socat sox libxml2-utils                  # tests: pseudo-terminal pairs, audio checks, GPX against its schema
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    SUDO="sudo"
  fi
  echo "setup: installing ${missing[*]}" >&2
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q
  # (measured: how many packages, MB downloaded and on disk; deploy/install.sh prints the same
  # for the appliance's runtime packages alone)
  $SUDO bash -c ". '$(cd "$(dirname "$0")/.." && pwd)/deploy/apt-measured.sh' && apt_measured 'setup: build and test packages' ${missing[*]}"
fi

# The Swift toolchain: on PATH, or the usual /opt/swift install.
if ! command -v swift >/dev/null 2>&1; then
  if [ -x /opt/swift/usr/bin/swift ]; then
    echo "setup: add /opt/swift/usr/bin to PATH (the scripts do this themselves)" >&2
  else
    echo "setup: no Swift toolchain found: install Swift 6 (swift.org) and put it on PATH" >&2
    exit 1
  fi
fi
