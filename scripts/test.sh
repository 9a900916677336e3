#!/usr/bin/env bash
# Installs what the tests need, builds, and runs every test (`swift test`). The tests start
# gpsd, gpsfake and socat themselves and need no sound card or GNSS receiver. Test data is read
# from ../shared/data beside the repository; tests that need it skip when it is absent.
# Extra arguments go to `swift test` (e.g. --filter GPSInputTests).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
. scripts/env.sh
swift build --build-tests
exec swift test "$@"
