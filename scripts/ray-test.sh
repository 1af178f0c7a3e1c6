#!/usr/bin/env bash
# impulse2d.distributed (issue 25): Ray installed into the virtualenv of
# scripts/python-test.sh (which must have run: it builds the package there),
# then tests/test_distributed.py and the README examples (one needs Ray), on a
# local 2-CPU Ray cluster bound to loopback. Kept apart so the main Python suite needs no Ray.
# Usage: bash scripts/ray-test.sh [pytest args...]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
venv="$root/target/py-venv"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import impulse2d.envs" 2>/dev/null; then
    echo "no impulse2d in $venv: run scripts/python-test.sh first" >&2
    exit 1
fi
"$venv/bin/pip" install -q --disable-pip-version-check "ray==2.60.*"
# No usage-stats prompt or upload, no dashboard.
export RAY_USAGE_STATS_ENABLED=0
cd crates/impulse2d-py
"$venv/bin/python" -m pytest -q tests/test_distributed.py tests/test_readme.py "$@"
