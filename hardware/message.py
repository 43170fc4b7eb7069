"""``tablekeeper hw message LINE...``: write a message on every configured pod and leave it there.

The shutdown unit uses it ("Switched off" / "The game is saved") once the app
and the headless player have stopped. The displays are not blanked on exit:
the message stays lit until the power goes. Exit status: 0 when at least one
pod shows the message, 1 when none can (no config, nothing answers).
"""
from __future__ import annotations

import sys
import time

from . import config as configuration
from .render import render_message
from .rig import Rig

#: How long to keep trying displays that do not answer at once (the shutdown unit waits ~5 s).
DEADLINE = 3.0


def _err(text: str) -> None:
    print(f"hw message: {text}", file=sys.stderr, flush=True)


def main(args) -> int:
    lines = [line for line in args.lines if line.strip()]
    if not lines or len(lines) > 4:
        _err("say 1 to 4 lines, each one argument")
        return 2
    path = configuration.find(args.config)
    if path is None:
        _err("no pod config file: no pods to write on")
        return 1
    cfg = configuration.load(path)
    if args.mock:
        import dataclasses

        cfg = dataclasses.replace(cfg, seats=tuple(dataclasses.replace(s, backend="mock") for s in cfg.seats))
    image = render_message(lines)
    rig = Rig(cfg, report=_err)
    rig.build()
    end = time.monotonic() + DEADLINE
    for pod in rig.pods.values():
        pod.show_image(image)
    while time.monotonic() < end and not all(p.face.online for p in rig.pods.values()):
        time.sleep(0.1)
        for pod in rig.pods.values():
            pod.tick()
    shown = sorted(seat for seat, pod in rig.pods.items() if pod.face.online)
    missing = sorted(set(rig.pods) - set(shown))
    print(f"message on seat{'s' if len(shown) != 1 else ''} {', '.join(map(str, shown)) or 'none'}"
          + (f"; not on {', '.join(map(str, missing))}" if missing else ""))
    # Deliberately no rig.close(): closing blanks the displays, and the message must stay lit.
    return 0 if shown else 1
