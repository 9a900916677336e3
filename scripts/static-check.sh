#!/usr/bin/env bash
# One file to copy (issue #27): builds tern with the Swift standard library and FoundationEssentials inside
# (--static-swift-stdlib), strips it, and runs it on a clean Debian 12 root that gets only the
# runtime packages, installed by deploy/install.sh, which prints what they cost
# (../shared/tools/fresh-machine.sh; the binary, a map and a drive copied in, no Swift on PATH and
# none on the binary's RUNPATH): `ldd`, `tern --version` and a replay to arrival.
#   usage: bash scripts/static-check.sh     (root: fresh-machine.sh makes a chroot)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
work=$(mktemp -d /tmp/tern-static.XXXXXX)
trap 'rm -rf "$work"' EXIT
swift build -c release --product tern --static-swift-stdlib --scratch-path "$work/build"
install -m 0755 "$work/build/release/tern" "$work/tern"
strip "$work/tern"
echo "static-check: $(du -h "$work/tern" | cut -f1) binary; it needs: $(readelf -d "$work/tern" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | tr '\n' ' ')"
"$work/tern" import ../shared/data/osm/liechtenstein.osm.pbf -o "$work/li.tmap" --quiet
"$work/tern" simulate --map "$work/li.tmap" --from 47.0700,9.5050 --to 47.1400,9.5200 -o "$work/d.nmea" >/dev/null
rm -rf "$work/build"
../shared/tools/fresh-machine.sh --shared "$work" . \
  'apt-get update -q >/dev/null && bash deploy/install.sh ../shared/tern 2>&1 | grep -v "^\(Get\|Selecting\|Preparing\|Unpacking\|Setting up\|Processing\|Reading\|Building\|debconf\|invoke-rc\)"' \
  'ldd /usr/local/bin/tern; ! ldd /usr/local/bin/tern | grep -i "swift\|icu\|not found"' \
  'env -i PATH=/usr/local/bin:/usr/bin:/bin tern --version' \
  'env -i PATH=/usr/local/bin:/usr/bin:/bin tern replay ../shared/d.nmea --map ../shared/li.tmap --to 47.1400,9.5200 --direct --mute --log-dir /tmp/d | tail -2'
