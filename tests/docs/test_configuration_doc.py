"""docs/configuration.md documents every variable the settings read from the environment.

A setting nobody can find is a setting nobody can use: each name that
``nard_site/settings.py`` reads (``os.environ.get("X")``, ``env_bool("X", …)``, …) is
in the table of docs/configuration.md, written as code (`` `X` ``).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

READ = re.compile(
    r"""(?:environ\.get|environ\[|getenv|env_[a-z]+)\(?\s*["']([A-Z][A-Z0-9_]+)["']""")


def test_every_environment_variable_of_the_settings_is_documented() -> None:
    settings = (ROOT / "nard_site" / "settings.py").read_text(encoding="utf-8")
    names = set(READ.findall(settings))
    assert len(names) > 30, "the scan found too few names: is the pattern stale?"
    doc = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    assert sorted(n for n in names if f"`{n}`" not in doc) == []


def test_the_readme_points_to_the_configuration() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(docs/configuration.md)" in readme
    assert len(readme.splitlines()) <= 120
