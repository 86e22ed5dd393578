"""Clubs is the base app: no module under clubs/ imports scoring or tournaments, at the
top of the file or inside a function (the apps built on clubs register with it instead)."""

import ast
from pathlib import Path

import pytest

CLUBS = Path(__file__).resolve().parent.parent / "clubs"
ABOVE = ("scoring", "tournaments")


def imported(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, module) of every import in ``tree``, nested ones included; relative imports
    are named as written (``.x``), since they stay inside clubs."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append((node.lineno, "." * node.level + (node.module or "")))
    return found


def above(module: str) -> bool:
    return module.split(".")[0] in ABOVE


def test_the_check_sees_imports_at_the_top_and_inside_functions():
    source = "import os\nfrom scoring import services\ndef f():\n    import tournaments.draw\n"
    assert [m for _line, m in imported(ast.parse(source)) if above(m)] == [
        "scoring",
        "tournaments.draw",
    ]


@pytest.mark.parametrize(
    "path", sorted(CLUBS.rglob("*.py")), ids=lambda p: str(p.relative_to(CLUBS))
)
def test_no_module_of_clubs_imports_scoring_or_tournaments(path):
    tree = ast.parse(path.read_text("utf-8"), filename=str(path))
    assert [f"{path.name}:{line} {m}" for line, m in imported(tree) if above(m)] == []
