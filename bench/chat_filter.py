"""The chat word filter's false positives on ordinary game talk, in English and Russian.

    .venv/bin/python -m bench.chat_filter

Reads ``chat/words/game_talk_en.txt`` and ``game_talk_ru.txt`` (lines written for this,
none abusive) and prints, for each language, how many lines the filter flags — its
false-positive rate — and the same for better-profanity's list as published (without
``chat/words/en_allowed.txt``), with the lines flagged; and how many of the abusive lines
of ``abuse_en.txt`` and ``abuse_ru.txt`` it catches. The figures are in docs/chat.md.
"""

from __future__ import annotations

from better_profanity import Profanity

from chat.filter import WORDS, flagged_words


def game_talk(language: str, name: str = "game_talk") -> list[str]:
    text = (WORDS / f"{name}_{language}.txt").read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines()
            if line.strip() and not line.startswith("#")]


def false_positives(language: str) -> tuple[list[str], int]:
    lines = game_talk(language)
    return [line for line in lines if flagged_words(line)], len(lines)


def caught(language: str) -> tuple[list[str], int]:
    """The abusive lines of ``abuse_<language>.txt`` the filter misses, and how many."""
    lines = game_talk(language, "abuse")
    return [line for line in lines if not flagged_words(line)], len(lines)


def main() -> None:
    published = Profanity()
    published.load_censor_words()
    for language in ("en", "ru"):
        flagged, total = false_positives(language)
        print(f"{language}: the filter flags {len(flagged)} of {total} ordinary lines "
              f"({100 * len(flagged) / total:.1f} %): {flagged}")
        raw = [line for line in game_talk(language) if published.contains_profanity(line)]
        missed, abusive = caught(language)
        print(f"{language}: it catches {abusive - len(missed)} of {abusive} abusive lines; "
              f"misses {missed}")
        print(f"{language}: better-profanity as published flags {len(raw)} of {total} "
              f"({100 * len(raw) / total:.1f} %): {raw}")


if __name__ == "__main__":
    main()
