"""What the printed Preisschnapsen documents show: bracket sheet, draw list, match score
sheets, prize list. Each function returns a template context for ``bummerl.printing``."""

from dataclasses import dataclass

from django.urls import reverse
from django.utils.translation import gettext as _

from bummerl.printing import qr_png
from tournaments import sheet_grid
from tournaments.categories import category_lists
from tournaments.models import Card, Pull, Round, Tournament
from tournaments.prizes import Place
from tournaments.rows import Row, SheetRow, bracket_columns, rows
from tournaments.services.reading import load_state


@dataclass(frozen=True)
class PrizeLine:
    """A line of the printed prize list: prize ``place``, its ``description`` and the
    ``card`` that won it (None while not known)."""

    place: int
    description: str
    card: Card | None


ONE_PAGE_CARDS = 64
"""Up to this many cards the bracket fits one A4 landscape page, rounds side by side."""


def bracket_context(t: Tournament) -> dict:
    """Every round as a column; before round 1 a blank bracket to fill in by hand."""
    state = load_state(t)
    return {
        "tournament": t,
        "columns": bracket_columns(state, blank_for=t.cards),
        "one_page": t.cards <= ONE_PAGE_CARDS,
        "small": t.cards > 16,
    }


def draw_context(t: Tournament, round_: Round) -> dict:
    state = load_state(t)
    pulls = (
        Pull.objects.live().filter(round=round_).select_related("player", "card").order_by("index")
    )
    return {
        "tournament": t,
        "round": round_,
        "rows": rows(state, state.pairings.get(round_.pk, [])),
        "pulls": pulls,
    }


def match_sheets_context(t: Tournament, round_: Round, build_url) -> dict:
    """One A6 sheet per match of the round (and the open placement matches with it)."""
    state = load_state(t)
    pairings = list(state.pairings.get(round_.pk, []))
    if round_ == state.current:
        pairings += state.placement

    def sheet(row: Row) -> SheetRow:
        pairing = row.pairing
        title = (
            _("Placement match %(label)s") % {"label": row.label.label}
            if isinstance(row.label, Place)
            else _("Round %(n)s, match %(m)s") % {"n": round_.number, "m": pairing.number}
        )
        qr = qr_png(build_url(reverse("match_link", kwargs={"token": pairing.token})))
        return SheetRow(**vars(row), title=title, qr=qr)

    headings = tuple(_("Bummerl %(n)s") % {"n": n} for n in range(1, 2 * t.match_bummerl))
    return {
        "tournament": t,
        "rows": [sheet(row) for row in rows(state, pairings) if row.kind == "match"],
        "grid": sheet_grid.grid(headings),
    }


def prizes_context(t: Tournament) -> dict:
    state = load_state(t)
    awarded = {a.place: state.cards[a.card] for a in state.awards()}
    prizes = [
        PrizeLine(int(p["place"]), p["description"], awarded.get(int(p["place"])))
        for p in sorted(t.prizes, key=lambda p: int(p["place"]))
    ]
    return {"tournament": t, "prizes": prizes, "category_lists": category_lists(state)}
