"""The appliance's USB stick: the udev rule that has systemd mount it, the folder it is mounted in,
and the drop-in that lets the sandboxed app write there. No real udev here: the rule is read as
udev would match it, and its systemd-mount options are checked against systemd-mount itself."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tablekeeper.ui import stick as sticks

from .helpers import EXEC, SYSTEMD, UNITS, render, stub_executable, tool, unit_settings, verify

RULE = SYSTEMD / "99-tablekeeper-stick.rules"
TMPFILES = SYSTEMD / "tmpfiles-tablekeeper-stick.conf"
DROP_IN = SYSTEMD / "tablekeeper-stick.conf"
MOUNT_ROOT = Path("/media/tablekeeper")


def rule() -> dict[str, str]:
    """The one rule, as key -> value (operators kept in the key: ``ENV{ID_FS_TYPE}==``)."""
    lines = [ln for ln in RULE.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    assert len(lines) == 1, lines
    return {key + op: value for key, op, value in re.findall(r'([A-Z]+(?:\{[^}]*\})?)(==|!=|\+=|:=|=)"([^"]*)"',
                                                            lines[0])}


def matches(device: dict[str, str]) -> bool:
    """Whether udev would run the rule for a device with these properties (== and | alternatives)."""
    r = rule()
    for key, value in r.items():
        if not key.endswith("=="):
            continue
        name = key[:-2]
        if device.get(name) not in value.split("|"):
            return False
    return True


STICK = {"ACTION": "add", "SUBSYSTEMS": "usb", "SUBSYSTEM": "block", "ENV{ID_FS_USAGE}": "filesystem",
         "ENV{ID_FS_TYPE}": "vfat"}


def test_the_rule_mounts_usb_fat_and_exfat_sticks_only():
    assert matches(STICK) and matches({**STICK, "ENV{ID_FS_TYPE}": "exfat"})
    assert not matches({**STICK, "ACTION": "remove"})
    assert not matches({**STICK, "SUBSYSTEMS": "mmc"})  # the SD card the system runs from
    assert not matches({**STICK, "ENV{ID_FS_USAGE}": "raid"})
    assert not matches({**STICK, "ENV{ID_FS_TYPE}": "ext4"})  # no uid= for ext4: left alone


def test_the_rule_runs_systemd_mount_with_options_it_knows_under_the_apps_media_root():
    run = rule()["RUN{program}+="].split()
    assert run[0] == "/usr/bin/systemd-mount"
    flags = [a.split("=")[0] for a in run[1:] if a.startswith("--")]
    helptext = subprocess.run([tool("systemd-mount"), "--help"], capture_output=True, text=True, timeout=30).stdout
    for flag in flags:
        assert f" {flag}" in helptext, f"systemd-mount has no {flag}"
    assert {"--automount=yes", "--bind-device", "--owner=tablekeeper"} <= set(run)
    device, where = run[-2:]
    assert device == "$devnode" and where == f"{MOUNT_ROOT}/%k"
    # the app's stick finder looks there, for these file systems
    assert any(MOUNT_ROOT.is_relative_to(root) for root in sticks.StickSettings.media)
    assert {"vfat", "exfat", "autofs"} <= sticks.STICK_FS
    assert "tablekeeper" in (SYSTEMD / "sysusers-tablekeeper.conf").read_text()


def test_the_mount_folder_is_made_at_boot(tmp_path):
    result = subprocess.run([tool("systemd-tmpfiles"), f"--root={tmp_path}", "--create", str(TMPFILES)],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    made = tmp_path / MOUNT_ROOT.relative_to("/")
    assert made.is_dir() and oct(made.stat().st_mode & 0o777) == "0o755"


@pytest.mark.parametrize("name", UNITS[:2])
def test_the_drop_in_opens_the_mount_folder_and_verifies(tmp_path, name):
    exe = stub_executable(tmp_path)
    (tmp_path / name).write_text(render((SYSTEMD / name).read_text(), exe))
    (tmp_path / f"{name}.d").mkdir()
    (tmp_path / f"{name}.d" / "stick.conf").write_text(DROP_IN.read_text())
    result = verify(tmp_path, name)
    assert result.stderr == "" and result.returncode == 0, result.stderr
    assert unit_settings(DROP_IN.read_text())["Service"]["ReadWritePaths"] == [f"-{MOUNT_ROOT}"]
    # verify does read the drop-in: a misspelt key in it is reported
    (tmp_path / f"{name}.d" / "stick.conf").write_text(DROP_IN.read_text() + "ReadWritePathz=/x\n")
    assert "ReadWritePathz" in verify(tmp_path, name).stderr
    assert EXEC in (SYSTEMD / name).read_text()
