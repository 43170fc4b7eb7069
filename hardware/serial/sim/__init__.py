"""Simulated serial pods and their test doubles, one concern to a module (the gpiozero habit: they ship in the package).

For tests, benches and mock mode on a PC:

* :mod:`.display` — :class:`VirtualDisplay`, the pod's SSD1306 as a 1 KiB RAM.
* :mod:`.faults` — :class:`Faults`, fault injection on a byte stream, by configuration.
* :mod:`.wire` — :class:`Wire`: a host ``LinkCore`` and a pod ``PodCore``
  joined by a faulty wire on a fake clock; :class:`CoreDisplay`, a seat's
  display driver straight onto a ``LinkCore``.
* :mod:`.machine` — :class:`PodMachine`, the firmware's ``PodCore`` with its
  virtual display and buttons on a millisecond clock; :class:`SimPin`.
* :mod:`.pty_pod` — :class:`SimPod`, that pod on a real pseudo-terminal.
* :mod:`.fake_serial` — :class:`FakeSerial`, that pod as an in-memory object
  with pyserial's interface.
* :mod:`.micropod` — :class:`MicroPod`, the firmware under the real
  MicroPython unix port.
"""
