"""The cup's standings as a django-tables2 table, for the CSV/ODS/XLSX export (the
page and the printout render the same lines themselves, with dropped nights struck):
rank, player, clubs, a column per night (its points; a dropped night's points in
brackets), nights played and the total. Not sortable: every export lists the players
in the one ranking order."""

from collections.abc import Sequence
from typing import Any

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from cups.models import Night
from cups.reading import night_label
from cups.standings import Line

NUM = {"td": {"class": "num"}, "th": {"class": "num"}}


def cell_text(line: Line, index: int) -> str:
    """A night's points as exported: ``"25"``, ``"(3)"`` when dropped, ``""`` when he
    did not play."""
    cell = line.cells[index]
    if cell.points is None:
        return ""
    return f"({cell.points})" if cell.dropped else str(cell.points)


class NightColumn(tables.Column):
    """The points of the night at ``index`` of the lines' cells (``cell_text``)."""

    def __init__(self, index: int, **kwargs: Any) -> None:
        super().__init__(empty_values=(), attrs=NUM, orderable=False, **kwargs)
        self.index = index

    def value(self, record: Line) -> str:
        return cell_text(record, self.index)

    def render(self, record: Line) -> str:
        return cell_text(record, self.index)


class ClubsColumn(tables.Column):
    """The clubs a cup player played for, in German order, joined by commas."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(empty_values=(), orderable=False, **kwargs)

    def value(self, record: Line) -> str:
        return ", ".join(record.entrant.clubs)

    def render(self, record: Line) -> str:
        return ", ".join(record.entrant.clubs)


def standings_table(lines: Sequence[Line], nights: Sequence[Night]) -> tables.Table:
    """A table of ``lines`` with one column per night of ``nights``."""
    columns: dict[str, Any] = {
        "rank": tables.Column(verbose_name=_("Rank"), attrs=NUM, accessor="rank"),
        "name": tables.Column(verbose_name=_("Player"), accessor="entrant__name"),
        "clubs": ClubsColumn(verbose_name=_("Clubs")),
    }
    for index, night in enumerate(nights):
        columns[f"n{index}"] = NightColumn(index, verbose_name=night_label(night))
    columns["played"] = tables.Column(verbose_name=_("Nights"), attrs=NUM, accessor="played")
    columns["total"] = tables.Column(verbose_name=_("Points"), attrs=NUM, accessor="total")
    meta = type("Meta", (), {"orderable": False, "attrs": {"class": "list ranking"}})
    klass = type("CupTable", (tables.Table,), {**columns, "Meta": meta})
    return klass(list(lines))
