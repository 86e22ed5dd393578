"""Ids and numbers a page sends that are no such number never answer 500: not a number
(``abc``, ``²``: ``isdigit`` takes it, ``int`` does not; ``٣``, which both take, and
``base.numbers`` refuses), negative, or too large for a
64-bit integer column (20 digits, which SQLite cannot even compare once a lookup is
not a plain equality). Every view that reads one from the address, a parameter or a
form answers 404, 400, a refusal on the page, or the page as if none was sent.

Every case runs as the club's owner on the database of the run (SQLite or PostgreSQL).
"""

import re
import uuid

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse
from django.urls.exceptions import Resolver404

from base.errors import RuleError
from clubs.models import Category
from cups.models import Link
from cups.models import Night as CupNight
from scoring.models import RuleSet
from seasons import ranking
from tests import factories
from tournaments.models import Card, Pull, Report, Result, TieBreak
from tournaments.services.physical_draws import add_pull, start_physical_draw
from tournaments.services.reading import load_state
from tournaments.services.sheets import Actor
from tournaments.simulation import simulate

pytestmark = pytest.mark.django_db

BAD = ["abc", "²", "٣", "-1", "99999999999999999999"]
HUGE = "99999999999999999999"
OUT_OF_DATE = "Dieses Formular ist veraltet: bitte die Seite neu laden."


# -- every id in an address ---------------------------------------------------------------


def id_routes(patterns=None, prefix=""):
    """Every route of the site with an ``<id:…>`` part, as written in the URLconf."""
    for p in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(p, URLResolver):
            yield from id_routes(p.url_patterns, prefix + str(p.pattern))
        elif isinstance(p, URLPattern) and "<id:" in prefix + str(p.pattern):
            yield prefix + str(p.pattern)


ROUTES = sorted(set(id_routes()))


def test_every_id_of_an_address_is_read_by_the_id_converter():
    everything = []

    def walk(patterns, prefix=""):
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, prefix + str(p.pattern))
            else:
                everything.append(prefix + str(p.pattern))

    walk(get_resolver().url_patterns)
    ours = [r for r in everything if not r.startswith("admin/")]
    assert [r for r in ours if "<int:" in r] == []
    assert len(ROUTES) == 78


def filled(route: str, value: str, slug: str) -> str:
    """``route`` with every id ``value``, the club's slug and stand-ins for the rest."""
    path = re.sub(r"<id:\w+>", value, route)
    path = path.replace("<slug:slug>", slug).replace("<slug:cup_slug>", "cup")
    path = path.replace("<str:token>", "x")
    return "/" + path.replace("<str:side>", "left").replace("<str:action>", "revoke")


@pytest.mark.parametrize("value", [HUGE, "9223372036854775808", "0000000000000000001"])
@pytest.mark.parametrize("route", ROUTES)
def test_an_id_of_more_than_18_digits_in_an_address_is_404_before_any_view(route, value):
    club = factories.club()
    client = Client()
    client.force_login(factories.user(club, role="owner"))
    path = filled(route, value, club.slug)
    with pytest.raises(Resolver404):
        resolve(path)
    for method in (client.get, client.post):
        assert method(path).status_code == 404


@pytest.mark.parametrize("route", ROUTES)
def test_an_id_of_18_digits_reaches_the_view_and_finds_nothing(route):
    club = factories.club()
    client = Client()
    client.force_login(factories.user(club, role="owner"))
    path = filled(route, "999999999999999999", club.slug)
    resolve(path)
    statuses = {client.get(path).status_code, client.post(path).status_code}
    assert statuses <= {404, 405}, statuses


# -- every id or number in a parameter or a form ------------------------------------------


class World:
    """The club and its owner's client, with what each case needs made on first use."""

    def __init__(self):
        factories.presets()
        self.club = factories.club()
        self.client = Client()
        self.client.force_login(factories.user(self.club, role="owner"))

    def url(self, name, **kwargs):
        if name in ("categories", "club", "open_table", "rule_sets"):
            return reverse(name, kwargs={"slug": self.club.slug})
        return reverse(name, kwargs={"slug": self.club.slug, **kwargs})

    def night(self, check="single"):
        """8 cards, round 1 drawn, three matches still open; an open match."""
        t = simulate(self.club, cards=8, players=6, max_cards=2, seed=1, stop_after=1)
        t.result_check = check
        t.save(update_fields=["result_check"])
        state = load_state(t)
        match = next(
            p
            for p in state.pairings[state.current.pk]
            if p.kind == "match" and p.pk not in state.results
        )
        return t, match

    def messages_now(self, t) -> str:
        return self.client.get(self.url("tournament", tournament_id=t.pk)).content.decode()


def category(w, value):
    Category.objects.create(club=w.club, name="Damen")
    factories.players(w.club, "Anna")
    response = w.client.post(w.url("categories"), {"category": value, "name": "Anna"})
    assert response.status_code == 404
    assert not Category.objects.get(club=w.club).players.exists()


def merge_other(w, value):
    (anna,) = factories.players(w.club, "Anna")
    response = w.client.get(w.url("player_merge", player_id=anna.pk), {"other": value})
    assert response.status_code == 400
    assert response.context["merge_error"] == "Den anderen Spieler nennen."


def club_season(w, value):
    response = w.client.get(w.url("club"), {"season": value})
    assert response.status_code == 200
    assert response.context["season"] is None


def open_table_seats(w, value):
    response = w.client.get(w.url("open_table"), {"p1": value, "p3": value, "rules": value})
    assert response.status_code == 200
    form = response.context["form"]
    assert "player_1" not in form.initial and form.initial["rule_set"].preset == "wiki"


def rule_set_copy(w, value):
    count = RuleSet.objects.count()
    response = w.client.post(w.url("rule_sets"), {"copy": value, "key": str(uuid.uuid4())})
    assert response.status_code == 404
    assert RuleSet.objects.count() == count


def sheet_saved(w, value):
    sheet = factories.sheet(w.club, names=("Anna", "Ben"))
    factories.bummerl(sheet, loser=0)
    response = w.client.get(reverse("sheet:page", kwargs={"pk": sheet.pk}), {"saved": value})
    assert response.status_code == 200
    assert "Anna" in response.content.decode()


def draw_round(w, value):
    t = factories.tournament(w.club, sold=8)
    response = w.client.post(w.url("draw_next", tournament_id=t.pk), {"round": value})
    assert response.status_code == 302  # drawn, without the check of the round offered
    assert response["Location"] == w.url("round", tournament_id=t.pk, number=1)


def undo_pull(w, value):
    t = factories.tournament(w.club, sold=5)
    round_ = start_physical_draw(t, Actor())
    add_pull(t, round_.pk, 1, Actor())
    response = w.client.post(
        w.url("undo_pull", tournament_id=t.pk, round_id=round_.pk), {"confirm": "1", "pull": value}
    )
    assert response.status_code == 200  # no pull named: asks again
    assert "<h1>Ziehung 1 zurücknehmen?</h1>" in response.content.decode()
    assert Pull.objects.live().filter(round=round_).count() == 1


def accept_report(w, value):
    t, match = w.night("confirm")
    response = w.client.post(
        w.url("accept_report", tournament_id=t.pk, pairing_id=match.pk),
        {"report": value, "key": str(uuid.uuid4())},
    )
    assert response.status_code == 302
    assert OUT_OF_DATE in w.messages_now(t)
    assert not Result.objects.filter(pairing=match).exists()


def confirm_report(w, value):
    t, match = w.night("confirm")
    url = reverse("side_link", kwargs={"token": match.left_token})
    response = Client().post(url, {"key": str(uuid.uuid4()), "confirm": "1", "report": value})
    assert response.status_code == 409
    assert OUT_OF_DATE in response.content.decode()
    assert not Report.objects.filter(pairing=match).exists()


def result_seen(w, value):
    t, match = w.night()
    response = w.client.post(
        w.url("result", tournament_id=t.pk, pairing_id=match.pk),
        {"key": str(uuid.uuid4()), "winner": match.left_id, "score": "2:0", "seen": value},
    )
    assert response.status_code == 302
    assert OUT_OF_DATE in w.messages_now(t)
    assert not Result.objects.filter(pairing=match).exists()


def result_winner(w, value):
    t, match = w.night()
    response = w.client.post(
        w.url("result", tournament_id=t.pk, pairing_id=match.pk),
        {"key": str(uuid.uuid4()), "winner": value, "score": "2:0", "seen": "none"},
    )
    assert response.status_code == 302
    assert "Bitte Gewinner und Ergebnis wählen." in w.messages_now(t)
    assert not Result.objects.filter(pairing=match).exists()


def match_link_seen(w, value):
    t, match = w.night()
    response = Client().post(
        reverse("match_link", kwargs={"token": match.token}),
        {"key": str(uuid.uuid4()), "winner": match.left_id, "score": "2:0", "seen": value},
    )
    assert response.status_code == 200
    assert OUT_OF_DATE in response.content.decode()
    assert not Result.objects.filter(pairing=match).exists()


def pay_cards(w, value):
    t = factories.tournament(w.club)
    from tournaments.services.cards import sell_cards

    (card,) = sell_cards(t, "Anna", 1, Actor(), uuid.uuid4(), paid=False)
    response = w.client.post(w.url("pay_player", tournament_id=t.pk), {"card": [value, value]})
    assert response.status_code == 302
    assert Card.objects.get(pk=card.pk).paid is False


def buy_life(w, value):
    t = factories.tournament(
        w.club, cards=3, sold=3, max_cards=1, format="leben", lives=1, rebuy_until=2, prizes=[]
    )
    entry = t.card_set.first()
    response = w.client.post(
        w.url("buy_life", tournament_id=t.pk, card_id=entry.pk), {"seen": value}
    )
    assert response.status_code == 302
    assert Card.objects.get(pk=entry.pk).rebuys == 0


def pull_seen(w, value):
    t = factories.tournament(w.club, sold=5)
    round_ = start_physical_draw(t, Actor())
    response = w.client.post(
        w.url("physical_draw", tournament_id=t.pk), {"number": 1, "seen": value}
    )
    assert response.status_code == 200
    assert response.context["form"].errors["seen"] == [
        "Diese Seite war veraltet: die Ziehung für die angezeigte Karte noch einmal eintragen."
    ]
    assert not Pull.objects.filter(round=round_).exists()


def tables_seen(w, value):
    t = factories.tournament(w.club, sold=8)
    response = w.client.post(w.url("set_tables", tournament_id=t.pk), {"tables": 4, "seen": value})
    assert response.status_code == 400
    assert "seen" in response.context["tables_form"].errors
    t.refresh_from_db()
    assert t.tables == 0


def stechen_numbers(w, value):
    t = factories.tournament(w.club, sold=8)
    for field in ("first", "seen"):
        post = {"key": str(uuid.uuid4()), "first": 9, "seen": 0, "order": "1 2", field: value}
        response = w.client.post(w.url("stechen", tournament_id=t.pk), post)
        assert response.status_code == 400
        assert field in response.context["stechen_form"].errors
    post = {"key": str(uuid.uuid4()), "first": 9, "seen": 0, "order": f"1 {value} 2"}
    response = w.client.post(w.url("stechen", tournament_id=t.pk), post)
    assert response.status_code == 400
    assert response.context["stechen_form"].errors["order"] == [
        "Schreib die Kartennummern, z. B. 12, 5, 31."
    ]
    assert not TieBreak.objects.filter(tournament=t).exists()


def consolation_prizes(w, value):
    t, _match = w.night()
    url = w.url("open_consolation", tournament_id=t.pk)
    response = w.client.post(url, {"rounds": 1, "by": "cards", "prizes": f"{value}: Wein"})
    assert response.status_code == 400
    assert response.context["form"].errors["prizes"] == [
        'Zeile 1: bitte "Platz: Preis" schreiben, z. B. "1: Geschenkkorb".'
    ]


def points_key(w, value):
    for text in (f"{value}: 10", f"1-{value}: 10", f"1: {value}"):
        with pytest.raises(RuleError) as refused:
            ranking.parse_key(text)
        assert refused.value.field == "points_key"


def players_page(w, value):
    factories.players(w.club, "Anna")
    response = w.client.get(w.url("players"), {"page": value})
    assert response.status_code == 200
    assert "Anna" in response.content.decode()


def cup_body(w):
    """A body with the club in it and a cup, its admin signed in on a client of its own."""
    admin = factories.user()
    body = factories.body(admin, clubs=(w.club,))
    return body, factories.cup(body), factories.signed_in(admin)


def cup_after(w, value):
    body, cup, _admin = cup_body(w)
    url = reverse("cups:cup", kwargs={"slug": body.slug, "cup_slug": cup.slug})
    response = Client().get(url, {"after": value})
    assert response.status_code == 200
    assert response.context["tables"][0].code == "all"


def cup_person(w, value):
    body, _cup, admin = cup_body(w)
    player = factories.players(w.club, "Hans Maier")[0]
    response = admin.post(
        reverse("cups:link", kwargs={"slug": body.slug}), {"player": player.pk, "person": value}
    )
    assert response.status_code == 400
    assert not Link.objects.filter(player=player).exists()


def cup_ticks(w, value):
    _body, cup, _admin = cup_body(w)
    t = factories.played_night(w.club, ["Anna", "Ben"])
    url = reverse("cups:tick", kwargs={"slug": w.club.slug, "tournament_id": t.pk})
    response = w.client.post(url, {"cup": [str(cup.pk), value]}, follow=True)
    assert response.status_code == 200
    assert OUT_OF_DATE in response.content.decode()
    assert not CupNight.objects.filter(tournament=t).exists()


PLACES = [
    category,
    merge_other,
    club_season,
    open_table_seats,
    rule_set_copy,
    sheet_saved,
    draw_round,
    undo_pull,
    accept_report,
    confirm_report,
    result_seen,
    result_winner,
    match_link_seen,
    pay_cards,
    buy_life,
    pull_seen,
    tables_seen,
    stechen_numbers,
    consolation_prizes,
    points_key,
    players_page,
    cup_after,
    cup_person,
    cup_ticks,
]


@pytest.mark.parametrize("value", BAD)
@pytest.mark.parametrize("place", PLACES, ids=lambda f: f.__name__)
def test_a_number_that_is_no_such_number_never_answers_500(place, value):
    place(World(), value)
