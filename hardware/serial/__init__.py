"""The ``serial`` pod backend: a microcontroller pod (``firmware/``) on USB serial.

Importing this package imports nothing; each room is its own module:

* ``frame`` — frames: sync byte, length, sequence, payload, CRC-16-CCITT; the pure parser
* ``protocol`` — the messages in a frame's payload
* ``link`` — :class:`~.link.LinkCore`, the host end of one pod's link, without I/O
* ``port`` — finding a pod by its id, the I/O thread, reconnecting (:class:`~.port.SerialPodLink`)
* ``backend`` — a serial seat: its ``[[seat]]`` keys, its pod, its ``hw check``
* ``sim`` — simulated pods and test doubles

``frame`` and ``protocol`` are shared with the pod: the firmware runs these
very files under MicroPython (``firmware/deploy.py`` copies them onto the
pod, the firmware tests put this folder on ``MICROPYPATH``), so they keep to
the Python both run.
"""
