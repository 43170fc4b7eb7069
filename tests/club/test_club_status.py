"""The club connection in the app, rendered for real: with a ``[club]`` the home screen's header shows a
dot and the table's name, green while the table is connected to the broker, grey once it is not.

Like tests/ui/test_app.py, the app runs in a child process (Kivy allows one window per process) with
``SDL_VIDEODRIVER=offscreen``; the child starts its own Mosquitto, reports a ``RESULT`` line, and
the parent checks it.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve()
ROOT = HERE.parents[2]

pytestmark = pytest.mark.slow


def test_the_home_header_shows_the_club_connection_green_then_grey_when_the_broker_dies(tmp_path):
    from .broker import available

    if not available():
        pytest.fail("mosquitto is not installed: run tests/sysdeps.sh as root (make test does)")
    env = dict(os.environ)
    for k in ("DISPLAY", "WAYLAND_DISPLAY", "TABLEKEEPER_CONFIG"):
        env.pop(k, None)
    env.update({"SDL_VIDEODRIVER": "offscreen", "KIVY_HOME": str(tmp_path / "kivy"),
                "XDG_CACHE_HOME": str(tmp_path / "cache"), "XDG_CONFIG_HOME": str(tmp_path / "config"),
                "LANG": "C.UTF-8", "PYTHONPATH": str(ROOT)})
    (tmp_path / "kivy").mkdir()
    proc = subprocess.run([sys.executable, str(HERE), str(tmp_path)], capture_output=True, text=True,
                          timeout=120, env=env)
    results = [line[len("RESULT "):] for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
    assert proc.returncode == 0 and results, (proc.stdout + proc.stderr)[-3000:]
    got = json.loads(results[-1])
    assert got["screen"] == "home" and got["in_header"] and got["name"] == "mesa-1"
    assert got["online"] == [True, False]  # green while connected, grey once the broker is gone
    assert got["colours"][0] != got["colours"][1]
    assert not [p for p in got["problems"] if "club" in p or "mesa-1" in p], got["problems"]


def _child(folder: Path) -> int:
    import time

    from tests.club.broker import Broker
    from tests.club.conftest import USERS

    broker = Broker(folder / "broker", USERS).start()
    config = folder / "tablekeeper.toml"
    config.write_text(f'[club]\ntable = "mesa-1"\nport = {broker.port}\npassword = "{USERS["mesa-1"]}"\n')
    os.environ["TABLEKEEPER_CONFIG"] = str(config)
    from tablekeeper.ui.testing import Robot

    robot = Robot.start(folder / "state", pods="none")
    try:
        status = robot.find("club.status")
        seen, colours = [], []

        def until(online: bool) -> None:
            deadline = time.monotonic() + 20
            while status.online is not online:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"the club status never showed online={online}")
                robot.wait(0.05)
            seen.append(status.online)
            colours.append(list(status._colour.rgba))

        until(True)
        header = status.parent
        in_header = any(getattr(w, "tid", "") == "home.title" for w in header.children)
        problems = robot.problems()
        robot.screenshot(folder / "club-status.png")
        broker.kill()
        until(False)
        result = {"screen": robot.app.sm.current, "in_header": in_header, "name": status.label.text,
                  "online": seen, "colours": colours, "problems": problems}
    finally:
        robot.stop()
        broker.stop()
    print("RESULT " + json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(_child(Path(sys.argv[1])))
