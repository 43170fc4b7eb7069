"""Shared helpers for the appliance tests: the shipped files and systemd's tools."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SYSTEMD = ROOT / "systemd"
UNITS = ("tablekeeper.service", "tablekeeper-serve.service", "tablekeeper-shutdown-message.service")
EXEC = "/opt/tablekeeper/venv/bin/tablekeeper"


def tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"{name} is missing: install the Debian package 'systemd' (tests/sysdeps.sh)")
    return path


def render(unit_text: str, executable: Path) -> str:
    """The unit with its tablekeeper command pointed at ``executable`` (nothing else changes)."""
    return unit_text.replace(EXEC, str(executable))


def verify(folder: Path, name: str) -> subprocess.CompletedProcess:
    return subprocess.run([tool("systemd-analyze"), "verify", "--man=no", str(folder / name)],
                          capture_output=True, text=True, timeout=60, cwd=folder)


def stub_executable(folder: Path) -> Path:
    exe = folder / "bin" / "tablekeeper"
    exe.parent.mkdir(parents=True, exist_ok=True)
    exe.write_text("#!/bin/sh\nexit 0\n")
    exe.chmod(0o755)
    return exe


def unit_settings(text: str) -> dict[str, dict[str, list[str]]]:
    """section -> key -> every value given (systemd allows repeated keys)."""
    out: dict[str, dict[str, list[str]]] = {}
    section = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            out.setdefault(section, {})
            continue
        key, _, value = line.partition("=")
        out[section].setdefault(key.strip(), []).append(value.strip())
    return out
