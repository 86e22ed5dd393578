"""What happened to a sheet since a page showed it: the state ``after`` that every write
form carries, and the refusal of a write from an older state (DESIGN.md principle 5).

``version_of`` names a state; ``changes_since`` lists what happened after it;
``SheetChanged`` is the refusal that carries that list.
"""

import re
from dataclasses import dataclass

from base.errors import RuleError, gettext_noop
from scoring.models import DealRow


def version_of(deals) -> str:
    """``"<newest row id>-<struck rows>"``: a new or corrected deal adds a row, a
    strike-out or correction marks one struck, and neither is ever undone, so every write
    changes this value and it never comes back. Derived from the rows: nothing stored."""
    newest = max((d.pk for d in deals), default=0)
    return f"{newest}-{sum(1 for d in deals if d.voided_at is not None)}"


def topic(sheet_id: int) -> str:
    """The push channel's topic of a sheet (``base.push``): announced after every write
    that changes ``version_of``."""
    return f"sheet:{sheet_id}"


@dataclass(frozen=True)
class Change:
    """One thing that happened to a sheet since a page was rendered: ``what`` is
    ``"recorded"``, ``"corrected"`` or ``"struck"``; ``number`` the deal's number on
    the sheet now (None for a struck deal)."""

    what: str
    deal: DealRow
    number: int | None


class SheetChanged(RuleError):
    """The sheet changed since the page was rendered (its ``after`` is older): nothing
    was written. ``changes`` lists what happened since (empty when ``after`` could not
    be read); ``version`` is the state the refusal saw, for a "record anyway" form."""

    def __init__(self, changes: list[Change], version: str):
        super().__init__(
            "after",
            gettext_noop("Nothing was saved: the sheet changed since this page was loaded."),
        )
        self.changes = tuple(changes)
        self.version = version


def changes_since(deals: list[DealRow], after: str) -> list[Change] | None:
    """What happened to the sheet since the state ``after`` (``version_of``): None when
    its live deals are still those that state showed (a deal recorded and struck out
    again in between changes nothing), else the changes; [] when ``after`` is unreadable.

    Rows with an id above the newest of ``after`` are new; of the older rows, those
    struck beyond the count of ``after`` were struck since (the latest strikes, as a
    strike is never undone). An ``after`` that names no state of these rows (its newest
    row is not among them, more rows struck than there are: a page of the sheet as it
    was before a restore, or a forged one) is unreadable too."""
    match = re.fullmatch(r"(\d{1,18})-(\d{1,9})", after)
    if match is None:
        return []
    newest, struck = int(match[1]), int(match[2])
    if newest and not any(d.pk == newest for d in deals):
        return []
    old_struck = sorted(
        (d for d in deals if d.pk <= newest and d.voided_at is not None),
        key=lambda d: (d.voided_at, d.pk),
    )
    if struck > len(old_struck):
        return []
    struck_since = old_struck[struck:]
    added = [d for d in deals if d.pk > newest and d.voided_at is None]
    if not struck_since and not added:
        return None
    live = [d for d in deals if d.voided_at is None]
    replaced = {d.position for d in struck_since}
    changes = [
        Change("corrected" if d.position in replaced else "recorded", d, live.index(d) + 1)
        for d in added
    ]
    kept = {d.position for d in added}
    changes += [Change("struck", d, None) for d in struck_since if d.position not in kept]
    return changes
