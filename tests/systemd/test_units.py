"""The shipped systemd units.

`systemd-analyze verify` must print nothing at all, and
`systemd-analyze security --offline=true` must rate each unit at most 2.5.
verify insists that ExecStart's program exists, so it checks a copy whose
/opt/tablekeeper/venv/bin/tablekeeper points at a stub; the test proves that
path is the only difference from the shipped file.
"""
from __future__ import annotations

import re
import subprocess

import pytest

from .helpers import EXEC, SYSTEMD, UNITS, render, stub_executable, tool, unit_settings, verify

EXPOSURE_LIMIT = 2.5
DEVICE_GROUPS = {"gpio", "i2c", "spi", "dialout"}


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    folder = tmp_path_factory.mktemp("units")
    exe = stub_executable(folder)
    for name in UNITS:
        text = (SYSTEMD / name).read_text()
        assert EXEC in text, f"{name} must run {EXEC}"
        copy = render(text, exe)
        assert copy.replace(str(exe), EXEC) == text  # only the program's path differs
        (folder / name).write_text(copy)
    return folder


@pytest.mark.parametrize("name", UNITS)
def test_systemd_analyze_verify_prints_nothing(rendered, name):
    """systemd-analyze verify on each unit gives no warnings (stderr empty)."""
    result = verify(rendered, name)
    assert result.stderr == "", result.stderr
    assert result.returncode == 0


def test_verify_harness_does_catch_a_broken_unit(rendered, tmp_path):
    """The verify check can fail: a misspelt key and a missing program are reported on stderr."""
    bad = (rendered / "tablekeeper.service").read_text().replace("WatchdogSec=", "WatchdogSecs=")
    (tmp_path / "tablekeeper.service").write_text(bad)
    assert "WatchdogSecs" in verify(tmp_path, "tablekeeper.service").stderr
    (tmp_path / "tablekeeper.service").write_text((SYSTEMD / "tablekeeper.service").read_text())
    assert "is not executable" in verify(tmp_path, "tablekeeper.service").stderr  # hence the stub


def exposure(path) -> float:
    out = subprocess.run([tool("systemd-analyze"), "security", "--offline=true", "--no-pager", str(path)],
                         capture_output=True, text=True, timeout=60)
    match = re.search(r"Overall exposure level for \S+: (\d+(?:\.\d+)?)", out.stdout)
    assert match, out.stdout + out.stderr
    return float(match.group(1))


@pytest.mark.parametrize("name", UNITS)
def test_security_exposure_at_most_2_5(name):
    """Hardening: systemd-analyze security --offline=true rates each unit's exposure at most 2.5."""
    score = exposure(SYSTEMD / name)
    assert score <= EXPOSURE_LIMIT, f"{name}: exposure {score}"


def test_exposure_parser_sees_an_unhardened_unit(tmp_path):
    """The exposure check can fail: a bare unit scores far above the limit."""
    (tmp_path / "bare.service").write_text("[Service]\nExecStart=/bin/true\n")
    assert exposure(tmp_path / "bare.service") > EXPOSURE_LIMIT


@pytest.mark.parametrize("name", UNITS)
def test_unprivileged_user_with_device_groups_and_device_allow(name):
    """An unprivileged user in gpio, i2c, spi, dialout; DeviceAllow= instead of PrivateDevices."""
    s = unit_settings((SYSTEMD / name).read_text())["Service"]
    assert s["User"] == ["tablekeeper"]
    groups = {g for v in s["SupplementaryGroups"] for g in v.split()}
    assert DEVICE_GROUPS <= groups
    assert "PrivateDevices" not in s
    allowed = {v.split()[0] for v in s["DeviceAllow"]}
    assert {"char-gpiochip", "char-i2c", "char-spi", "char-ttyACM", "char-ttyUSB"} <= allowed
    assert s["DevicePolicy"] == ["closed"]
    for key, want in (("ProtectSystem", "strict"), ("ProtectHome", "yes"), ("NoNewPrivileges", "yes"),
                      ("PrivateTmp", "yes"), ("PrivateNetwork", "yes"), ("IPAddressDeny", "any")):
        assert s[key] == [want], key


@pytest.mark.parametrize("name", ("tablekeeper.service", "tablekeeper-serve.service"))
def test_owners_are_notify_units_with_watchdog_restart_and_state(name):
    """Type=notify with WatchdogSec=, Restart=on-failure, state under StateDirectory=, /etc config."""
    units = unit_settings((SYSTEMD / name).read_text())
    s = units["Service"]
    assert s["Type"] == ["notify"] and s["NotifyAccess"] == ["main"]
    assert s["Restart"] == ["on-failure"]
    assert int(s["WatchdogSec"][0].rstrip("s")) >= 10
    assert s["StateDirectory"] == ["tablekeeper"]
    env = " ".join(s["Environment"])
    assert "TABLEKEEPER_STATE_DIR=/var/lib/tablekeeper" in env
    assert "TABLEKEEPER_CONFIG=/etc/tablekeeper/tablekeeper.toml" in env
    assert s["RestrictAddressFamilies"][0].split()[0] == "AF_UNIX"  # no AF_INET: no listener possible
    other = "tablekeeper-serve.service" if name == "tablekeeper.service" else "tablekeeper.service"
    assert other in units["Unit"]["Conflicts"][0].split()  # one owner of the pods and the journal


def test_app_unit_is_a_kiosk_on_kms():
    """The app starts on the Pi's display without a desktop (SDL2's KMS/DRM backend)."""
    s = unit_settings((SYSTEMD / "tablekeeper.service").read_text())["Service"]
    env = " ".join(s["Environment"])
    assert "SDL_VIDEODRIVER=kmsdrm" in env and "KIVY_WINDOW=sdl2" in env
    assert s["ExecStart"] == [f"{EXEC} run --fullscreen"]
    assert {"char-drm", "char-input"} <= {v.split()[0] for v in s["DeviceAllow"]}
    assert {"video", "render", "input"} <= {g for v in s["SupplementaryGroups"] for g in v.split()}


def test_shutdown_unit_writes_a_message_after_the_owners_stop():
    """A shutdown unit writes a message on the pods; it runs after the owners let go."""
    units = unit_settings((SYSTEMD / "tablekeeper-shutdown-message.service").read_text())
    s = units["Service"]
    assert s["Type"] == ["oneshot"] and s["RemainAfterExit"] == ["yes"]
    assert s["ExecStop"][0].startswith(f"{EXEC} hw message ")
    # Stopped in reverse start order: Before= the owners means stopped after them.
    assert set(units["Unit"]["Before"][0].split()) == {"tablekeeper.service", "tablekeeper-serve.service"}
    for owner in ("tablekeeper.service", "tablekeeper-serve.service"):
        assert "tablekeeper-shutdown-message.service" in unit_settings(
            (SYSTEMD / owner).read_text())["Unit"]["Wants"][0].split()


def test_journald_is_volatile_and_rate_limited():
    """SD-card wear kept low: journald volatile (and rate-limited), no syslog copy."""
    j = unit_settings((SYSTEMD / "journald-tablekeeper.conf").read_text())["Journal"]
    assert j["Storage"] == ["volatile"]
    assert j["ForwardToSyslog"] == ["no"]
    assert j["RateLimitBurst"] and j["RateLimitIntervalSec"]
