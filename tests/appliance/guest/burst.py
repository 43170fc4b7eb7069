"""In the guest, as the tablekeeper user: a burst of actions on the stored game, each acknowledged.

Usage: python burst.py STATE_DIR SEED. Resumes the game the appliance's unit owns (a second
writer, as `tablekeeper act` is) and applies score +1 for a random player at press pace (0-60 ms
apart) until it is killed -- here, by the power being cut. After each ``Session.apply`` returns
(the action is committed and fsynced) it prints ``ACK <seq> <entry as canonical JSON>`` and
flushes; the host reads those lines over ssh, so the host only ever holds acknowledgements of
committed actions.
"""
import random
import sys
import time

from tablekeeper.engine import Journal, Session, canonical

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
