"""Child process for the power-loss simulator (tests/e2e/crashsim.py): a short scripted game, traced.

Usage: python power_child.py STATE_DIR N. Resumes the stored game (or starts one),
applies the next N actions of kill_child's script, printing
``ACK <seq> <entry as canonical JSON>`` (one write to stdout, flushed) after
each ``Session.apply`` returns, then closes the journal and exits 0. Run under
strace, those writes to stdout are the acknowledgement markers in the trace.

``CRASHSIM_PRAGMAS`` (say ``journal_mode=DELETE;synchronous=FULL``) runs those
pragmas on the journal's connection after its own: only for the simulator's
self-test, which must catch a setting known to lose acknowledged actions.
"""
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from kill_child import OPTIONS, script  # noqa: E402

from tablekeeper.engine import Journal, Session, canonical  # noqa: E402


def _override_pragmas(pragmas: str) -> None:
    """Every connection the journal opens runs ``pragmas`` in place of its own journal_mode/synchronous."""
    import sqlite3

    wanted = {p.split("=")[0].strip().lower(): p.strip() for p in pragmas.split(";") if "=" in p}

    class Overridden(sqlite3.Connection):
        def execute(self, sql, *args):
            words = sql.strip().split(None, 1)
            if len(words) == 2 and words[0].upper() == "PRAGMA":
                name = words[1].split("=")[0].strip().lower()
                if name in wanted:
                    sql = f"PRAGMA {wanted[name]}"
            return super().execute(sql, *args)

    original = sqlite3.connect

    def connect(*args, **kwargs):
        kwargs.setdefault("factory", Overridden)
        return original(*args, **kwargs)

    sqlite3.connect = connect


def main() -> None:
    if os.environ.get("CRASHSIM_PRAGMAS"):
        _override_pragmas(os.environ["CRASHSIM_PRAGMAS"])
    state_dir, n = sys.argv[1], int(sys.argv[2])
    journal = Journal(state_dir)
    session = Session.resume(journal) or Session.new(journal, "counters", ["Ana", "Ben"], OPTIONS)
    i = session._next_seq
    print(f"START {i}", flush=True)
    for _ in range(n):
        outcome = session.apply(script(i))
        print(f"ACK {outcome.seq} {canonical(outcome.entry)}", flush=True)
        i += 1
    journal.close()
    print("DONE", flush=True)


if __name__ == "__main__":
    main()
