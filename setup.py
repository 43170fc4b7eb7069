"""Which packages and data files go into the wheel: found by pattern, never listed by hand.

The design card fixes the top-level folders (engine/, hardware/, ui/, firmware/); they are
installed as subpackages of one ``tablekeeper`` namespace (so nothing generic like ``engine``
lands in site-packages), a mapping ``[tool.setuptools]`` in pyproject.toml cannot express
with ``packages.find``. Everything else about the distribution is in pyproject.toml.

A new game's package (``engine/games/<game>/`` with its ``locale/``) is in the wheel without
touching this file: tests/test_wheel.py builds the wheel and finds every registered game in it.
"""
from setuptools import find_packages, setup

FOLDERS = ("engine", "hardware", "ui", "firmware")

packages = []
package_dir = {}
for folder in FOLDERS:
    for name in [""] + find_packages(folder, exclude=["*.tests", "*.tests.*"]):
        dotted = f"tablekeeper.{folder}" + (f".{name}" if name else "")
        packages.append(dotted)
        package_dir[dotted] = folder + ("/" + name.replace(".", "/") if name else "")

setup(packages=packages, package_dir=package_dir)
