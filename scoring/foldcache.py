"""The second of the sheet page's two caches (the first is the rendered page of a state,
``scoring.fragments``): the kept fold, where the last two games of a sheet began, kept
with the sheet (``Sheet.fold``), so that a deal recorded or a page shown folds only the
open game and the one before it, not the whole evening. It is written in one place,
``keep``, by the writers of ``scoring.services`` (a read never writes it; a sheet whose
kept fold does not fit is folded whole until its next write keeps it again).

What is kept: the ``Mark``s of the rule core (``scoring.rules.sheet``) where those two
games began, each with the position of the deal before it, under the number of struck
rows and a digest of the rule cores' source. Deal rows are never edited or deleted
(``scoring.models``): a new deal is added after all others, and every other change (a
correction, a strike-out, an undo) strikes a row. So while no row was struck since,
the deals before a mark are those it was made from, and a fold going on from it is the
fold of all deals; the reader also checks that the live deals it reads after the mark
add up to the sheet's live deals. A strike-out, or other rule code, and the fold is
made afresh from every deal (and kept again). A ``Mark`` holds whatever a variant's
fold keeps; ``dump`` and ``load`` write it as JSON, tuples, enums and the rule core's
dataclasses included, so a mark read back equals the one written.

Shape (JSON text): ``{"struck": 2, "code": "<digest>", "marks": [{"count": 12, "after": 13,
"state": …}, …]}``: ``count`` entries came before the mark, ``after`` is the position
of the last of them (0 for none): the deals from the mark on are those at a greater
position.
"""

import dataclasses
import enum
import hashlib
import importlib
import json
from pathlib import Path

from scoring import rules as core
from scoring.models import Sheet

RULES_DIR = Path(core.__file__).resolve().parent
CODE = hashlib.sha256(b"".join(p.read_bytes() for p in sorted(RULES_DIR.glob("*.py")))).hexdigest()[
    :16
]
"""A digest of the rule cores' source: a fold kept by other rule code is not used."""

_PACKAGE = "scoring.rules."


def _name(cls: type) -> str:
    if not cls.__module__.startswith(_PACKAGE):
        raise TypeError(f"not a rule core type: {cls!r}")
    return f"{cls.__module__}:{cls.__qualname__}"


def _class(name: str) -> type:
    module, _, qualname = name.partition(":")
    if not module.startswith(_PACKAGE):
        raise ValueError(f"not a rule core type: {name}")
    return getattr(importlib.import_module(module), qualname)


def dump(value):
    """``value`` (plain values, tuples, lists, dicts, the rule core's enums and frozen
    dataclasses) as JSON data; TypeError for anything else."""
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, enum.Enum):
        return {"~e": _name(type(value)), "v": value.value}
    if isinstance(value, str):
        return value
    if isinstance(value, tuple):
        return {"~t": [dump(v) for v in value]}
    if isinstance(value, list):
        return [dump(v) for v in value]
    if isinstance(value, dict):
        return {"~d": [[dump(k), dump(v)] for k, v in value.items()]}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: dump(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {"~c": _name(type(value)), "f": fields}
    raise TypeError(f"cannot keep {type(value)!r} in a sheet's fold")


def load(data):
    """The value ``dump`` made ``data`` from."""
    if isinstance(data, list):
        return [load(v) for v in data]
    if not isinstance(data, dict):
        return data
    if "~t" in data:
        return tuple(load(v) for v in data["~t"])
    if "~d" in data:
        return {load(k): load(v) for k, v in data["~d"]}
    if "~e" in data:
        return _class(data["~e"])(data["v"])
    return _class(data["~c"])(**{k: load(v) for k, v in data["f"].items()})


def kept(fold: str, struck: int) -> list[tuple[core.Mark, int]] | None:
    """The marks (with the position before each) of a kept ``fold`` (the JSON text of
    ``made``) made by this rule code while ``struck`` rows were struck; None when not, or
    when it cannot be read (no fold yet, or a text that is no fold).
    ``score_sheet`` going on from a mark copies what it changes
    (``rules.sheet._own_copy``), so the marks may be folded on more than once."""
    read = _read(fold) if fold else None
    if read is None or read[0] != struck or read[1] != CODE:
        return None
    return list(read[2])


def _read(fold: str) -> tuple[int, str, tuple[tuple[core.Mark, int], ...]] | None:
    """``fold``'s struck rows, rule code digest and marks; None when it cannot be read."""
    try:
        data = json.loads(fold)
        marks = tuple((core.Mark(m["count"], load(m["state"])), m["after"]) for m in data["marks"])
        return data["struck"], data["code"], marks
    except (KeyError, TypeError, ValueError, AttributeError, ImportError):
        return None


def made(struck: int, marks: list[tuple[core.Mark, int]]) -> str:
    """The ``Sheet.fold`` text for ``marks`` (each with the position before it), made
    while ``struck`` rows were struck."""
    data = {
        "struck": struck,
        "code": CODE,
        "marks": [
            {"count": mark.count, "after": after, "state": dump(mark.state)}
            for mark, after in marks
        ],
    }
    return json.dumps(data, separators=(",", ":"))


def keep(sheet: Sheet, struck: int, state: core.SheetState, live: list, start=None) -> None:
    """Keep the marks of ``state`` with ``sheet`` (``Sheet.fold``, in the database and
    on ``sheet``), ``struck`` of its rows being struck: the one place the kept fold is
    written, by the writers of ``scoring.services`` only (a read never writes it).
    ``live`` are the live rows from ``state.first_line`` on, in order; ``start`` the mark
    the fold went on from, with the position before it."""
    offset = state.first_line
    marks = []
    for mark in state.marks:
        if mark.count == 0:
            after = 0
        elif mark.count > offset:
            after = live[mark.count - 1 - offset].position
        else:
            after = start[1]  # the mark the fold began with
        marks.append((mark, after))
    sheet.fold = made(struck, marks)
    Sheet.objects.filter(pk=sheet.pk).update(fold=sheet.fold)
