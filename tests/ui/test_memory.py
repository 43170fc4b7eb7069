"""What the app does to keep its memory down, tested without a window.

The figures are in docs/benchmarks.md (bench/bench_app.py); the rendered app's share (a frame flushed
after each panel) is checked in test_app.py.
"""
from __future__ import annotations

import pytest


@pytest.mark.parametrize("renderer, software", [
    (b"llvmpipe (LLVM 15.0.6, 256 bits)", True),
    (b"softpipe", True),
    (b"V3D 4.2", False),  # the Pi 4's GPU
    (b"VC4 V3D 2.1", False),  # the Pi 3's
    (b"Mesa Intel(R) UHD Graphics 620 (KBL GT2)", False),
])
def test_only_software_gl_is_flushed_after_each_panel(monkeypatch, renderer, software):
    from tablekeeper.ui import widgets

    monkeypatch.setattr(widgets, "_software_gl", None)
    monkeypatch.setattr(widgets, "glGetString", lambda name: renderer)
    flushes = []
    monkeypatch.setattr(widgets, "glFlush", lambda: flushes.append(1))
    widgets.flush_software_gl()
    widgets.flush_software_gl()
    assert widgets.software_gl() is software
    assert len(flushes) == (2 if software else 0)
