#!/usr/bin/env bash
# The floor under issue #27's 12 MB target: the peak RSS of a static Swift program that links
# exactly what the issue allows the appliance (FoundationEssentials, the Swift runtime linked in;
# libc, libgps, libasound, libespeak-ng, zlib, bz2, expat, libstdc++ shared) and does nothing but
# encode and decode one JSON value. No map, no route, no matcher, no audio buffer.
# Built like tern's release binary (static stdlib, -no-pie); peak RSS from GNU time, 5 runs.
#
# Reproduce:  bash bench/footprint_floor.sh [path/to/tern]   (the tern, if given, is run with
#             --version alongside, for comparison)
set -euo pipefail
export PATH=/opt/swift/usr/bin:$PATH
dir=$(mktemp -d /tmp/tern-floor.XXXXXX)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/Sources/floor"
cat > "$dir/Package.swift" <<'SWIFT'
// swift-tools-version:5.9
import PackageDescription
let package = Package(name: "floor", targets: [
    .executableTarget(name: "floor", linkerSettings: [.unsafeFlags([
        "-Xlinker", "--no-as-needed",   // load every library, as tern does by calling into them
        "-lgps", "-lasound", "-lespeak-ng", "-lz", "-lbz2", "-lexpat", "-lstdc++",
        "-Xclang-linker", "-no-pie"])])])
SWIFT
cat > "$dir/Sources/floor/main.swift" <<'SWIFT'
import FoundationEssentials
struct Status: Codable { var speed: Double; var road: String }
let data = try! JSONEncoder().encode(Status(speed: 13.9, road: "Hauptstraße"))
let back = try! JSONDecoder().decode(Status.self, from: data)
print(back.road, data.count)
SWIFT
(cd "$dir" && swift build -c release --static-swift-stdlib >/dev/null 2>&1) \
    || { echo "footprint_floor: the build in $dir failed" >&2; exit 1; }
bin="$dir/.build/release/floor"
echo "shared libraries loaded: $(ldd "$bin" | wc -l)"
peaks() { for _ in 1 2 3 4 5; do /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; done | sort -n | tr '\n' ' '; }
echo "floor (FoundationEssentials + the allowed libraries, one JSON value), peak RSS kB: $(peaks "$bin")"
if [ $# -ge 1 ]; then
    echo "tern --version, peak RSS kB: $(peaks "$1" --version)"
fi
echo "target of issue #27: 12288 kB while guiding"
