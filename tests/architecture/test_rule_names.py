"""No rule-set name or title is spelled outside the engine.

The rule sets' facts live in their descriptors (``nardy.descriptor``, served by
``GET rules/``); every other layer reads them. This test fails when a non-test,
non-migration, non-data file outside ``nardy/`` spells a rule set's name
(``long_nardy``, ``short_nardy``, ``backgammon``, ``nard``) or title as a string of its
code: in Python a string constant (docstrings and comments are prose, not code), in
JavaScript and templates a quoted string or the two names that can only be names.
"""

from __future__ import annotations

import ast
import io
import itertools
import re
import subprocess
import tokenize
from pathlib import Path

import nardy

ROOT = Path(__file__).resolve().parents[2]

NAMES = frozenset(d.name for d in nardy.descriptors())
TITLES = frozenset(d.title for d in nardy.descriptors())
# Names no prose uses: flagged anywhere in code, not only as a whole string.
IDENTIFIERS = re.compile(r"\b(?:long_nardy|short_nardy)\b")

ALLOWED: dict[str, str] = {
    # GNU Backgammon plays backgammon only: the adapter and the arena's gnubg player
    # check that they were given backgammon.
    "computer/lab/gnubg.py": "gnubg is a backgammon-only tool",
    "computer/lab/arena.py": "the gnubg player of the arena is backgammon-only",
    # Reserved usernames: "nard" is the site's name there, not a rule set.
    "accounts/names.py": "reserved usernames, not rule sets",
}
"""Files allowed to spell a rule-set name, each with why (keep it short)."""

SCANNED = (".py", ".js", ".html")


def _skipped(path: str) -> bool:
    parts = path.split("/")
    return (parts[0] in ("tests", "nardy", "docs") or "migrations" in parts
            or not path.endswith(SCANNED))


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
        # An attribute's docstring: a string statement right after an assignment.
        for field in ("body", "orelse"):
            stmts = getattr(node, field, None)
            if isinstance(stmts, list):
                for before, stmt in itertools.pairwise(stmts):
                    if (isinstance(before, (ast.Assign, ast.AnnAssign))
                            and isinstance(stmt, ast.Expr)
                            and isinstance(stmt.value, ast.Constant)):
                        ids.add(id(stmt.value))
    return ids


def _python_offences(text: str) -> list[str]:
    tree = ast.parse(text)
    prose = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and id(node) not in prose):
            value = node.value.strip()
            if value in NAMES or value in TITLES or IDENTIFIERS.search(value):
                found.append(f"line {node.lineno}: {node.value!r}")
    return found


_JS_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/|<!--.*?-->|\{#.*?#\}", re.DOTALL)


def _script_offences(text: str) -> list[str]:
    code = _JS_COMMENT.sub("", text)
    quoted = "|".join(re.escape(t) for t in sorted(NAMES | TITLES))
    literal = re.compile(rf"""(["'`])(?:{quoted})\1""")
    found = []
    for number, line in enumerate(code.splitlines(), start=1):
        if literal.search(line) or IDENTIFIERS.search(line):
            found.append(f"line {number}: {line.strip()}")
    return found


def offences(path: str, text: str) -> list[str]:
    """The rule-set literals of one file's ``text`` (``path`` says its language)."""
    if path.endswith(".py"):
        return _python_offences(text)
    return _script_offences(text)


def _files() -> list[str]:
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    return [p for p in out.splitlines() if not _skipped(p) and p not in ALLOWED]


def test_no_rule_set_literal_outside_the_engine() -> None:
    files = _files()
    assert any(p.startswith("web/static/") for p in files), "the scan saw no JS"
    assert "games/models.py" in files
    bad = {}
    for path in files:
        file = ROOT / path
        if file.exists():
            found = offences(path, file.read_text(encoding="utf-8"))
            if found:
                bad[path] = found
    assert not bad, ("rule-set names/titles spelled outside nardy/ (read the descriptor, "
                     f"nardy.descriptors(), or GET rules/): {bad}")


def test_the_allow_list_is_still_needed() -> None:
    """Each allowed file still spells a rule set (else take it off the list)."""
    for path in ALLOWED:
        text = (ROOT / path).read_text(encoding="utf-8")
        assert offences(path, text), f"{path} no longer needs its place in ALLOWED"


def test_a_planted_literal_is_found() -> None:
    """The test of the test: each kind of literal it must catch, and prose it must not."""
    assert offences("x.py", 'if rules == "short_nardy":\n    pass\n')
    assert offences("x.py", 'TITLE = "Long Nardy"\n')
    assert offences("x.py", 'x = f"{a} long_nardy {b}"\n')
    assert offences("x.py", 'CHOICES = [("nard", "Nard")]\n')
    assert offences("x.js", 'const HITTING = new Set(["backgammon", "nard"]);\n')
    assert offences("x.js", 'if (rules() === "long_nardy") draw();\n')
    assert offences("x.js", "const RULE_NAMES = { short_nardy: _('Short Nardy') };\n")
    assert offences("x.html", '<option value="backgammon">Backgammon</option>\n')
    # Prose is not code: docstrings, comments, a sentence that mentions a game.
    assert not offences("x.py", '"""Long Nardy\'s head rule (R11)."""\n# long_nardy\n'
                                'HELP = "Always false in Long Nardy."\n')
    assert not offences("x.js", '// Long Nardy: "long_nardy"\nconst a = _("Play Long Nardy");\n')
    with io.StringIO('x = "backgammon"\n') as planted:  # tokenize agrees it is a string
        kinds = [t.type for t in tokenize.generate_tokens(planted.readline)]
    assert tokenize.STRING in kinds
