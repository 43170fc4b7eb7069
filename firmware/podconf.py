"""This pod's settings: its id and its wiring. Edit before copying (docs/serial-pods.md, wiring).

The defaults are a Raspberry Pi Pico with the SSD1306 on I2C0 (GP4 SDA,
GP5 SCL) and four buttons from GP10-GP13 to ground.
"""

#: The pod's id, as the host's config names it (``pod = "..."``). None: the
#: board's unique id in hex, which is also in its /dev/serial/by-id name.
POD_ID = None

I2C_ID = 0
SDA = 4
SCL = 5
I2C_FREQ = 400_000
OLED_ADDRESS = 0x3C
EXTERNAL_VCC = False

#: GPIO numbers of the buttons, in the order up, down, select, main (each to GND; internal pull-ups).
BUTTON_PINS = (10, 11, 12, 13)
#: Hold this button (index into BUTTON_PINS) while plugging in: the pod leaves the USB serial to the REPL.
SAFE_BUTTON = 2

#: The hardware watchdog resets a pod whose loop stops for this long (the RP2040 allows up to 8388 ms).
WATCHDOG_MS = 2000
#: Bytes the host may have in flight (the USB serial's receive buffer is larger).
RX_WINDOW = 512
