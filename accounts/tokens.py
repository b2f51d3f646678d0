"""API token keys: made at random, shown once, stored only as their SHA-256.

A key is 40 hexadecimal characters (160 random bits), as DRF's were, so clients and the
``Authorization: Token <key>`` header are unchanged. Keys are random, not chosen by
people, so a plain SHA-256 is enough: there is nothing to guess from a leaked hash, and
the lookup stays one indexed read per request.
"""

from __future__ import annotations

import hashlib
import secrets

KEY_LENGTH = 40


def generate_key() -> str:
    return secrets.token_hex(KEY_LENGTH // 2)


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("ascii")).hexdigest()


def could_be_key(key: str) -> bool:
    """Whether ``key`` has the form of a key at all (else it is refused unread)."""
    return 0 < len(key) <= KEY_LENGTH and key.isascii() and key.isalnum()
