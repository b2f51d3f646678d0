""".ci/run: its database and port come from the environment, it drops what it created,
and it installs the Debian packages the tests use only when they are missing."""

from __future__ import annotations

import subprocess
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / ".ci" / "run"


def test_the_script_parses():
    assert subprocess.run(["bash", "-n", str(SCRIPT)]).returncode == 0


def test_database_and_port_come_from_the_environment_with_defaults():
    code = "\n".join(line for line in SCRIPT.read_text().splitlines()
                     if not line.startswith("#"))
    assert 'DB="${CI_DB:-nard_ci}"' in code and 'PORT="${CI_PORT:-8765}"' in code
    assert code.count("nard_ci") == 1 and code.count("8765") == 1  # nowhere else


def test_it_cleans_up_whatever_way_it_ends_and_keeps_its_exit_status():
    text = SCRIPT.read_text()
    assert "trap 'rc=$?; set +e; cleanup; exit $rc' EXIT" in text
    cleanup = text[text.index("cleanup() {"):text.index("trap ")]
    for dropped in ('DROP DATABASE IF EXISTS test_$DB', 'DROP DATABASE IF EXISTS $DB',
                    'drop_worker_dbs', 'rm -rf "$SMOKE_DIR"', 'kill --'):
        assert dropped in cleanup


def test_gnubg_is_installed_from_debian_only_when_missing():
    text = SCRIPT.read_text()
    assert "[ -x /usr/games/gnubg ] || command -v gnubg >/dev/null || missing+=(gnubg)" in text
    assert 'apt-get install -y -qq "${missing[@]}"' in text
