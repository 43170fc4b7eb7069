"""``tablekeeper serve`` and ``tablekeeper hw check``: the pods' subcommands.

ui/cli.py calls :func:`register` with its subparsers. Importing this module
stays light (argparse only): gpiozero, luma and Pillow load when a command
runs.
"""
from __future__ import annotations

import argparse


def register(subparsers) -> None:
    s = subparsers.add_parser(
        "serve", help="run a game with the seat pods and the journal, no touchscreen (mock pods on a PC)",
        description="Run the current game (or a new one) with the seat pods: buttons in, screens out, every "
                    "action journalled. Without a config file every player gets a mock pod.")
    _config_option(s)
    which = s.add_mutually_exclusive_group()
    which.add_argument("--game", type=int, default=None, metavar="N", help="a stored game's number "
                       "(default: the last unfinished one)")
    which.add_argument("--new", nargs="+", metavar=("GAME", "PLAYER"), default=None,
                       help="start a new game: its id and the players in seat order")
    s.add_argument("--options", default=None, help="with --new: the game's options as a JSON object")
    s.add_argument("--mock", action="store_true", help="mock pods for every seat, whatever the config says")
    s.add_argument("--show", choices=("text", "pixels"), default=None,
                   help="print the pods' screens on this terminal when they change: as text, or as pixels")
    s.add_argument("--keys", action="store_true",
                   help="read mock button presses from standard input, one per line: SEAT BUTTON [hold] "
                        "(buttons: up, down, select, main)")
    s.add_argument("--run-for", type=float, default=None, metavar="SECONDS",
                   help="stop after this many seconds (for tests and benchmarks)")
    s.set_defaults(func=_serve)

    hw = subparsers.add_parser("hw", help="the pods' hardware: `hw check` says what is found and what is wrong")
    hw_sub = hw.add_subparsers(dest="hw_command", required=True, metavar="{check,message}")
    c = hw_sub.add_parser("check", help="check every configured seat's display and buttons")
    _config_option(c)
    c.add_argument("--show", type=float, default=0.0, metavar="SECONDS",
                   help="also draw 'seat N' on every display found, for this long (to see which is which)")
    c.set_defaults(func=_check)
    m = hw_sub.add_parser("message", help="write 1-4 lines on every configured pod and leave them there "
                                          "(the shutdown unit's 'Switched off')")
    _config_option(m)
    m.add_argument("--mock", action="store_true", help="mock pods for every seat, whatever the config says")
    m.add_argument("lines", nargs="+", metavar="LINE")
    m.set_defaults(func=_message)


def _config_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", default=None, metavar="PATH",
                   help="the TOML config (default: $TABLEKEEPER_CONFIG, ~/.config/tablekeeper/tablekeeper.toml, "
                        "/etc/tablekeeper/tablekeeper.toml; none: mock pods)")


def _serve(args) -> int:
    from . import serve

    return serve.main(args)


def _message(args) -> int:
    from . import message

    return message.main(args)


def _check(args) -> int:
    from . import check

    return check.main(args)
