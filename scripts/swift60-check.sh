#!/usr/bin/env bash
# swift60-check.sh: builds and tests a Tern checkout with Swift 6.0.3 (Debian trixie's swiftlang),
# natively in an amd64 trixie root (made or reused by arm64-check.sh under $WORK): Package.swift
# says swift-tools-version 6.0, and this proves it, beside the 6.3 toolchain the README uses.
# Same options as arm64-check.sh (--filter, --skip, -c, --no-test, --run, --shell, --setup-only).
#   usage: bash scripts/swift60-check.sh [options] [TERN_DIR]     (root)
set -euo pipefail
exec bash "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/arm64-check.sh" --mode amd64 "$@"
