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


def _runs_micropython(item) -> bool:
    """The firmware tests that start the MicroPython unix port carry its skipif."""
    return any("MicroPython" in str(m.kwargs.get("reason", "")) for m in item.iter_markers("skipif"))


def pytest_collection_modifyitems(config, items):
    for item in items:  # slow tests carry @pytest.mark.slow; the firmware's on MicroPython are slow too
        if _runs_micropython(item):
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
