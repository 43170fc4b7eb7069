"""What the crash and I/O-fault suites share: strace, installed by tests/sysdeps.sh on CI."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import crashsim  # noqa: E402


@pytest.fixture(scope="module")
def strace():
    """strace's path; the test is skipped (with the reason) only where it cannot be installed."""
    path = crashsim.ensure_strace()
    if path is None:
        pytest.skip(crashsim.SKIP_REASON)
    return path
