"""The cup rating list (issue 30): Elo from 1500 over the games of the body's clubs in
the cup's days, one line per cup player (a person linked across clubs is one), the
minimum of games, and the public page beside the cup page."""

import datetime as dt

import pytest
from django.urls import reverse

from clubs import audit
from cups import persons, services
from cups.ratings import cup_rating_list
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    """Clubs Nord and Süd in a body, Anna playing in both (linked to one person), a
    Partie in each: Anna beats Ben in Nord, then Carl in Süd."""
    nord, sued = factories.club(name="Nord"), factories.club(name="Süd")
    body = factories.body(clubs=(nord, sued))
    anna_n, ben = factories.players(nord, "Anna", "Ben")
    anna_s, carl = factories.players(sued, "Anna", "Carl")
    person = persons.link_player(body, anna_n, None, actor=audit.SYSTEM).person
    persons.link_player(body, anna_s, person, actor=audit.SYSTEM)
    factories.partie(nord, (anna_n, ben), winner=0)
    factories.partie(sued, (carl, anna_s), winner=1)
    return {"body": body, "nord": nord, "sued": sued, "anna": person, "ben": ben, "carl": carl}


def lines(cup, variant="schnapsen", minimum=1):
    """The list's rows as tuples, the clubs by their first word (Nord, Süd)."""
    ranked, below, _ = cup_rating_list(cup, variant, minimum)

    def row(r):
        return (r.place, r.name, tuple(c.split()[0] for c in r.clubs), r.rating, r.games)

    return [row(r) for r in ranked], [row(r) for r in below]


def test_one_person_in_two_clubs_is_one_cup_player_with_the_exact_ratings(world):
    cup = factories.cup(world["body"])
    # Anna beats Ben (1500 : 1500): 1510 / 1490. Then Anna (1510) beats Carl (1500):
    # expected 1 / (1 + 10^(-10/400)) = 0.51439, so +20 * 0.48561 = 9.71: 1519.71 / 1490.29.
    ranked, below = lines(cup)
    assert ranked == [
        (1, "Anna", ("Nord", "Süd"), 1520, 2),
        (2, "Ben", ("Nord",), 1490, 1),
        (2, "Carl", ("Süd",), 1490, 1),  # the same whole rating: a shared place, by name
    ]
    assert below == []


def test_the_cup_list_starts_fresh_and_each_club_keeps_its_own_list(world):
    cup = factories.cup(world["body"])
    ranked, _ = lines(cup)
    anna = next(r for r in ranked if r[1] == "Anna")
    assert anna[3] == 1520 and anna[4] == 2  # not a club rating: both clubs' games


def test_unlinked_players_of_one_name_stay_two(world):
    link = world["anna"].links.first()
    persons.unlink(link, actor=audit.SYSTEM)
    ranked, _ = lines(factories.cup(world["body"]))
    annas = [r for r in ranked if r[1] == "Anna"]
    assert len(annas) == 2 and {a[4] for a in annas} == {1}


def test_the_minimum_lists_the_others_apart_without_place(world):
    ranked, below = lines(factories.cup(world["body"]), minimum=2)
    assert ranked == [(1, "Anna", ("Nord", "Süd"), 1520, 2)]
    assert below == [(None, "Ben", ("Nord",), 1490, 1), (None, "Carl", ("Süd",), 1490, 1)]


def test_a_club_outside_the_body_does_not_count(world):
    fremd = factories.club(name="Fremd")
    dora, emil = factories.players(fremd, "Dora", "Emil")
    factories.partie(fremd, (dora, emil), winner=0)
    ranked, below = lines(factories.cup(world["body"]))
    assert {r[1] for r in ranked + below} == {"Anna", "Ben", "Carl"}


def test_games_outside_the_cups_days_do_not_count(world):
    today = dt.date.today()
    past = factories.cup(
        world["body"],
        name="Vorjahr",
        first_day=today - dt.timedelta(days=400),
        last_day=today - dt.timedelta(days=1),
    )
    future = factories.cup(
        world["body"],
        name="Nächstes",
        first_day=today + dt.timedelta(days=1),
        last_day=today + dt.timedelta(days=30),
    )
    assert lines(past) == ([], []) and lines(future) == ([], [])
    assert lines(factories.cup(world["body"], name="Heuer"))[0] != []


def test_a_club_that_left_counts_its_games_until_it_left(world):
    cup = factories.cup(world["body"])
    services.remove_club(world["body"], world["sued"], actor=audit.SYSTEM)
    anna_s, carl = (p for p in world["sued"].players.order_by("name"))
    factories.partie(world["sued"], (carl, anna_s), winner=0)  # after it left
    ranked, _ = lines(cup)
    assert ranked[0][:2] == (1, "Anna") and ranked[0][4] == 2


def test_other_games_are_rated_apart(world):
    cup = factories.cup(world["body"])
    assert lines(cup, "dreierschnapsen") == ([], [])
    _, _, with_games = cup_rating_list(cup, "schnapsen", 1)
    assert with_games == ["schnapsen"]


def test_the_page_is_linked_from_the_cup_page_and_public(client, world, settings):
    settings.RATING_MIN_GAMES = 2
    cup = factories.cup(world["body"])
    kwargs = {"slug": world["body"].slug, "cup_slug": cup.slug}
    url = reverse("cups:cup_ratings", kwargs=kwargs)
    assert url in client.get(reverse("cups:cup", kwargs=kwargs)).content.decode()
    page = factories.phone().get(url)
    html = page.content.decode()
    assert page.status_code == 200
    assert (
        "1520" in html and f"{world['nord'].name}, {world['sued'].name}" in html and "1490" in html
    )
    assert html.index("Anna") < html.index("Ben") < html.index("Carl")
    assert f"{url}?game=schnapsen" in html and "?game=dreierschnapsen" not in html


def test_an_unknown_game_or_cup_is_404(client, world):
    cup = factories.cup(world["body"])
    url = reverse("cups:cup_ratings", kwargs={"slug": world["body"].slug, "cup_slug": cup.slug})
    assert client.get(url + "?game=poker").status_code == 404
    assert client.get(url + "?game=dreierschnapsen").status_code == 200
    other = reverse("cups:cup_ratings", kwargs={"slug": world["body"].slug, "cup_slug": "kein"})
    assert client.get(other).status_code == 404


def test_the_queries_are_a_fixed_number_per_member_club(
    client, world, django_assert_max_num_queries
):
    cup = factories.cup(world["body"])
    url = reverse("cups:cup_ratings", kwargs={"slug": world["body"].slug, "cup_slug": cup.slug})
    factories.played_night(world["nord"], ["Anna", "Ben", "Dora", "Emil"])
    nord = list(world["nord"].players.order_by("name"))
    for _ in range(3):
        factories.partie(world["nord"], nord[:2], winner=1)
    with django_assert_max_num_queries(4 + 10 * 2):
        first = client.get(url)
    for _ in range(4):
        factories.partie(world["nord"], nord[:2], winner=0)
        factories.partie(world["sued"], list(world["sued"].players.all()), winner=0)
    with django_assert_max_num_queries(4 + 10 * 2):
        again = client.get(url)
    assert first.status_code == again.status_code == 200
    assert "Dora" in again.content.decode()  # the night's matches count too
