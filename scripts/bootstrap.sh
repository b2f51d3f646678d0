# Sourced by scripts/run.sh and scripts/test.sh: make .venv and install the locked
# dependencies into it.  Idempotent: reinstalls only when requirements.lock changed.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  echo "==> creating .venv with $($PYTHON --version)"
  "$PYTHON" -m venv .venv
fi
stamp=".venv/.requirements.lock.sha256"
want="$(sha256sum requirements.lock | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "==> installing locked dependencies (requirements.lock)"
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements.lock
  echo "$want" > "$stamp"
fi
export PATH="$ROOT/.venv/bin:$PATH"
