"""The word filter for English and Russian: a line it flags is hidden from everyone but
its author and raised to the moderators' queue.

English: better-profanity's word list and matcher (MIT; its leetspeak variants too),
less the mild words of game talk in ``words/en_allowed.txt``, plus the abbreviations of
``words/en_extra.txt``. Russian: the patterns of
``words/ru.txt``, matched against each word after normalisation. The false-positive rate
of both on ordinary game talk (``words/game_talk.txt``) is measured by
``bench/chat_filter.py`` and stated in docs/chat.md.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from pathlib import Path

from better_profanity import Profanity

WORDS = Path(__file__).resolve().parent / "words"

# Latin letters and digits written for the Cyrillic ones they look like ("xуй", "6ля").
_LOOKALIKES = str.maketrans({
    "a": "а", "b": "в", "c": "с", "e": "е", "k": "к", "m": "м", "h": "н", "o": "о", "p": "р",
    "t": "т", "x": "х", "y": "у", "u": "и", "3": "з", "0": "о", "6": "б", "@": "а", "ё": "е",
})
_CYRILLIC = re.compile(r"[а-яё]")
_WORD = re.compile(r"[\w@]+")


def _lines(name: str) -> list[str]:
    text = (WORDS / name).read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines()
            if line.strip() and not line.startswith("#")]


@functools.cache
def _english() -> Profanity:
    profanity = Profanity()
    profanity.load_censor_words(whitelist_words=_lines("en_allowed.txt"))
    profanity.add_censor_words(_lines("en_extra.txt"))
    return profanity


@functools.cache
def _russian() -> list[re.Pattern[str]]:
    return [re.compile(pattern) for pattern in _lines("ru.txt")]


def _russian_word(word: str) -> str:
    """A word as the Russian patterns read it, if it has a Cyrillic letter (a Latin word
    is English's); look-alikes and ё normalised."""
    if not _CYRILLIC.search(word):
        return ""
    return word.translate(_LOOKALIKES)


def flagged_words(text: str) -> list[str]:
    """The words of ``text`` the filter catches (empty: the line passes)."""
    text = unicodedata.normalize("NFKC", text).casefold()
    english = _english()
    found: list[str] = []
    for word in _WORD.findall(text):
        russian = _russian_word(word)
        if russian:
            if any(pattern.search(russian) for pattern in _russian()):
                found.append(word)
        elif english.contains_profanity(word):
            found.append(word)
    if not found and english.contains_profanity(text):  # a phrase of the English list
        found.append(text)
    return found
