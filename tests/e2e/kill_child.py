"""Child process for the kill test: plays a scripted game and reports each acknowledged action.

Usage: python kill_child.py STATE_DIR. Resumes the stored game (or starts one),
then applies actions forever; after each ``Session.apply`` returns it prints
``ACK <seq> <entry as canonical JSON>`` and flushes. The parent kills it with
SIGKILL at random moments.
"""
import sys

from tablekeeper.engine import Journal, Session, canonical

OPTIONS = {"counters": [{"name": "score", "start": 0, "min": None}], "table": [{"name": "round"}]}


def script(i: int) -> dict:
    """The i-th action of the scripted game (undo and redo included)."""
    if i % 7 == 5:
        return {"action": "undo"}
    if i % 7 == 6:
        return {"action": "redo"}
    if i % 11 == 10:
        return {"action": "adjust", "counter": "round", "delta": 1}
    return {"action": "adjust", "player": "Ana" if i % 2 else "Ben", "counter": "score", "delta": (i % 5) - 2 or 3}


def main() -> None:
    journal = Journal(sys.argv[1])
    session = Session.resume(journal) or Session.new(journal, "counters", ["Ana", "Ben"], OPTIONS)
    i = session._next_seq
    print(f"START {i}", flush=True)
    while True:
        outcome = session.apply(script(i))
        print(f"ACK {outcome.seq} {canonical(outcome.entry)}", flush=True)
        i += 1


if __name__ == "__main__":
    main()
