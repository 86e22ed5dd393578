"""The club's public face (issue 28): a night announced with its venue and rule set, the
club's public page, its JSON and calendar feed, a registered player's calendar and the
widgets other sites frame. Web tests through the Django test client on the run's
database."""

import datetime
import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from icalendar import Calendar

from clubs.audit import SYSTEM
from clubs.models import AuditEntry, Club
from scoring.rulesets import copy_rule_set
from seasons.models import RankingSettings, Season
from tests import factories
from tests.markup import squeezed
from tournaments.models import Pairing, Registration, Tournament
from tournaments.services import checkin, signup
from tournaments.services.draws import draw_round
from tournaments.services.sheets import Actor
from tournaments.simulation import simulate

pytestmark = pytest.mark.django_db

NOW = timezone.now
FRAMED_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors *"
)


def owner_client(club) -> Client:
    client = Client()
    client.force_login(factories.user(club, role="owner"))
    return client


def public_club(**fields) -> Club:
    club = factories.club()
    Club.objects.filter(pk=club.pk).update(public_page=True, colour="#b01c2e", **fields)
    club.refresh_from_db()
    return club


def announced(club, *, name="Adventschnapsen", days=3, venue="Gasthaus Zur Linde", **fields):
    """A night of ``club`` in ``days`` days at ``venue``, its public registration open."""
    now = NOW()
    t = factories.tournament(
        club,
        name=name,
        starts_at=(now + datetime.timedelta(days=days)).replace(microsecond=0),
        cards=16,
        prizes=[{"place": 1, "description": "Geschenkkorb"}],
        **fields,
    )
    Tournament.objects.filter(pk=t.pk).update(venue=venue)
    signup.set_registration(
        t,
        Actor(),
        opens=now - datetime.timedelta(hours=1),
        closes=now + datetime.timedelta(days=2),
        public=True,
    )
    t.refresh_from_db()
    return t


def tournament_post(**changes) -> dict:
    data = {
        "name": "Nikoloschnapsen",
        "day": "2026-12-05",
        "time": "19:00",
        "venue": "Gasthaus Grüner Baum, Hauptstraße 1",
        "cards": 16,
        "max_cards": 3,
        "match_bummerl": 2,
        "entry_fee": "10",
        "prizes": "1: Korb",
    }
    return {**data, **changes}


# -- announcing a night: venue and rule set ------------------------------------------------


def test_the_tournament_form_keeps_the_venue_and_the_clubs_rule_set():
    presets = factories.presets()
    club = factories.club()
    own = copy_rule_set(club, presets["spielregeln"], actor=SYSTEM)
    client = owner_client(club)
    page = client.get(reverse("tournaments", kwargs={"slug": club.slug})).content.decode()
    select = re.search(r'<select name="rule_set".*?</select>', page, re.S).group(0)
    offered = re.findall(r'<option value="(\d+)"', select)
    assert str(own.pk) in offered and str(presets["wiki"].pk) in offered
    assert str(presets["bauern"].pk) not in offered  # four players: not offered
    response = client.post(
        reverse("tournaments", kwargs={"slug": club.slug}), tournament_post(rule_set=own.pk)
    )
    assert response.status_code == 302
    t = Tournament.objects.get(club=club)
    assert (t.venue, t.rule_set_id) == ("Gasthaus Grüner Baum, Hauptstraße 1", own.pk)


def test_a_rule_set_of_bauernschnapsen_is_refused_on_its_field():
    presets = factories.presets()
    club = factories.club()
    copy = copy_rule_set(club, presets["bauern"], actor=SYSTEM)
    client = owner_client(club)
    for rule_set in (presets["bauern"], copy):
        response = client.post(
            reverse("tournaments", kwargs={"slug": club.slug}),
            tournament_post(rule_set=rule_set.pk),
        )
        assert response.status_code == 200
        errors = response.context["form"].errors["rule_set"]
        assert "Bauernschnapsen" in errors[0] and str(rule_set) in errors[0]
    assert not Tournament.objects.filter(club=club).exists()


def test_another_clubs_rule_set_is_refused():
    presets = factories.presets()
    club, other = factories.club(), factories.club()
    theirs = copy_rule_set(other, presets["wiki"], actor=SYSTEM)
    response = owner_client(club).post(
        reverse("tournaments", kwargs={"slug": club.slug}), tournament_post(rule_set=theirs.pk)
    )
    assert response.status_code == 200
    assert "rule_set" in response.context["form"].errors
    assert not Tournament.objects.filter(club=club).exists()


def _match_sheet_rules(t):
    draw_round(t, Actor(), seed=1)
    pairing = Pairing.objects.filter(tournament=t, kind="match").first()
    response = Client().post(reverse("match_sheet", kwargs={"token": pairing.token}))
    assert response.status_code == 302
    pairing.refresh_from_db()
    return pairing.sheet


def test_match_sheets_open_with_the_nights_rule_set_and_its_match_rules():
    presets = factories.presets()
    club = factories.club()
    own = copy_rule_set(club, presets["wiki"], actor=SYSTEM)
    own.data = {**own.data, "options": {**own.data["options"], "false_claim": "mirror"}}
    own.save()
    t = factories.tournament(club, cards=8, sold=8, match_bummerl=3)
    Tournament.objects.filter(pk=t.pk).update(rule_set=own)
    t.refresh_from_db()
    sheet = _match_sheet_rules(t)
    assert sheet.rule_set_id == own.pk
    assert sheet.rules["options"]["false_claim"] == "mirror"
    assert sheet.rules["options"]["partie_bummerl"] == 3  # the night's, over the rule set's


def test_match_sheets_of_a_night_without_a_rule_set_use_the_preset():
    presets = factories.presets()
    club = factories.club()
    t = factories.tournament(club, cards=8, sold=8)
    sheet = _match_sheet_rules(t)
    assert sheet.rule_set_id == presets["wiki"].pk
    assert sheet.rules["options"]["false_claim"] == "fixed"


def test_the_nights_public_page_shows_the_venue_and_the_rules_in_words():
    presets = factories.presets()
    club = factories.club()
    own = copy_rule_set(club, presets["wiki"], actor=SYSTEM)
    t = announced(club, match_bummerl=3)
    Tournament.objects.filter(pk=t.pk).update(rule_set=own)
    page = Client().get(reverse("bracket", kwargs={"token": t.public_token})).content.decode()
    assert '<dd class="venue">Gasthaus Zur Linde</dd>' in squeezed(page)
    assert f"<dd>{own.name}</dd>" in squeezed(page)
    assert "mit 3 Bummerl gewonnen" in page  # a match
    assert "zählt 1 Bummerl" in page  # a Schneider
    # the rule set's options in the words of the rule-set form
    assert (
        "<dt>Falsches Ausmelden gibt dem Gegner</dt><dd>2, oder 3 wenn er keinen Stich hatte</dd>"
        in squeezed(page)
    )
    assert "<dt>Zwanziger/Vierziger zählen erst nach einem Stich</dt><dd>ja</dd>" in squeezed(page)


# -- the club's public page ----------------------------------------------------------------


def test_the_club_page_is_404_until_the_owner_makes_it_public():
    factories.presets()
    club = factories.club()
    announced(club)
    anyone = Client()
    url = reverse("club_page", kwargs={"slug": club.slug})
    for name in ("club_page", "club_json", "club_calendar", "club_colour", "nights_widget"):
        assert anyone.get(reverse(name, kwargs={"slug": club.slug})).status_code == 404, name
    owner = owner_client(club)
    response = owner.post(
        reverse("club_face", kwargs={"slug": club.slug}), {"public_page": "on", "colour": "#B01C2E"}
    )
    assert response.status_code == 302
    club.refresh_from_db()
    assert (club.public_page, club.colour) == (True, "#b01c2e")
    assert anyone.get(url).status_code == 200
    entry = AuditEntry.objects.get(club=club, action="club page changed")
    assert entry.after == {"public_page": True, "colour": "#b01c2e"}
    owner.post(reverse("club_face", kwargs={"slug": club.slug}), {"colour": "#b01c2e"})
    assert anyone.get(url).status_code == 404


def test_a_colour_not_written_as_rrggbb_is_refused_on_its_field():
    club = factories.club()
    response = owner_client(club).post(
        reverse("club_face", kwargs={"slug": club.slug}), {"public_page": "on", "colour": "red"}
    )
    assert response.status_code == 400
    assert "colour" in response.context["face_form"].errors
    club.refresh_from_db()
    assert (club.public_page, club.colour) == (False, "#0b5d3b")


def test_the_members_page_shows_the_embed_snippets_of_a_public_club():
    club = public_club()
    page = owner_client(club).get(reverse("members", kwargs={"slug": club.slug})).content.decode()
    assert f'&lt;iframe src="http://testserver/k/{club.slug}/widget/nights/"' in page
    assert f"http://testserver/k/{club.slug}/calendar.ics" in page


def test_the_club_page_lists_upcoming_nights_and_past_results():
    factories.presets()
    club = public_club()
    soon = announced(club, name="Adventschnapsen", days=3)
    signup.register(soon, name="Rosa", cards=2, contact="rosa@example.org")
    later = announced(club, name="Silvesterschnapsen", days=20, venue="")
    played = simulate(club, cards=8, players=8, max_cards=1, seed=5, name="Herbstschnapsen")
    Tournament.objects.filter(pk=played.pk).update(starts_at=NOW() - datetime.timedelta(days=10))
    page = Client().get(reverse("club_page", kwargs={"slug": club.slug}))
    assert page.status_code == 200
    upcoming = page.context["upcoming"]
    assert [n.tournament.pk for n in upcoming] == [soon.pk, later.pk]
    assert upcoming[0].free == 14 and upcoming[0].registration_open
    text = page.content.decode()
    assert "Gasthaus Zur Linde" in text
    assert f'href="/p/{soon.public_token}/"' in text
    assert "14 Karten frei" in text
    (result,) = page.context["played"]
    assert result.tournament.pk == played.pk
    assert len(result.placed) == 8  # every prize given, best first
    assert [(x.first, x.prize) for x in result.placed[:3]] == [
        (1, "Geschenkkorb"),
        (2, "Schinken"),
        (3, "Wein"),
    ]
    assert f'href="/p/{played.public_token}/"' in text
    assert result.placed[0].name in text
    assert f'href="/k/{club.slug}/colour.css"' in text


def test_a_night_still_being_played_is_upcoming_and_not_a_result():
    factories.presets()
    club = public_club()
    running = simulate(club, cards=8, players=6, max_cards=2, seed=1, stop_after=1)
    page = Client().get(reverse("club_page", kwargs={"slug": club.slug}))
    assert [(n.tournament.pk, n.started) for n in page.context["upcoming"]] == [(running.pk, True)]
    assert page.context["played"] == []


# -- JSON and calendar feeds ---------------------------------------------------------------


def test_the_club_json_gives_nights_and_results():
    factories.presets()
    club = public_club()
    soon = announced(club)
    played = simulate(club, cards=8, players=8, max_cards=1, seed=5)
    response = Client().get(reverse("club_json", kwargs={"slug": club.slug}))
    assert response["Content-Type"] == "application/json"
    data = response.json()
    assert data["club"] == {
        "name": club.name,
        "slug": club.slug,
        "colour": "#b01c2e",
        "url": f"http://testserver/k/{club.slug}/",
    }
    (night,) = data["upcoming"]
    assert night == {
        "name": "Adventschnapsen",
        "starts_at": soon.starts_at.isoformat(),
        "ends_at": (soon.starts_at + datetime.timedelta(hours=5)).isoformat(),
        "venue": "Gasthaus Zur Linde",
        "format": "cards",
        "cards": 16,
        "max_cards": 3,
        "entry_fee": "10.00",
        "match_bummerl": 2,
        "url": f"http://testserver/p/{soon.public_token}/",
        "free": 16,
        "registration_open": True,
        "started": False,
    }
    (result,) = data["results"]
    assert result["url"] == f"http://testserver/p/{played.public_token}/"
    placed = result["placed"]
    assert [p["prize"] for p in placed[:3]] == ["Geschenkkorb", "Schinken", "Wein"]
    assert [p["first"] for p in placed[:3]] == [1, 2, 3]
    assert set(placed[0]) == {"first", "last", "name", "prize"}


def events(body: bytes) -> dict:
    return {str(e["UID"]): e for e in Calendar.from_ical(body).walk("VEVENT")}


def test_the_club_calendar_keeps_each_nights_uid_when_the_night_changes(settings):
    settings.SITE_URL = "https://bummerl.example.org"
    factories.presets()
    club = public_club()
    t = announced(club)
    factories.tournament(club, name="Vorbei", starts_at=NOW() - datetime.timedelta(days=90))
    url = reverse("club_calendar", kwargs={"slug": club.slug})
    response = Client().get(url)
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    found = events(response.content)
    uid = f"night-{t.pk}@{club.slug}.bummerl"
    assert list(found) == [uid]  # the night of 90 days ago is past the feed's 60 days
    event = found[uid]
    assert str(event["SUMMARY"]) == "Adventschnapsen"
    assert str(event["LOCATION"]) == "Gasthaus Zur Linde"
    assert str(event["URL"]) == f"https://bummerl.example.org/p/{t.public_token}/"
    assert event.decoded("DTSTART") == t.starts_at
    assert event.decoded("DTEND") - event.decoded("DTSTART") == datetime.timedelta(hours=5)
    assert "DTSTAMP" in event
    moved = t.starts_at + datetime.timedelta(days=1, hours=1)
    Tournament.objects.filter(pk=t.pk).update(name="Krampusschnapsen", starts_at=moved)
    again = events(Client().get(url).content)
    assert list(again) == [uid]
    assert str(again[uid]["SUMMARY"]) == "Krampusschnapsen"
    assert again[uid].decoded("DTSTART") == moved


def test_a_registered_players_calendar_lists_his_standing_registrations_in_the_club():
    factories.presets()
    club = factories.club()  # its page need not be public: the link is his own
    first, second, third = (announced(club, name=f"Nacht {n}", days=n) for n in (2, 4, 6))
    mine = signup.register(first, name="Anna Huber", cards=2, contact="+43 660 1234567")
    signup.register(second, name="anna  huber", cards=1, contact="+43 660 1234567")
    gone = signup.register(third, name="Anna Huber", cards=1, contact="+43 660 1234567")
    checkin.cancel(gone)
    signup.register(second, name="Ben", cards=1)
    elsewhere = announced(factories.club(), name="Anderswo")
    signup.register(elsewhere, name="Anna Huber", cards=1)
    response = Client().get(reverse("registration_calendar", kwargs={"token": mine.feed_token}))
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    found = events(response.content)
    other = Registration.objects.get(tournament=second, name_fold=mine.name_fold)
    assert list(found) == [
        f"night-{first.pk}-registration-{mine.pk}@{club.slug}.bummerl",
        f"night-{second.pk}-registration-{other.pk}@{club.slug}.bummerl",
    ]
    assert str(
        found[f"night-{first.pk}-registration-{mine.pk}@{club.slug}.bummerl"]["DESCRIPTION"]
    ) == ("2 Karten · angemeldet")
    body = response.content.decode()
    for secret in (mine.token, mine.contact, mine.reference, "1234567"):
        assert secret not in body
    assert Client().get("/p/cal/not-a-token/calendar.ics").status_code == 404


def test_the_feed_has_a_token_of_its_own_and_the_cancel_link_opens_no_feed():
    factories.presets()
    club = factories.club()
    mine = signup.register(announced(club), name="Anna Huber", cards=2, contact="a@example.org")
    assert mine.feed_token and mine.feed_token != mine.token
    feed = reverse("registration_calendar", kwargs={"token": mine.feed_token})
    assert feed == f"/p/cal/{mine.feed_token}/calendar.ics"
    assert Client().get(feed).status_code == 200
    # the token that changes or cancels the registration opens no feed, old address or new
    assert Client().get(f"/p/r/{mine.token}/calendar.ics").status_code == 410
    assert Client().get("/p/r/not-a-token/calendar.ics").status_code == 410
    assert Client().get(f"/p/cal/{mine.token}/calendar.ics").status_code == 404
    # the feed's token opens no registration
    assert Client().get(f"/p/r/{mine.feed_token}/").status_code == 404
    # the registration's page shows the feed's address, not its own under it
    page = Client().get(reverse("registration_link", kwargs={"token": mine.token}))
    text = page.content.decode()
    assert f"http://testserver{feed}" in text
    assert f"/p/r/{mine.token}/calendar.ics" not in text
    # each registration its own
    other = signup.register(announced(club, days=5), name="Ben", cards=1)
    assert other.feed_token != mine.feed_token


def test_a_night_has_distinct_uids_in_the_club_feed_and_a_players_feed_stable_on_refetch():
    factories.presets()
    club = public_club()
    t = announced(club)
    anna = signup.register(t, name="Anna Huber", cards=1, contact="a@example.org")
    ben = signup.register(t, name="Ben", cards=1, contact="b@example.org")
    club_feed = reverse("club_calendar", kwargs={"slug": club.slug})
    anna_feed = reverse("registration_calendar", kwargs={"token": anna.feed_token})
    ben_feed = reverse("registration_calendar", kwargs={"token": ben.feed_token})
    for _ in range(2):  # a second fetch gives the same UIDs
        assert list(events(Client().get(club_feed).content)) == [
            f"night-{t.pk}@{club.slug}.bummerl"
        ]
        assert list(events(Client().get(anna_feed).content)) == [
            f"night-{t.pk}-registration-{anna.pk}@{club.slug}.bummerl"
        ]
        assert list(events(Client().get(ben_feed).content)) == [
            f"night-{t.pk}-registration-{ben.pk}@{club.slug}.bummerl"
        ]


# -- widgets -------------------------------------------------------------------------------


def test_widgets_may_be_framed_anywhere_and_carry_the_club_colour():
    factories.presets()
    club = public_club()
    announced(club)
    running = simulate(club, cards=8, players=6, max_cards=2, seed=1, stop_after=1)
    RankingSettings.objects.create(club=club, public=True, pick="points")
    anyone = Client()
    for url in (
        reverse("nights_widget", kwargs={"slug": club.slug}),
        reverse("bracket_widget", kwargs={"token": running.public_token}),
        reverse("ranking_widget", kwargs={"slug": club.slug}),
    ):
        response = anyone.get(url)
        assert response.status_code == 200, url
        assert response["Content-Security-Policy"] == FRAMED_POLICY
        assert "X-Frame-Options" not in response
        assert (
            f'<link rel="stylesheet" href="/k/{club.slug}/colour.css">' in response.content.decode()
        )
    css = anyone.get(reverse("club_colour", kwargs={"slug": club.slug}))
    assert css["Content-Type"] == "text/css; charset=utf-8"
    assert css.content.decode() == ":root { --club: #b01c2e; --club-text: #ffffff; }\n"
    # every other page still refuses frames
    page = anyone.get(reverse("club_page", kwargs={"slug": club.slug}))
    assert page["X-Frame-Options"] == "DENY"
    assert page["Content-Security-Policy"].endswith("frame-ancestors 'none'")


def test_a_light_colour_is_written_on_in_black():
    club = public_club()
    Club.objects.filter(pk=club.pk).update(colour="#f5e663")
    css = Client().get(reverse("club_colour", kwargs={"slug": club.slug})).content.decode()
    assert css == ":root { --club: #f5e663; --club-text: #000000; }\n"


def test_the_nights_widget_lists_the_next_nights():
    factories.presets()
    club = public_club()
    t = announced(club)
    response = Client().get(reverse("nights_widget", kwargs={"slug": club.slug}))
    text = response.content.decode()
    assert [n.tournament.pk for n in response.context["upcoming"]] == [t.pk]
    assert "Adventschnapsen" in text and "Gasthaus Zur Linde" in text
    assert f'href="/p/{t.public_token}/" target="_blank"' in text
    assert "16 Karten frei" in text


def test_the_bracket_widget_shows_the_live_bracket_and_reloads_itself():
    factories.presets()
    club = public_club()
    running = simulate(club, cards=8, players=6, max_cards=2, seed=1, stop_after=1)
    response = Client().get(reverse("bracket_widget", kwargs={"token": running.public_token}))
    text = response.content.decode()
    assert '<meta http-equiv="refresh" content="30">' in text
    pairing = Pairing.objects.filter(tournament=running, kind="match").first()
    assert f'id="p{pairing.pk}"' in text
    assert pairing.left.player.name in text


def test_the_bracket_widget_of_a_club_without_a_public_page_is_404():
    factories.presets()
    club = factories.club()
    running = simulate(club, cards=8, players=6, max_cards=2, seed=1, stop_after=1)
    url = reverse("bracket_widget", kwargs={"token": running.public_token})
    assert Client().get(url).status_code == 404


def test_the_ranking_widget_shows_the_seasons_ranking_only_where_it_is_public():
    factories.presets()
    club = public_club()
    simulate(club, cards=8, players=8, max_cards=1, seed=5)
    today = timezone.localdate()
    Season.objects.create(
        club=club, name="Saison", first_day=today - datetime.timedelta(days=30), last_day=today
    )
    url = reverse("ranking_widget", kwargs={"slug": club.slug})
    assert Client().get(url).status_code == 404  # rankings not public
    RankingSettings.objects.create(club=club, public=True, pick="points")
    response = Client().get(url)
    assert response.status_code == 200
    rows = response.context["rows"]
    assert response.context["title"] == "Saison"
    assert len(rows) == 8 and rows[0]["rank"] == 1
    assert rows[0]["figure"] == 25  # the default key's first place
    assert rows[0]["name"] in response.content.decode()


# -- nothing private -----------------------------------------------------------------------


def test_no_contact_reference_or_private_link_is_in_any_public_output():
    factories.presets()
    club = public_club()
    RankingSettings.objects.create(club=club, public=True)
    t = announced(club)
    r = signup.register(t, name="Rosa", cards=1, contact="rosa@example.org")
    waiting = signup.register(t, name="Max", cards=1, contact="+43 664 7654321")
    running = simulate(club, cards=8, players=6, max_cards=2, seed=1, stop_after=1)
    pairings = Pairing.objects.filter(tournament=running)
    secrets = {
        "rosa@example.org",
        "7654321",
        r.token,
        r.reference,
        waiting.token,
        waiting.reference,
    }
    for p in pairings:
        secrets |= {p.token, p.left_token, p.right_token}
    anyone = Client()
    urls = [
        reverse(name, kwargs={"slug": club.slug})
        for name in ("club_page", "club_json", "club_calendar", "nights_widget", "ranking_widget")
    ]
    urls.append(reverse("bracket_widget", kwargs={"token": running.public_token}))
    for url in urls:
        response = anyone.get(url)
        assert response.status_code == 200, url
        body = response.content.decode()
        if url.endswith(".json"):
            body = json.dumps(json.loads(body), ensure_ascii=False)
        assert [s for s in secrets if s in body] == [], url
        assert "@" not in body.replace(f"@{club.slug}.bummerl", ""), url
