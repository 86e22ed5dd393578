"""No ``id`` occurs twice in one page: a label's ``for``, an ``aria-describedby``, an
``hx-target="#…"`` and the scripts find the one element they mean.

The pages are those of two walks: every route of the site for each of the demo club's
tables and tournaments, with their links to themselves (``demo_pages``, the walk of
``test_browser_narrow_walk``, here without a browser), and every page of
``test_access_walk`` for each kind of visitor, on a night being played."""

import io
from collections import Counter
from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from tests import factories
from tests.browser.test_browser_narrow_walk import demo_pages
from tests.bummerl.test_access_walk import PERSONAS
from tests.bummerl.test_access_walk import pages as named_pages
from tournaments.simulation import simulate

pytestmark = pytest.mark.django_db


class Ids(HTMLParser):
    """The ``id`` attributes of a document, in order."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids = []

    def handle_starttag(self, tag, attrs):
        self.ids += [value for name, value in attrs if name == "id" and value is not None]

    handle_startendtag = handle_starttag


def twice(html: str) -> list[str]:
    """The ids of ``html`` that occur more than once."""
    parser = Ids()
    parser.feed(html)
    parser.close()
    return sorted(name for name, n in Counter(parser.ids).items() if n > 1)


def duplicates(client: Client, paths) -> dict[str, list[str]]:
    """Each HTML answer (200) among ``paths`` with the ids it holds twice."""
    found = {}
    for path in paths:
        response = client.get(path)
        if response.status_code != 200 or not response["Content-Type"].startswith("text/html"):
            continue
        if names := twice(response.content.decode()):
            found[path] = names
    return found


def test_twice_finds_an_id_given_twice_and_nothing_else():
    page = '<p id="a"></p><input id="b"><label for="a">x</label><br id="a"/><div id="c">'
    assert twice(page) == ["a"]
    assert twice('<p id="a"></p><p id="A"></p>') == []


def test_no_page_of_the_demo_club_gives_an_id_twice():
    call_command("seed", stdout=io.StringIO())
    client = Client()
    client.force_login(get_user_model().objects.get(username="demo"))
    paths = demo_pages(client)
    assert len(paths) >= 60
    assert duplicates(client, paths) == {}


def test_no_page_of_a_night_being_played_gives_an_id_twice():
    factories.presets()
    club = factories.club()
    other = factories.club()
    sheet = factories.sheet(club)
    night = simulate(club, cards=8, players=6, max_cards=2, seed=1, stop_after=1)
    clients = {"anonymous": Client(), "stranger": Client()}
    clients["stranger"].force_login(factories.user(other, role="owner"))
    for role in ("member", "scorer", "organiser", "owner"):
        clients[role] = Client()
        clients[role].force_login(factories.user(club, role=role))
    table, _state = named_pages(club, sheet, night)
    found = {}
    for persona in PERSONAS:
        paths = [url for url, expected in table if expected[persona] == 200]
        found |= {
            f"{persona} {path}": ids for path, ids in duplicates(clients[persona], paths).items()
        }
    assert found == {}
