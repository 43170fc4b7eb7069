"""In the guest, as the tablekeeper user, at every boot of the power-cut phase: what is stored, then a burst.

Usage: python cycle.py STATE_DIR SEED|check. First the stored game's actions as lines
``STORED [seq, canonical entry]`` and ``SUMMARY {journal and replay warnings}`` (the journal
opened as the owner opens it after a boot, as ``stored.py`` does). Then, unless the seed is
``check``: resumes the game the appliance's unit owns (a second writer, as ``tablekeeper act``
is) and applies score +1 for a random player at press pace (0-60 ms apart) until it is killed --
here, by the power being cut. After each ``Session.apply`` returns (the action is committed and
fsynced) it prints ``ACK <seq> <entry as canonical JSON>`` and flushes; the host reads those lines
from the VM's serial port, so the host only ever holds acknowledgements of committed actions.
One process for both, so a boot pays for one Python start-up, not two.
"""
import json
import random
import sys
import time

from tablekeeper.engine import Journal, Session, canonical

with Journal(sys.argv[1]) as journal:
    game = journal.games()[-1]
    for seq, entry in journal.entries(game.id):
        print("STORED " + json.dumps([seq, canonical(entry)]))
    stored = Session.resume(journal)
    print("SUMMARY " + json.dumps({"journal_warnings": list(journal.warnings),
                                   "replay_warnings": list(stored.warnings) if stored else ["no game to resume"],
                                   "game": game.id}), flush=True)
if sys.argv[2] == "check":
    sys.exit(0)

journal = Journal(sys.argv[1])
session = Session.resume(journal)
assert session is not None, "no stored game to resume"
rng = random.Random(int(sys.argv[2]))
players = [p["name"] for p in session.state["players"]]
print(f"START {session._next_seq}", flush=True)
while True:
    outcome = session.apply({"action": "adjust", "player": rng.choice(players), "counter": "score", "delta": 1})
    print(f"ACK {outcome.seq} {canonical(outcome.entry)}", flush=True)
    time.sleep(rng.uniform(0.0, 0.06))
