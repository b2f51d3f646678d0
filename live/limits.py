"""How many streams one account and one client address may hold open at once.

Counted per server process (``STREAMS_PER_ACCOUNT``, ``STREAMS_PER_IP``); beyond them a
new stream gets 429 ``throttled``. Long-polls (``events/?wait=``) hold a slot too while
they wait. The address is the throttles' client identity
(:func:`nard_site.clients.client_address`), so behind a proxy each client counts, not the
proxy. A stream's slot is given back when its response is
closed — by Django, however the stream ended (done, cut, or never started).
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

from django.conf import settings
from rest_framework.exceptions import Throttled

from nard_site.clients import client_address


class OpenStreams:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.counts: Counter[tuple[str, Any]] = Counter()

    def acquire(self, request: Any) -> Callable[[], None]:
        """A slot for a new stream of ``request``, or :class:`Throttled`; answers the
        function that gives it back (safe to call more than once)."""
        keys: list[tuple[str, Any]] = [("ip", client_address(request))]
        limits = [settings.STREAMS_PER_IP]
        if request.user.is_authenticated:
            keys.append(("user", request.user.pk))
            limits.append(settings.STREAMS_PER_ACCOUNT)
        with self.lock:
            for key, limit in zip(keys, limits, strict=True):
                if self.counts[key] >= limit:
                    raise Throttled(detail=f"At most {limit} open streams per "
                                           f"{'account' if key[0] == 'user' else 'address'}.")
            for key in keys:
                self.counts[key] += 1
        released = False

        def release() -> None:
            nonlocal released
            with self.lock:
                if released:
                    return
                released = True
                for key in keys:
                    self.counts[key] -= 1
                    if self.counts[key] <= 0:
                        del self.counts[key]

        return release

    def total(self) -> int:
        """The streams open in this process (each holds one address slot)."""
        with self.lock:
            return sum(n for (kind, _), n in self.counts.items() if kind == "ip")


open_streams = OpenStreams()
