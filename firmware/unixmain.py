"""The pod firmware on the MicroPython unix port: stdin/stdout are its serial line, its display is RAM.

For tests and benches on the host (``tablekeeper.hardware.serial.sim.micropod.MicroPod``
runs it on a pseudo-terminal): the very ``podcore``, ``podloop``, ``oled``,
``debounce``, ``frame`` and ``protocol`` of a pod, under the real
MicroPython. The SSD1306 is :class:`PanelI2C`, an I2C bus with a small
SSD1306 RAM model behind it, so what is dumped is what ``oled`` sent.

Settings from the environment:

``TKPOD_ID``       the pod id (default ``unix-pod``)
``TKPOD_BOOT``     the boot id in hex (default: random)
``TKPOD_PRESSES``  a button script ``button@ms,...``: a 50 ms click of each
                   button (up, down, select, main) that many ms after the host
                   first identified the pod
``TKPOD_DUMP``     a file: the OLED's RAM (1024 bytes) is written there,
                   atomically, whenever it changed
"""
import os
import time

import micropython
import podloop
from oled import SSD1306
from podcore import PodCore, new_boot_id

BUTTONS = ("up", "down", "select", "main")


class PanelI2C:
    """An I2C bus with one SSD1306 (commands 0x20-0x22 and data in horizontal addressing) as RAM."""

    def __init__(self):
        self.ram = bytearray(1024)
        self.win = [0, 127, 0, 7]
        self.col = 0
        self.page = 0
        self.on = False
        self.level = 0
        self.changed = True
        self._args = []

    def writeto(self, addr, data):
        if data[0] == 0x40:
            self._data(memoryview(data)[1:])
            return
        for b in data[1:]:
            self._command(b)

    def writevto(self, addr, parts):
        if parts[0][0] == 0x40:
            self._data(memoryview(parts[0])[1:])
            for p in parts[1:]:
                self._data(p)

    def _command(self, b):
        a = self._args
        if a:
            a.append(b)
            need = {0x21: 3, 0x22: 3, 0x81: 2, 0x20: 2, 0xA8: 2, 0xD3: 2, 0xDA: 2, 0xD5: 2, 0xD9: 2, 0xDB: 2,
                    0x8D: 2}[a[0]]
            if len(a) == need:
                if a[0] == 0x21:
                    self.win[0], self.win[1] = a[1], a[2]
                    self.col = a[1]
                elif a[0] == 0x22:
                    self.win[2], self.win[3] = a[1], a[2]
                    self.page = a[1]
                elif a[0] == 0x81:
                    self.level = a[1]
                self._args = []
            return
        if b in (0x21, 0x22, 0x81, 0x20, 0xA8, 0xD3, 0xDA, 0xD5, 0xD9, 0xDB, 0x8D):
            self._args = [b]
        elif b in (0xAE, 0xAF):
            self.on = b == 0xAF

    def _data(self, data):
        c0, c1, p0, p1 = self.win
        for b in data:
            self.ram[self.page * 128 + self.col] = b
            if self.col >= c1:
                self.col = c0
                self.page = p0 if self.page >= p1 else self.page + 1
            else:
                self.col += 1
        self.changed = True


def main():
    env = os.getenv
    pod_id = env("TKPOD_ID") or "unix-pod"
    boot_hex = env("TKPOD_BOOT")
    boot = int(boot_hex, 16) if boot_hex else new_boot_id()
    dump = env("TKPOD_DUMP")
    script = []
    for item in (env("TKPOD_PRESSES") or "").split(","):
        if "@" in item:
            name, ms = item.split("@")
            script.append((int(ms), BUTTONS.index(name)))
    script.sort()
    bus = PanelI2C()
    display = SSD1306(bus)
    clock = podloop.Clock()
    core = PodCore(pod_id, boot, display, clock())
    port = podloop.StdioPort()
    micropython.kbd_intr(-1)
    state = {"start": None, "levels": [False] * len(BUTTONS)}

    def scan(core, now):
        if state["start"] is None:
            if core.identified:
                state["start"] = now
            return
        # a click = pressed from t to t+50 ms
        t = now - state["start"]
        levels = [False] * len(BUTTONS)
        for at, b in script:
            if at <= t < at + 50:
                levels[b] = True
        for i in range(len(BUTTONS)):
            core.contact(i, levels[i], now)
        if bus.changed and dump:
            bus.changed = False
            with open(dump + ".tmp", "wb") as f:
                f.write(bus.ram)
            os.rename(dump + ".tmp", dump)

    podloop.run(core, port, clock, scan=scan, sleep_ms=time.sleep_ms)  # type: ignore[attr-defined]


main()
