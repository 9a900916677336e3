#!/usr/bin/env bash
# arm64-check.sh: build and test a Tern checkout for arm64 (aarch64) on an x86_64 Debian host,
# without a Pi (issue #27). Uses two Debian trixie roots made with debootstrap, both with trixie's
# swiftlang (Swift 6.0.3):
#   trixie-arm64  aarch64 root, run under qemu-user (binfmt_misc): runs the tests and commands
#   trixie-amd64  native root: cross-compiles to aarch64 with the arm64 root as the sysroot
# Idempotent: makes the roots once (about 15 min, ~8 GB), then reuses them; the copied tree and the
# build directory are kept between runs, so a second run builds incrementally.
#
# usage: arm64-check.sh [options] [TERN_DIR]      (TERN_DIR: a Tern checkout, default .)
#   --mode cross      (default) compile in the amd64 root for aarch64 (fast), test in the arm64 root
#   --mode emulated   compile and test inside the arm64 root under qemu (about 14x slower than native)
#   --mode amd64      compile and test natively in the amd64 root (Swift 6.0.3; what swift60-check.sh runs)
#   -c, --configuration debug|release   (default debug)
#   --filter REGEX    passed to swift test --filter (repeatable)
#   --skip REGEX      passed to swift test --skip (repeatable)
#   --no-test         build only
#   --run CMD         after the tests, run CMD (bash) in the root, in the tree, with the build's bin dir on PATH
#                     (repeatable; e.g. --run 'tern --version' --run 'scripts/replay.sh ...')
#   --shell           open an interactive shell in the root at the end
#   --setup-only      make/check the roots and stop
#   --shared DIR      the test data (../shared: DIR/data), copied beside the tree in the root
#                     (default: ../shared beside TERN_DIR, when it exists; tests skip without it)
# Env: WORK (where the roots, the tree copies and the builds go; default /var/tmp/tern-arm64),
# MIRROR (default http://deb.debian.org/debian), TIME_SCALE (the tests' deadlines under qemu, x15).
# Timings measured here (2 cores, x86_64; docs/arm64.md): roots made in about 15 minutes; the
# cross build of Tern with its tests 94 s; the check package built 14x slower emulated than native.
# Run as root. Everything it runs is under nice -n 19.
set -euo pipefail

WORK=${WORK:-/var/tmp/tern-arm64}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
TIME_SCALE=${TIME_SCALE:-15}
SUITE=trixie
ARM=$WORK/trixie-arm64
AMD=$WORK/trixie-amd64
PACKAGES=(
  swiftlang build-essential pkg-config git rsync ca-certificates
  libgps-dev gpsd gpsd-tools python3-gps
  libasound2-dev alsa-utils libespeak-ng-dev espeak-ng-data
  libosmium2-dev libprotozero-dev zlib1g-dev libbz2-dev libexpat1-dev
  python3 socat sox libxml2-utils
)
# trixie's gpsd-clients hard-depends on GTK3 and matplotlib (+146 packages): only its command-line
# tools are unpacked into /usr/local/bin (gpsfake is Python and uses python3-gps)
GPS_CLIENT_TOOLS=(gpsfake gpspipe gpxlogger gpsdecode gpscat)

mode=cross config=debug run_tests=1 shell=0 setup_only=0 src=. shared=
test_args=() run_cmds=()
while [ $# -gt 0 ]; do
  case $1 in
    --mode) mode=$2; shift 2 ;;
    -c|--configuration) config=$2; shift 2 ;;
    --filter) test_args+=(--filter "$2"); shift 2 ;;
    --skip) test_args+=(--skip "$2"); shift 2 ;;
    --no-test) run_tests=0; shift ;;
    --run) run_cmds+=("$2"); shift 2 ;;
    --shell) shell=1; shift ;;
    --setup-only) setup_only=1; shift ;;
    --shared) shared=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
    -*) echo "arm64-check: unknown option $1" >&2; exit 2 ;;
    *) src=$1; shift ;;
  esac
done
case $mode in cross|emulated|amd64) ;; *) echo "arm64-check: --mode cross|emulated|amd64" >&2; exit 2 ;; esac
[ "$(id -u)" -eq 0 ] || { echo "arm64-check: run as root (debootstrap, chroot, mount)" >&2; exit 1; }
src=$(cd "$src" && pwd)
[ -n "$shared" ] || { [ -d "$src/../shared/data" ] && shared=$src/../shared; } || true
[ "$setup_only" = 1 ] || [ -f "$src/Package.swift" ] || { echo "arm64-check: no Package.swift in $src" >&2; exit 1; }
renice -n 19 -p $$ >/dev/null   # children inherit

# MARK: timing
T0=$(date +%s); timings=()
step() {  # step NAME CMD...: runs CMD, records its wall time
  local name=$1; shift
  local s; s=$(date +%s.%N)
  echo "== $(date +%T) $name" >&2
  # the command runs in a subshell so that set -e holds inside it (bash ignores -e in a function
  # called from an || context); so a step cannot change this shell's variables or mounts
  local rc; set +e; ( set -e; "$@" ); rc=$?; set -e
  local dt; dt=$(awk -v a="$s" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}')
  timings+=("$(printf '%8ss  %s%s' "$dt" "$name" "$([ $rc -eq 0 ] || echo "  (FAILED rc=$rc)")")")
  echo "== $name: ${dt}s rc=$rc" >&2
  return $rc
}
summary() {
  echo "---- step timings ($mode, $config) ----" >&2
  local t; for t in "${timings[@]}"; do echo "$t" >&2; done
  echo "$(printf '%8ss' $(( $(date +%s) - T0 )))  total" >&2
}

# MARK: mounts (only what this run mounted is unmounted, and only when no other run holds the lock)
mounted=()
mnt() {  # mnt TARGET mount-args...
  local target=$1; shift
  mkdir -p "$target"
  mountpoint -q "$target" && return 0
  mount "$@" "$target"; mounted+=("$target")
}
mount_root() {
  local r=$1
  mnt "$r/proc" -t proc proc
  mnt "$r/sys" -t sysfs sys
  mnt "$r/dev" --bind /dev
  mnt "$r/dev/pts" --bind /dev/pts
  mnt "$r/dev/shm" -t tmpfs shm
  cp -L /etc/resolv.conf "$r/etc/resolv.conf"
}
cleanup() {
  local rc=$?
  summary
  if flock -n -x 9 2>/dev/null; then
    # no other run: stop what is left running in the roots (e.g. a gpsfake/gpsd from --run), then unmount
    local p r
    for sig in TERM KILL; do
      for p in /proc/[0-9]*; do
        r=$(readlink "$p/root" 2>/dev/null) || continue
        if [ "$r" = "$ARM" ] || [ "$r" = "$AMD" ]; then kill -s $sig "${p#/proc/}" 2>/dev/null || true; fi
      done
      [ $sig = KILL ] || sleep 1
    done
    local i; for (( i=${#mounted[@]}-1; i>=0; i-- )); do umount "${mounted[$i]}" 2>/dev/null || umount -l "${mounted[$i]}" || true; done
  fi
  exit $rc
}
mkdir -p "$WORK"
exec 9>"$WORK/.mounts.lock"; flock -s 9
trap cleanup EXIT

in_root() {  # in_root ROOT CMD: bash -c CMD in the root with a clean environment
  local r=$1; shift
  chroot "$r" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin /bin/bash -c "$1"
}

# MARK: host: qemu-user-static with the F flag (the interpreter is opened at registration, so it
# works inside a chroot without copying qemu into the root)
host_setup() {
  local need=()
  command -v qemu-aarch64-static >/dev/null || need+=(qemu-user-static binfmt-support)
  command -v debootstrap >/dev/null || need+=(debootstrap)
  command -v rsync >/dev/null || need+=(rsync)
  if [ ${#need[@]} -gt 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}"
  fi
  mountpoint -q /proc/sys/fs/binfmt_misc || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
  if ! grep -q '^flags: .*F' /proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null; then
    update-binfmts --enable qemu-aarch64 2>/dev/null || true
  fi
  if ! grep -q '^flags: .*F' /proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null; then
    [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] && echo -1 > /proc/sys/fs/binfmt_misc/qemu-aarch64
    echo ':qemu-aarch64:M::\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00:\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff:/usr/bin/qemu-aarch64-static:PF' \
      > /proc/sys/fs/binfmt_misc/register
  fi
  grep -q '^enabled' /proc/sys/fs/binfmt_misc/qemu-aarch64
}

# MARK: roots
bootstrap_root() {  # bootstrap_root ARCH DIR: debootstrap (the second stage runs under qemu for arm64)
  local arch=$1 r=$2
  if [ ! -d "$r/debootstrap" ]; then
    if [ -e "$r" ] && [ -n "$(ls -A "$r")" ]; then
      echo "arm64-check: $r is a broken root: check nothing is mounted under it (mount | grep $r), then remove it" >&2
      return 1
    fi
    debootstrap --arch="$arch" --foreign --variant=minbase "$SUITE" "$r" "$MIRROR"
  fi
  chroot "$r" /debootstrap/debootstrap --second-stage
}
provision_root() {  # provision_root DIR: packages (only the missing ones), gpsd-clients' tools, git
  local r=$1
  printf 'deb %s %s main\ndeb %s %s-updates main\ndeb http://deb.debian.org/debian-security %s-security main\n' \
    "$MIRROR" "$SUITE" "$MIRROR" "$SUITE" "$SUITE" > "$r/etc/apt/sources.list"
  local missing="" installed p
  installed=$(in_root "$r" "dpkg-query -W -f='\${Package} \${Status}\n' ${PACKAGES[*]} 2>/dev/null | awk '/install ok installed/{print \$1}'" || true)
  for p in "${PACKAGES[@]}"; do grep -qx "$p" <<<"$installed" || missing+="$p "; done
  if [ -n "$missing" ]; then
    in_root "$r" "export DEBIAN_FRONTEND=noninteractive; apt-get update -q && apt-get install -y -q --no-install-recommends $(echo $missing) && apt-get clean"
  fi
  in_root "$r" "command -v gpsfake >/dev/null || { d=\$(mktemp -d) && cd \$d && chown _apt \$d && apt-get download -q gpsd-clients && dpkg-deb -x gpsd-clients_*.deb x \
    && for b in ${GPS_CLIENT_TOOLS[*]}; do install -m 755 x/usr/bin/\$b /usr/local/bin/\$b; done; cd / && rm -rf \$d; }"
  # the BuildInfo plugin runs git on the copied tree (owned by another uid when copied from a user's checkout)
  in_root "$r" "git config --global --get-all safe.directory | grep -qx '\\*' || git config --global --add safe.directory '*'"
  in_root "$r" "swift --version 2>&1 | head -1"
}
root() {  # root ARCH DIR: make or reuse, mount /proc /sys /dev, provision (serialised per root with flock)
  local arch=$1 r=$2
  exec 8>"$WORK/.$arch.lock"; flock 8
  if [ ! -e "$r/usr/bin/apt-get" ] || [ -d "$r/debootstrap" ]; then
    step "root $arch: debootstrap $SUITE" bootstrap_root "$arch" "$r"
  fi
  mount_root "$r"
  step "root $arch: packages (install missing / check)" provision_root "$r"
  flock -u 8; exec 8>&-
}

# the Swift SDK for cross-compiling: the arm64 root, bind-mounted read-only at /sysroot-arm64 in the
# amd64 root, with its own Swift resources (stdlib, Foundation, XCTest for aarch64); linked with lld;
# runtime search path /usr/libexec/swift/lib/swift/linux (where trixie's libswiftlang puts the .so files)
write_sdk() {
  local b=$AMD/opt/tern-sdks/trixie-arm64.artifactbundle
  mkdir -p "$b/sdk"
  cat > "$b/info.json" <<'EOF'
{ "schemaVersion": "1.0",
  "artifacts": { "trixie-arm64": { "type": "swiftSDK", "version": "6.0.3",
    "variants": [ { "path": "sdk", "supportedTriples": ["x86_64-unknown-linux-gnu", "x86_64-pc-linux-gnu"] } ] } } }
EOF
  cat > "$b/sdk/swift-sdk.json" <<'EOF'
{ "schemaVersion": "4.0",
  "targetTriples": { "aarch64-unknown-linux-gnu": {
    "sdkRootPath": "/sysroot-arm64",
    "swiftResourcesPath": "/sysroot-arm64/usr/libexec/swift/lib/swift",
    "swiftStaticResourcesPath": "/sysroot-arm64/usr/libexec/swift/lib/swift_static",
    "toolsetPaths": ["toolset.json"] } } }
EOF
  cat > "$b/sdk/toolset.json" <<'EOF'
{ "schemaVersion": "1.0",
  "rootPath": "/usr/libexec/swift/bin",
  "swiftCompiler": { "extraCLIOptions": ["-use-ld=lld", "-no-toolchain-stdlib-rpath",
                                         "-Xlinker", "-rpath=/usr/libexec/swift/lib/swift/linux"] } }
EOF
}
CROSS_ENV="PKG_CONFIG_SYSROOT_DIR=/sysroot-arm64 PKG_CONFIG_LIBDIR=/sysroot-arm64/usr/lib/aarch64-linux-gnu/pkgconfig:/sysroot-arm64/usr/share/pkgconfig"
CROSS_ARGS="--swift-sdks-path /opt/tern-sdks --swift-sdk trixie-arm64"

# MARK: run
step "host: qemu-user-static, binfmt (F flag)" host_setup
[ "$mode" = amd64 ] || root arm64 "$ARM"
[ "$mode" = emulated ] || root amd64 "$AMD"
if [ "$mode" = cross ]; then
  write_sdk
  mnt "$AMD/sysroot-arm64" --bind "$ARM"
  mount -o remount,bind,ro "$AMD/sysroot-arm64"
fi
[ "$setup_only" = 0 ] || exit 0

# the tree and its build directory live in $WORK/w/$mode, bind-mounted at the same path (/w/$mode)
# in the roots that use it, so a cross build in the amd64 root is tested in place in the arm64 root
W=/w/$mode
mkdir -p "$WORK$W/tern" "$WORK$W/scratch"
case $mode in cross) roots=("$AMD" "$ARM"); build_root=$AMD; test_root=$ARM ;;
              emulated) roots=("$ARM"); build_root=$ARM; test_root=$ARM ;;
              amd64) roots=("$AMD"); build_root=$AMD; test_root=$AMD ;; esac
for r in "${roots[@]}"; do mnt "$r$W" --bind "$WORK$W"; done

# rsync rewrites only changed files (SwiftPM's llbuild compares inode and mtime: a fresh copy rebuilds all)
step "copy $src -> $W/tern" rsync -a --delete --exclude /.build --exclude /.bench --exclude /.swiftpm "$src/" "$WORK$W/tern/"
# the test data where the tests look for it (../shared/data beside the package)
if [ -n "$shared" ]; then
  mkdir -p "$WORK$W/shared/data"
  step "copy $shared/data -> $W/shared/data" rsync -a --delete "$shared/data/" "$WORK$W/shared/data/"
fi

SP="--scratch-path $W/scratch -c $config"
# the tests only when they are run: they @testable-import, which a release build cannot give
BT=""; [ "$run_tests" = 1 ] && BT="--build-tests"
if [ "$mode" = cross ]; then
  step "swift build $BT (cross, amd64 root -> aarch64)" \
    in_root "$build_root" "cd $W/tern && $CROSS_ENV swift build $BT $SP $CROSS_ARGS"
else
  step "swift build $BT ($mode)" in_root "$build_root" "cd $W/tern && swift build $BT $SP"
fi

if [ "$run_tests" = 1 ]; then
  targs=""; [ ${#test_args[@]} -eq 0 ] || targs=$(printf ' %q' "${test_args[@]}")
  # under qemu a core is about 14x slower: the tests' deadlines are scaled (TestSupport's
  # TestTiming), so they test that things happen, not how fast; natively, no scaling
  scale=1; [ "$mode" = amd64 ] || scale=$TIME_SCALE
  step "swift test --skip-build${targs} (in the $(basename "$test_root") root, deadlines x$scale)" \
    in_root "$test_root" "cd $W/tern && TERN_TEST_TIME_SCALE=$scale swift test --skip-build $SP$targs"
fi

bindir=$W/scratch/$config   # SwiftPM's link to <triple>/<config>
for c in "${run_cmds[@]+"${run_cmds[@]}"}"; do
  step "run: $c" in_root "$test_root" "cd $W/tern && export PATH=$bindir:\$PATH && $c"
done
if [ "$shell" = 1 ]; then
  echo "arm64-check: shell in $(basename "$test_root") at $W/tern (bin: $bindir); exit to leave" >&2
  chroot "$test_root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" \
    PATH="$bindir:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" /bin/bash -c "cd $W/tern && exec bash -i" || true
fi
