"""The rule sets' titles and result names, which the page reads from
``GET rules/`` and translates at the edge, each have a translation in the catalogue
(``makemessages`` cannot see them in the JS: docs/web.md "Languages")."""

from __future__ import annotations

import re
from pathlib import Path

import nardy

PO = Path(__file__).resolve().parents[2] / "web/locale/ru/LC_MESSAGES/djangojs.po"


def _translations(text: str) -> dict[str, str]:
    """msgid -> msgstr of the live (not obsolete ``#~``), single-line entries."""
    return dict(re.findall(r'^msgid "(.+)"\nmsgstr "(.*)"$', text, flags=re.MULTILINE))


def test_every_rule_set_title_and_result_name_is_translated() -> None:
    found = _translations(PO.read_text(encoding="utf-8"))
    wanted = {d.title for d in nardy.descriptors()} | {
        r.name for d in nardy.descriptors() for r in d.results}
    missing = sorted(w for w in wanted if not found.get(w))
    assert not missing, f"add these to {PO.name} (docs/web.md): {missing}"


def test_the_check_sees_a_missing_entry() -> None:
    text = 'msgid "Long Nardy"\nmsgstr "Длинные нарды"\n\n#~ msgid "mars"\n#~ msgstr "марс"\n'
    assert _translations(text) == {"Long Nardy": "Длинные нарды"}


def _all_translations(text: str) -> dict[str, str]:
    """msgid -> msgstr of the live entries, continuation lines joined."""
    found = {}
    for msgid, msgstr in re.findall(r'^msgid ((?:".*"\n)+)msgstr ((?:".*"\n?)+)', text,
                                    flags=re.MULTILINE):
        def join(lines: str) -> str:
            return "".join(re.findall(r'"(.*)"', lines))
        found[join(msgid)] = join(msgstr)
    return found


def test_every_computer_level_name_and_sentence_is_translated() -> None:
    """The lobby shows each level of ``GET computer/`` as ``_(Name)``
    with ``_(description)``."""
    from games import opponents

    found = _all_translations(PO.read_text(encoding="utf-8"))
    wanted = {text for rules in opponents.levels_json() for level in rules["levels"]
              for text in (level["level"].capitalize(), level["description"])}
    missing = sorted(w for w in wanted if not found.get(w))
    assert not missing, f"add these to {PO.name} (docs/web.md): {missing}"
