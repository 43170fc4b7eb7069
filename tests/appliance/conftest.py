"""The appliance test boots a virtual machine: only ``make appliance-test`` runs it.

``make test`` and ``make check`` leave this folder out (``--ignore=tests/appliance``); every
test here is marked ``appliance`` as well, so a plain ``pytest tests`` run elsewhere can leave
it out with ``-m "not appliance"``.
"""
from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/appliance/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.appliance)
