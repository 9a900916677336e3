#!/usr/bin/env bash
# The demo drive end to end: installs what is needed, builds tern (release), and runs
# `tern demo`: the built-in town, a simulated drive replayed through gpsfake → gpsd → tern,
# status lines here, prompts on the sound card (or into a WAV in the drive folder without one).
# Extra arguments go to `tern demo` (e.g. --rate 1 for real time).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
. scripts/env.sh
swift build -c release --product tern
exec .build/release/tern demo "$@"
