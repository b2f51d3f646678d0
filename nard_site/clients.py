"""Who sends a request: the client's address as the throttles count it.

DRF's ``get_ident``: with ``NUM_PROXIES``, the address that many hops back in
``X-Forwarded-For``, so behind a proxy each client counts, not the proxy. The streams'
limits and the metrics' allowed networks read it here.
"""

from __future__ import annotations

from typing import Any

from rest_framework.throttling import BaseThrottle

_identity = BaseThrottle()


def client_address(request: Any) -> str:
    """The client's address as the throttles count it (``unknown`` when the server was
    told none)."""
    return str(_identity.get_ident(request) or "unknown")
