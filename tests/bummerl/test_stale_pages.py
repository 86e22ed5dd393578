"""Pages that change are never shown from a cache, and a page and its htmx partial are
never taken for each other.

- Every response of the site says ``Cache-Control: no-store`` (after Back, the browser
  asks again instead of showing an old form with an old one-time key and state); static
  files keep their own caching.
- Every URL that htmx requests answers an htmx swap with the partial, and a history
  restore (Back, when htmx's own snapshot is gone) with the whole page; both say
  ``Vary: HX-Request``.
"""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client, override_settings
from django.urls import URLResolver, get_resolver, reverse

from scoring import services as scoring
from scoring.models import Deal
from scoring.rules import DreierDeal
from tests import factories
from tournaments.models import Card, Pairing, Round
from tournaments.personal import personal_token
from tournaments.simulation import simulate

pytestmark = pytest.mark.django_db
TEMPLATES = Path(settings.BASE_DIR) / "templates"


def url_patterns(resolver=None, namespace="", params=()):
    """(name, parameter names) of every URL pattern of the site, admin aside."""
    for pattern in (resolver or get_resolver()).url_patterns:
        names = params + tuple(pattern.pattern.regex.groupindex)
        if isinstance(pattern, URLResolver):
            if pattern.namespace == "admin":
                continue
            prefix = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            yield from url_patterns(pattern, prefix, names)
        elif pattern.name:
            yield namespace + pattern.name, names


@pytest.fixture
def world():
    """A club with a table (one deal) and a tournament with round 1 drawn, an owner."""
    factories.presets()
    club = factories.club()
    sheet = factories.sheet(club)
    scoring.record_entry(sheet, DreierDeal("gang", 0, True), factories.key(), scoring.Actor())
    tournament = simulate(club, cards=8, players=6, max_cards=2, seed=1, stop_after=1)
    owner = Client()
    owner.force_login(factories.user(club, role="owner"))
    return club, sheet, tournament, owner


def urls(club, sheet, t):
    """Every named URL of the site, reversed with the world's objects (a made-up value
    for a parameter not known here: that page then answers 404, still through every
    middleware)."""
    pairing = Pairing.objects.filter(tournament=t, kind="match").first()
    values = {
        "slug": club.slug,
        "pk": sheet.pk,
        "deal_id": Deal.objects.filter(sheet=sheet).first().pk,
        "tournament_id": t.pk,
        "card_id": Card.objects.filter(tournament=t).first().pk,
        "round_id": Round.objects.filter(tournament=t).first().pk,
        "number": 1,
        "pairing_id": pairing.pk,
        "rule_set_id": club.rule_sets.first().pk if club.rule_sets.exists() else 1,
        "player_id": sheet.players.first().pk,
        "action": "renew",
        "uidb64": "MQ",
    }
    tokens = {
        "entry": sheet.entry_token,
        "match_link": pairing.token,
        "match_sheet": pairing.token,
        "bracket": t.public_token,
        "public_seats": t.public_token,
        "personal": personal_token(t.pk, Card.objects.filter(tournament=t).first().player_id),
    }
    found = []
    for name, params in url_patterns():
        kwargs = {}
        for param in params:
            if param == "token":
                kwargs[param] = tokens.get(name.split(":")[0], "set-password")
            else:
                kwargs[param] = values.get(param, 1)
        found.append((name, reverse(name, kwargs=kwargs)))
    return found


def test_every_page_of_the_site_says_no_store(world):
    club, sheet, t, owner = world
    anonymous = Client()
    wrong = []
    for name, url in urls(club, sheet, t):
        for who, client in (("owner", owner), ("anonymous", anonymous)):
            response = client.get(url)
            if response.status_code >= 500 or "no-store" not in response.get("Cache-Control", ""):
                wrong.append((name, who, response.status_code, response.get("Cache-Control")))
    for url in ("/admin/", "/healthz", "/favicon.ico", "/no-such-page/"):
        response = owner.get(url)
        if "no-store" not in response.get("Cache-Control", ""):
            wrong.append((url, "owner", response.status_code, response.get("Cache-Control")))
    assert wrong == []


def test_every_write_answers_no_store(world):
    club, sheet, t, owner = world
    wrong = []
    for name, url in urls(club, sheet, t):
        if name in ("logout", "set_language"):
            continue  # they would sign the client out or switch its language
        for headers in ({}, {"HX-Request": "true"}):
            response = owner.post(url, {"key": factories.key()}, headers=headers)
            if response.status_code >= 500 or "no-store" not in response.get("Cache-Control", ""):
                wrong.append((name, headers, response.status_code))
    assert wrong == []


@override_settings(WHITENOISE_USE_FINDERS=True, WHITENOISE_AUTOREFRESH=True)
def test_static_files_keep_their_own_caching():
    response = Client().get("/static/css/site.css")
    assert response.status_code == 200
    assert "no-store" not in response["Cache-Control"]
    assert "max-age=" in response["Cache-Control"]


# -- htmx ------------------------------------------------------------------------------

HTMX_TEMPLATES = {
    # template: what it asks by htmx (the tests below walk each)
    "tournaments/bracket.html": "the live bracket polls its own URL",
    "tournaments/standings.html": "the standings board polls its own URL (test_formats)",
    "clubs/players.html": "the player search asks the players page",
    "tournaments/desk.html": "the name field asks the player search",
    "clubs/player.html": "the merge form's name field asks the player search",
    "clubs/categories.html": "a category's name field asks the player search",
    "scoring/sheet.html": "the sheet's forms post and get the #sheet partial",
    "scoring/_entry_form.html": "the entry forms post and get the #sheet partial",
    "scoring/_stale.html": "'record anyway' posts and gets the #sheet partial",
    "scoring/open_table.html": "adding a player posts the form and gets #open-form back",
}


def test_the_walk_below_knows_every_template_that_makes_htmx_requests():
    found = set()
    for path in TEMPLATES.rglob("*.html"):
        if re.search(r"\bhx-(get|post|put|patch|delete)=", path.read_text()):
            found.add(str(path.relative_to(TEMPLATES)))
    assert found == set(HTMX_TEMPLATES)


def htmx_pages(club, sheet, t):
    """(URL, the partial's marker) of every page htmx asks for a part of."""
    return [
        (reverse("bracket", kwargs={"token": t.public_token}), 'id="live"'),
        (reverse("players", kwargs={"slug": club.slug}) + "?q=a", 'id="player-list"'),
        (reverse("sheet:page", kwargs={"pk": sheet.pk}), 'id="sheet"'),
        (reverse("entry:page", kwargs={"token": sheet.entry_token}), 'id="sheet"'),
        (reverse("open_table", kwargs={"slug": club.slug}), 'id="open-form"'),
    ]


def varies_on_htmx(response) -> bool:
    return "hx-request" in response.get("Vary", "").lower()


@pytest.mark.parametrize("page", range(5))
def test_an_htmx_swap_gets_the_partial_and_a_history_restore_the_whole_page(world, page):
    club, sheet, t, owner = world
    url, marker = htmx_pages(club, sheet, t)[page]
    swap = owner.get(url, headers={"HX-Request": "true"})
    html = swap.content.decode()
    assert swap.status_code == 200
    assert marker in html and "<html" not in html
    assert varies_on_htmx(swap)
    restore = owner.get(url, headers={"HX-Request": "true", "HX-History-Restore-Request": "true"})
    html = restore.content.decode()
    assert restore.status_code == 200
    assert "<html" in html and "css/site.css" in html and "htmx-2" in html and marker in html
    assert varies_on_htmx(restore)
    whole = owner.get(url)
    assert "<html" in whole.content.decode()
    assert varies_on_htmx(whole)


def test_the_player_search_varies_on_htmx(world):
    club, _sheet, _t, owner = world
    url = reverse("player_search", kwargs={"slug": club.slug}) + "?q=a"
    options = owner.get(url, headers={"HX-Request": "true"})
    names = owner.get(url)
    assert "<option" in options.content.decode() and names["Content-Type"] == "application/json"
    assert varies_on_htmx(options) and varies_on_htmx(names)


@pytest.mark.parametrize("namespace", ["sheet", "entry"])
def test_the_sheets_htmx_posts_get_the_partial_and_vary_on_htmx(world, namespace):
    club, sheet, _t, owner = world
    ident = {"pk": sheet.pk} if namespace == "sheet" else {"token": sheet.entry_token}
    deal = Deal.objects.get(sheet=sheet)
    posts = [
        (f"{namespace}:record", {}, {"key": factories.key(), "kind": "redeal"}),
        (f"{namespace}:void", {"deal_id": deal.pk}, {}),
    ]
    for name, kwargs, data in posts:
        response = owner.post(
            reverse(name, kwargs={**ident, **kwargs}), data, headers={"HX-Request": "true"}
        )
        html = response.content.decode()
        assert response.status_code == 200, name
        assert 'id="sheet"' in html and "<html" not in html, name
        assert varies_on_htmx(response), name
        assert "no-store" in response["Cache-Control"]
    plain = owner.post(
        reverse(f"{namespace}:record", kwargs=ident), {"key": factories.key(), "kind": "redeal"}
    )
    assert plain.status_code == 302 and varies_on_htmx(plain)


def test_signing_in_is_asked_differently_by_htmx_and_says_so(world):
    _club, sheet, _t, _owner = world
    url = reverse("sheet:page", kwargs={"pk": sheet.pk})
    by_htmx = Client().get(url, headers={"HX-Request": "true"})
    plain = Client().get(url)
    assert (by_htmx.status_code, plain.status_code) == (401, 302)
    assert varies_on_htmx(by_htmx) and varies_on_htmx(plain)
