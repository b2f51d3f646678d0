"""``GET rules/``: the registered rule sets' facts, read from their descriptors.

The engine's :class:`nardy.Descriptor` is the one source; this module only shapes it
for the API (``games.shapes.RuleSet``). Titles and result titles are English: a client
translates them at the edge (the web client's catalogue has them), ``name`` is stable.
"""

from __future__ import annotations

import hashlib
import json

from games import shapes
from games.exceptions import NotFound
from games.models import Progression, Stakes
from nardy import DEFAULT_RULES, RULESETS, Descriptor, descriptors


def rule_set_json(d: Descriptor) -> shapes.RuleSet:
    """One descriptor as the API shows it."""
    return {
        "name": d.name, "title": d.title, "summary": d.summary,
        "default": d.name == DEFAULT_RULES, "tag": d.tag,
        "results": [{"name": r.name, "worth": r.points, "title": r.title,
                     "explanation": r.explanation} for r in d.results],
        "head": d.head, "hits": d.hits, "bar": d.bar, "bears_off": d.bears_off,
        "cap": d.cap, "numbering": d.numbering,
        "start": {str(p): n for p, n in sorted(d.start.items(), reverse=True)},
        "home": list(d.home), "opening": d.opening, "later_games": d.later_games,
        "stakes": list(Stakes.values), "progressions": list(Progression.values),
    }


def rule_sets_json() -> list[shapes.RuleSet]:
    """Every registered rule set, in registration order (the built-in ones first)."""
    return [rule_set_json(d) for d in descriptors()]


def rule_set_detail(name: str) -> shapes.RuleSet:
    """One rule set by name; :class:`NotFound` (404) for an unknown one."""
    found = RULESETS.get(name)
    if found is None:
        raise NotFound(f"No rule set {name!r}.", details={"known": list(RULESETS)})
    return rule_set_json(found.descriptor)


def etag(body: object) -> str:
    """A strong ETag of an answer: a hash of its JSON (it changes when a rule set is
    registered or a descriptor changes, nothing else)."""
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return '"' + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'
