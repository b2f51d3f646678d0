#!/usr/bin/env bash
# Command 2: install the same way and run the whole test suite (extra args go to pytest).
# The suite runs on whichever database DATABASE_URL names (SQLite when unset), in one
# process by default; TEST_WORKERS=N runs it in N processes (pytest-xdist), each with a
# test database of its own (test_<name>_gw<N>) — about half the time on two cores, but the
# browser tests are timing-sensitive under that load (README).
source "$(dirname "$0")/bootstrap.sh"
exec python -m pytest -n "${TEST_WORKERS:-0}" "$@"
