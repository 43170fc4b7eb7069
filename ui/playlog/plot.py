"""The statistics' pictures (``tablekeeper stats --plot``): one PNG, drawn by matplotlib when it is there."""
from __future__ import annotations

import io
import os
from datetime import datetime
from typing import Any

from ...engine import records as rec
from ...engine.messages import Catalog, Msg, _, translated
from ...engine.records import Play
from .cache import write_atomic
from .text import _pct, game_name


def plot(plays: list[Play], path: str | os.PathLike[str], catalog: Catalog | None = None) -> None:
    """Win-rate bars per player and each game's length over time, in one PNG (matplotlib), its words in
    ``catalog``'s language (None: English).

    ImportError when matplotlib is not installed (it is optional on the Pi)."""
    import importlib

    # imported by name: matplotlib is optional (the dev extra), and the types check without it
    matplotlib: Any = importlib.import_module("matplotlib")
    matplotlib.use("Agg")
    plt: Any = importlib.import_module("matplotlib.pyplot")
    dates: Any = importlib.import_module("matplotlib.dates")

    def tr(message: Msg) -> str:
        return translated(message, catalog)

    players = rec.player_stats(plays)
    overall = sorted(((n, g["*"]) for n, g in players.items()), key=lambda x: (-(x[1]["win_rate"] or 0), x[0]))
    fig, (bars, lengths) = plt.subplots(2, 1, figsize=(8, 8), constrained_layout=True)
    names = [n for n, _s in overall]
    rates = [100 * (s["win_rate"] or 0) for _n, s in overall]
    bars.barh(names[::-1], rates[::-1], color="#56b4e9")
    for y, (rate, (_n, s)) in enumerate(zip(rates[::-1], overall[::-1])):
        bars.text(rate + 1, y, tr(_("{rate} of {plays}", rate=_pct(rate / 100), plays=s["plays"])), va="center",
                  fontsize=8)
    bars.set_xlim(0, 110)
    bars.set_xlabel(tr(_("win rate (%)")))
    bars.set_title(tr(_("Who wins")))
    for game in sorted({p.game for p in plays}):
        rows = [p for p in plays if p.game == game]
        lengths.plot([datetime.fromtimestamp(p.started) for p in rows], [p.minutes for p in rows], marker="o",
                     markersize=3, linewidth=1, label=translated(game_name(game), catalog))
    lengths.set_ylabel(tr(_("minutes")))
    lengths.set_title(tr(_("How long a play takes")))
    if plays:
        lengths.legend(fontsize=8)
    lengths.xaxis.set_major_formatter(dates.DateFormatter("%Y-%m-%d"))
    lengths.tick_params(axis="x", labelrotation=30)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    plt.close(fig)
    write_atomic(path, buf.getvalue())
