"""The layers of the code, as a table a test holds (DESIGN: one writer per aggregate, pure
rule cores, the base at the bottom).

Each package may import only the packages its row names (``ALLOWED``), at the top of a
file or inside a function alike; the pure rule cores (``PURE``) import no app at all,
only ``base.errors`` and each other. No module takes part in an import cycle, and no
module imports one of the project's modules inside a function, except in
``AppConfig.ready`` (where Django wants the signal handlers connected).
"""

import ast
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

ALLOWED = {
    "base": set(),
    "clubs": {"base"},
    "scoring": {"base", "clubs"},
    "tournaments": {"base", "clubs", "scoring"},
    "seasons": {"base", "clubs", "scoring", "tournaments"},
    "cups": {"base", "clubs", "scoring", "tournaments", "seasons", "ratings"},
    "ratings": {"base", "clubs", "scoring", "tournaments", "seasons"},
    "bummerl": {"base", "clubs", "scoring", "tournaments", "seasons", "cups", "ratings"},
}
"""Which package may import which: ``base`` at the bottom, ``bummerl`` (settings, urls,
middleware, commands) at the top."""

PURE = {
    "cups.standings",
    "ratings.chart",
    "ratings.elo",
    "ratings.outcomes",
    "scoring.rules",
    "tournaments.bracket",
    "tournaments.danish",
    "tournaments.draw",
    "tournaments.leben",
    "tournaments.ledger",
    "tournaments.lots",
    "tournaments.ranking",
}
"""The rule cores: plain Python on plain values (RULES.md), importing no app."""

PURE_MAY_USE = {"base.errors"}


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the project's packages by its dotted name (migrations left out)."""
    found = {}
    for package in ALLOWED:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if "migrations" in parts:
                continue
            name = ".".join(parts).removesuffix(".__init__")
            found[name] = path
    return found


def imports(tree: ast.AST, known: set[str]) -> list[tuple[int, str, bool]]:
    """(line, module, nested) of each import of a project module in ``tree``: the
    longest known module the import names (``from scoring.rules import sheet`` is
    ``scoring.rules.sheet`` when that is a module); nested when inside a function or
    class body, with ``ready`` methods left out."""
    top = {id(node) for node in getattr(tree, "body", [])}
    ready = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "ready":
            ready |= {id(inner) for inner in ast.walk(node)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        if id(node) in ready:
            continue
        for name in names:
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name:
                found.append((node.lineno, name, id(node) not in top))
    return found


def graph(root: Path = ROOT) -> tuple[dict[str, set[str]], list[str]]:
    """The import graph of the project's modules (an edge from each module to each it
    imports, a package's ``__init__`` left out as a target of its own modules) and the
    nested imports as "module:line target"."""
    mods = modules(root)
    known = set(mods)
    edges: dict[str, set[str]] = {name: set() for name in mods}
    nested = []
    for name, path in mods.items():
        tree = ast.parse(path.read_text("utf-8"), filename=str(path))
        for line, target, inner in imports(tree, known):
            if target == name or name.startswith(target + "."):
                continue  # a module reading its own package's __init__
            edges[name].add(target)
            if inner:
                nested.append(f"{name}:{line} {target}")
    return edges, nested


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def package(module: str) -> str:
    return module.split(".")[0]


def pure(module: str) -> bool:
    return any(module == core or module.startswith(core + ".") for core in PURE)


EDGES, NESTED = graph()


def test_the_checks_see_each_kind_of_fault(tmp_path):
    """The table, the cores, cycles and nested imports, on a small tree made here."""
    files = {
        "base/__init__.py": "",
        "base/errors.py": "",
        "base/links.py": "from clubs import models\n",  # base reaching up
        "clubs/__init__.py": "",
        "clubs/models.py": "from base import errors\n",
        "clubs/a.py": "from clubs import b\n",
        "clubs/b.py": "def f():\n    from clubs import a\n",  # a cycle, nested
        "clubs/apps.py": "class C:\n    def ready(self):\n        from clubs import a\n",
        "scoring/__init__.py": "",
        "scoring/rules/__init__.py": "from scoring.rules import sheet\n",
        "scoring/rules/sheet.py": "from clubs.models import X\n",  # a core using an app
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    edges, nested = graph(tmp_path)
    assert edges["base.links"] == {"clubs.models"}
    assert edges["scoring.rules"] == {"scoring.rules.sheet"}
    assert edges["scoring.rules.sheet"] == {"clubs.models"}
    assert cycles(edges) == [["clubs.a", "clubs.b"]]
    assert nested == ["clubs.b:2 clubs.a"]  # ready() is left out
    assert not {"clubs"} <= ALLOWED["base"] and pure("scoring.rules.sheet")


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_each_package_imports_only_the_packages_below_it(layer):
    wrong = sorted(
        f"{a} -> {b}"
        for a, targets in EDGES.items()
        if package(a) == layer
        for b in targets
        if package(b) != layer and package(b) not in ALLOWED[layer]
    )
    assert wrong == []


def test_the_rule_cores_import_no_app():
    wrong = sorted(
        f"{a} -> {b}"
        for a, targets in EDGES.items()
        if pure(a)
        for b in targets
        if not pure(b) and b not in PURE_MAY_USE
    )
    assert wrong == []


def test_no_module_takes_part_in_an_import_cycle():
    assert cycles(EDGES) == []


def test_no_module_imports_the_project_inside_a_function():
    assert NESTED == []


def test_the_type_check_holds_the_rule_cores_to_typed_signatures():
    """pyproject.toml's strictest mypy override names the rule cores, all and only them."""
    with open(ROOT / "pyproject.toml", "rb") as file:
        overrides = tomllib.load(file)["tool"]["mypy"]["overrides"]
    strict = [o for o in overrides if o.get("disallow_untyped_defs")]
    assert len(strict) == 1 and strict[0]["disallow_incomplete_defs"]
    assert {m.removesuffix(".*") for m in strict[0]["module"]} == PURE


MAX_LINES = 500
"""A module a newcomer reads in one sitting; the rule cores may be longer (a rule is not
split for a line count)."""


def test_no_module_outside_the_rule_cores_is_over_500_lines():
    long = {
        name: lines
        for name, path in modules().items()
        if not pure(name) and (lines := len(path.read_text("utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}
