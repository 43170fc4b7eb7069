"""A stand-in for MicroPython's ``machine`` module, to run the pod's real ``main.py`` on the unix port.

Buttons read released (or pressed, listed in ``machine_pressed.txt`` in the
working directory), the I2C bus takes everything, the watchdog counts its
feeds (printed to stderr at exit), ``reset()`` ends the program.
"""
import sys


class Pin:
    IN = 0
    PULL_UP = 1
    pressed = ()

    def __init__(self, n, mode=None, pull=None):
        self.n = n

    def value(self):
        return 0 if self.n in Pin.pressed else 1


try:
    with open("machine_pressed.txt") as f:
        Pin.pressed = tuple(int(x) for x in f.read().split())
except OSError:
    pass


class I2C:
    transactions = 0

    def __init__(self, bus, sda=None, scl=None, freq=None):
        self.bus = bus

    def writeto(self, addr, data):
        I2C.transactions += 1

    def writevto(self, addr, parts):
        I2C.transactions += 1


class WDT:
    feeds = 0

    def __init__(self, timeout=5000):
        sys.stderr.write("watchdog %d ms\n" % timeout)

    def feed(self):
        WDT.feeds += 1


def unique_id():
    return b"\xe6\x61\x4c\x31\x1b\x7c\x5f\x2c"


def reset():
    sys.stderr.write("reset after %d watchdog feeds, %d i2c transactions\n" % (WDT.feeds, I2C.transactions))
    raise SystemExit(0)
