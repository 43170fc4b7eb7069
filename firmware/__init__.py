"""The pod firmware (MicroPython). On the host it is ``tablekeeper.firmware``, for the simulated pod and tests.

Nothing here is copied to a pod: ``firmware/deploy.py`` copies the modules
themselves (see docs/serial-pods.md).
"""
