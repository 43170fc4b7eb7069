"""Copy the pod firmware onto a pod with mpremote (runs on the host, under CPython).

    python firmware/deploy.py /dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_e6614c311b7c5f2c-if00
    python firmware/deploy.py PORT --pod-id seat-red      # set the pod's id (default: the board's unique id)
    python firmware/deploy.py PORT --dry-run              # print what it would do

If the pod already runs the firmware it is first asked to restart into safe
mode (a REPL frame), because the running firmware owns the USB serial and
ignores Ctrl-C; a pod that does not answer is assumed to be at the REPL
already (new board, or select held while plugging in). Then the files are
copied with ``mpremote cp`` and the pod is reset. Needs ``pip install
mpremote`` and MicroPython on the board (docs/serial-pods.md).
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The frame and protocol modules the pod shares with the host.
SHARED = ROOT / "hardware" / "serial"
#: What a pod needs, in copy order: the shared link code, then the firmware.
FILES = [SHARED / "frame.py", SHARED / "protocol.py"] + [
    ROOT / "firmware" / name for name in ("debounce.py", "oled.py", "podcore.py", "podloop.py", "podconf.py",
                                          "main.py")]


def repl_request() -> bytes:
    """The bytes that make a running pod restart into safe mode: a new session, then REPL."""
    sys.path.insert(0, str(SHARED))
    try:
        import frame
        import protocol
    finally:
        sys.path.pop(0)
    nonce = int.from_bytes(os.urandom(4), "big") or 1
    return frame.encode(0, protocol.identify(nonce)) + frame.encode(1, protocol.repl())


def ask_for_safe_mode(port: str) -> bool:
    """Send the REPL request; True if the pod answered (it is now restarting)."""
    import serial

    with serial.Serial(port, 115200, timeout=0.5) as s:
        s.reset_input_buffer()
        s.write(repl_request())
        answer = s.read(64)
    return b"\x7e" in answer


def podconf_with(pod_id: str) -> Path:
    text = (ROOT / "firmware" / "podconf.py").read_text()
    text = text.replace("POD_ID = None", f"POD_ID = {pod_id!r}", 1)
    tmp = Path(tempfile.mkdtemp()) / "podconf.py"
    tmp.write_text(text)
    return tmp


def commands(port: str, pod_id: str | None = None) -> list[list[str]]:
    files = [str(podconf_with(pod_id)) if (pod_id and f.name == "podconf.py") else str(f) for f in FILES]
    return [["mpremote", "connect", port, "cp", *files, ":"], ["mpremote", "connect", port, "reset"]]


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("port", help="the pod's serial port (best its /dev/serial/by-id name)")
    p.add_argument("--pod-id", default=None, help="the pod's id for the host's config (default: the board's "
                                                    "unique id)")
    p.add_argument("--dry-run", action="store_true", help="print the commands, touch nothing")
    args = p.parse_args(argv)
    cmds = commands(args.port, args.pod_id)
    if args.dry_run:
        print(f"send {repl_request().hex()} to {args.port} (restart into safe mode)")
        for c in cmds:
            print(" ".join(c))
        return 0
    try:
        if ask_for_safe_mode(args.port):
            print("the pod is restarting into safe mode ...")
            time.sleep(3)  # USB re-enumerates
    except Exception as e:  # not running the firmware, or not there yet: mpremote will say
        print(f"(no firmware answered on {args.port}: {e or 'nothing'}; assuming the REPL is free)")
    for c in cmds:
        print("+", " ".join(c))
        if subprocess.call(c) != 0:
            print("deploy: failed (is mpremote installed? is the REPL free? hold select while plugging in)",
                  file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
