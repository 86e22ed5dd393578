"""What the printed Preisschnapsen documents show: bracket sheet, draw list, match score
sheets, prize list. Each function returns a template context for ``bummerl.printing``."""

from django.urls import reverse
from django.utils.translation import gettext as _

from bummerl.printing import qr_png
from tournaments import services, sheet_grid
from tournaments.models import Pull, Round, Tournament

ONE_PAGE_CARDS = 64
"""Up to this many cards the bracket fits one A4 landscape page, rounds side by side."""


def bracket_context(t: Tournament) -> dict:
    """Every round as a column; before round 1 a blank bracket to fill in by hand."""
    state = services.load_state(t)
    columns = [
        {"title": _("Round %(n)s") % {"n": r.number}, "rows": state.rows(state.pairings[r.pk])}
        for r in state.rounds
        if r.drawn_at
    ]
    pot = t.cards // 2 // (2 ** len(columns)) if columns else t.cards // 2
    number = len(columns) + 1
    while pot >= 1:  # rounds still to come: blank boxes
        blank = [{"label": n, "kind": "match"} for n in range(1, pot + 1)]
        columns.append({"title": _("Round %(n)s") % {"n": number}, "rows": blank})
        pot //= 2
        number += 1
    if state.placement:
        columns.append({"title": _("Placement"), "rows": state.rows(state.placement)})
    return {
        "tournament": t,
        "columns": columns,
        "one_page": t.cards <= ONE_PAGE_CARDS,
        "small": t.cards > 16,
    }


def draw_context(t: Tournament, round_: Round) -> dict:
    state = services.load_state(t)
    pulls = (
        Pull.objects.live().filter(round=round_).select_related("player", "card").order_by("index")
    )
    return {
        "tournament": t,
        "round": round_,
        "rows": state.rows(state.pairings.get(round_.pk, [])),
        "pulls": pulls,
    }


def match_sheets_context(t: Tournament, round_: Round, build_url) -> dict:
    """One A6 sheet per match of the round (and the open placement matches with it)."""
    state = services.load_state(t)
    pairings = list(state.pairings.get(round_.pk, []))
    if round_ == state.current:
        pairings += state.placement
    rows = [r for r in state.rows(pairings) if r["kind"] == "match"]
    for row in rows:
        pairing = row["pairing"]
        row["title"] = (
            _("Round %(n)s, match %(m)s") % {"n": round_.number, "m": pairing.number}
            if not pairing.label
            else _("Placement match %(label)s") % {"label": pairing.label}
        )
        row["qr"] = qr_png(build_url(reverse("match_link", kwargs={"token": pairing.token})))
    headings = tuple(_("Bummerl %(n)s") % {"n": n} for n in range(1, 2 * t.match_bummerl))
    return {"tournament": t, "rows": rows, "grid": sheet_grid.grid(headings)}


def prizes_context(t: Tournament) -> dict:
    state = services.load_state(t)
    awarded = {a.place: state.cards[a.card] for a in state.awards()}
    prizes = [
        {
            "place": int(p["place"]),
            "description": p["description"],
            "card": awarded.get(int(p["place"])),
        }
        for p in sorted(t.prizes, key=lambda p: int(p["place"]))
    ]
    return {"tournament": t, "prizes": prizes}
