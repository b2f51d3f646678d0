"""Who sends a request: the client's address as the throttles count it.

DRF's ``get_ident``: with ``NUM_PROXIES``, the address that many hops back in
``X-Forwarded-For``, so behind a proxy each client counts, not the proxy. The streams'
limits and the metrics' allowed networks read it here.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from rest_framework.throttling import BaseThrottle

_identity = BaseThrottle()


def client_address(request: Any) -> str:
    """The client's address as the throttles count it (``unknown`` when the server was
    told none)."""
    return str(_identity.get_ident(request) or "unknown")


def ip_address(request: Any) -> str | None:
    """The client's address when it is one (what a column of addresses can hold): ``None``
    when the server was told none, or something else (a Unix socket's peer)."""
    address = client_address(request)
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:
        return None
