"""Which fields an action takes, read from its handler's source.

A game declares its actions as methods that read their fields through
:class:`~tablekeeper.engine.state.Args` (``a.int("delta")``,
``a.player("player", None)``, ``a.str("to", choices=PILES)``...). The
engine keeps no separate schema, so the generic "any action" form of the app
finds the fields by reading those calls in the handler's syntax tree,
following helper methods the handler passes ``a`` to.

It is a best effort for a fallback form: a field read in some other way is
not found (the engine then refuses the action, naming the missing field, and
the form shows that). Games get guided panels of their own on top.
"""
from __future__ import annotations

import ast
import inspect
import sys
import textwrap
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

#: Args readers and the field kind each gives.
READERS = {"int": "int", "str": "str", "bool": "bool", "ints": "ints", "player": "player", "raw": "raw"}
#: A kind that says more wins when one field is read twice.
_PRECEDENCE = ("raw", "str", "ints", "bool", "int", "player")
#: The actions every game has, with screens of their own (not in the generic form).
GENERIC = ("adjust", "transfer", "resolve")

_UNKNOWN = object()


@dataclass(frozen=True)
class Field:
    """One field of an action: its JSON name and how to ask for it.

    ``kind``: int, str, bool, ints (list of whole numbers), player, raw (any
    JSON). ``required``: no reader gives a default. ``default``: the
    default when it is a constant (else None). ``choices``, ``lo``, ``hi``:
    when the reader states them with constants.
    """

    name: str
    kind: str
    required: bool
    default: Any = None
    choices: tuple | None = None
    lo: int | None = None
    hi: int | None = None


def _const(node: ast.AST | None, env: dict) -> Any:
    """The value of a constant expression (names looked up in the module), else _UNKNOWN."""
    if node is None:
        return _UNKNOWN
    allowed = (ast.Constant, ast.Name, ast.Tuple, ast.List, ast.BinOp, ast.UnaryOp, ast.Load,
               ast.Add, ast.Sub, ast.Mult, ast.USub, ast.Attribute, ast.operator, ast.unaryop)
    if not all(isinstance(n, allowed) for n in ast.walk(node)):
        return _UNKNOWN
    try:
        return eval(compile(ast.Expression(node), "<field>", "eval"), {"__builtins__": {}}, env)  # noqa: S307
    except Exception:
        return _UNKNOWN


def _fn_tree(fn) -> ast.FunctionDef | None:
    fn = inspect.unwrap(getattr(fn, "__func__", fn))
    try:
        source = textwrap.dedent(inspect.getsource(fn))
    except (OSError, TypeError):
        return None
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return node
    return None


def _scan(cls, fn, args_name: str, bound: dict, found: list, seen: set, has: set) -> None:
    tree = _fn_tree(fn)
    if tree is None:
        return
    module = sys.modules.get(getattr(inspect.unwrap(fn), "__module__", ""), None)
    env = dict(vars(module)) if module else {}
    env.update(bound)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        # a.int("name", default, lo=..., hi=..., choices=...)
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == args_name:
            if f.attr == "has" and node.args:
                key = _const(node.args[0], env)
                if isinstance(key, str):
                    has.add(key)
                continue
            kind = READERS.get(f.attr)
            if kind is None or not node.args:
                continue
            key = _const(node.args[0], env)
            if not isinstance(key, str):
                continue
            default_node = node.args[1] if len(node.args) > 1 else None
            kw = {k.arg: k.value for k in node.keywords if k.arg}
            if default_node is None and "default" in kw:
                default_node = kw["default"]
            default = _const(default_node, env) if default_node is not None else _UNKNOWN
            choices = _const(kw.get("choices"), env)
            lo, hi = _const(kw.get("lo"), env), _const(kw.get("hi"), env)
            found.append(Field(
                key, kind, default_node is None,
                default if default is not _UNKNOWN else None,
                tuple(choices) if isinstance(choices, (tuple, list)) else None,
                lo if isinstance(lo, int) else None, hi if isinstance(hi, int) else None,
            ))
            continue
        # a helper given the Args: self._helper(t, a, "key") or helper(a, ...)
        passes = [i for i, arg in enumerate(node.args) if isinstance(arg, ast.Name) and arg.id == args_name]
        if not passes:
            continue
        target = None
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in ("self", "cls"):
            target = getattr(cls, f.attr, None)
        elif isinstance(f, ast.Name):
            target = env.get(f.id)
        if target is None or not callable(target) or target in seen:
            continue
        seen.add(target)
        try:
            params = list(inspect.signature(inspect.unwrap(getattr(target, "__func__", target))).parameters)
        except (TypeError, ValueError):
            continue
        tree_t = _fn_tree(target)
        is_method = bool(tree_t and tree_t.args.args and tree_t.args.args[0].arg in ("self", "cls")
                         and isinstance(f, ast.Attribute))
        offset = 1 if is_method else 0
        sub_bound = {}
        sub_args = None
        for i, arg in enumerate(node.args):
            if i + offset >= len(params):
                break
            pname = params[i + offset]
            if i == passes[0]:
                sub_args = pname
            value = _const(arg, env)
            if value is not _UNKNOWN:
                sub_bound[pname] = value
        for k in node.keywords:
            if k.arg:
                value = _const(k.value, env)
                if value is not _UNKNOWN:
                    sub_bound[k.arg] = value
        if sub_args:
            _scan(cls, target, sub_args, sub_bound, found, seen, has)


def _merge(fields: list[Field], has: set) -> list[Field]:
    out: dict[str, Field] = {}
    for fld in fields:
        old = out.get(fld.name)
        if old is None:
            out[fld.name] = fld
            continue
        kind = max(old.kind, fld.kind, key=_PRECEDENCE.index)
        out[fld.name] = replace(
            old, kind=kind, required=old.required and fld.required,
            default=old.default if old.default is not None else fld.default,
            choices=old.choices or fld.choices,
            lo=old.lo if old.lo is not None else fld.lo, hi=old.hi if old.hi is not None else fld.hi,
        )
    return [replace(f, required=False) if f.name in has else f for f in out.values()]


@lru_cache(maxsize=None)
def _fields_of(cls, name: str) -> tuple[Field, ...]:
    info = cls.actions.get(name)
    if info is None:
        return ()
    tree = _fn_tree(info.fn)
    if tree is None or len(tree.args.args) < 3:
        return ()
    args_name = tree.args.args[2].arg  # (self, t, a)
    found: list[Field] = []
    has: set = set()
    _scan(cls, info.fn, args_name, {}, found, {info.fn}, has)
    return tuple(_merge(found, has))


def action_fields(rules, name: str) -> list[Field]:
    """The fields of action ``name`` of a game (class or instance), in reading order."""
    cls = rules if isinstance(rules, type) else type(rules)
    return list(_fields_of(cls, name))


def game_actions(rules) -> list[str]:
    """A game's own actions (not adjust/transfer/resolve), in declaration order."""
    cls = rules if isinstance(rules, type) else type(rules)
    return [n for n in cls.actions if n not in GENERIC]


def first_line(doc: str) -> str:
    """The first sentence of an action's docstring (its one-line help)."""
    text = " ".join((doc or "").split())
    if ". " in text:
        text = text.split(". ", 1)[0] + "."
    return text
