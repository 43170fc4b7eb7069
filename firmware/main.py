"""The pod's program, run by MicroPython at every start (a Raspberry Pi Pico or any board with I2C and USB).

Sets up the display (``oled``), the buttons and the hardware watchdog, then
serves the host over the USB serial (``podloop.run`` with a ``PodCore``)
until the host asks for the REPL.

Safe mode, to update the pod with mpremote: hold the select button while
plugging it in, or let the host send REPL (``firmware/deploy.py`` does);
the pod then starts without the link and without the watchdog, and the REPL
is free.
"""
import os
import time

import machine
import micropython
import podconf
import podloop
from oled import SSD1306
from podcore import PodCore, new_boot_id

SAFE_FLAG = "safe_mode"  # a file: start once in safe mode (left by a REPL request)


def pod_id():
    if podconf.POD_ID:
        return podconf.POD_ID
    return "".join("%02x" % b for b in machine.unique_id())


def safe_mode(pins):
    try:
        os.remove(SAFE_FLAG)
        return True
    except OSError:
        pass
    return pins[podconf.SAFE_BUTTON].value() == 0


def main():
    pins = [machine.Pin(n, machine.Pin.IN, machine.Pin.PULL_UP) for n in podconf.BUTTON_PINS]
    time.sleep_ms(20)  # type: ignore[attr-defined]  # let the pull-ups settle before reading the safe-mode button
    if safe_mode(pins):
        print("tablekeeper pod %s: safe mode, the REPL is free" % pod_id())
        return
    wdt = machine.WDT(timeout=podconf.WATCHDOG_MS)
    i2c = machine.I2C(podconf.I2C_ID, sda=machine.Pin(podconf.SDA), scl=machine.Pin(podconf.SCL),
                      freq=podconf.I2C_FREQ)
    display = SSD1306(i2c, podconf.OLED_ADDRESS, podconf.EXTERNAL_VCC)
    clock = podloop.Clock()
    core = PodCore(pod_id(), new_boot_id(), display, clock(), buttons=len(pins), rx_window=podconf.RX_WINDOW)
    port = podloop.StdioPort()
    micropython.kbd_intr(-1)  # frames hold 0x03: it must not interrupt us

    def scan(core, now):
        for i in range(len(pins)):
            core.contact(i, pins[i].value() == 0, now)

    why = podloop.run(core, port, clock, scan=scan, feed=wdt.feed, sleep_ms=time.sleep_ms)  # type: ignore[attr-defined]
    if why == "repl":
        with open(SAFE_FLAG, "w") as f:
            f.write("1")
        machine.reset()  # the watchdog cannot be stopped: restart into safe mode


main()
