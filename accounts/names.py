"""What a username or display name may be: normalised, unambiguous, not a look-alike.

Every name is normalised to NFKC *before* it is validated or looked up, so the name
stored is the name its owner logs in with (``ﬁ`` and ``fi`` are one name). Usernames
compare by :func:`username_key`. A username may not mix scripts (``аdmin`` with a
Cyrillic ``а``) nor be made only of characters that look like ASCII ones without being
ASCII (``admın`` with a dotless ``ı``: it reads as ``admin``), and a new player may not
take a reserved or a staff member's name under any such disguise. Display names refuse
the invisible characters that reorder or hide text (bidi controls, other controls).
Look-alikes come from Unicode's confusables data as shipped by ``confusable_homoglyphs``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from confusable_homoglyphs import confusables

USERNAME_MAX = 150
KEY_MAX = 300  # accounts.User.username_key's column

#: Names no player may register (nor a look-alike of them); staff accounts' names too.
RESERVED_NAMES = frozenset({
    "admin", "administrator", "root", "staff", "support", "help", "moderator", "mod",
    "system", "nard", "nardy", "official", "security", "superuser", "webmaster",
    "computer", "bot",
})

#: The built-in computer opponents play as ``computer-<level>`` (``games.opponents``): no
#: player may take a name that begins so, whatever level exists today.
RESERVED_PREFIXES = ("computer-",)

#: Bidi embeddings, overrides, isolates and marks: they make text read other than it is.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                          "\u2066\u2067\u2068\u2069")


def normalize(name: str) -> str:
    """NFKC: compatibility characters become the ones they stand for (``ﬁ`` → ``fi``)."""
    return unicodedata.normalize("NFKC", name)


def username_key(name: str) -> str:
    """How usernames compare: NFKC, then Unicode case folding (``Émile`` is ``émile``, on
    every database alike: SQLite's own case-insensitive matching folds ASCII only)."""
    return normalize(normalize(name).casefold())


def _ascii_twin(char: str) -> str | None:
    """The ASCII letter or digit ``char`` is confusable with, if any."""
    for glyph in confusables.confusables_data.get(char, ()):
        twin = glyph["c"]
        if len(twin) == 1 and twin.isascii() and twin.isalnum():
            return twin
    return None


def skeleton(name: str) -> str:
    """``name`` with each look-alike of an ASCII character replaced by it, case-folded."""
    shape = "".join(char if char.isascii() else (_ascii_twin(char) or char)
                    for char in normalize(name))
    return username_key(shape)


def lookalike_problem(name: str) -> str | None:
    """Why ``name`` (normalised) would pass for another name, or ``None``."""
    if confusables.is_mixed_script(name):
        return "A username may not mix scripts (say Latin and Cyrillic letters)."
    if not name.isascii() and skeleton(name).isascii():
        return (f"This username looks like “{skeleton(name)}” written with look-alike "
                "letters; use the plain letters.")
    return None


def is_reserved(shape: str) -> bool:
    """Whether a name's :func:`skeleton` is reserved (a reserved name or prefix)."""
    return shape in RESERVED_NAMES or shape.startswith(RESERVED_PREFIXES)


def username_problem(name: str, *, taken_by_staff: Iterable[str] = ()) -> str | None:
    """Why a new player may not take ``name`` (normalised), or ``None``."""
    if len(username_key(name)) > KEY_MAX:
        return "This username is too long once case-folded."
    problem = lookalike_problem(name)
    if problem:
        return problem
    shape = skeleton(name)
    if is_reserved(shape) or shape in {skeleton(staff) for staff in taken_by_staff}:
        return "This username is reserved."
    return None


def display_name_problem(name: str, *, own_username: str = "",
                         taken_by_staff: Iterable[str] = ()) -> str | None:
    """Why ``name`` may not be a player's display name, or ``None``."""
    if any(char in BIDI_CONTROLS or unicodedata.category(char) == "Cc" for char in name):
        return "A display name may not hold control or text-direction characters."
    shape = skeleton(name)
    if shape and shape != skeleton(own_username) and (
            is_reserved(shape) or shape in {skeleton(s) for s in taken_by_staff}):
        return "This display name is reserved."
    return None
