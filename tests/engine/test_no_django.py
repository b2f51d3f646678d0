"""STYLE: the engine is pure Python; nothing under nardy may import Django."""

from __future__ import annotations

import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import nardy

ROOT = Path(__file__).resolve().parents[2]


def engine_modules() -> list[str]:
    return ["nardy"] + [
        f"nardy.{m.name}" for m in pkgutil.iter_modules(nardy.__path__)]


def test_engine_has_the_expected_modules() -> None:
    assert {"nardy.longnardy", "nardy.notation", "nardy.position",
            "nardy.bench"} <= set(engine_modules())


def test_engine_never_imports_django() -> None:
    imports = "; ".join(f"import {m}" for m in engine_modules())
    code = (f"{imports}; import sys; "
            "bad = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')); "
            "assert not bad, bad")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=60, env={"PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr


# An import blocker standing in for a machine without Django: ``import django`` and
# ``import rest_framework`` fail as a missing package does; then pytest runs as usual.
_WITHOUT_DJANGO = """
import sys

class NoDjango:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in ("django", "rest_framework"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, NoDjango())
import pytest

sys.exit(pytest.main(sys.argv[1:]))
"""


def _pytest(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-c", _WITHOUT_DJANGO, *args, "-q", "-p", "no:django",
               "-p", "no:cacheprovider"]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={"PATH": "/usr/bin:/bin"})


def test_the_engine_suite_runs_without_django() -> None:
    """tests/engine (the hitting games' folder too) collects every test file with Django
    and DRF unimportable, and its tests run: the root conftest imports them only inside
    the Django fixtures."""
    collected = _pytest("tests/engine", "--collect-only")
    assert collected.returncode == 0, collected.stdout[-3000:] + collected.stderr[-3000:]
    lines = collected.stdout.strip().splitlines()
    assert re.fullmatch(r"\d+ tests collected in .*", lines[-1]), lines[-1]  # no errors
    files = {line.split("::")[0] for line in lines if line.startswith("tests/engine/")}
    assert {"tests/engine/test_rules.py", "tests/engine/hitting/test_rules.py"} <= files
    assert files == {str(p.relative_to(ROOT))
                     for p in (ROOT / "tests" / "engine").rglob("test_*.py")}
    ran = _pytest("tests/engine/test_doctests.py")
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    assert re.search(r"\d+ passed", ran.stdout) and "failed" not in ran.stdout, ran.stdout
