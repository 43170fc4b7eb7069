"""``tablekeeper hw check`` and ``hw message``: the pods' hardware subcommands.

ui/cli.py calls :func:`register` with its subparsers. Importing this module
stays light (argparse only): gpiozero, luma and Pillow load when a command
runs.
"""
from __future__ import annotations

import argparse


def register(subparsers) -> None:
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


def _message(args) -> int:
    from . import message

    return message.main(args)


def _check(args) -> int:
    from . import check

    return check.main(args)
