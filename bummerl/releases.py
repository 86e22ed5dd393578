"""Every release of Bummerl and what its database holds (``make upgrade``, README
"Upgrading"). Standard library only: ``bummerl.upgrade`` reads it with any Python, before
the new release's packages are installed.

A release is known by its git tag, the commit it names, and by the last migration of each of the site's apps it
shipped; a database whose applied migrations end there was written by that release. The
code at hand is read from disk (``*/migrations/0*.py``), never listed here. A new release
adds its line when it is tagged."""

from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Release:
    version: str
    tag: str
    commit: str
    """The commit the tag names, in full: ``make upgrade`` takes the release's code from
    it, so a checkout without tags (or with a tag moved) still upgrades."""
    migrations: dict[str, str]
    """The last migration of each app the release shipped; apps it lacks have none."""


RELEASES = (
    Release(
        "0.1.0",
        "v0.1.0",
        "cca71ddc34d6bf1b6f4d3a1fd46cc1a9dbae6c13",
        {
            "clubs": "0006_ranks_categories",
            "scoring": "0009_fastsheet_fold",
            "seasons": "0001_seasons_seasons",
            "tournaments": "0010_placement_seed",
        },
    ),
    Release(
        "0.2.0",
        "v0.2.0",
        "e08c9e03172c0ba782fd57d04d4212e0a81258b9",
        {
            "clubs": "0007_archived_tables",
            "scoring": "0010_sheet_fold_as_text",
            "seasons": "0001_seasons_seasons",
            "tournaments": "0013_registrations",
        },
    ),
    Release(
        "0.3.0",
        "v0.3.0",
        "868528ffd76244bcc79fcff2321a5128b1322903",
        {
            "clubs": "0008_public_face",
            "scoring": "0010_sheet_fold_as_text",
            "seasons": "0001_seasons_seasons",
            "tournaments": "0014_public_face",
        },
    ),
    Release(
        "0.4.0",
        "v0.4.0",
        "08545f1d4372b07e977240e4022b03b54bcdad5e",
        {
            "base": "0002_limit_counts",
            "clubs": "0009_audit_of_no_club",
            "cups": "0002_final_accepted_admin_invitation",
            "ratings": "0001_initial",
            "scoring": "0011_deal_voided_as",
            "seasons": "0001_seasons_seasons",
            "tournaments": "0016_result_reported_side",
        },
    ),
)


PACKAGE_APPS = frozenset({"admin", "auth", "contenttypes", "sessions", "axes", "django_q"})
"""The apps from packages whose migrations a release's database holds beside the site's
own. Migrations of any other app in a database come from a newer release."""


@dataclass(frozen=True)
class Step:
    """A command of ``manage.py`` an upgrade runs after migrating, when it applied the
    migration ``after`` (so only from releases before the one that brought it)."""

    command: tuple[str, ...]
    after: tuple[str, str]
    why: str = field(default="")


STEPS = (
    Step(
        ("rerate",),
        ("ratings", "0001_initial"),
        "the ratings are new: every game played so far is rated",
    ),
)


def code_migrations(root: Path = ROOT) -> dict[str, list[str]]:
    """The site's own migrations in the code at ``root``, per app, in order."""
    found: dict[str, list[str]] = {}
    for path in sorted(root.glob("*/migrations/0*.py")):
        found.setdefault(path.parts[-3], []).append(path.stem)
    return found


def last_migrations(applied: dict[str, list[str]] | dict[str, set[str]]) -> dict[str, str]:
    """The last migration of each app that has any."""
    return {app: max(names) for app, names in applied.items() if names}


def code_version(root: Path = ROOT) -> str:
    """``bummerl.__version__`` of the code at ``root``, read without importing it."""
    for line in (root / "bummerl" / "__init__.py").read_text().splitlines():
        if line.startswith("__version__"):
            return line.split("=", 1)[1].strip().strip("\"'")
    return "unknown"
