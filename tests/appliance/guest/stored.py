"""In the guest: the stored game's actions as JSON lines ``[seq, canonical entry]``, then a summary.

Usage: python stored.py STATE_DIR. Opens the journal read-only as the owner would after a boot,
and fails if the journal or the replay of the game reports any warning.
"""
import json
import sys

from tablekeeper.engine import Journal, Session, canonical

with Journal(sys.argv[1]) as journal:
    games = journal.games()
    game = games[-1]
    for seq, entry in journal.entries(game.id):
        print(json.dumps([seq, canonical(entry)]))
    session = Session.resume(journal)
    print(json.dumps({"journal_warnings": list(journal.warnings),
                      "replay_warnings": list(session.warnings) if session else ["no game to resume"],
                      "game": game.id}))
