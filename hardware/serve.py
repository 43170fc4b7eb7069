"""``tablekeeper serve``: a game with its pods and its journal, no touchscreen.

The headless owner loop: pods' buttons → one queue → :class:`~.hub.PodHub`
→ engine (journal commit) → pods. Mock pods by default on a PC (no config
file), the configured hardware on a Pi. SIGTERM or Ctrl-C blanks the
displays and exits; every acknowledged action is already in the journal, so
the next start resumes exactly there.
"""
from __future__ import annotations

import dataclasses
import json
import signal
import sys
import threading
import time
from collections.abc import Sequence

from ..engine import Journal, Session, SetupError
from ..engine.messages import _
from . import config as configuration
from .hub import PodHub
from .pod import BUTTONS
from .rig import Rig

STARTED = time.monotonic()

#: How often serve looks for a game when none is unfinished (seconds).
WAIT_POLL = 2.0


class NoLifecycle:
    """What serve calls around its life; ui/cli.py passes ui/service.py (sd_notify, watchdog, boot check).

    hardware/ does not import ui/: the lifecycle arrives as ``args.lifecycle``.
    """

    def start(self, state_dir):
        return None

    def ready(self, status=None):
        return False

    def tick(self):
        return False

    def tick_every(self, default=1.0):
        return default

    def status(self, text):
        return False

    def game_finished(self):
        return None

    def stopping(self, status=None):
        return None


def _err(text: str) -> None:
    print(f"serve: {text}", file=sys.stderr, flush=True)


def open_session(args, journal: Journal) -> Session | None:
    if args.new:
        game, players = args.new[0], args.new[1:]
        try:
            options = json.loads(args.options) if args.options else {}
        except json.JSONDecodeError as e:
            raise SetupError(f"--options is not valid JSON ({e.msg})") from None
        new = Session.new(journal, game, players, options)
        _err(f"new game {new.game_id}: {game} with {', '.join(players)}")
        return new
    if args.game is not None:
        return Session.load(journal, args.game)
    session = Session.resume(journal)
    if session is None:
        return None
    _err(f"resuming game {session.game_id}: {session.record.game} with {', '.join(session.record.setup['players'])}")
    return session


def read_config(args) -> configuration.PodsConfig | None:
    """The config file, checked whole (a ConfigError stops serve here, before anything else)."""
    path = configuration.find(args.config)
    if path is None:
        return None
    cfg = configuration.load(path)
    _err(f"pod config: {path} ({len(cfg.seats)} seats)")
    return cfg


def pods_config(args, cfg: configuration.PodsConfig | None, players: int) -> configuration.PodsConfig:
    if cfg is None:
        _err(f"no pod config file found: {players} mock pods (see docs/hardware.md to wire real ones)")
        cfg = configuration.mock_config(players)
    if args.mock:
        cfg = dataclasses.replace(cfg, seats=tuple(dataclasses.replace(s, backend="mock") for s in cfg.seats))
    return cfg


def _keys_thread(rig: Rig, stop: threading.Event) -> threading.Thread:
    """Mock presses typed on standard input: ``SEAT BUTTON [hold]``, driving the mock pins."""
    timing = rig.config.timing

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
                if button not in BUTTONS:
                    raise ValueError
            except (ValueError, IndexError):
                _err(f"keys: say SEAT BUTTON [hold], buttons {', '.join(BUTTONS)}; not {line.strip()!r}")
                continue
            pod = rig.pods.get(seat)
            if pod is None or pod.backend != "mock" or pod.buttons is None:
                _err(f"keys: seat {seat} has no mock pod")
                continue
            pin = pod.pin(button)
            pin.drive_low()
            time.sleep(timing.hold_time + timing.repeat_interval * 2 if hold else 0.08)
            pin.drive_high()
            time.sleep(max(0.08, timing.debounce * 3))  # released long enough to count as released
        # end of input: nothing more will be typed; serving goes on

    t = threading.Thread(target=run, name="pod-keys", daemon=True)
    t.start()
    return t


def wait_for_game(args, journal: Journal, life, stop: threading.Event) -> Session | None:
    """No unfinished game: keep the watchdog fed and look again every few seconds.

    Exiting instead would make systemd restart serve in a loop. Returns None
    when stopped (SIGTERM, ``--run-for``) before a game appears.
    """
    _err("no unfinished game to serve; waiting for one (start one with `tablekeeper new GAME NAME...`, "
         "or `tablekeeper serve --new counters Ana Ben`)")
    life.ready("waiting for a game")
    while not stop.wait(life.tick_every(WAIT_POLL)):
        life.tick()
        session = open_session(args, journal)
        if session is not None:
            return session
    return None


def main(args) -> int:
    file_cfg = read_config(args)  # before the journal, the game and any hardware
    configuration.backend_override()  # a bad $TABLEKEEPER_PODS stops here too
    life = getattr(args, "lifecycle", None) or NoLifecycle()
    stop = threading.Event()
    wake: list = []  # the rig's queue, once there is one: a signal must wake the loop

    def on_signal(signum, frame):
        stop.set()
        for q in wake:
            q.put(None)

    old = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}
    if args.run_for is not None:
        timer = threading.Timer(args.run_for, lambda: on_signal(None, None))
        timer.daemon = True
        timer.start()
    boot = life.start(args.state_dir)  # the boot check: quick_check, unsafe shutdowns, backups
    try:
        with Journal(args.state_dir) as journal:
            # a repair made by the boot check was said in its report (the log); the pods say it too
            said = [w for w in (getattr(boot, "warnings", None) or []) if "damaged" in w] + _say(journal)
            session = open_session(args, journal) or wait_for_game(args, journal, life, stop)
            if session is None:
                return 0
            said += _say(journal)
            return _play(args, file_cfg, life, session, stop, wake, damage=said)
    finally:
        life.stopping("stopped")
        for sig, handler in old.items():
            signal.signal(sig, handler)


def _say(journal: Journal) -> list[str]:
    """Print the journal's new warnings (a repair is said once); returns them."""
    new = journal.take_warnings()
    for w in new:
        _err(f"warning: {w}")
    return new


#: What a pod shows after the journal was repaired (the full sentence goes to the log).
REPAIRED = _("journal repaired: see the log or `tablekeeper doctor`")


def _play(args, file_cfg, life, session: Session, stop: threading.Event, wake: list,
          damage: Sequence[str] = ()) -> int:
    cfg = pods_config(args, file_cfg, len(session.state["players"]))
    rig = Rig(cfg, report=_err)
    wake.append(rig.events)
    if stop.is_set():
        return 0
    hub = None
    try:
        rig.build()
        for pod in rig.pods.values():
            _err(f"seat {pod.seat}: {pod.backend}: {pod.description}")
        catalog = args.catalog_for(args) if getattr(args, "catalog_for", None) else None
        hub = PodHub(session, rig.pods, rig.events, report=_err, catalog=catalog)
        if damage:
            hub.notify_all(REPAIRED)
        rig.start()
        if args.keys:
            _keys_thread(rig, stop)
        _loop(hub, rig, stop, args.show, life)
    finally:
        rig.close()
    _err(f"stopped: {hub.applied} actions from the pods, {hub.refused} refused; displays blanked")
    return 0


def _loop(hub: PodHub, rig: Rig, stop: threading.Event, show: str | None, life=None) -> None:
    life = life or NoLifecycle()
    shown: dict[int, object] = {}
    announced = False
    was_over = hub.session.state["over"]
    hub.refresh()
    while not stop.is_set():
        if not announced and all(p.face.first_frame_at is not None or not p.face.online
                                 for p in rig.pods.values()):
            announced = True
            done = [p for p in rig.pods.values() if p.face.first_frame_at is not None]
            _err(f"first frame on {len(done)} of {len(rig.pods)} pods "
                 f"{time.monotonic() - STARTED:.3f} s after start")
            life.ready(f"serving game {hub.session.game_id} ({hub.session.record.game}) "
                       f"on {len(done)} of {len(rig.pods)} pods")
        if show:
            _print_changed(hub, rig, shown, show)
        over = hub.session.state["over"]
        if over and not was_over:
            life.game_finished()  # back the journal up while the result is fresh
        was_over = over
        life.tick()
        now = hub.clock()
        due = hub.next_due(now)
        wait = life.tick_every(1.0)  # wake in time to pet the watchdog (a quarter of its limit)
        hub.step(wait if due is None else min(wait, max(0.0, due - now)))


def _print_changed(hub: PodHub, rig: Rig, shown: dict, how: str) -> None:
    from .render import as_ascii, render

    for seat, view in sorted(hub.views.items()):
        if shown.get(seat) == view:
            continue
        shown[seat] = view
        if how == "pixels":
            pod = rig.pods.get(seat)
            img = pod.screen_image if pod is not None and pod.screen_image is not None else render(view)
            print(f"-- seat {seat} " + "-" * 50, as_ascii(img.convert("1")), sep="\n", flush=True)
        else:
            print(view.as_text(), flush=True)
