"""Every page a signed-in owner of the demo club reaches, on a 320 px wide phone: the
document never scrolls sideways (a wide list scrolls inside its own box), and no column
title breaks inside a word. The pages are
the routes of the site (the walk of ``tests/bummerl/test_infra_head.py``) filled in with the demo
club's own tables, tournaments and players, and each page's links to itself with another
query (``?table=``, ``?game=``, ``?new=``); those that answer an HTML page with 200 are
opened in Chromium."""

import datetime
import io
import re
from html import unescape

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clubs.models import Club, Invitation, Membership
from scoring.models import Deal, RuleSet, Sheet
from seasons.models import RankingSettings, Season
from tests import factories
from tests.bummerl.test_infra_head import _params
from tournaments.models import Card, Pairing, Round, Tournament
from tournaments.personal import personal_token

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH = 320
SAME_PAGE = re.compile(r'href="(\?[^"#]*)"')
# the same rows in another order, on another page of the list, or as a file
OTHER_ORDER = re.compile(r"sort=|page=|_export=")


@pytest.fixture
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": WIDTH, "height": 640}}


def _values(club, owner, sheet, t, invitation, season) -> tuple[dict, dict]:
    """The routes' parameters and tokens for one of the demo's tables and tournaments."""
    pairing = Pairing.objects.filter(tournament=t, kind="match").order_by("pk").first()
    card = Card.objects.filter(tournament=t).order_by("pk").first()
    registration = factories.announced_registration(club)  # an announced night (issue 28)
    values = {
        "slug": club.slug,
        "season_id": season.pk,
        "pk": sheet.pk,
        "deal_id": Deal.objects.filter(sheet=sheet).order_by("pk").first().pk,
        "membership_id": owner.pk,
        "invitation_id": invitation.pk,
        "player_id": sheet.players.order_by("pk").first().pk,
        "rule_set_id": RuleSet.objects.filter(club__isnull=True).first().pk,
        "tournament_id": t.pk,
        "card_id": card.pk,
        "round_id": Round.objects.filter(tournament=t).order_by("pk").first().pk,
        "pairing_id": pairing.pk,
        "registration_id": registration.pk,
        "number": 1,
        "action": "renew",
        "side": "left",
        "uidb64": "MQ",
    }
    tokens = {
        "join": invitation.token,
        "match_link": pairing.token,
        "match_sheet": pairing.token,
        "bracket": t.public_token,
        "room_screen": t.public_token,
        "public_seats": t.public_token,
        "verify_draws": t.public_token,
        "public_export": t.public_token,
        "side_link": pairing.left_token,
        "personal": personal_token(t.pk, card.player_id),
        "entry": sheet.entry_token,
        "register": registration.tournament.public_token,
        "registration_link": registration.token,
        "registration_calendar": registration.feed_token,
        "feed_moved": registration.token,
        "bracket_widget": t.public_token,  # the club's widgets (issue 28)
    }
    return values, tokens


def demo_pages(client: Client) -> list[str]:
    """The paths (str, with their query) of the demo club's pages that answer its owner
    with an HTML page (200, ``text/html``): every route of the site for each of the
    demo's tables and tournaments, and the links of those pages to themselves with
    another query (not those that sort, page or export the same list)."""
    club = Club.objects.get(slug="gruener-baum")
    # its public page, feeds and widgets and its public rankings walked too (issue 28)
    Club.objects.filter(pk=club.pk).update(public_page=True)
    RankingSettings.objects.update_or_create(club=club, defaults={"public": True})
    owner = Membership.objects.get(club=club, user__username="demo")
    invitation = Invitation.objects.create(
        club=club,
        role="member",
        created_by=owner.user,
        expires_at=timezone.now() + datetime.timedelta(days=1),
    )
    year = timezone.localdate().year  # the demo's tables are played on the day it is seeded
    season = Season.objects.create(
        club=club,
        name=str(year),
        first_day=datetime.date(year, 1, 1),
        last_day=datetime.date(year, 12, 31),
    )
    sheets = Sheet.objects.filter(club=club).order_by("pk")
    tournaments = Tournament.objects.filter(club=club).order_by("pk")
    candidates = []
    for sheet, t in zip(sheets, tournaments, strict=True):
        values, tokens = _values(club, owner, sheet, t, invitation, season)
        for name, params in dict(_params()).items():
            token = tokens["entry"] if name.startswith("entry:") else tokens.get(name, "x")
            # a parameter of no demo object (the cups' routes: the demo has no body) is 1: 404
            kwargs = {p: token if p == "token" else values.get(p, 1) for p in params}
            candidates.append(reverse(name, kwargs=kwargs))
    candidates.append(reverse("members", kwargs={"slug": club.slug}) + f"?new={invitation.pk}")
    players = club.players.order_by("pk")
    merge = reverse("player_merge", kwargs={"slug": club.slug, "player_id": players[0].pk})
    candidates.append(f"{merge}?name={players[1].name}")
    paths, seen = [], set()
    while candidates:
        path = candidates.pop(0)
        if path in seen:
            continue
        seen.add(path)
        response = client.get(path)
        if response.status_code != 200 or not response["Content-Type"].startswith("text/html"):
            continue
        paths.append(path)
        if "?" in path:
            continue  # one step: the route's own page, then its other views
        for query in SAME_PAGE.findall(response.content.decode()):
            if not OTHER_ORDER.search(query):
                candidates.append(path + unescape(query))
    return paths


BROKEN_WORDS = """() => {
  const broken = [];
  for (const th of document.querySelectorAll("th")) {
    const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(m[0]);
      }
    }
  }
  return broken;
}"""
"""The words of the pages' column titles that are broken over two lines."""


def test_no_page_of_the_demo_club_scrolls_sideways_on_a_320_phone(live_server, page):
    call_command("seed", stdout=io.StringIO())
    client = Client()
    client.force_login(get_user_model().objects.get(username="demo"))
    paths = demo_pages(client)
    assert len(paths) >= 60
    for public in (
        "/k/gruener-baum/",
        "/k/gruener-baum/widget/nights/",
        "/k/gruener-baum/widget/ranking/",
        "/widget/",
        "/p/r/",  # a registration's own page, with its calendar address
    ):
        assert any(public in path for path in paths), public
    page.goto(live_server.url + reverse("login"))
    page.locator("input[name=username]").fill("demo")
    page.locator("input[name=password]").fill("schnapsen-demo")
    page.locator("main form button").click()
    page.wait_for_url(f"{live_server.url}/c/**")
    wide, broken = {}, {}
    for path in paths:
        response = page.goto(live_server.url + path)
        assert response.status == 200, path
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > WIDTH:
            wide[path] = width
        words = page.evaluate(BROKEN_WORDS)
        if words:
            broken[path] = words
    assert wide == {}
    assert broken == {}
