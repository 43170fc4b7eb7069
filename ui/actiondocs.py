"""The action-field tables of docs/games/*.md, written from the actions' declarations.

``python -m tablekeeper.ui.actiondocs`` rewrites the block between the
``<!-- declared fields -->`` markers of each game's page; a test fails when a
page differs from what this module writes, so the docs never drift from the
engine.
"""
from __future__ import annotations

import sys
from pathlib import Path

from ..engine import available

BEGIN = "<!-- declared fields: written by `python -m tablekeeper.ui.actiondocs`; do not edit by hand -->"
END = "<!-- end of declared fields -->"
DOCS = Path(__file__).resolve().parent.parent / "docs" / "games"


def _range(f) -> str:
    if f.choices:
        return ", ".join(f"`{c}`" for c in f.choices)
    if f.lo is not None and f.hi is not None:
        return f"{f.lo}–{f.hi}"
    if f.lo is not None:
        return f"≥ {f.lo}"
    if f.hi is not None:
        return f"≤ {f.hi}"
    return ""


def table(cls) -> str:
    """The Markdown table of every action's fields, in declaration order."""
    rows = ["| action | field | kind | required | default | values | meaning |",
            "| --- | --- | --- | --- | --- | --- | --- |"]
    for name, info in cls.actions.items():
        if not info.fields:
            rows.append(f"| `{name}` | — | | | | | |")
        for f in info.fields:
            default = "" if f.default is None else f"`{f.default!r}`".replace("'", '"')
            rows.append(f"| `{name}` | `{f.name}` | {f.kind} | {'yes' if f.required else 'no'} | {default} | "
                        f"{_range(f)} | {f.doc} |")
    return "\n".join(rows)


def block(cls) -> str:
    return f"{BEGIN}\n\n{table(cls)}\n\n{END}"


def page_with_block(text: str, cls) -> str:
    """``text`` with its declared-fields block written anew (appended under "## Fields" if missing)."""
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        _old, tail = rest.split(END, 1)
        return head + block(cls) + tail
    return text.rstrip("\n") + "\n\n## Every action's fields\n\nWhat each action takes, as the engine " \
        "declares it (the tables above tell what the actions do).\n\n" + block(cls) + "\n"


def main() -> int:
    for game_id, cls in available().items():
        page = DOCS / f"{game_id}.md"
        if page.exists():
            page.write_text(page_with_block(page.read_text(encoding="utf-8"), cls), encoding="utf-8")
            print(f"wrote the fields of {game_id} into {page}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
