"""Shared fixtures: a journal in a temporary state folder, and running replay scripts."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings

from tablekeeper.engine import Journal, Session
from tablekeeper.ui.cli import ScriptError, replay_lines

ROOT = Path(__file__).resolve().parent.parent
TABLEKEEPER = Path(sys.executable).with_name("tablekeeper")


#: ``make check`` runs with ``--hypothesis-profile=fast``: the rule machines play fewer random
#: games there (10 examples each); ``make test`` keeps every test's own count.
settings.register_profile("fast", max_examples=10)


def examples(n: int) -> int:
    """A Hypothesis test's example count: ``n``, capped by the fast profile when it is loaded."""
    fast = settings.get_profile("fast")
    return min(n, fast.max_examples) if settings.default is fast else n


def steps(n: int) -> int:
    """A rule machine's steps per example: ``n``, at most 20 in the fast tier."""
    return min(n, 20) if settings.default is settings.get_profile("fast") else n


#: Games a generated journal holds at most in ``make check`` (a game played through the rules costs
#: about a tenth of a second): the full suite plays each test's own count.
FAST_GAMES = 30


def games(n: int) -> int:
    """How many games a test generates: ``n``, capped in the fast tier (``--hypothesis-profile=fast``)."""
    return min(n, FAST_GAMES) if settings.default is settings.get_profile("fast") else n


@pytest.fixture
def state_dir(tmp_path) -> Path:
    d = tmp_path / "state"
    d.mkdir()
    return d


@pytest.fixture
def journal(state_dir):
    j = Journal(state_dir)
    yield j
    j.close()


#: Slow tests in tests/hardware, by folder/module and name: each starts
#: ``tablekeeper serve`` as a subprocess or waits out real link timeouts on a pty (one to
#: six seconds each). ``make check`` leaves them out; ``make test`` runs them.
SLOW = {
    "hardware/test_serial_pty.py": {
        "test_a_seat_answers_within_two_seconds_after_a_long_silent_line",
        "test_fake_serial_peer_with_faults_and_a_replug",
        "test_faults_on_the_pty_lose_and_double_nothing",
        "test_loop_url_is_not_a_pod",
        "test_pod_reset_mid_game_other_seat_goes_on",
        "test_serial_pods_on_ptys_play_a_game",
        "test_unplug_and_replug_on_another_node",
    },
    "hardware/test_serve_lifecycle.py": {
        "test_serve_picks_up_a_game_started_while_it_waits",
        "test_serve_boot_check_counts_an_unsafe_shutdown_and_pets_the_watchdog",
        "test_serve_without_a_game_waits_ready_instead_of_exiting",
    },
    "hardware/test_serve_faults.py": {
        "test_serve_says_a_repair_on_stderr_and_on_every_pod",
        "test_an_act_from_the_command_line_while_serve_runs_lands_and_shows",
    },
    "hardware/test_cli.py": {"test_serve_plays_with_mock_pods_and_the_journal"},
    "hardware/test_serial_integration.py": {"test_hw_check_and_serve_drive_a_simulated_serial_pod"},
}


def _runs_micropython(item) -> bool:
    """The firmware tests that start the MicroPython unix port carry its skipif."""
    return any("MicroPython" in str(m.kwargs.get("reason", "")) for m in item.iter_markers("skipif"))


def pytest_collection_modifyitems(config, items):
    for item in items:
        name = getattr(item, "originalname", None) or item.name
        if name in SLOW.get("/".join(item.path.parts[-2:]), ()) or _runs_micropython(item):
            item.add_marker(pytest.mark.slow)


def new_session(journal, game, players, options=None, **kw) -> Session:
    return Session.new(journal, game, players, options or {}, **kw)


def replay(lines: list, tmp_path: Path | None = None) -> dict:
    """Run a script (a list of JSON values) in-process through the replay code path."""
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        return replay_lines([json.dumps(line) for line in lines], d)


def replay_cli(script: list | str | Path, *, stdin: bool = False) -> subprocess.CompletedProcess:
    """Run ``tablekeeper replay`` as a user would (a real subprocess)."""
    if isinstance(script, Path):
        return subprocess.run([str(TABLEKEEPER), "replay", str(script)], capture_output=True, text=True, timeout=120)
    text = script if isinstance(script, str) else "\n".join(json.dumps(line) for line in script) + "\n"
    return subprocess.run([str(TABLEKEEPER), "replay", "-"], input=text, capture_output=True, text=True, timeout=120)


__all__ = ["ScriptError", "examples", "new_session", "replay", "replay_cli", "ROOT"]
