"""Seat pods' devices: buttons, displays, their backends (gpio, serial, mock), and the wire.

Importing this package imports nothing heavy; each room is its own module:

* ``pod`` — the value types every backend shares (PodView, InputEvent) and the DisplayDriver protocol
* ``render`` — PodView → 128x64 image; ``icons`` — the counters' glyphs
* ``screen`` — the SSD1306 frame, its diff, the address windows (only changed bytes)
* ``face`` — one display: render, OLED care, failure and retry
* ``buttons`` — debounce/hold/repeat on an injectable clock, gpiozero pins
* ``displays`` — luma.oled on I2C (TCA9548A) and SPI; ``mock`` — mock hardware and the SSD1306 model
* ``config`` — the TOML config; ``rig`` — building pods from it
* ``serial/`` — pods on USB serial: transport, protocol, the link, simulated pods
* ``check``, ``message``, ``cli`` — ``tablekeeper hw check`` and ``hw message``

What a button event means (the input grammar, a stuck button) and what each seat's pod shows are the
pods' interface, device-free: :mod:`tablekeeper.ui.pod`. docs/hardware.md has the wiring, the config
format and the button maps.
"""
