"""The wheel that systemd/install.sh installs holds every module and data file of the tree.

Packages and data are found by pattern (setup.py, pyproject.toml): a sixth game's package, its
catalog, its dialogs reach the appliance without anyone listing them. Built from the working tree
with pip, as the installer does.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tablekeeper.engine import available
from tablekeeper.engine.registry import KNOWN

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("engine", "hardware", "ui", "firmware")
DATA = ("*.po", "*.ttf", "*.kv")


def tree_files() -> set[str]:
    """What the wheel must hold: every module and data file, as ``tablekeeper/<folder>/...``."""
    out = set()
    for folder in FOLDERS:
        for path in (ROOT / folder).rglob("*"):
            if "__pycache__" in path.parts or not path.is_file():
                continue
            if path.suffix == ".py" or any(path.match(p) for p in DATA):
                out.add("tablekeeper/" + path.relative_to(ROOT).as_posix())
    return out


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> set[str]:
    # From a clean copy of the sources, as from a fresh clone: a stale tablekeeper.egg-info of an
    # editable install would otherwise bring files in that the configuration leaves out.
    src = tmp_path_factory.mktemp("source")
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    for folder in FOLDERS:
        shutil.copytree(ROOT / folder, src / folder, ignore=shutil.ignore_patterns("__pycache__"))
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w", str(out), str(src)],
                   check=True, capture_output=True, text=True)
    (built,) = out.glob("tablekeeper-*.whl")
    with zipfile.ZipFile(built) as z:
        return set(z.namelist())


@pytest.mark.slow
def test_the_wheel_holds_every_module_and_data_file_of_the_tree(wheel):
    missing = sorted(tree_files() - wheel)
    assert missing == []


@pytest.mark.slow
@pytest.mark.parametrize("game_id", sorted(available()))
def test_every_registered_game_is_in_the_wheel_with_its_words_and_catalog(wheel, game_id):
    name = KNOWN[game_id][0]
    base = f"tablekeeper/engine/games/{name}"
    if (ROOT / "engine" / "games" / f"{name}.py").exists():  # a small game is one module
        assert f"{base}.py" in wheel
        return
    package = {f for f in wheel if f.startswith(base + "/")}
    assert f"{base}/__init__.py" in package
    assert any(f.endswith("/rules.py") for f in package)
    assert any(f.endswith("/words.py") for f in package)
    assert any(f.startswith(f"{base}/locale/es/") and f.endswith(".po") for f in package)


def test_the_tree_walk_finds_the_games_and_their_catalogs():
    # the walk above is what the wheel is checked against: it must see the games' files
    files = tree_files()
    assert "tablekeeper/engine/games/bloody_inn/rules.py" in files
    assert "tablekeeper/engine/games/bloody_inn/locale/es/bloody-inn.po" in files
    assert "tablekeeper/hardware/fonts/DejaVuSans.ttf" in files
