"""The pods' interface, free of devices: what a seat's four buttons mean at this moment.

* ``grammar`` — the offers: what each declared action asks on a pod, its steps and defaults;
* ``inputs`` — one seat's controls: a button event → an :class:`~.inputs.Intent` (an engine
  action to apply, or a change of the pod's own screen); it never applies anything;
* ``views`` — a game's ``seat_view``/``seat_actions`` → the :class:`~tablekeeper.hardware.pod.PodView`
  a pod shows;
* ``seats`` — every seat of one game, on the owner's thread: the seats answer, the owner applies;
* ``stuck`` — a button held far longer than any gesture: its holds and repeats held back.

It imports the engine and the devices' vocabulary (``hardware.pod``: buttons, press kinds, the
view a display shows; ``hardware.icons``) and no device: the owner
(:mod:`tablekeeper.ui.controller`) gives it events and takes intents; the devices
(``hardware/``) draw the views it makes.
"""
