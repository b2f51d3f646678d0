#!/usr/bin/env bash
# Command 2: install the same way and run the whole test suite (extra args go to pytest).
# The suite runs on whichever database DATABASE_URL names (SQLite when unset), in two
# processes by default (pytest-xdist), each with a test database of its own
# (test_<name>_gw<N>) — about half the time of one on two cores; TEST_WORKERS=0 runs it in
# this process, TEST_WORKERS=N in N (README).
source "$(dirname "$0")/bootstrap.sh"
exec python -m pytest -n "${TEST_WORKERS:-2}" "$@"
