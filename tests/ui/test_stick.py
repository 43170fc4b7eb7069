"""Finding the USB stick: a fake mount table and a fake /sys/block stand in for the appliance's,
a temporary folder for a PC's configured one."""
from __future__ import annotations

from pathlib import Path

import pytest

from tablekeeper.hardware import config as hw_config
from tablekeeper.ui import stick as sticks

ROOT_FS = "/dev/mmcblk0p2 / ext4 rw,noatime 0 0\n/dev/mmcblk0p1 /boot/firmware vfat rw,relatime 0 0\n"
PROC = "proc /proc proc rw,nosuid 0 0\ntmpfs /run tmpfs rw,nosuid 0 0\n"


@pytest.fixture
def machine(tmp_path, monkeypatch):
    """A fake /proc/mounts and /sys/block: the SD card (not removable) and a stick's disk sda."""
    monkeypatch.delenv(sticks.ENV_STICK, raising=False)
    monkeypatch.delenv("TABLEKEEPER_CONFIG", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "no-config"))
    block = tmp_path / "sys" / "block"
    for disk, flag in (("mmcblk0", "0"), ("sda", "1"), ("sdb", "0")):
        (block / disk).mkdir(parents=True)
        (block / disk / "removable").write_text(flag + "\n")
    mounts = tmp_path / "mounts"
    mounts.write_text(PROC + ROOT_FS)
    media = tmp_path / "media"
    s = sticks.StickSettings(None, mounts, block, (media, tmp_path / "run-media"))
    return s, mounts, media


def plug(mounts: Path, line: str) -> None:
    mounts.write_text(mounts.read_text() + line + "\n")


def test_no_stick_on_a_bare_appliance(machine):
    s, _mounts, _media = machine
    assert sticks.find_stick(s) is None and sticks.sticks(s) == []


def test_a_stick_mounted_by_udisks_under_media_is_found_and_gone_when_pulled(machine):
    s, mounts, media = machine
    before = mounts.read_text()
    plug(mounts, f"/dev/sda1 {media}/pi/KINGSTON vfat rw,nosuid,nodev,uid=1000 0 0")
    assert sticks.find_stick(s) == media / "pi" / "KINGSTON"
    mounts.write_text(before)  # pulled: the kernel takes it out of the table
    assert sticks.find_stick(s) is None


def test_a_removable_disk_mounted_anywhere_counts_and_a_fixed_one_does_not(machine):
    s, mounts, _media = machine
    plug(mounts, "/dev/sdb1 /mnt/data ext4 rw 0 0")  # a USB hard disk that says it is fixed
    assert sticks.find_stick(s) is None
    plug(mounts, "/dev/sda2 / ext4 rw 0 0")  # a Pi booted from a USB stick: the system, not a backup stick
    plug(mounts, "/dev/sda1 /boot/firmware vfat rw 0 0")
    assert sticks.find_stick(s) is None
    plug(mounts, "/dev/sda3 /mnt/usb exfat rw 0 0")
    assert sticks.find_stick(s) == Path("/mnt/usb")


def test_a_label_with_a_space_is_unescaped(machine):
    s, mounts, media = machine
    plug(mounts, f"/dev/sda1 {media}/MY\\040STICK vfat rw 0 0")
    assert sticks.find_stick(s) == media / "MY STICK"


def test_the_newest_stick_wins_and_an_automount_point_is_one_stick(machine):
    s, mounts, media = machine
    plug(mounts, f"systemd-1 {media}/tablekeeper/sda1 autofs rw,relatime,fd=48 0 0")
    assert sticks.find_stick(s) == media / "tablekeeper" / "sda1"  # not mounted yet: found all the same
    plug(mounts, f"/dev/sda1 {media}/tablekeeper/sda1 vfat rw,relatime 0 0")
    assert sticks.sticks(s) == [media / "tablekeeper" / "sda1"]
    plug(mounts, f"/dev/sdc1 {media}/tablekeeper/sdc1 vfat rw 0 0")
    assert sticks.find_stick(s) == media / "tablekeeper" / "sdc1"


def test_the_media_folder_itself_and_other_file_systems_are_not_sticks(machine):
    s, mounts, media = machine
    plug(mounts, f"tmpfs {media} tmpfs rw 0 0")
    plug(mounts, f"tmpfs {media}/ram tmpfs rw 0 0")
    assert sticks.find_stick(s) is None


def test_a_configured_folder_is_the_stick_on_a_pc_while_it_exists(machine, tmp_path, monkeypatch):
    _s, mounts, _media = machine
    folder = tmp_path / "pc-stick"
    cfg = tmp_path / "tablekeeper.toml"
    cfg.write_text(f'[app.stick]\nfolder = "{folder}"\nmounts = "{mounts}"\n')
    s = sticks.settings(cfg)
    assert s.folder == folder and s.mounts == mounts and s.problems == ()
    assert sticks.find_stick(s) is None
    folder.mkdir()
    assert sticks.find_stick(s) == folder
    monkeypatch.setenv(sticks.ENV_STICK, str(tmp_path))
    assert sticks.find_stick(sticks.settings(cfg)) == tmp_path
    hw_config.load(cfg)  # the pods' reader leaves [app] alone


def test_a_bad_stick_setting_is_said_not_raised(tmp_path, monkeypatch):
    monkeypatch.delenv(sticks.ENV_STICK, raising=False)
    cfg = tmp_path / "tablekeeper.toml"
    cfg.write_text("[app.stick]\nfolder = 3\nmedia = \"/media\"\n")
    s = sticks.settings(cfg)
    assert s.folder is None and s.media == sticks.StickSettings.media
    assert any("folder = 3" in p for p in s.problems) and any("media" in p for p in s.problems)


def test_a_poll_is_cheap(machine, monkeypatch):
    """The app polls: a poll reads the mount table once and asks /sys only about the mounts under the
    media folders, however many other mounts there are (no clock: what it reads is what it costs)."""
    s, mounts, media = machine
    for i in range(60):
        plug(mounts, f"cgroup /sys/fs/cgroup/x{i} cgroup2 rw 0 0")
    plug(mounts, f"/dev/sda1 {media}/pi/STICK vfat rw 0 0")
    read: list[str] = []
    real = Path.read_text

    def counted(self, *args, **kwargs):
        read.append(str(self))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", counted)
    assert sticks.find_stick(s) == media / "pi" / "STICK"
    assert read.count(str(mounts)) == 1 and len(read) <= 2, read
