"""The ``serial`` pod backend (issue #9): a microcontroller pod on USB serial.

config.py and pods.py find extra backends as ``hardware/pod_<name>.py`` with
``check_seat`` (config), ``build`` (the rig), and optionally ``hw_check``
(``tablekeeper hw check``) and ``check_duplicates`` (config cross-checks).
"""
from .serial_pod import build, check_duplicates, check_seat, hw_check  # noqa: F401
