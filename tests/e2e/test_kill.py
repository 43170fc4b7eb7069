"""Durability the hard way: SIGKILL a player at random moments.

A child process plays a scripted game; the test kills it with SIGKILL at a
random moment, at least 100 times. After each kill the game reopens and every
action the child reported as acknowledged is there, in order; at most one more
(committed, killed before it could report) follows.
"""
from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from tablekeeper.engine import Journal, Session, canonical

CHILD = Path(__file__).with_name("kill_child.py")
KILLS = 100


def test_sigkill_never_loses_an_acknowledged_action(tmp_path):
    rng = random.Random(20261129)
    state = tmp_path / "state"
    acked: list[tuple[int, str]] = []
    kills_after_ack = 0
    for round_no in range(KILLS):
        # Unbuffered: readline() below must not read ahead of what communicate() reads later.
        child = subprocess.Popen([sys.executable, str(CHILD), str(state)], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, bufsize=0)
        head = b""
        if rng.random() < 0.15:
            time.sleep(rng.uniform(0.0, 0.2))  # kill during start-up or resume
        else:
            head = child.stdout.readline()  # "START n": resumed; now kill mid-play
            time.sleep(rng.uniform(0.0, 0.15))
        os.kill(child.pid, signal.SIGKILL)
        out, err = child.communicate(timeout=30)
        out = (head + out).decode()
        assert child.returncode == -signal.SIGKILL, err
        new = [line.split(" ", 2) for line in out.splitlines() if line.startswith("ACK ")]
        if new:
            kills_after_ack += 1
        acked += [(int(seq), body) for _, seq, body in new]
        with Journal(state) as journal:
            assert journal.warnings == []
            games = journal.games()
            if not games:
                assert not acked
                continue
            stored = [(seq, canonical(entry)) for seq, entry in journal.entries(games[0].id)]
            assert stored[: len(acked)] == acked, f"round {round_no}: an acknowledged action is missing"
            assert len(stored) - len(acked) in (0, 1)
            # the rebuilt game is a consistent replay of what is stored
            session = Session.load(journal, games[0].id)
            assert session.warnings == []
        # The next child resumes from what is stored: count the unreported one as acknowledged now.
        acked = stored
    assert kills_after_ack >= KILLS // 2, "most kills must land mid-game, not before the first action"
    assert len(acked) > 200
