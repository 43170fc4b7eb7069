"""In the guest, as the tablekeeper user, on a full disk: actions until the journal refuses one.

Usage: python fill.py STATE_DIR LIMIT. Prints ``ACK <seq> <entry>`` after each action stored and,
when one is refused, ``REFUSED <the sentence>``; ``NOT-REFUSED`` after LIMIT actions all stored.
"""
import sys

from tablekeeper.engine import Journal, Session, canonical

journal = Journal(sys.argv[1])
session = Session.resume(journal)
assert session is not None, "no stored game to resume"
for _ in range(int(sys.argv[2])):
    try:
        outcome = session.apply({"action": "adjust", "player": "Ben", "counter": "score", "delta": 1})
    except Exception as e:  # the refusal, whatever its class: its sentence is what is checked
        print(f"REFUSED {type(e).__name__}: {e}", flush=True)
        break
    print(f"ACK {outcome.seq} {canonical(outcome.entry)}", flush=True)
else:
    print("NOT-REFUSED", flush=True)
