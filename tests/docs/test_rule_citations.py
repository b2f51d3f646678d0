"""Every rule citation in the repository resolves to docs/rules.md.

docs/rules.md is the project's rule book: every rule R1-R33 (Long Nardy), H1-H17 (the
hitting games) and S1-S7 (stakes) is a heading with an explicit anchor, written

    ### <a id="r15"></a>R15 — Prime rule

(the anchor is the code in lower case, so links read ``docs/rules.md#r15``).

**What counts as a citation.** The scan reads every text file of the repository: UTF-8,
no NUL byte. It skips the tool and cache folders in ``SKIPPED_DIRS`` and the generated
data in ``SKIPPED_DATA`` (perft counts, training logs: position IDs, not prose). A
citation is

1. a capital ``R``, ``H`` or ``S`` followed by a number (``R15``, ``H7``, ``S4``), with
   no letter or digit, of any script, right before or right after it. So ``0xR15``,
   ``AH18F``, ``R15a``, ``S3x`` and lower-case ``<h1>`` are not citations, while
   ``R15/R18``, ``(R7)``, ``R29, H15`` and ``H15's`` are;
2. the far end of a range is a citation too: ``R19-R21``, ``R19–R21`` (en dash) and the
   short form ``R19-21`` cite both R19 and R21. A range whose end is not above its
   start is reported;
3. an underscore also counts as a boundary, but only inside a snake_case or UPPER_CASE
   name (each ``_``-separated part written in one case) that is not part of a
   hyphenated token. ``test_R8_R12_loser_starts`` and ``_THEIR_TO_MINE_R2`` cite, but
   base64url position IDs such as ``P1-JJKSqqQAH__AAA`` never do;
4. in a test name (``test_...``), a lower-case part ``r19``, ``h10`` or ``s7`` is a
   citation as well: ``test_r19_r28_both_dice...`` cites R19 and R28.

Each citation must be one of the 57 codes and have a heading in docs/rules.md.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES_MD = ROOT / "docs" / "rules.md"

EXPECTED = ([f"R{n}" for n in range(1, 34)] + [f"H{n}" for n in range(1, 18)]
            + [f"S{n}" for n in range(1, 8)])
"""The 57 rules, in the order docs/rules.md lists them."""

SKIPPED_DIRS = frozenset({".git", ".venv", "venv", "node_modules", "__pycache__",
                          ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis",
                          "staticfiles", "htmlcov"})
"""Tool and cache folders, skipped wherever they are."""
SKIPPED_DATA = frozenset({"tests/engine/data", "computer/weights", ".ci/logs"})
"""Generated data, relative to the root: perft tables, training logs, CI logs."""

CODE = re.compile(r"""
    (?<![^\W_])               # no letter or digit (any script) right before; "_" is no letter
    (?P<letter>[RHS])(?P<number>[0-9]+)
    (?:[-–](?P=letter)?(?P<end>[0-9]+))?   # a range: R19-R21, R19–R21, R19-21
    (?![^\W_])                # no letter or digit right after
""", re.VERBOSE)
TEST_NAME = re.compile(r"(?<![\w])test_\w+")
LOWER_CODE = re.compile(r"[rhs][0-9]+")
ONE_CASE_PART = re.compile(r"[a-z0-9]*|[A-Z0-9]*")
HEADING = re.compile(r'^### <a id="(?P<anchor>[^"]*)"></a>(?P<code>[RHS][0-9]+) — \S.*$')
LOOKS_LIKE_RULE_HEADING = re.compile(r"^#{1,6} .*?\b[RHS][0-9]+\b")


@dataclass(frozen=True, order=True)
class Citation:
    path: str
    line: int
    code: str
    problem: str = ""

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.code}{' ' + self.problem if self.problem else ''}"


def _in_identifier(text: str, start: int, end: int) -> bool:
    """Rule 3: a code touching "_" cites only inside a one-case-per-part name."""
    s = start
    while s > 0 and (text[s - 1].isascii() and (text[s - 1].isalnum() or text[s - 1] == "_")):
        s -= 1
    e = end
    while e < len(text) and (text[e].isascii() and (text[e].isalnum() or text[e] == "_")):
        e += 1
    if (s > 0 and text[s - 1] == "-") or (e < len(text) and text[e] == "-"):
        return False
    return all(ONE_CASE_PART.fullmatch(part) for part in text[s:e].split("_"))


def citations_in(text: str) -> Iterator[tuple[int, str, str]]:
    """(line, code, problem) for each citation in ``text``; problem is "" or a range fault."""
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line_of(pos: int) -> int:
        lo, hi = 0, len(line_starts)
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if line_starts[mid] <= pos:
                lo = mid
            else:
                hi = mid
        return lo + 1

    for m in CODE.finditer(text):
        start, end = m.span()
        touches_underscore = ((start > 0 and text[start - 1] == "_")
                              or (end < len(text) and text[end] == "_"))
        if touches_underscore and not _in_identifier(text, start, end):
            continue
        letter, line = m["letter"], line_of(start)
        yield line, letter + m["number"], ""
        if m["end"] is not None:
            code = letter + m["end"]
            bad = int(m["end"]) <= int(m["number"])
            yield line, code, f"(range {m.group(0)} does not go up)" if bad else ""
    for m in TEST_NAME.finditer(text):
        for part in m.group(0).split("_"):
            if LOWER_CODE.fullmatch(part):
                yield line_of(m.start()), part.upper(), ""


def text_files(root: Path) -> Iterator[tuple[str, str]]:
    """(relative path, text) of every text file under ``root`` the scan reads."""
    for folder, dirs, files in os.walk(root):
        here = Path(folder)
        rel_folder = here.relative_to(root).as_posix()
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS
                         and not d.endswith(".egg-info")
                         and (d if rel_folder == "." else f"{rel_folder}/{d}")
                         not in SKIPPED_DATA)
        for name in sorted(files):
            path = here / name
            if path.is_symlink() or not path.is_file():
                continue
            data = path.read_bytes()
            if b"\0" in data:
                continue
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                continue
            yield path.relative_to(root).as_posix(), text


def rule_headings(text: str) -> tuple[list[str], list[str]]:
    """(the codes of docs/rules.md's rule headings in order, problems found)."""
    codes: list[str] = []
    problems: list[str] = []
    for number, line in enumerate(text.splitlines(), 1):
        m = HEADING.match(line)
        if m:
            if m["anchor"] != m["code"].lower():
                problems.append(f"line {number}: {m['code']} has anchor {m['anchor']!r}, "
                                f"expected {m['code'].lower()!r}")
            codes.append(m["code"])
        elif line.startswith("###") and LOOKS_LIKE_RULE_HEADING.match(line):
            problems.append(f"line {number}: not in the form "
                            f'### <a id="r1"></a>R1 — Title: {line!r}')
    return codes, problems


def unresolved(root: Path, known: set[str]) -> list[Citation]:
    """Every citation under ``root`` whose code is not in ``known`` (or a bad range)."""
    found = []
    for path, text in text_files(root):
        for line, code, problem in citations_in(text):
            if problem or code not in known:
                found.append(Citation(path, line, code, problem))
    return sorted(found)


def _rules_text() -> str:
    return RULES_MD.read_text(encoding="utf-8")


# ---------------------------------------------------------------------------
# The rule book and the repository.


def test_rules_md_has_each_of_the_57_rules_once_in_order() -> None:
    codes, problems = rule_headings(_rules_text())
    assert problems == []
    missing = [c for c in EXPECTED if c not in codes]
    extra = [c for c in codes if c not in EXPECTED]
    twice = sorted({c for c in codes if codes.count(c) > 1})
    assert (missing, extra, twice) == ([], [], [])
    assert codes == EXPECTED


def test_rules_md_links_within_itself_resolve() -> None:
    text = _rules_text()
    anchors = set(re.findall(r'<a id="([^"]+)"></a>', text))
    for heading in re.findall(r"^#{1,6} (.+)$", text, re.MULTILINE):
        plain = re.sub(r"<[^>]+>", "", heading).strip().lower()
        anchors.add(re.sub(r"\s", "-", re.sub(r"[^\w\- ]", "", plain)))
    links = re.findall(r"\]\(#([^)]+)\)", text)
    assert links and sorted(set(links) - anchors) == []


def test_every_rule_citation_in_the_repository_resolves_to_docs_rules_md() -> None:
    codes, _ = rule_headings(_rules_text())
    bad = unresolved(ROOT, set(codes))
    assert [str(c) for c in bad] == []


def test_the_scan_reads_the_code_tests_and_docs() -> None:
    """A guard against a scan that silently reads nothing: known citations are found."""
    seen = {path: {code for _, code, _ in citations_in(text)}
            for path, text in text_files(ROOT)}
    assert {"R15", "R18"} <= seen["nardy/longnardy.py"]
    assert "H10" in seen["tests/engine/hitting/test_rules.py"]  # test_h10_... names
    assert set(EXPECTED) <= seen["docs/rules.md"]


def test_readme_and_architecture_link_the_rule_book() -> None:
    assert "(docs/rules.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(rules.md)" in (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


# ---------------------------------------------------------------------------
# The test of the test: planted codes. Unknown codes are spelled in two pieces here
# ("R" "34") so that this file itself holds none.

UNKNOWN_R = "R" "34"
UNKNOWN_H = "H" "18"
UNKNOWN_S = "S" "8"


def _found(text: str) -> list[str]:
    return [code + (" " + problem if problem else "") for _, code, problem in
            citations_in(text)]


@pytest.mark.parametrize(("text", "codes"), [
    ("R15/R18", ["R15", "R18"]),
    ("(R7), R29, H15's", ["R7", "R29", "H15"]),
    ("R19-R21 and R10–R27", ["R19", "R21", "R10", "R27"]),
    ("R19-21", ["R19", "R21"]),
    ("RULES-FAMILY S1–S7", ["S1", "S7"]),
    ("def test_R8_R12_loser_starts():", ["R8", "R12"]),
    ("def test_r19_r28_both_dice():", ["R19", "R28"]),
    ("_THEIR_TO_MINE_R2 = 1", ["R2"]),
    ("Правило R11.", ["R11"]),
])
def test_the_pattern_reads_citations(text: str, codes: list[str]) -> None:
    assert _found(text) == codes


@pytest.mark.parametrize("text", [
    "0xR15 AH18F R15a S3x",           # glued to letters or digits: hex-like, words
    "<h1>Title</h1> h1 { color: red }",  # HTML and CSS
    "P1-JJKSqqQAH__AAA SNP-AB_R5_cdEF",  # base64url position IDs
    "xR34 ЖR5",                       # a letter of any script before it
    "for r1 in rows: s7 = h10",        # lower case outside a test name
    "MixedCase_R40_name",             # a name whose parts are not one case each
])
def test_the_pattern_ignores_what_is_no_citation(text: str) -> None:
    assert _found(text) == []


def test_a_planted_unknown_code_is_reported_with_its_place(tmp_path: Path) -> None:
    (tmp_path / "nardy").mkdir()
    (tmp_path / "nardy" / "engine.py").write_text(
        f"x = 1\n# {UNKNOWN_R}: a typo for R24\n# fine: R15/R18\n", encoding="utf-8")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "notes.md").write_text(
        f"See {UNKNOWN_H} and the range R30-R{35} and {UNKNOWN_S}.\n", encoding="utf-8")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        "def test_r" "40_typo():\n    pass\n", encoding="utf-8")
    known = set(EXPECTED)
    assert [str(c) for c in unresolved(tmp_path, known)] == [
        f"docs/notes.md:1: {UNKNOWN_H}",
        "docs/notes.md:1: R" "35",
        f"docs/notes.md:1: {UNKNOWN_S}",
        f"nardy/engine.py:2: {UNKNOWN_R}",
        "tests/test_x.py:1: R" "40",
    ]


def test_a_backward_range_is_reported(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("# R21" "-R19\n", encoding="utf-8")
    assert [str(c) for c in unresolved(tmp_path, set(EXPECTED))] == [
        "a.py:1: R19 (range R21" "-R19 does not go up)"]


def test_skipped_folders_binary_and_data_files_are_not_read(tmp_path: Path) -> None:
    for rel in (".venv/lib/x.py", "tests/engine/data/perft.json", "computer/weights/a.log",
                "games/__pycache__/x.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(f"{UNKNOWN_R}\n", encoding="utf-8")
    (tmp_path / "weights.npz").write_bytes(b"\0\1" + UNKNOWN_R.encode())
    (tmp_path / "latin1.txt").write_bytes(b"\xe9 " + UNKNOWN_R.encode())
    assert unresolved(tmp_path, set(EXPECTED)) == []
    (tmp_path / "games" / "x.py").write_text(f"{UNKNOWN_R}\n", encoding="utf-8")
    assert [c.path for c in unresolved(tmp_path, set(EXPECTED))] == ["games/x.py"]


def test_a_rule_book_missing_a_rule_or_with_a_bad_anchor_is_caught() -> None:
    text = _rules_text()
    without_r11 = "\n".join(line for line in text.splitlines()
                            if not line.startswith('### <a id="r11"></a>'))
    codes, problems = rule_headings(without_r11)
    assert problems == [] and "R11" not in codes and len(codes) == 56
    codes, problems = rule_headings(text.replace('<a id="r15"></a>', '<a id="r16"></a>', 1))
    assert len(problems) == 1 and "R15 has anchor 'r16'" in problems[0]
    codes, problems = rule_headings(text + "\n### R11 Head rule again\n")
    assert len(problems) == 1 and "not in the form" in problems[0]
