"""Shared fixtures: a journal in a temporary state folder, and running replay scripts."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tablekeeper.engine import Journal, Session
from tablekeeper.ui.cli import ScriptError, replay_lines

ROOT = Path(__file__).resolve().parent.parent
TABLEKEEPER = Path(sys.executable).with_name("tablekeeper")


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
    text = script if isinstance(script, str) else "\n".join(json.dumps(l) for l in script) + "\n"
    return subprocess.run([str(TABLEKEEPER), "replay", "-"], input=text, capture_output=True, text=True, timeout=120)


__all__ = ["ScriptError", "new_session", "replay", "replay_cli", "ROOT"]
