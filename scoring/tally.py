"""Bummerl tallies across sheets: evenings, seasons, a player's history (reads only).

Each sheet is scored by the rule core from its live deals, so a tally is always what
the sheets say now, corrections included. Three queries, whatever the number of sheets.
"""

from dataclasses import dataclass, field
from datetime import date, datetime
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db.models import Count, Prefetch
from django.utils.functional import Promise
from django.utils.timezone import localtime

from base.text import german_key
from scoring import rules as core
from scoring.models import Deal, Seat, Sheet, Variant


def club_day(moment: datetime) -> date:
    """The calendar day of ``moment`` (aware) in the club's time zone (``TIME_ZONE``,
    Europe/Vienna): the day of an *Abend*, as the season rankings count them."""
    return localtime(moment, ZoneInfo(settings.TIME_ZONE)).date()


@dataclass
class PlayerTally:
    """One player's figures over some sheets: ``bummerl`` received (weighted),
    ``schneider`` (games lost as Schneider or Retourschneider), ``games`` finished,
    ``sheets`` played (*Tische*) and ``days`` (*Abende*: the calendar days with a sheet
    of his, ``club_day``, kept in ``day_set``); ``evenings`` one dict per sheet
    (``sheet``, ``name``, ``date``, the seat's figures) in the sheets' order."""

    player_id: int
    name: str
    bummerl: int = 0
    schneider: int = 0
    games: int = 0
    sheets: int = 0
    days: int = 0
    evenings: list[dict] = field(default_factory=list)
    day_set: set[date] = field(default_factory=set, repr=False)

    def add(self, sheet_row: dict) -> None:
        """Count one sheet of his (a dict of ``evenings``)."""
        self.bummerl += sheet_row["bummerl"]
        self.schneider += sheet_row["schneider"]
        self.games += sheet_row["games"]
        self.sheets += 1
        self.evenings.append(sheet_row)
        self.day_set.add(club_day(sheet_row["date"]))
        self.days = len(self.day_set)


def scored_sheets(sheets):
    """(sheet, players, state) for each sheet of the queryset, in its order."""
    sheets = sheets.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position")),
        Prefetch("deals", queryset=Deal.objects.live().order_by("position"), to_attr="live"),
    )
    for sheet in sheets:
        players = [seat.player for seat in sheet.seats.all()]
        state = core.score_sheet(
            sheet.core_variant, sheet.core_rules, sheet.first_dealer, [d.entry for d in sheet.live]
        )
        yield sheet, players, state


def season_range(year: int | None):
    if year is None:
        return {}
    return {"created_at__date__gte": date(year, 1, 1), "created_at__date__lte": date(year, 12, 31)}


def tally(sheets) -> list[PlayerTally]:
    """Per player over the sheets, most Bummerl first, ties by name (stable)."""
    rows: dict[int, PlayerTally] = {}
    for sheet, players, state in scored_sheets(sheets):
        per_sheet = state.seat_figures()
        for seat, player in enumerate(players):
            row = rows.setdefault(player.pk, PlayerTally(player.pk, player.name))
            row.add(
                {
                    "sheet": sheet,
                    "name": sheet.name_with(players),
                    "date": sheet.created_at,
                    **per_sheet[seat],
                }
            )
    return sorted(rows.values(), key=lambda r: (-r.bummerl, german_key(r.name), r.player_id))


def club_sheets(club, year: int | None = None):
    """The club's sheets of ``year`` (None: all), oldest first: its evenings' tables. A
    tournament's match sheet (``reports_result``) counts in its tournament, as in the
    season rankings (``seasons.standings``), so the tally's Abende and Tische are theirs."""
    return Sheet.objects.filter(club=club, reports_result=False, **season_range(year)).order_by(
        "created_at", "id"
    )


def variants_played(sheets) -> list[tuple[str, str | Promise, int]]:
    """``(variant, label, number of sheets)`` of the games the sheets were played in,
    in the order of ``Variant`` (one query): a Bummerl of Schnapsen and one of
    Dreierschnapsen are never summed."""
    counts = dict(
        sheets.order_by().values("variant").annotate(n=Count("id")).values_list("variant", "n")
    )
    return [(value, label, counts[value]) for value, label in Variant.choices if value in counts]


def player_figures(club, player) -> dict:
    """The player's figures over all the club's sheets, for the player's page
    (``clubs.views.PLAYER_FIGURES``): ``{"tally": PlayerTally | None}`` with every
    evening (all games), and ``"tallies"``, one ``{"variant", "label", "tally"}`` per
    game played, the sums kept apart by game."""
    sheets = club_sheets(club).filter(seats__player=player)
    rows = tally(sheets)
    mine = next((r for r in rows if r.player_id == player.pk), None)
    tallies = []
    if mine is not None:
        for variant, label, _count in variants_played(sheets):
            part = PlayerTally(player.pk, player.name)
            for sheet_row in mine.evenings:
                if sheet_row["sheet"].variant == variant:
                    part.add(sheet_row)
            tallies.append({"variant": variant, "label": label, "tally": part})
    return {"tally": mine, "tallies": tallies}
