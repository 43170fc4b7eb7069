"""The appliance test boots its VM only when asked for (``make appliance-test``, ``pytest -m appliance``).

A plain run that happens to select one of its tests (``pytest tests -k pod``) once set up the VM fixture,
which empties ``build/appliance/vm``: an appliance run going on in the same checkout then booted a disk
without tablekeeper after its next power cut and failed. Such a run must skip, touching nothing there.
"""
from __future__ import annotations

import subprocess
import sys
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_run_that_does_not_ask_for_the_appliance_leaves_its_working_folder_alone():
    work = ROOT / "build" / "appliance" / "vm"
    work.mkdir(parents=True, exist_ok=True)
    sentinel = work / f"guard-{uuid.uuid4().hex}"
    sentinel.write_text("an appliance run's file")
    try:
        run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                              str(ROOT / "tests" / "appliance"), "-k", "power or pod"],
                             cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
        assert "skipped" in run.stdout
        assert sentinel.exists(), "the appliance fixture emptied build/appliance/vm"
    finally:
        sentinel.unlink(missing_ok=True)
