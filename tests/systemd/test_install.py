"""systemd/install.sh in --dry-run and --root modes: the install script
tried in a dry-run mode and in a chroot.

--root DIR writes every file into DIR, creates the user there with
systemd-sysusers --root and enables the units with systemctl --root; what
needs the running system (apt-get, pip, starting units, hw check) is listed.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from .helpers import ROOT, SYSTEMD, UNITS, render, stub_executable, tool, verify

#: Each test runs the shell script (and systemd's tools) in a fresh root: the full suite's.
pytestmark = pytest.mark.slow

SCRIPT = SYSTEMD / "install.sh"
INSTALLED = {
    "etc/systemd/system/tablekeeper.service": "tablekeeper.service",
    "etc/systemd/system/tablekeeper-serve.service": "tablekeeper-serve.service",
    "etc/systemd/system/tablekeeper-shutdown-message.service": "tablekeeper-shutdown-message.service",
    "etc/systemd/journald.conf.d/tablekeeper.conf": "journald-tablekeeper.conf",
    "etc/sysusers.d/tablekeeper.conf": "sysusers-tablekeeper.conf",
    "etc/modules-load.d/tablekeeper.conf": "modules-load-tablekeeper.conf",
    "etc/udev/rules.d/99-tablekeeper-stick.rules": "99-tablekeeper-stick.rules",
    "etc/tmpfiles.d/tablekeeper-stick.conf": "tmpfiles-tablekeeper-stick.conf",
    "etc/systemd/system/tablekeeper.service.d/stick.conf": "tablekeeper-stick.conf",
    "etc/systemd/system/tablekeeper-serve.service.d/stick.conf": "tablekeeper-stick.conf",
    "etc/tablekeeper/tablekeeper.toml": "tablekeeper.toml",
    "etc/tablekeeper/environment": "environment",
}
WANTS = "etc/systemd/system/multi-user.target.wants"


SOURCE: Path = ROOT  # set to a frozen copy by the fixture below


@pytest.fixture(scope="module", autouse=True)
def source(tmp_path_factory) -> Path:
    """A frozen copy of the source tree for --source (others may edit the checkout meanwhile)."""
    global SOURCE
    copy = tmp_path_factory.mktemp("source")
    shutil.copy2(ROOT / "pyproject.toml", copy)
    shutil.copy2(ROOT / "setup.py", copy)
    for folder in ("engine", "hardware", "ui", "firmware", "docs", "systemd"):
        shutil.copytree(ROOT / folder, copy / folder, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    SOURCE = copy
    yield copy
    SOURCE = ROOT


def install(*args, check=True) -> subprocess.CompletedProcess:
    for name in ("systemctl", "systemd-sysusers"):
        tool(name)
    argv = ["bash", str(SCRIPT), "--source", str(SOURCE), *map(str, args)]
    result = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    if check:
        assert result.returncode == 0, result.stdout + result.stderr
    return result


def snapshot(root: Path) -> dict[str, str]:
    """Every path under root with its kind, mode and content hash (or link target)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            rel = str(p.relative_to(root))
            if p.is_symlink():
                out[rel] = "link " + os.readlink(p)
            elif p.is_dir():
                out[rel] = f"dir {p.stat().st_mode:o}"
            else:
                out[rel] = f"file {p.stat().st_mode:o} " + hashlib.sha256(p.read_bytes()).hexdigest()
    return out


@pytest.fixture
def pi_root(tmp_path) -> Path:
    """An empty Raspberry Pi OS-like tree: a config.txt with I2C commented out."""
    root = tmp_path / "pi"
    (root / "boot" / "firmware").mkdir(parents=True)
    (root / "boot" / "firmware" / "config.txt").write_text("[pi4]\narm_boost=1\n\n[all]\n#dtparam=i2c_arm=on\n")
    return root


def test_dry_run_changes_nothing_and_says_everything(pi_root):
    """--dry-run prints each step ("would ...") and leaves the tree exactly as it was."""
    before = snapshot(pi_root)
    out = install("--dry-run", "--root", pi_root).stdout
    assert snapshot(pi_root) == before
    for dest in INSTALLED:
        assert f"would install /{dest} (new)" in out
    assert "would run: systemctl --root=" in out and "enable tablekeeper.service" in out
    assert "would add 'dtparam=i2c_arm=on'" in out and "would add 'dtparam=spi=on'" in out
    assert "dry run: nothing was changed" in out


def test_dry_run_on_this_system_touches_nothing():
    """Without --root, --dry-run only reads the system (and needs no root)."""
    paths = [Path("/etc/systemd/system/tablekeeper.service"), Path("/opt/tablekeeper"), Path("/etc/tablekeeper")]
    existed = {p: p.exists() for p in paths}
    out = install("--dry-run", "--no-packages").stdout
    assert {p: p.exists() for p in paths} == existed
    assert "would run: python3 -m venv /opt/tablekeeper/venv" in out
    assert "would run: runuser -u tablekeeper -- /opt/tablekeeper/venv/bin/tablekeeper hw check" in out


def test_install_into_a_root_puts_everything_in_place(pi_root):
    """install.sh: user, venv location, I2C and SPI, units installed and enabled."""
    out = install("--root", pi_root).stdout
    for dest, shipped in INSTALLED.items():
        assert (pi_root / dest).read_bytes() == (SYSTEMD / shipped).read_bytes(), dest
    # enabled: the app and the shutdown message, not the headless player
    assert sorted(os.listdir(pi_root / WANTS)) == ["tablekeeper-shutdown-message.service", "tablekeeper.service"]
    # the unprivileged user, in the device groups, no login shell
    passwd = (pi_root / "etc/passwd").read_text()
    entry = next(line for line in passwd.splitlines() if line.startswith("tablekeeper:"))
    assert entry.split(":")[2] != "0" and entry.endswith(":/var/lib/tablekeeper:/usr/sbin/nologin")
    groups = {line.split(":")[0]: line.split(":")[3].split(",") for line in
              (pi_root / "etc/group").read_text().splitlines()}
    for g in ("gpio", "i2c", "spi", "dialout", "video", "render", "input"):
        assert "tablekeeper" in groups[g], g
    config_txt = (pi_root / "boot/firmware/config.txt").read_text()
    assert "\ndtparam=i2c_arm=on\n" in config_txt and "#dtparam=i2c_arm" not in config_txt
    assert config_txt.endswith("[all]\ndtparam=i2c_arm=on\ndtparam=spi=on\n")
    assert (pi_root / "opt/tablekeeper/src/pyproject.toml").read_bytes() == (SOURCE / "pyproject.toml").read_bytes()
    assert (pi_root / "opt/tablekeeper/src/docs/install.md").is_file()  # the units' Documentation=
    # setup.py maps the folders to tablekeeper.*: without it the wheel built from the copy fails
    # ("Multiple top-level packages discovered").
    assert (pi_root / "opt/tablekeeper/src/setup.py").read_bytes() == (SOURCE / "setup.py").read_bytes()
    assert (pi_root / "opt/tablekeeper/src/firmware/podcore.py").is_file()
    assert "skipped under --root: python3 -m venv /opt/tablekeeper/venv" in out
    assert "a reboot is needed for I2C/SPI" in out


def test_install_is_idempotent(pi_root):
    """install.sh is idempotent: a second run changes nothing at all."""
    install("--root", pi_root)
    first = snapshot(pi_root)
    out = install("--root", pi_root).stdout
    assert snapshot(pi_root) == first
    assert "everything was already in place" in out
    assert "installed /" not in out and "set '" not in out


def test_club_broker_installs_the_shipped_mosquitto_settings_and_keeps_the_passwords(pi_root):
    """«The shipped config mentions an `install.sh --club-broker` that does not exist»: it does now. The
    shipped settings and ACL go into /etc/mosquitto, an empty password file is made once and kept."""
    install("--root", pi_root)
    assert not (pi_root / "etc/mosquitto").exists()  # only when asked
    out = install("--root", pi_root, "--club-broker").stdout
    conf = pi_root / "etc/mosquitto/conf.d/tablekeeper.conf"
    assert conf.read_text() == (ROOT / "systemd/mosquitto/tablekeeper.conf").read_text()
    assert "use_username_as_clientid true" in conf.read_text()
    acl = pi_root / "etc/mosquitto/tablekeeper.acl"
    assert acl.read_text() == (ROOT / "systemd/mosquitto/tablekeeper.acl").read_text()
    passwd = pi_root / "etc/mosquitto/tablekeeper.passwd"
    assert passwd.read_text() == "" and oct(passwd.stat().st_mode & 0o777) == "0o640"
    assert "mosquitto_passwd /etc/mosquitto/tablekeeper.passwd league" in out
    passwd.write_text("league:$7$hash\n")
    again = install("--root", pi_root, "--club-broker").stdout
    assert passwd.read_text() == "league:$7$hash\n"
    assert "kept your /etc/mosquitto/tablekeeper.passwd" in again and "everything was already in place" in again
    dry = install("--dry-run", "--no-packages", "--club-broker").stdout
    assert "/etc/mosquitto/conf.d/tablekeeper.conf" in dry


def test_install_keeps_the_owners_config(pi_root):
    install("--root", pi_root)
    mine = pi_root / "etc/tablekeeper/tablekeeper.toml"
    mine.write_text("[pods]\nbackend = \"mock\"\n")
    out = install("--root", pi_root).stdout
    assert mine.read_text() == "[pods]\nbackend = \"mock\"\n"
    assert "kept your /etc/tablekeeper/tablekeeper.toml" in out


def test_headless_mode_enables_serve_instead_of_the_app(pi_root):
    install("--root", pi_root)
    install("--root", pi_root, "--headless")
    assert sorted(os.listdir(pi_root / WANTS)) == ["tablekeeper-serve.service", "tablekeeper-shutdown-message.service"]
    install("--root", pi_root)
    assert sorted(os.listdir(pi_root / WANTS)) == ["tablekeeper-shutdown-message.service", "tablekeeper.service"]


def test_a_desktop_boot_is_switched_to_the_console_and_back(pi_root):
    """The kiosk needs the display: graphical.target -> multi-user.target; uninstall restores it."""
    system = pi_root / "etc/systemd/system"
    system.mkdir(parents=True)
    (system / "default.target").symlink_to("/lib/systemd/system/graphical.target")
    lib = pi_root / "lib/systemd/system"
    lib.mkdir(parents=True)
    for t in ("graphical.target", "multi-user.target"):
        (lib / t).write_text("[Unit]\nDescription=%s\n" % t)
    install("--root", pi_root)
    assert os.readlink(system / "default.target").endswith("multi-user.target")
    install("--root", pi_root, "--uninstall")
    assert os.readlink(system / "default.target").endswith("graphical.target")


def test_installed_units_verify_cleanly(pi_root, tmp_path):
    """The units as installed pass systemd-analyze verify (program path pointed at a stub)."""
    install("--root", pi_root)
    folder = tmp_path / "check"
    folder.mkdir()
    exe = stub_executable(tmp_path)
    for name in UNITS:
        (folder / name).write_text(render((pi_root / "etc/systemd/system" / name).read_text(), exe))
    for name in UNITS:
        result = verify(folder, name)
        assert result.stderr == "" and result.returncode == 0, result.stderr


def test_uninstall_keeps_games_and_purge_removes_everything(pi_root):
    """Uninstall removes what install added but keeps the games; --purge removes them and the user."""
    before = snapshot(pi_root)
    install("--root", pi_root)
    games = pi_root / "var/lib/tablekeeper/journal.db"
    games.parent.mkdir(parents=True)
    games.write_bytes(b"the games")
    install("--root", pi_root, "--uninstall")
    for dest in INSTALLED:
        if not dest.startswith("etc/tablekeeper/"):
            assert not (pi_root / dest).exists(), dest
    assert not (pi_root / "opt/tablekeeper").exists()
    assert not (pi_root / WANTS).exists() or not os.listdir(pi_root / WANTS)
    assert games.read_bytes() == b"the games"
    assert (pi_root / "etc/tablekeeper/tablekeeper.toml").exists()
    install("--root", pi_root, "--uninstall", "--purge")
    assert not games.exists() and not (pi_root / "etc/tablekeeper").exists()
    assert "tablekeeper:" not in (pi_root / "etc/passwd").read_text()
    left = set(snapshot(pi_root)) - set(before)
    # what stays: the account files systemd-sysusers made in this empty tree, empty folders, I2C/SPI on
    assert all(p.startswith(("etc", "opt", "var")) for p in left), left
    assert all(not (pi_root / p).is_file() or p.startswith("etc/") and "/" not in p[4:] for p in left), left


def test_install_refuses_bad_arguments_with_exit_2(pi_root):
    assert install("--frobnicate", check=False).returncode == 2
    assert install("--purge", "--root", pi_root, check=False).returncode == 2
    assert install("--root", pi_root / "nowhere", check=False).returncode == 1


# -- the venv comes from a lock file, every download checked against its hash -------------

LOCK = SYSTEMD / "requirements-pi.txt"


def _name(requirement: str) -> str:
    """The normalised project name of a PEP 508 requirement string."""
    import re

    return re.sub(r"[-_.]+", "-", re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement).group(1)).lower()


def _locked() -> dict[str, tuple[str, list[str]]]:
    """name -> (pinned version, sha256 hashes) for every entry of the lock file."""
    import re

    entries = {}
    for name, version, hashes in re.findall(
            r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)((?:[ \t]*\\\n[ \t]+--hash=sha256:[0-9a-f]{64})+)",
            LOCK.read_text(), re.M):
        entries[_name(name)] = (version, re.findall(r"sha256:([0-9a-f]{64})", hashes))
    return entries


def test_the_lock_pins_every_dependency_of_the_pi_install_with_hashes():
    """Each of pyproject's dependencies and its `pi` extra (and the build backend) has an
    exact `==` version and at least one sha256 hash; no line of the lock is left unpinned."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    wanted = [*project["project"]["dependencies"], *project["project"]["optional-dependencies"]["pi"],
              *project["build-system"]["requires"]]
    locked = _locked()
    for requirement in wanted:
        name = _name(requirement)
        assert name in locked, f"{name} is not pinned in {LOCK.name}"
        version, hashes = locked[name]
        assert version and hashes, name
    requirement_lines = [line for line in LOCK.read_text().splitlines()
                         if line and not line[0].isspace() and not line.startswith("#")]
    assert len(requirement_lines) == len(locked), "an entry without == or without hashes"


def test_the_lock_was_made_for_python_3_11_and_has_no_index_of_its_own():
    text = LOCK.read_text()
    assert "autogenerated by pip-compile with Python 3.11" in text
    assert "--generate-hashes" in text and ("--extra pi" in text or "--extra=pi" in text)  # pip-tools 6 or 7
    assert not any(line.startswith(("-i ", "--index-url", "--extra-index-url", "--find-links", "-e "))
                   for line in text.splitlines())


def test_the_dry_run_installs_only_from_the_lock_with_hashes():
    """Wheels from the lock with --require-hashes as root; sdists from the lock with
    --require-hashes built by the unprivileged user; tablekeeper itself offline."""
    out = install("--dry-run", "--no-packages").stdout
    pips = [line.split("would run: ", 1)[1] for line in out.splitlines()
            if "would run: " in line and "/venv/bin/pip " in line]
    assert "would split /opt/tablekeeper/src/systemd/requirements-pi.txt into /opt/tablekeeper/build/wheels.txt" in out
    wheels = next(p for p in pips if p.endswith("-r /opt/tablekeeper/build/wheels.txt"))
    assert " install --require-hashes --no-deps --only-binary :all: " in wheels
    assert wheels.startswith("env PIP_CONFIG_FILE=/dev/null ") and " --isolated " in wheels
    sources = next(p for p in pips if p.endswith("-r /opt/tablekeeper/build/sources.txt"))
    assert sources.startswith("runuser -u tablekeeper -- ")
    assert " wheel --require-hashes --no-deps " in sources and " --no-build-isolation " in sources
    project = next(p for p in pips if p.endswith(" /opt/tablekeeper/build/src"))
    assert project.startswith("runuser -u tablekeeper -- ") and " --no-index " in project
    # nothing else reaches the network: every other pip command is offline
    for p in pips:
        assert "--require-hashes" in p or "--no-index" in p or p.endswith(" check"), p
    assert not any("--upgrade" in p or "-U " in p for p in pips)


def test_no_unpinned_pip_install_remains_in_the_installer():
    """Every pip install/wheel/download in install.sh is hash-checked or offline."""
    import re

    text = SCRIPT.read_text()
    commands = re.sub(r"\\\n\s*", " ", text)  # join continued lines
    pip_runs = [line for line in commands.splitlines()
                if re.search(r"\bpip\b.*\b(install|wheel|download)\b", line) and not line.lstrip().startswith("#")]
    assert pip_runs, "no pip command found"
    for line in pip_runs:
        assert "--require-hashes" in line or "--no-index" in line, line
        assert "--upgrade" not in line, line


def test_the_build_dependencies_of_sdists_are_in_the_lock_too():
    """The packages install.sh builds from source are locked with hashes, and so are the
    setuptools and wheel that build them (no build isolation fetching unpinned ones)."""
    import re

    sdist_only = re.search(r"^SDIST_ONLY=\(([^)]*)\)", SCRIPT.read_text(), re.M).group(1).split()
    locked = _locked()
    for name in [*sdist_only, "setuptools", "wheel"]:
        assert name in locked, name


def installed_packages() -> list[str]:
    text = SCRIPT.read_text()
    start = text.index("PACKAGES=(") + len("PACKAGES=(")
    return text[start:text.index(")", start)].split()


def test_the_debian_packages_include_what_a_fresh_bookworm_lacks():
    """What the install in a bare Debian bookworm VM (tests/appliance) found missing: a C compiler for the
    sdists built from source, libGL for Kivy's wheel, Mesa's EGL and DRI drivers (recommends only)."""
    packages = installed_packages()
    for needed in ("gcc", "python3-dev", "libgl1", "libegl-mesa0", "libgl1-mesa-dri", "libgbm1"):
        assert needed in packages, needed


def test_the_package_lists_are_updated_before_packages_are_looked_up():
    """A fresh image has no package lists: without `apt-get update` every package would look unknown."""
    text = SCRIPT.read_text()
    body = text[text.index("install_packages() {"):text.index("install_user() {")]
    assert body.index("apt-get update") < body.index("apt-cache show")
