#!/usr/bin/env bash
# Routing benchmarks (release build) with Valhalla 3.9.1 measured in the same run:
#   bash scripts/bench.sh [--extracts heidelberg,monaco] [--scale 1,2,4,8] [--no-valhalla]
# Needs ../shared beside the repository, and Python 3.12 (python3.12 on PATH or in pyenv) for
# pyvalhalla; the venv goes to .bench/venv (not tracked).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
. scripts/env.sh
swift build -c release --product tern
PY=""
for candidate in $(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.12*/bin/python3.12 2>/dev/null) $(command -v python3.12 || true); do
  if "$candidate" -c 'import sys; assert sys.version_info[:2] == (3, 12)' 2>/dev/null; then PY=$candidate; break; fi
done
[ -n "$PY" ] || { echo "bench: Python 3.12 is needed for pyvalhalla 3.9.1 (python3.12 on PATH or in pyenv)" >&2; exit 1; }
if [ ! -x .bench/venv/bin/python ]; then
  mkdir -p .bench
  "$PY" -m venv .bench/venv
  .bench/venv/bin/pip install -q pyvalhalla==3.9.1 osmium
fi
exec .bench/venv/bin/python bench/run.py --python .bench/venv/bin/python "$@"
