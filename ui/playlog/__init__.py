"""Play records on disk: the summaries' cache, the exports (CSV, JSON, a BoardGameGeek play log),
the statistics' text and pictures, and the ``stats``, ``export`` and ``players`` commands.

The statistics themselves are pure (engine/records.py); the people are the journal's roster
(engine/roster.py). This package does the files and the words, a module each:

* :mod:`.cache`: every finished game as a play, through ``plays-cache.json``; the roster with the
  app's colours; :func:`statistics`; :func:`write_atomic` for every file written;
* :mod:`.exports`: the CSV, JSON and BoardGameGeek files, and each read back; BoardGameGeek ids;
* :mod:`.text`: ``stats`` and ``players`` as text, in the command's language;
* :mod:`.plot`: ``stats --plot``'s picture (matplotlib, optional);
* :mod:`.commands`: the three commands and their arguments.

Every sentence a command prints is a message (engine/messages.py), said in the command's language
(``--lang``, else the system locale) through ui/terminal.py; the files written (CSV headers, JSON
names, the BoardGameGeek XML) and ``--json`` stay English: they are read by programs.

Nothing here is imported on the press path or when a game resumes.
"""
from __future__ import annotations

from .cache import (
    CACHE_FILE,
    UnknownName,
    _read_cache,  # bench/bench_stats.py times the cache's read
    cache_bytes,
    load_plays,
    load_roster,
    people_plays,
    statistics,
    write_atomic,
)
from .commands import add_parsers, cmd_export, cmd_players, cmd_stats
from .exports import (
    CSV_COLUMNS,
    bgg_ids,
    bgg_xml,
    csv_text,
    first_plays,
    json_text,
    plays_to_export,
    read_bgg,
    read_csv,
    read_json,
)
from .plot import plot
from .text import NAME_WIDTH, game_name, stats_text

__all__ = ["CACHE_FILE", "CSV_COLUMNS", "NAME_WIDTH", "UnknownName", "_read_cache", "add_parsers", "bgg_ids",
           "bgg_xml", "cache_bytes", "cmd_export", "cmd_players", "cmd_stats", "csv_text", "first_plays",
           "game_name", "json_text", "load_plays", "load_roster", "people_plays", "plays_to_export", "plot",
           "read_bgg", "read_csv", "read_json", "statistics", "stats_text", "write_atomic"]
