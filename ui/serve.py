"""``tablekeeper serve``: a game with its pods and its journal, no touchscreen.

The same owner as the app's (:class:`~tablekeeper.ui.controller.Keeper`):
its worker holds the journal and the game, applies each pod's button event
and publishes every seat's view once per change; the pods
(:class:`~tablekeeper.ui.podlink.PodLink`, mock pods by default on a PC, the
configured hardware on a Pi) and ``--show``'s terminal output subscribe to
it. This thread only lives under systemd: the boot check, READY, the
watchdog, the backup when a game ends. SIGTERM or Ctrl-C blanks the displays
and exits; every acknowledged action is already in the journal, so the next
start resumes exactly there.
"""
from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import sys
import threading
import time

from ..engine import Journal, Session, SetupError, TablekeeperError
from ..engine.messages import _
from .terminal import catalog_for, err, out

STARTED = time.monotonic()

#: How often serve looks for a game when none is unfinished (seconds).
WAIT_POLL = 2.0

#: What a pod shows after the journal was repaired (the full sentence goes to the log).
REPAIRED = _("journal repaired: see the log or `tablekeeper doctor`")


def add_arguments(s: argparse.ArgumentParser) -> None:
    s.add_argument("--config", default=None, metavar="PATH",
                   help="the TOML config (default: $TABLEKEEPER_CONFIG, ~/.config/tablekeeper/tablekeeper.toml, "
                        "/etc/tablekeeper/tablekeeper.toml; none: mock pods)")
    which = s.add_mutually_exclusive_group()
    which.add_argument("--game", type=int, default=None, metavar="N", help="a stored game's number "
                       "(default: the last unfinished one)")
    which.add_argument("--new", nargs="+", metavar=("GAME", "PLAYER"), default=None,
                       help="start a new game: its id and the players in seat order")
    s.add_argument("--options", default=None, help="with --new: the game's options as a JSON object")
    s.add_argument("--mock", action="store_true", help="mock pods for every seat, whatever the config says")
    s.add_argument("--show", choices=("text", "pixels"), default=None,
                   help="print the pods' screens on this terminal when they change: as text, or as pixels")
    s.add_argument("--keys", action="store_true",
                   help="read mock button presses from standard input, one per line: SEAT BUTTON [hold [N]] "
                        "(buttons: up, down, select, main; 'hold N': held with exactly N repeats)")
    s.add_argument("--stop-at-eof", action="store_true",
                   help="with --keys: stop once standard input ends and its presses are applied (a script of "
                        "presses; the game stays in the journal)")
    s.add_argument("--run-for", type=float, default=None, metavar="SECONDS",
                   help="stop after this many seconds (for tests and benchmarks)")


#: What serve says on standard error, its log under systemd: ``serve: <text>``, in English (the
#: pods speak the command's language).
_err = functools.partial(err, None, who="serve")


def open_session(args, journal: Journal) -> Session | None:
    if args.new:
        game, players = args.new[0], args.new[1:]
        try:
            options = json.loads(args.options) if args.options else {}
        except json.JSONDecodeError as e:
            raise SetupError(f"--options is not valid JSON ({e.msg})") from None
        new = Session.new(journal, game, players, options)
        args.new = None  # started once: a later look resumes it
        _err(f"new game {new.game_id}: {game} with {', '.join(players)}")
        return new
    if args.game is not None:
        return Session.load(journal, args.game)
    session = Session.resume(journal)
    if session is None:
        return None
    _err(f"resuming game {session.game_id}: {session.record.game} with {', '.join(session.record.setup['players'])}")
    return session


def _adopt(keeper, args) -> tuple[bool, list[str]]:
    """Open the game on the keeper's worker; (found, the journal's new warnings). Errors are raised here."""
    warnings: list[str] = []
    got: list = []

    def make(journal: Journal) -> Session | None:
        session = open_session(args, journal)
        warnings.extend(journal.take_warnings())
        return session

    keeper.open_with(make, got.append)
    keeper.wait_idle(timeout=60)
    if got and isinstance(got[0], TablekeeperError):
        raise got[0]
    for w in warnings:
        _err(f"warning: {w}")
    return bool(got and got[0] is not None), warnings


def pods_config(args, cfg, players: int):
    from ..hardware import config as configuration

    if cfg is None:
        _err(f"no pod config file found: {players} mock pods (see docs/hardware.md to wire real ones)")
        cfg = configuration.mock_config(players)
    if args.mock:
        cfg = dataclasses.replace(cfg, seats=tuple(dataclasses.replace(s, backend="mock") for s in cfg.seats))
    return cfg


def _keys_thread(link, stop: threading.Event, stop_at_eof: bool = False) -> threading.Thread:
    """Mock presses typed on standard input: ``SEAT BUTTON [hold [N]]``, driving the mock pins; with
    ``stop_at_eof``, serving stops once the input ends and its last press is applied.

    ``hold`` keeps the pin low for the hold time and two repeat intervals, so how many repeats come
    depends on the machine's timing; ``hold N`` gives the pod's events themselves — press, hold, exactly
    N repeats, release, timed as the pod's timing says and sent at that pace (each step shows) — so a
    script of presses plays the same anywhere."""
    from ..hardware.pod import BUTTONS, HOLD, PRESS, RELEASE, REPEAT, InputEvent

    timing = link.config.timing

    def run():
        for line in sys.stdin:
            if stop.is_set():
                return
            words = line.split()
            if not words:
                continue
            try:
                seat, button = int(words[0]), words[1]
                hold = len(words) > 2 and words[2] == "hold"
                repeats = int(words[3]) if hold and len(words) == 4 else None
                if button not in BUTTONS or len(words) > (4 if hold else 2) or (repeats is not None and repeats < 0):
                    raise ValueError
            except (ValueError, IndexError):
                _err(f"keys: say SEAT BUTTON [hold [N]], buttons {', '.join(BUTTONS)}; not {line.strip()!r}")
                continue
            pod = link.rig.pods.get(seat) if link.rig is not None else None
            if pod is None or pod.backend != "mock" or pod.buttons is None:
                _err(f"keys: seat {seat} has no mock pod")
                continue
            if repeats is not None:  # the pod's own events, as its debounced pin gives them: N repeats exactly
                t0 = time.monotonic()
                times = [t0, t0 + timing.hold_time] + [t0 + timing.hold_time + (k + 1) * timing.repeat_interval
                                                       for k in range(repeats)]
                kinds = [PRESS, HOLD] + [REPEAT] * repeats
                for kind, at in zip(kinds, times):
                    # at the pod's own pace, so each step shows on its screen as it goes (a play-tester on
                    # `--show text` saw only where a hold landed, never the offers it passed)
                    time.sleep(max(0.0, at - time.monotonic()))
                    link.keeper.press(InputEvent(seat, button, kind, at=at))
                release = times[-1] + timing.repeat_interval / 2
                time.sleep(max(0.0, release - time.monotonic()))
                link.keeper.press(InputEvent(seat, button, RELEASE, at=release))
                time.sleep(0.08)
                continue
            pin = pod.pin(button)
            pin.drive_low()
            time.sleep(timing.hold_time + timing.repeat_interval * 2 if hold else 0.08)
            pin.drive_high()
            time.sleep(max(0.08, timing.debounce * 3))  # released long enough to count as released
        # end of input: nothing more will be typed; serving goes on, unless told to stop here
        if stop_at_eof and not stop.is_set():
            link.keeper.wait_idle()
            _err("keys: end of standard input: stopping (the game stays in the journal)")
            stop.set()

    t = threading.Thread(target=run, name="pod-keys", daemon=True)
    t.start()
    return t


class _Printer:
    """``--show``: each pod's screen on the terminal when its view changed (a snapshot listener)."""

    def __init__(self, how: str, link):
        self.how = how
        self.link = link
        self.shown: dict[int, object] = {}

    def __call__(self, snap) -> None:
        from ..hardware.render import as_ascii, render

        views = snap.table.pods if snap.table is not None else {}
        for seat, view in sorted(views.items()):
            if self.shown.get(seat) == view:
                continue
            self.shown[seat] = view
            if self.how == "pixels":
                pod = self.link.rig.pods.get(seat) if self.link.rig is not None else None
                img = pod.screen_image if pod is not None and pod.screen_image is not None else render(view)
                out(None, f"-- seat {seat} " + "-" * 50 + "\n" + as_ascii(img.convert("1")), flush=True)
            else:
                out(None, view.as_text(), flush=True)


def main(args) -> int:
    from ..hardware import config as configuration
    from . import service
    from .controller import Keeper
    from .podlink import PodLink

    path = configuration.find(args.config)  # the config file, checked whole, before anything else
    file_cfg = configuration.load(path) if path is not None else None
    if file_cfg is not None:
        _err(f"pod config: {path} ({len(file_cfg.seats)} seats)")
    club = _club_settings(path)  # [club]: publish to the club's broker (None: club mode off)
    configuration.backend_override()  # a bad $TABLEKEEPER_PODS stops here too
    signals = service.StopSignals(args.run_for)
    stop = signals.event
    boot = service.start(args.state_dir)  # the boot check: quick_check, unsafe shutdowns, backups
    keeper = Keeper(args.state_dir, pods=True, catalog=catalog_for(args), report=_err, follow=True).start(resume=False)
    link = None
    publisher = _start_club(club, keeper, args.state_dir)
    try:
        found, warnings = _adopt(keeper, args)
        if not found:
            _err("no unfinished game to serve; waiting for one (start one with `tablekeeper new GAME NAME...`, "
                 "or `tablekeeper serve --new counters Ana Ben`)")
            service.ready("waiting for a game")
            while not found and not stop.wait(service.tick_every(WAIT_POLL)):
                service.tick()
                found, more = _adopt(keeper, args)
                warnings += more
            if not found:
                return 0
        # a repair made by the boot check was said in its report (the log); the pods say it too
        if [w for w in boot.warnings if "damaged" in w] + warnings:
            keeper.notify_pods(REPAIRED)
        table = keeper.snapshot.table
        players = len(table.players) if table is not None else 1
        link = PodLink(keeper, pods_config(args, file_cfg, players), report=_err)
        if args.show:
            keeper.listeners.append(_Printer(args.show, link))
        keeper.wait_idle()
        if link.problem:
            raise TablekeeperError(f"the pods could not start: {link.problem}")
        for pod in (link.rig.pods.values() if link.rig is not None else ()):
            _err(f"seat {pod.seat}: {pod.backend}: {pod.description}")
        keeper.call(lambda k: None)  # a snapshot now: the first pictures (and --show) right away
        if args.stop_at_eof and not args.keys:
            raise TablekeeperError("--stop-at-eof goes with --keys (the presses read from standard input)")
        if args.keys:
            _keys_thread(link, stop, args.stop_at_eof)
        _serve(keeper, link, stop)
        return 0
    finally:
        if link is not None:
            link.close()
        if publisher is not None:
            publisher.stop()  # says offline; what the league has not acknowledged goes at the next start
        keeper.stop()
        seats = keeper.seats
        if link is not None and seats is not None:
            _err(f"stopped: {seats.applied} actions from the pods, {seats.refused} refused; displays blanked")
        service.stopping("stopped")
        signals.restore()


def _club_settings(path):
    if path is None:
        return None
    from .club.config import club_settings

    return club_settings(path)


def _start_club(club, keeper, state_dir):
    """The club's publisher, following the keeper (its own threads: a press never waits for it)."""
    if club is None:
        return None
    from ..engine import default_state_dir
    from .club.publisher import Publisher

    _err(f"club: publishing as table {club.table} to {club.broker.describe()}")
    return Publisher(club, state_dir if state_dir is not None else default_state_dir(), report=_err) \
        .attach(keeper).start()


def _serve(keeper, link, stop: threading.Event) -> None:
    """This thread's part: READY after the first frames, the watchdog, the pods' care, a backup at the end."""
    from . import service

    announced = False
    table = keeper.snapshot.table
    was_over = table is not None and table.over
    while True:
        pods = list(link.rig.pods.values()) if link.rig is not None else []
        if not announced and all(p.face.first_frame_at is not None or not p.face.online for p in pods):
            announced = True
            done = [p for p in pods if p.face.first_frame_at is not None]
            table = keeper.snapshot.table
            _err(f"first frame on {len(done)} of {len(pods)} pods {time.monotonic() - STARTED:.3f} s after start")
            service.ready(f"serving game {table.game_id} ({table.game}) on {len(done)} of {len(pods)} pods"
                          if table is not None else "serving")
        table = keeper.snapshot.table
        over = table is not None and table.over
        if over and not was_over:
            service.game_finished()  # back the journal up while the result is fresh
        was_over = over
        service.tick()
        link.tick()  # OLED care: dimming, pixel shift (on the worker)
        if stop.wait(service.tick_every(1.0) if announced else 0.02):
            return
