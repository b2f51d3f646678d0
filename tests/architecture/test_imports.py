"""The import rules: the contracts in pyproject.toml (import-linter: the layers, the
independence of the feature modules, the engine's and the computer's purity) hold, and
no project module is imported inside a function where no comment says why.

An import inside a function hides a dependency from the contracts' reader and usually
an import loop; the loop is a design question, answered by a registry or a move. The
allowed places: Django's ``AppConfig.ready`` (where an app registers with the others
once every app is loaded), and an import with a comment on its line or the line above
saying why it cannot be at the top.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
PACKAGES = tuple(CONFIG["root_packages"])
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _is_project(node: ast.Import | ast.ImportFrom) -> bool:
    if isinstance(node, ast.ImportFrom):
        if node.level:  # relative: always this project's
            return True
        names = [node.module or ""]
    else:
        names = [alias.name for alias in node.names]
    return any(name.split(".")[0] in PACKAGES for name in names)


def hidden_imports(source: str) -> Iterator[tuple[int, str]]:
    """``(line, text)`` of each import of a project module inside a function, other than
    in ``AppConfig.ready`` or with a comment on its line or the line above."""
    lines = source.splitlines()
    tree = ast.parse(source)

    def commented(lineno: int) -> bool:
        """A comment on the import's line, or above the block of imports it stands in
        (blank lines between the block's groups included)."""
        if "#" in lines[lineno - 1]:
            return True
        above = lineno - 2
        while above >= 0 and (not lines[above].strip()
                               or lines[above].strip().startswith(("from ", "import "))):
            above -= 1
        return above >= 0 and lines[above].strip().startswith("#")

    def visit(node: ast.AST, function: str | None) -> Iterator[tuple[int, str]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                yield from visit(child, child.name)
            elif isinstance(child, ast.Import | ast.ImportFrom):
                if (function is not None and function != "ready" and _is_project(child)
                        and not commented(child.lineno)):
                    yield child.lineno, lines[child.lineno - 1].strip()
            else:
                yield from visit(child, function)

    yield from visit(tree, None)


def _sources() -> Iterator[Path]:
    for package in (*PACKAGES, "bench"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


def test_no_project_module_is_imported_inside_a_function_without_a_reason() -> None:
    found = [f"{path.relative_to(ROOT)}:{line}: {text}"
             for path in _sources() for line, text in hidden_imports(path.read_text())]
    assert not found, "\n".join(found)


def test_the_check_finds_a_hidden_import_and_lets_the_allowed_ones_be() -> None:
    planted = (
        "import games\n"
        "def hidden():\n"
        "    from ratings import services\n"
        "def relative():\n"
        "    from .models import Thing\n"
        "def outside():\n"
        "    import json\n"
        "def explained():\n"
        "    # the settings load this module before the apps are ready\n"
        "    from games import models\n"
        "    from games import services\n"
        "def not_the_block():\n"
        "    # a comment\n"
        "    x = 1\n"
        "    from games import services\n"
        "class Config:\n"
        "    def ready(self):\n"
        "        from live import fanout\n")
    assert [line for line, _ in hidden_imports(planted)] == [3, 5, 15]


def _lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=root, capture_output=True,
                          text=True, timeout=300, env={"PYTHONPATH": str(root),
                                                       "PATH": "/usr/bin:/bin"})


@pytest.fixture(scope="module")
def tree_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's Python packages and pyproject.toml, copied (source files only)."""
    copy = tmp_path_factory.mktemp("tree")
    shutil.copy(ROOT / "pyproject.toml", copy)
    for package in PACKAGES:
        shutil.copytree(ROOT / package, copy / package,
                        ignore=lambda folder, names: [n for n in names if not (
                            n.endswith(".py") or (Path(folder) / n).is_dir())])
    return copy


def test_the_contracts_hold(tree_copy: Path) -> None:
    run = _lint_imports(tree_copy)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "broken" not in run.stdout.lower().replace("0 broken", "")


@pytest.mark.parametrize(("module", "planted", "contract"), [
    ("games/_planted.py", "import ratings.services\n", "Layers"),
    ("nardy/_planted.py", "import django.db\n", "The engine is pure Python"),
    ("computer/_planted.py", "from games import models\n", "The computer's runtime is over"),
    ("computer/_planted.py", "from computer.lab import arena\n", "does not import its lab"),
    ("ratings/_planted.py", "import reviews\n", "The feature modules are independent"),
    ("accounts/_planted.py", "from games import services\n", "Layers"),
])
def test_a_planted_violation_fails_the_contracts(tree_copy: Path, module: str, planted: str,
                                                 contract: str) -> None:
    path = tree_copy / module
    path.write_text(planted)
    try:
        run = _lint_imports(tree_copy)
    finally:
        path.unlink()
    assert run.returncode != 0, run.stdout
    broken = run.stdout[run.stdout.index("Broken contracts"):]
    assert contract in broken, run.stdout
