"""Markup as the tests compare it: without the layout of the templates' formatter."""

import re

_SPACE = re.compile(r"\s+")
_AT_TAG = re.compile(r"\s*([<>])\s*")


def squeezed(html: str) -> str:
    """``html`` without the line breaks and indentation djlint lays the templates out
    with: a run of white space is one space, and none is left next to a tag's ``<`` or
    ``>``. Squeeze both sides of a comparison: ``squeezed(part) in squeezed(page)``."""
    return _AT_TAG.sub(r"\1", _SPACE.sub(" ", html))
