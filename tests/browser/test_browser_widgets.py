"""The club's widgets (issue 28) framed by a page of another site in a real Chromium: a
page served from another origin (a small HTTP server of its own on another port)
embeds each widget in an iframe; each renders inside its frame with the club's colour
(from the club's stylesheet, no inline style), 320 px wide without scrolling sideways,
and the browser reports no policy violation. A page of the site itself stays unframed."""

import datetime
import html
import re
import threading
from functools import partial
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from clubs.models import Club
from seasons.models import RankingSettings, Season
from tests import factories
from tests.waiting import wait_until
from tournaments.models import Pairing
from tournaments.simulation import simulate

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

COLOUR = "rgb(176, 28, 46)"  # the club's #b01c2e


class OtherSite(BaseHTTPRequestHandler):
    """Answers every GET with the page it was made with (the club's own website)."""

    def __init__(self, body: bytes, *args, **kwargs):
        self.body = body
        super().__init__(*args, **kwargs)

    def do_GET(self):  # noqa: N802 (the name http.server calls)
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(self.body)))
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, *args):
        pass


@pytest.fixture
def other_site():
    """``serve(html) -> url``: the page on 127.0.0.1 at a port of its own; stopped after
    the test."""
    servers = []

    def serve(html: str) -> str:
        server = ThreadingHTTPServer(("127.0.0.1", 0), partial(OtherSite, html.encode()))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}/"

    yield serve
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.fixture
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": 360, "height": 900}}


def test_each_widget_renders_in_a_frame_of_another_site_with_the_club_colour(
    live_server, page, other_site
):
    factories.presets()
    club = factories.club()
    Club.objects.filter(pk=club.pk).update(public_page=True, colour="#b01c2e")
    today = timezone.localdate()
    Season.objects.create(
        club=club, name="Saison", first_day=today - datetime.timedelta(days=7), last_day=today
    )
    RankingSettings.objects.create(club=club, public=True, pick="points")
    factories.tournament(
        club, name="Adventschnapsen", starts_at=timezone.now() + datetime.timedelta(days=3)
    )
    running = simulate(club, cards=8, players=6, max_cards=2, seed=1, stop_after=1)
    match = Pairing.objects.filter(tournament=running, kind="match").first()
    player = match.left.player.name
    widgets = {
        "nights": (reverse("nights_widget", kwargs={"slug": club.slug}), "Adventschnapsen"),
        "bracket": (reverse("bracket_widget", kwargs={"token": running.public_token}), player),
        "ranking": (reverse("ranking_widget", kwargs={"slug": club.slug}), "Turnierpunkte"),
    }
    frames = "".join(
        f'<iframe id="{name}" src="{live_server.url}{path}" width="320" height="400"></iframe>'
        for name, (path, _text) in widgets.items()
    )
    frames += f'<iframe id="site" src="{live_server.url}/k/{club.slug}/"></iframe>'
    violations = []
    page.on("console", lambda m: violations.append(m.text) if "Refused" in m.text else None)
    page.goto(other_site(f"<!doctype html><title>Unser Klub</title><h1>Unser Klub</h1>{frames}"))
    for name, (_path, text) in widgets.items():
        frame = page.frame_locator(f"#{name}")
        expect(frame.locator("main")).to_contain_text(text)
        bar = frame.locator(".club-bar")
        expect(bar).to_contain_text(club.name)
        expect(bar).to_have_css("background-color", COLOUR)
        inner = page.frame(url=f"{live_server.url}{widgets[name][0]}")
        wait_until(inner, "document.readyState === 'complete'")
        assert inner.evaluate("document.documentElement.scrollWidth") <= 320, name
    # The site's own pages keep refusing frames elsewhere: the browser says so.
    # The site's own pages keep refusing frames elsewhere: Chromium shows its error page.
    wait_until(page, "document.querySelectorAll('iframe').length === 4")
    assert page.frame_locator("#site").locator("main").count() == 0
    assert [f.url for f in page.frames].count("chrome-error://chromewebdata/") == 1
    assert violations == []


def test_each_widget_tells_the_framing_page_its_height_through_the_members_page_snippet(
    live_server, page, other_site
):
    """The snippets of the members page, pasted as they are into a page of another site:
    each frame takes its widget's height (no scrolling inside a frame of fixed height),
    also after the frame is made narrower (more lines wrap)."""
    factories.presets()
    club = factories.club()
    Club.objects.filter(pk=club.pk).update(public_page=True)
    today = timezone.localdate()
    Season.objects.create(
        club=club, name="Saison", first_day=today - datetime.timedelta(days=7), last_day=today
    )
    RankingSettings.objects.create(club=club, public=True, pick="points")
    for day in range(1, 6):
        factories.tournament(
            club,
            name=f"Preisschnapsen {day}",
            venue="Gasthaus Grüner Baum, Hauptstraße 12, 1234 Irgendwo",
            starts_at=timezone.now() + datetime.timedelta(days=day),
        )
    simulate(club, cards=16, players=12, max_cards=2, seed=1)  # a finished night: points
    owner = factories.signed_in(factories.user(club, role="owner"))
    members = owner.get(reverse("members", kwargs={"slug": club.slug})).content.decode()
    snippets = [
        html.unescape(s).replace("http://testserver", live_server.url)
        for s in re.findall(r'<pre class="snippet"[^>]*>(.*?)</pre>', members, re.S)
    ]
    assert len(snippets) == 3 and snippets[2].startswith("<script>")
    page.goto(other_site(f"<!doctype html><title>Unser Klub</title>{''.join(snippets)}"))
    frames = page.locator("iframe")
    expect(frames).to_have_count(2)
    for width in (360, 320):
        page.set_viewport_size({"width": width, "height": 700})
        for n in range(2):
            src = frames.nth(n).get_attribute("src")
            inner = page.frame(url=src)
            wait_until(inner, "document.readyState === 'complete'")
            tall = "Math.ceil(document.documentElement.getBoundingClientRect().height)"
            wait_until(
                page,
                f"document.querySelectorAll('iframe')[{n}].clientHeight === {inner.evaluate(tall)}",
            )
            if n == 0:  # five nights: taller than the snippet's first guess
                assert inner.evaluate(tall) > 360, src
            assert inner.evaluate("document.documentElement.scrollWidth") <= width, src
            # nothing left to scroll inside the frame
            assert inner.evaluate("document.scrollingElement.scrollHeight") <= inner.evaluate(
                "window.innerHeight"
            ), src
