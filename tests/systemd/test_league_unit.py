"""The league's unit: verified and hardened like the owners' units, but with the network it needs.

The owners' units (tests/systemd/test_units.py) have no network and the pods' device groups; the
league has no device and a network limited to TCP/UDP sockets on the loopback and private ranges.
"""
from __future__ import annotations

from .helpers import EXEC, SYSTEMD, render, stub_executable, unit_settings, verify
from .test_units import EXPOSURE_LIMIT, exposure

NAME = "tablekeeper-league.service"


def test_the_league_unit_verifies_without_a_word(tmp_path):
    text = (SYSTEMD / NAME).read_text()
    assert EXEC in text
    copy = render(text, stub_executable(tmp_path))
    assert copy.replace(str(tmp_path / "bin" / "tablekeeper"), EXEC) == text
    (tmp_path / NAME).write_text(copy)
    result = verify(tmp_path, NAME)
    assert result.stderr == "" and result.returncode == 0, result.stderr


def test_the_league_unit_is_hardened():
    assert exposure(SYSTEMD / NAME) <= EXPOSURE_LIMIT


def test_the_league_unit_runs_club_serve_as_a_notify_service_without_devices():
    units = unit_settings((SYSTEMD / NAME).read_text())
    s = units["Service"]
    assert s["ExecStart"] == [f"{EXEC} club serve --config /etc/tablekeeper/tablekeeper.toml"]
    assert s["Type"] == ["notify"] and s["NotifyAccess"] == ["main"] and s["Restart"] == ["on-failure"]
    assert int(s["WatchdogSec"][0].rstrip("s")) >= 10
    assert s["User"] == ["tablekeeper"] and "SupplementaryGroups" not in s
    assert s["StateDirectory"] == ["tablekeeper-league"]
    assert "TABLEKEEPER_STATE_DIR=/var/lib/tablekeeper-league" in " ".join(s["Environment"])
    for key, want in (("ProtectSystem", "strict"), ("ProtectHome", "yes"), ("NoNewPrivileges", "yes"),
                      ("PrivateTmp", "yes"), ("PrivateDevices", "yes"), ("IPAddressDeny", "any"),
                      ("CapabilityBoundingSet", "")):
        assert s[key] == [want], key
    assert set(s["RestrictAddressFamilies"][0].split()) == {"AF_UNIX", "AF_INET", "AF_INET6"}
    allowed = s["IPAddressAllow"][0].split()
    assert "localhost" in allowed and "any" not in allowed and "0.0.0.0/0" not in allowed
    assert "network-online.target" in units["Unit"]["After"][0].split()
