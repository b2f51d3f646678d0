#!/usr/bin/env bash
# Command 2: install the same way and run the whole test suite (extra args go to pytest).
# The suite runs on whichever database DATABASE_URL names (SQLite when unset).
source "$(dirname "$0")/bootstrap.sh"
exec python -m pytest "$@"
