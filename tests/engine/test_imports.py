"""The engine's imports point one way: value types at the bottom (types, outcome,
descriptor), then positions and moves, the board and codec protocols, the rule set
protocol, the rule sets, the registry. Every import is at a module's top level, none
hidden in a function or under ``TYPE_CHECKING``, and no module imports itself back
through others."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

NARDY = Path(__file__).resolve().parents[2] / "nardy"


def _modules(root: Path = NARDY) -> dict[str, tuple[ast.Module, bool]]:
    """Every engine module by dotted name: its syntax tree, and whether it is a package."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = ("nardy", *path.relative_to(root).with_suffix("").parts)
        package = parts[-1] == "__init__"
        name = ".".join(parts[:-1] if package else parts)
        found[name] = (ast.parse(path.read_text(), str(path)), package)
    return found


def _imported(name: str, tree: ast.Module, package: bool, known: set[str]) -> set[str]:
    """The engine modules ``name`` imports, wherever the import stands (``from . import
    x`` names the module ``x`` when it is one)."""
    here = name.split(".") if package else name.split(".")[:-1]
    deps = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = here[: len(here) - node.level + 1]
            target = ".".join(base + ([node.module] if node.module else []))
            subs = {f"{target}.{alias.name}" for alias in node.names} & known
            deps |= subs or {target}
        elif isinstance(node, ast.Import):
            deps |= {alias.name for alias in node.names}
    return (deps & known) - {name}


def test_every_engine_import_is_at_the_top_level() -> None:
    hidden = []
    for name, (tree, _) in _modules().items():
        top = set(map(id, tree.body))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in top:
                hidden.append(f"{name}:{node.lineno}")
    assert not hidden, f"imports inside a function or a block: {hidden}"


def import_circle(root: Path = NARDY) -> tuple[str, ...]:
    """An import circle among the modules under ``root`` (empty when there is none)."""
    modules = _modules(root)
    graph = {name: _imported(name, tree, package, set(modules))
             for name, (tree, package) in modules.items()}
    try:
        tuple(TopologicalSorter(graph).static_order())
    except CycleError as exc:
        return tuple(exc.args[1])
    return ()


def test_the_engine_modules_import_one_way() -> None:
    assert import_circle() == ()
