"""In the guest: the project's simulated pod (the firmware's logic, ``PodMachine``) on the gadget side
of a USB serial device (``/dev/ttyGS0``, made by usb-pod.sh).

Usage: python usb_pod.py POD_ID [DEVICE]. Commands on standard input, one a line: a button name
(``up``, ``down``, ``select``, ``main``) clicks it; ``restart`` is a power cycle (a new boot id, as
after being unplugged). Prints ``online`` once a host has identified the pod, and
``clicks N`` after each click is sent.
"""
import os
import select
import sys
import termios
import tty

from tablekeeper.hardware.serial.sim.machine import PodMachine

pod_id = sys.argv[1]
device = sys.argv[2] if len(sys.argv) > 2 else "/dev/ttyGS0"
machine = PodMachine(pod_id)


def open_port() -> int:
    """The gadget's tty, raw; opened again after a replug (the unplug hung the old one up)."""
    port = os.open(device, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    tty.setraw(port)
    attrs = termios.tcgetattr(port)
    attrs[3] &= ~termios.ECHO
    termios.tcsetattr(port, termios.TCSANOW, attrs)
    return port


fd = open_port()
stdin = sys.stdin.fileno()
online = False
while True:
    timeout = max(0.0, min(0.05, machine.next_deadline() - machine.clock()))
    ready, _, _ = select.select([fd, stdin], [], [], timeout)
    if stdin in ready:
        line = sys.stdin.readline()
        if not line:
            break
        word = line.strip()
        if word == "restart":
            machine.restart()
            os.close(fd)
            fd = open_port()
            online = False
        elif word in PodMachine.BUTTONS:
            machine.click(word)
    if fd in ready:
        try:
            data = os.read(fd, 4096)
        except (BlockingIOError, InterruptedError):
            data = b""
        except OSError:  # unplugged: the gadget side has no host
            data = b""
        if data:
            machine.receive(data)
    out = machine.advance()
    if out:
        try:
            os.write(fd, out)
        except OSError:
            pass  # nobody listening: a USB pod's bytes are lost too
    if not online and machine.core.identified:
        online = True
        print("online", flush=True)
