"""A state folder nobody may enter (mode 000, as after a careless chmod or a restore by another user):
every command says so in one sentence and exits 1, never with a traceback, and nothing is written.

As root the permission bits are ignored; the commands then run with root's two capabilities that
bypass them dropped (``setpriv`` from util-linux), so they meet the folder as its owner would.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

TK = [sys.executable, "-m", "tablekeeper.ui.cli"]
DROP = ["setpriv", "--bounding-set=-dac_override,-dac_read_search"] if os.geteuid() == 0 else []

COMMANDS = [["state"], ["list"], ["history"], ["stats"], ["new", "counters", "Ana", "Ben"],
            ["act", '{"action": "next"}'], ["act", '{"action": "undo"}'], ["doctor"], ["backup", "--to", "{stick}"],
            ["export", "--csv", "{out}"]]


@pytest.fixture
def locked(tmp_path):
    if DROP and shutil.which("setpriv") is None:
        pytest.skip("setpriv (util-linux) is needed to meet permission bits as root")
    folder = tmp_path / "state"
    folder.mkdir()
    (folder / "keep").write_text("x")
    folder.chmod(0)
    probe = subprocess.run(DROP + [sys.executable, "-c", f"import os; os.listdir({str(folder)!r})"],
                           capture_output=True, text=True)
    assert probe.returncode != 0 and "PermissionError" in probe.stderr  # the folder really is shut
    yield folder
    folder.chmod(0o700)


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c)[:18])
def test_every_command_says_the_folder_cannot_be_read_in_one_sentence(locked, tmp_path, command):
    args = [a.replace("{out}", str(tmp_path / "out.csv")).replace("{stick}", str(tmp_path / "stick"))
            for a in command]
    proc = subprocess.run(DROP + TK + ["--state-dir", str(locked)] + args, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, env={**os.environ, "LANG": "C.UTF-8", "LANGUAGE": "en"})
    said = proc.stdout + proc.stderr
    assert "Traceback" not in said, said
    assert proc.returncode == 1, said
    assert "cannot be read (permission denied on the folder)" in said
    assert "chmod 700" in said
    if command[0] != "doctor":
        assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    locked.chmod(0o700)
    assert sorted(os.listdir(locked)) == ["keep"]  # nothing was written
    locked.chmod(0)
