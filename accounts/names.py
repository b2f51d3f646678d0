"""What a username or display name may be: normalised, visible, not a look-alike.

Every name is normalised to NFKC *before* it is validated or looked up, so the name
stored is the name its owner logs in with (``ﬁ`` and ``fi`` are one name). Usernames
compare by :func:`username_key`. A username may not mix scripts (``аdmin`` with a
Cyrillic ``а``) nor be made only of characters that look like ASCII ones without being
ASCII (``admın`` with a dotless ``ı``, ``ᴀᴅᴍɪɴ`` in small capitals: they read as
``admin``), and a new player may not take a reserved or a staff member's name under any
such disguise. No name may hold invisible characters — Unicode's default-ignorable code
points (zero-width spaces and joiners, bidi controls, variation selectors, tags), the
Hangul fillers (U+115F, U+1160, U+3164, U+FFA0) and other blanks (U+2800), unassigned
code points — nor be blank; display names refuse control characters too.

Look-alikes are judged on the :func:`skeleton`, UTS #39's (NFD, then each character
replaced by its prototype from the confusables data), made case-blind since names are:
the confusables data shipped by ``confusable_homoglyphs`` gives each character's ASCII
twin where it has one; what it lacks (small capitals such as ``ɴ``, which it omits or
maps to other small capitals) comes from the characters' Unicode names in
``unicodedata``. Nothing is downloaded. Reserved names are compared *compact* (letters
and digits only), so ``ad-min`` and ``computer_expert`` are reserved too, and the
computer's names — usernames ``computer-<level>``, display names ``Computer (<level>)``
— are reserved whole: no name whose compact skeleton begins with ``computer``.
"""

from __future__ import annotations

import functools
import re
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

#: The built-in computer opponents play as ``computer-<level>`` shown as ``Computer
#: (<level>)`` (``games.opponents``): no username or display name may begin so (compact:
#: ``computer_x``, ``Computer (x)`` and ``ᴄᴏᴍᴘᴜᴛᴇʀ-x`` alike), whatever levels exist today.
RESERVED_PREFIXES = ("computer",)

#: Bidi embeddings, overrides, isolates and marks: they make text read other than it is.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                          "\u2066\u2067\u2068\u2069")

#: Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt, Unicode 15), as
#: ranges; most are format characters (category Cf) or unassigned, but not all: the
#: Hangul fillers are letters (Lo), the variation selectors marks (Mn).
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
#: Blank but not default-ignorable: the Braille blank and the Hangul/Khmer-like fillers.
OTHER_BLANKS = frozenset("\u2800\u3164\uffa0\u115f\u1160")

_SMALL_CAPITAL = re.compile(r"^LATIN (?:LETTER SMALL CAPITAL|SMALL CAPITAL LETTER|"
                            r"CAPITAL LETTER SMALL CAPITAL|MODIFIER LETTER SMALL CAPITAL) "
                            r"([A-Z])$")
#: Letter pairs that read as one letter, and ASCII characters that read as others
#: (confusables.txt's ``rn`` → ``m``, ``vv`` → ``w``, ``0`` → ``O``, ``1``/``I`` → ``l``),
#: folded once the name is case-blind.
_ASCII_FOLDS = (("rn", "m"), ("vv", "w"), ("0", "o"), ("1", "l"), ("i", "l"), ("|", "l"))


def normalize(name: str) -> str:
    """NFKC: compatibility characters become the ones they stand for (``ﬁ`` → ``fi``)."""
    return unicodedata.normalize("NFKC", name)


def username_key(name: str) -> str:
    """How usernames compare: NFKC, then Unicode case folding (``Émile`` is ``émile``, on
    every database alike: SQLite's own case-insensitive matching folds ASCII only)."""
    return normalize(normalize(name).casefold())


def is_invisible(char: str) -> bool:
    """Whether ``char`` shows nothing: default-ignorable, a filler or blank, unassigned."""
    point = ord(char)
    return (char in OTHER_BLANKS or unicodedata.category(char) == "Cn"
            or any(low <= point <= high for low, high in DEFAULT_IGNORABLE))


@functools.lru_cache(maxsize=4096)
def _prototype(char: str) -> str:
    """The ASCII letter or digit ``char`` reads as, else ``char`` itself."""
    if char.isascii():
        return char
    small_capital = _SMALL_CAPITAL.match(unicodedata.name(char, ""))
    if small_capital:
        return small_capital.group(1).lower()
    for glyph in confusables.confusables_data.get(char, ()):
        twin = glyph["c"]
        if len(twin) == 1 and twin.isascii() and twin.isalnum():
            return twin
    return char


def plain(name: str) -> str:
    """``name`` case-folded with each look-alike of an ASCII character replaced by it,
    invisible characters dropped (what it reads as: ``ᴀᴅᴍɪɴ`` → ``admin``)."""
    decomposed = unicodedata.normalize("NFD", normalize(name))  # in its own case: Α is A
    shape = "".join(_prototype(char) for char in decomposed if not is_invisible(char))
    return unicodedata.normalize("NFC", username_key(shape))


def skeleton(name: str) -> str:
    """The UTS #39 skeleton of ``name``, case-blind: two names with one skeleton read alike
    (``ᴄᴏᴍᴘᴜᴛᴇʀ`` and ``computer``, ``adrnin`` and ``admin``)."""
    shape = plain(name)
    for pair, folded in _ASCII_FOLDS:
        shape = shape.replace(pair, folded)
    return shape


def compact(shape: str) -> str:
    """Letters and digits only: separators do not make another name."""
    return "".join(char for char in shape if char.isalnum())


def lookalike_problem(name: str) -> str | None:
    """Why ``name`` (normalised) would pass for another name, or ``None``."""
    if confusables.is_mixed_script(name):
        return "A username may not mix scripts (say Latin and Cyrillic letters)."
    if not name.isascii() and plain(name).isascii():
        return (f"This username looks like “{plain(name)}” written with look-alike "
                "letters; use the plain letters.")
    return None


_RESERVED = frozenset(skeleton(name) for name in RESERVED_NAMES)
_RESERVED_PREFIXES = tuple(skeleton(prefix) for prefix in RESERVED_PREFIXES)


def is_reserved(shape: str) -> bool:
    """Whether a name's :func:`skeleton` is reserved (a reserved name or prefix)."""
    tight = compact(shape)
    return tight in _RESERVED or tight.startswith(_RESERVED_PREFIXES)


def _staff_shapes(taken_by_staff: Iterable[str]) -> set[str]:
    return {compact(skeleton(staff)) for staff in taken_by_staff}


def _emoji_presentation(name: str, index: int) -> bool:
    """A text/emoji presentation selector (U+FE0E, U+FE0F) right after a symbol: the
    ``❤️`` of a display name, which shows a symbol rather than hiding anything."""
    return (name[index] in "\ufe0e\ufe0f" and index > 0
            and unicodedata.category(name[index - 1]) == "So")


def invisible_problem(name: str, *, what: str) -> str | None:
    """Why ``name`` hides characters or shows none, or ``None``."""
    if any(is_invisible(char) and not _emoji_presentation(name, index)
           for index, char in enumerate(name)):
        return (f"A {what} may not hold invisible characters (zero-width, filler, "
                "text-direction or variation characters).")
    if name and not any(not char.isspace() and unicodedata.category(char)[0] not in "ZC"
                        and unicodedata.category(char) not in ("Mn", "Me")
                        for char in name):
        return f"A {what} must show at least one letter, digit or sign."
    return None


def username_problem(name: str, *, taken_by_staff: Iterable[str] = ()) -> str | None:
    """Why a new player may not take ``name`` (normalised), or ``None``."""
    if len(username_key(name)) > KEY_MAX:
        return "This username is too long once case-folded."
    problem = invisible_problem(name, what="username") or lookalike_problem(name)
    if problem:
        return problem
    shape = skeleton(name)
    if (is_reserved(shape) or compact(shape) in _staff_shapes(taken_by_staff)
            or is_guest_name(name)):
        return "This username is reserved."
    return None


#: The guests' names (``accounts.services.guest_create``): ``Guest-`` and hex digits, read
#: case-blind with look-alikes folded and separators dropped, so nobody registers one.
_GUEST_NAME = re.compile(r"guest[0-9a-f]*")


def is_guest_name(name: str) -> bool:
    """Whether ``name`` reads as a guest's name (``Guest-7f3a``, ``guest_7F3A``)."""
    return _GUEST_NAME.fullmatch(compact(plain(name))) is not None


def display_name_problem(name: str, *, own_username: str = "",
                         taken_by_staff: Iterable[str] = ()) -> str | None:
    """Why ``name`` may not be a player's display name, or ``None``."""
    if any(char in BIDI_CONTROLS or unicodedata.category(char) == "Cc" for char in name):
        return "A display name may not hold control or text-direction characters."
    problem = invisible_problem(name, what="display name")
    if problem:
        return problem
    tight = compact(skeleton(name))
    if tight and tight != compact(skeleton(own_username)) and (
            is_reserved(tight) or tight in _staff_shapes(taken_by_staff)):
        return "This display name is reserved."
    return None
