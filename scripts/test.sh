#!/usr/bin/env bash
# Command 2: install the same way and run the whole test suite (extra args go to pytest).
# The suite runs on whichever database DATABASE_URL names (SQLite when unset), in
# TEST_WORKERS processes (pytest-xdist; default: the machine's cores, at most 4; 0 runs it
# in this process). Each worker has a test database of its own (test_<name>_gw<N>).
source "$(dirname "$0")/bootstrap.sh"
workers="${TEST_WORKERS:-$(cores="$(nproc 2>/dev/null || echo 1)"; echo $((cores < 4 ? cores : 4)))}"
exec python -m pytest -n "$workers" "$@"
