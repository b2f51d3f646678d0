"""docs/api.md names every call a client author meets, and docs/configuration.md the settings."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_api_guide_covers_the_calls_newcomers_missed():
    text = (ROOT / "docs" / "api.md").read_text()
    for phrase in ("matches/{id}/cancel/", "matches/{id}/decline/", "DELETE accounts/token/",
                   "PATCH accounts/me/", "?player=", '"reason": "declined"',
                   "Tokens do not expire", "Bearer"):
        assert phrase in text, phrase


def test_the_configuration_guide_documents_the_settings():
    text = (ROOT / "docs" / "configuration.md").read_text()
    for phrase in ("| `DEBUG` | `0` |", "`NUM_PROXIES` | `0`", "LOGIN_FAILURE_LIMIT",
                   "THROTTLE_ANALYSIS", "purge_idempotency_keys", "from cron or the periodic sweep",
                   "**API tokens** do not expire", "SQLITE_BUSY_TIMEOUT",
                   # the log-in limits and the tokens' cap
                   "LOGIN_ADDRESS_FAILURE_LIMIT", "LOGIN_CONCURRENT_CHECKS",
                   "API_TOKENS_PER_ACCOUNT", "stored as hashes"):
        assert phrase in text, phrase
