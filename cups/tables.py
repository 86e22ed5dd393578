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


def standings_table(lines: Sequence[Line], nights: Sequence[Night]) -> tables.Table:
    """A table of ``lines`` with one column per night of ``nights``."""
    columns: dict[str, Any] = {
        "rank": tables.Column(verbose_name=_("Rank"), attrs=NUM, accessor="rank"),
        "name": tables.Column(verbose_name=_("Player"), accessor="entrant__name"),
        "clubs": tables.Column(verbose_name=_("Clubs"), empty_values=()),
    }
    for index, night in enumerate(nights):
        columns[f"n{index}"] = tables.Column(
            verbose_name=night_label(night), empty_values=(), attrs=NUM
        )
    columns["played"] = tables.Column(verbose_name=_("Nights"), attrs=NUM, accessor="played")
    columns["total"] = tables.Column(verbose_name=_("Points"), attrs=NUM, accessor="total")

    def value_clubs(self: tables.Table, record: Line) -> str:
        return ", ".join(record.entrant.clubs)

    methods: dict[str, Any] = {"value_clubs": value_clubs, "render_clubs": value_clubs}
    for index in range(len(nights)):

        def value(self: tables.Table, record: Line, index: int = index) -> str:
            return cell_text(record, index)

        methods[f"value_n{index}"] = value
        methods[f"render_n{index}"] = value
    meta = type("Meta", (), {"orderable": False, "attrs": {"class": "list ranking"}})
    klass = type("CupTable", (tables.Table,), {**columns, **methods, "Meta": meta})
    return klass(list(lines))
