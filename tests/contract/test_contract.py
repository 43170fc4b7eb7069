"""The shared replay contract's worked cases, through the real CLI."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from ..conftest import replay_cli

HERE = Path(__file__).resolve().parent / "cases"
SHARED = Path(__file__).resolve().parents[3] / "shared" / "contract" / "cases"


def _cases() -> dict[str, Path]:
    found = {p.stem: p for p in sorted(HERE.glob("*.json"))}
    if SHARED.is_dir():  # newer cases beside the checkout win
        found.update({p.stem: p for p in sorted(SHARED.glob("*.json"))})
    return found


def subset(expect, got, path="") -> list[str]:
    """What ../shared/contract/check compares: objects by key, player lists by name, lists as sets."""
    if isinstance(expect, dict):
        if not isinstance(got, dict):
            return [f"{path}: expected an object, got {got!r}"]
        errs = []
        for k, v in expect.items():
            errs += [f"{path}.{k}: missing"] if k not in got else subset(v, got[k], f"{path}.{k}")
        return errs
    if isinstance(expect, list) and expect and isinstance(expect[0], dict) and "name" in expect[0]:
        by_name = {p.get("name"): p for p in got} if isinstance(got, list) else {}
        errs = []
        for e in expect:
            errs += ([f"{path}[{e['name']}]: missing"] if e["name"] not in by_name
                     else subset(e, by_name[e["name"]], f"{path}[{e['name']}]"))
        return errs
    if isinstance(expect, list) and isinstance(got, list):
        return [] if sorted(map(str, expect)) == sorted(map(str, got)) else [f"{path}: {expect} != {got}"]
    return [] if expect == got else [f"{path}: expected {expect!r}, got {got!r}"]


CASES = _cases()


@pytest.mark.parametrize("name", sorted(CASES))
def test_contract_case(name):
    spec = json.loads(CASES[name].read_text())
    r = replay_cli(spec["script"])
    expect = spec["expect"]
    if "exit" in expect:
        assert r.returncode == expect["exit"], r.stdout
        assert r.stdout == "" and r.stderr.startswith("line ")
        return
    assert r.returncode == 0, r.stderr
    assert subset(expect, json.loads(r.stdout)) == []


def test_subset_is_strict():
    """The comparison itself fails where it must (so the cases above can fail)."""
    got = {"players": [{"name": "Ana", "counters": {"gold": 8}}], "over": False}
    assert subset({"players": [{"name": "Ana", "counters": {"gold": 9}}]}, got)
    assert subset({"players": [{"name": "Bob"}]}, got)
    assert subset({"over": True}, got)
    assert subset({"table": {}}, got)
    assert not subset({"players": [{"name": "Ana", "counters": {"gold": 8}}]}, got)
