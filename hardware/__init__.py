"""Seat pods: buttons, OLED rendering and their backends (gpio, serial, mock).

Importing this package imports nothing heavy; each room is its own module:

* ``pod`` — the value types every backend shares (PodView, InputEvent) and the DisplayDriver protocol
* ``views`` — PodView from a game's seat_view/seat_actions; ``render`` — PodView → 128x64 image
* ``screen`` — the SSD1306 frame, its diff, the address windows (only changed bytes)
* ``face`` — one display: render, OLED care, failure and retry
* ``buttons`` — debounce/hold/repeat on an injectable clock, gpiozero pins
* ``inputs`` — the per-seat input map (events → engine actions); ``stuck`` — a button held for good, held back
* ``displays`` — luma.oled on I2C (TCA9548A) and SPI; ``mock`` — mock hardware and the SSD1306 model
* ``config`` — the TOML config; ``rig`` — building pods from it; ``hub`` — the owner loop
* ``serve``, ``check``, ``cli`` — ``tablekeeper serve`` and ``tablekeeper hw check``

docs/hardware.md has the wiring, the config format and the button maps.
"""
