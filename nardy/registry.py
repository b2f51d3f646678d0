"""The rule sets the server can play, by name: the built-in four and any added at run time.

Every layer reaches a rule set, and its facts (:class:`~nardy.descriptor.Descriptor`),
through here: ``RULESETS[name]``, :func:`ruleset`, :func:`descriptor_of`,
:func:`descriptors`. :func:`register` adds a rule set (a test's toy game, a fifth game
in a plug-in), :func:`unregister` takes it away again. They are the only writers of the
tables that know the rule sets: :data:`RULESETS`, the result names' points
(:data:`~nardy.outcome.RESULT_POINTS`) and the hitting games' variants by name and by
ID tag (:mod:`nardy.hitting.variants`), which positions and IDs read.

>>> [d.name for d in descriptors()]
['long_nardy', 'short_nardy', 'backgammon', 'nard']
>>> descriptor_of("nard").cap, ruleset(DEFAULT_RULES).title
(6, 'Long Nardy')
"""

from __future__ import annotations

from typing import Final

from .descriptor import LONG_NARDY, Descriptor
from .hitting import BACKGAMMON_RULES, NARD_RULES, SHORT_NARDY_RULES, HittingGame
from .hitting.variants import BY_TAG, VARIANTS
from .longnardy import LONG_NARDY_RULES
from .outcome import RESULT_POINTS
from .ruleset import RuleSet

DEFAULT_RULES: Final = LONG_NARDY.name
"""The rule set a match is played by when none is asked for (the API's default)."""

RULESETS: Final[dict[str, RuleSet]] = {}
"""Every rule set by name, in the order they were registered; the server reaches the
rules only through this. Change it with :func:`register` / :func:`unregister`."""


def register(rules: RuleSet) -> RuleSet:
    """Make ``rules`` playable by its name (its ``descriptor.name``) and return it.

    Its results join :data:`~nardy.outcome.RESULT_POINTS`; a hitting game's variant
    becomes known to positions and IDs. Raises ``ValueError`` when the name is taken by
    another rule set, when its tag is used by another registered rule set (IDs name
    their rule set by tag), or when one of its result names is worth other points in a
    registered rule set.
    """
    d = rules.descriptor
    known = RULESETS.get(d.name)
    if known is rules:
        return rules
    if known is not None:
        raise ValueError(f"a rule set named {d.name!r} is registered already")
    for other in RULESETS.values():
        if other.descriptor.tag == d.tag:
            raise ValueError(f"{d.name}: the tag {d.tag!r} is {other.descriptor.name}'s")
    for result in d.results:
        if RESULT_POINTS.get(result.name, result.points) != result.points:
            raise ValueError(f"{d.name}: the result {result.name!r} is worth "
                             f"{RESULT_POINTS[result.name]} elsewhere, not {result.points}")
    for result in d.results:
        RESULT_POINTS.setdefault(result.name, result.points)
    if isinstance(rules, HittingGame):
        VARIANTS[d.name] = BY_TAG[d.tag] = rules.variant
    RULESETS[d.name] = rules
    return rules


def unregister(name: str) -> None:
    """Take the rule set ``name`` away (the reverse of :func:`register`): its results
    that no other rule set has leave :data:`~nardy.outcome.RESULT_POINTS`, a hitting
    game's positions and IDs are no longer known. Raises ``KeyError`` for an unknown
    name."""
    rules = ruleset(name)
    del RULESETS[name]
    still = {r.name for rs in RULESETS.values() for r in rs.descriptor.results}
    for result in rules.descriptor.results:
        if result.name not in still:
            RESULT_POINTS.pop(result.name, None)
    if isinstance(rules, HittingGame):
        del VARIANTS[name], BY_TAG[rules.descriptor.tag]


def ruleset(name: str) -> RuleSet:
    """The rule set called ``name``. Raises ``KeyError`` naming the known ones."""
    try:
        return RULESETS[name]
    except KeyError:
        raise KeyError(f"no rule set {name!r}; known: {', '.join(RULESETS)}") from None


def descriptor_of(name: str) -> Descriptor:
    """The facts of the rule set called ``name``. Raises ``KeyError`` like :func:`ruleset`."""
    return ruleset(name).descriptor


def descriptors() -> tuple[Descriptor, ...]:
    """Every registered rule set's descriptor, in registration order (the built-in ones
    first: Long Nardy, short nardy, backgammon, nard)."""
    return tuple(rs.descriptor for rs in RULESETS.values())


for _builtin in (LONG_NARDY_RULES, SHORT_NARDY_RULES, BACKGAMMON_RULES, NARD_RULES):
    register(_builtin)
