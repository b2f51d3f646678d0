"""STYLE: the engine is pure Python; nothing under games/engine may import Django."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import games.engine

ROOT = Path(__file__).resolve().parents[2]


def engine_modules() -> list[str]:
    return ["games.engine"] + [
        f"games.engine.{m.name}" for m in pkgutil.iter_modules(games.engine.__path__)]


def test_engine_has_the_expected_modules() -> None:
    assert {"games.engine.longnardy", "games.engine.notation", "games.engine.position",
            "games.engine.bench"} <= set(engine_modules())


def test_engine_never_imports_django() -> None:
    imports = "; ".join(f"import {m}" for m in engine_modules())
    code = (f"{imports}; import sys; "
            "bad = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')); "
            "assert not bad, bad")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=60, env={"PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
