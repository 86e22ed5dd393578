"""Whole numbers a page sends, read one way everywhere: ASCII digits only.

``str.isdigit`` takes ``²`` and ``٣`` and ``int`` takes ``٣`` (but not ``²``), so a
check with one and a read with the other lets a superscript through to a server error;
and a number of 20 digits is more than a 64-bit column holds (SQLite cannot even compare
it). ``whole_number`` takes ``0``–``9`` only, up to ``MAX_ID``; ``clubs.forms.IdField``
reads a form's ids the same way.
"""

import re

MAX_ID = 2**63 - 1
"""The largest value of a 64-bit integer column (SQLite's INTEGER, PostgreSQL's
bigint): no id or number a page sends is taken past it. An id in an address has at most
18 digits (``base.converters``)."""

DIGITS = re.compile(r"[0-9]+")


def whole_number(text: str | None, *, most: int = MAX_ID) -> int | None:
    """``text`` (spaces around it aside) as a whole number from 0 to ``most`` when it is
    ASCII digits only; None for anything else (empty, ``-1``, ``1.5``, ``²``, ``٣``,
    ``99999999999999999999``)."""
    text = (text or "").strip()
    if not DIGITS.fullmatch(text) or len(text) > len(str(most)):
        return None
    number = int(text)
    return number if number <= most else None
