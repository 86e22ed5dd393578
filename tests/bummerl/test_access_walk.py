"""Every page of the site for every kind of visitor, against a table kept here.

Codes: 200 shown, 302 sent to sign in, 403 refused (role too low), 404 not found (not
a member, or a wrong link). Writes are POSTs with the same table of roles.
"""

import pytest
from django.test import Client
from django.urls import reverse

from tests import factories
from tournaments.models import Card, Pairing
from tournaments.personal import personal_token
from tournaments.services.reading import load_state
from tournaments.simulation import simulate

pytestmark = pytest.mark.django_db

PERSONAS = ("anonymous", "stranger", "member", "scorer", "organiser", "owner")
READ = {
    "anonymous": 302,
    "stranger": 404,
    "member": 200,
    "scorer": 200,
    "organiser": 200,
    "owner": 200,
}
SCORE = {**READ, "member": 403}
MANAGE = {**SCORE, "scorer": 403}
OWN = {**MANAGE, "organiser": 403}
SITE = {**dict.fromkeys(PERSONAS, 403), "anonymous": 302}  # superusers only
PUBLIC = dict.fromkeys(PERSONAS, 200)
NOBODY = dict.fromkeys(PERSONAS, 404)


@pytest.fixture
def world():
    factories.presets()
    club = factories.club()
    other = factories.club()
    sheet = factories.sheet(club)
    tournament = simulate(club, cards=8, players=6, max_cards=2, seed=1, stop_after=1)
    clients = {"anonymous": Client()}
    clients["stranger"] = Client()
    clients["stranger"].force_login(factories.user(other, role="owner"))
    for role in ("member", "scorer", "organiser", "owner"):
        clients[role] = Client()
        clients[role].force_login(factories.user(club, role=role))
    return club, sheet, tournament, clients


def _player(club, name):
    from clubs.models import Player

    return Player.objects.get(club=club, name=name)


def public_face():
    """A club whose page and rankings are public (issue 28), made once, with a night
    being played: ``(club, night)``."""
    from clubs.models import Club
    from seasons.models import RankingSettings

    found = Club.objects.filter(public_page=True, name__startswith="Offen").first()
    if found is not None:
        return found, found.tournaments.first()
    club = factories.club(name="Offen")
    Club.objects.filter(pk=club.pk).update(public_page=True)
    club.refresh_from_db()
    RankingSettings.objects.create(club=club, public=True)
    night = simulate(club, cards=8, players=6, max_cards=2, seed=2, stop_after=1)
    return club, night


def pages(club, sheet, t):
    slug = club.slug
    registration = factories.announced_registration(club)
    face, face_night = public_face()
    night = registration.tournament
    state = load_state(t)
    deal_free = {"pk": sheet.pk}
    pairing = Pairing.objects.filter(tournament=t).first()
    match = Pairing.objects.filter(tournament=t, kind="match").first()
    card = Card.objects.filter(tournament=t).first()
    return [
        (reverse("club", kwargs={"slug": slug}), READ),
        (reverse("players", kwargs={"slug": slug}), READ),
        (reverse("player_search", kwargs={"slug": slug}) + "?q=a", READ),
        (reverse("player", kwargs={"slug": slug, "player_id": _player(club, "Anna").pk}), READ),
        (
            reverse("player_merge", kwargs={"slug": slug, "player_id": _player(club, "Ben").pk})
            + "?name=Spieler+1",
            MANAGE,
        ),
        (reverse("rule_sets", kwargs={"slug": slug}), READ),
        (reverse("club_history", kwargs={"slug": slug}), MANAGE),
        (reverse("members", kwargs={"slug": slug}), OWN),
        (reverse("manage_tables", kwargs={"slug": slug}), OWN),
        (reverse("site_admin"), SITE),
        # accounts exist: there is no first-run page
        (reverse("setup"), dict.fromkeys(PERSONAS, 404)),
        (reverse("open_table", kwargs={"slug": slug}), SCORE),
        (reverse("import_table", kwargs={"slug": slug}), SCORE),
        (reverse("sheet:page", kwargs=deal_free), READ),
        (reverse("sheet:export", kwargs=deal_free), READ),
        (reverse("sheet:print_summary", kwargs=deal_free), READ),
        (reverse("sheet:link", kwargs=deal_free), {**READ, "member": 403, "scorer": 403}),
        (reverse("tournaments", kwargs={"slug": slug}), READ),
        (reverse("tournament", kwargs={"slug": slug, "tournament_id": t.pk}), READ),
        (reverse("round", kwargs={"slug": slug, "tournament_id": t.pk, "number": 1}), READ),
        (reverse("tournament_export", kwargs={"slug": slug, "tournament_id": t.pk}), READ),
        (reverse("print_prizes", kwargs={"slug": slug, "tournament_id": t.pk}), READ),
        (reverse("print_cash", kwargs={"slug": slug, "tournament_id": t.pk}), MANAGE),
        (reverse("seats", kwargs={"slug": slug, "tournament_id": t.pk}), READ),
        (reverse("print_seats", kwargs={"slug": slug, "tournament_id": t.pk}), READ),
        # each player's personal link for the night: organisers hand them out
        (reverse("personal_links", kwargs={"slug": slug, "tournament_id": t.pk}), MANAGE),
        (reverse("print_personal_links", kwargs={"slug": slug, "tournament_id": t.pk}), MANAGE),
        (reverse("personal", kwargs={"token": personal_token(t.pk, card.player_id)}), PUBLIC),
        ("/p/me/not-a-token/", dict.fromkeys(PERSONAS, 404)),
        # announced nights (issue 28): the desk's registrations, the public form, the
        # registration's private link
        (reverse("registrations", kwargs={"slug": slug, "tournament_id": t.pk}), READ),
        (reverse("registrations", kwargs={"slug": slug, "tournament_id": night.pk}), READ),
        (
            reverse("registration_window", kwargs={"slug": slug, "tournament_id": night.pk}),
            READ,
        ),
        (reverse("register", kwargs={"token": night.public_token}), PUBLIC),
        (reverse("register", kwargs={"token": t.public_token}), dict.fromkeys(PERSONAS, 404)),
        (reverse("registration_link", kwargs={"token": registration.token}), PUBLIC),
        ("/p/r/not-a-token/", dict.fromkeys(PERSONAS, 404)),
        # the registered player's calendar, under its own token, never the private link's
        (reverse("registration_calendar", kwargs={"token": registration.feed_token}), PUBLIC),
        ("/p/cal/not-a-token/calendar.ics", dict.fromkeys(PERSONAS, 404)),
        (
            reverse("registration_calendar", kwargs={"token": registration.token}),
            dict.fromkeys(PERSONAS, 404),
        ),
        (f"/p/r/{registration.token}/calendar.ics", dict.fromkeys(PERSONAS, 410)),
        # the club's public face (issue 28): public where the owner made it so, else 404
        *[
            (reverse(name, kwargs={"slug": c.slug}), PUBLIC if c == face else NOBODY)
            for c in (face, club)
            for name in (
                "club_page",
                "club_json",
                "club_calendar",
                "club_colour",
                "nights_widget",
                "ranking_widget",
            )
        ],
        (reverse("bracket_widget", kwargs={"token": face_night.public_token}), PUBLIC),
        (reverse("bracket_widget", kwargs={"token": t.public_token}), NOBODY),
        # No draw is being typed in: no call list.
        (
            reverse("print_calls", kwargs={"slug": slug, "tournament_id": t.pk}),
            {**MANAGE, "organiser": 404, "owner": 404},
        ),
        (
            reverse(
                "print_match_sheets", kwargs={"slug": slug, "tournament_id": t.pk, "number": 1}
            ),
            MANAGE,
        ),
        # No draw is being typed in: the organiser is sent back to the desk.
        (
            reverse("physical_draw", kwargs={"slug": slug, "tournament_id": t.pk}),
            {**MANAGE, "organiser": 302, "owner": 302},
        ),
        (reverse("bracket", kwargs={"token": t.public_token}), PUBLIC),
        (reverse("room_screen", kwargs={"token": t.public_token}), PUBLIC),
        (reverse("public_seats", kwargs={"token": t.public_token}), PUBLIC),
        (
            reverse(
                "side_links",
                kwargs={"slug": slug, "tournament_id": t.pk, "pairing_id": match.pk},
            ),
            MANAGE,
        ),
        (reverse("side_link", kwargs={"token": match.left_token}), PUBLIC),
        # ranking, categories, consolation, the check of the draws (RULES.md 5.8-5.12)
        (reverse("categories", kwargs={"slug": slug}), READ),
        (reverse("tournament_ranking", kwargs={"slug": slug, "tournament_id": t.pk}), READ),
        (reverse("open_consolation", kwargs={"slug": slug, "tournament_id": t.pk}), MANAGE),
        (reverse("verify_draws", kwargs={"token": t.public_token}), PUBLIC),
        (reverse("public_export", kwargs={"token": t.public_token}), PUBLIC),
        (reverse("match_link", kwargs={"token": pairing.token}), PUBLIC),
        (reverse("entry:page", kwargs={"token": sheet.entry_token}), PUBLIC),
        ("/e/not-a-token/", dict.fromkeys(PERSONAS, 404)),
        (
            f"/c/{slug}/tournaments/999999/",
            {**READ, "member": 404, "scorer": 404, "organiser": 404, "owner": 404},
        ),
    ], state


def test_every_page_answers_every_visitor_as_the_table_says(world):
    club, sheet, t, clients = world
    table, _state = pages(club, sheet, t)
    wrong = []
    for url, expected in table:
        for persona in PERSONAS:
            code = clients[persona].get(url).status_code
            if code != expected[persona]:
                wrong.append((url, persona, code, expected[persona]))
    assert wrong == []


def test_writes_answer_every_visitor_as_the_table_says(world):
    club, sheet, t, clients = world
    slug = club.slug
    posts = [
        (reverse("players", kwargs={"slug": slug}), {"name": "Neu"}, SCORE),
        (
            reverse("sheet:record", kwargs={"pk": sheet.pk}),
            {"kind": "redeal", "key": factories.key()},
            SCORE,
        ),
        (
            reverse("sheet:link_change", kwargs={"pk": sheet.pk, "action": "renew"}),
            {},
            {**SCORE, "scorer": 403},
        ),
        (reverse("sell", kwargs={"slug": slug, "tournament_id": t.pk}), {"name": "X"}, MANAGE),
        (reverse("draw_next", kwargs={"slug": slug, "tournament_id": t.pk}), {}, MANAGE),
        (
            reverse("registration_window", kwargs={"slug": slug, "tournament_id": t.pk}),
            {"opens": "", "closes": ""},
            MANAGE,
        ),
        (
            reverse(
                "registration_action",
                kwargs={
                    "slug": slug,
                    "tournament_id": t.pk,
                    "registration_id": 1,
                    "action": "no-show",
                },
            ),
            {},
            {**MANAGE, "organiser": 404, "owner": 404},  # no registration of that night
        ),
        (
            reverse("registration_terms", kwargs={"slug": slug, "tournament_id": t.pk}),
            {"transfer_to": ""},
            MANAGE,
        ),
        (
            reverse("registrations_release", kwargs={"slug": slug, "tournament_id": t.pk}),
            {},
            MANAGE,
        ),
        (reverse("pay_player", kwargs={"slug": slug, "tournament_id": t.pk}), {}, MANAGE),
        (
            reverse("set_tables", kwargs={"slug": slug, "tournament_id": t.pk}),
            {"tables": "2", "seen": "0"},
            MANAGE,
        ),
        (reverse("categories", kwargs={"slug": slug}), {"name": "Damen"}, MANAGE),
        (reverse("draw_lots", kwargs={"slug": slug, "tournament_id": t.pk}), {}, MANAGE),
        (
            reverse("player_rename", kwargs={"slug": slug, "player_id": _player(club, "Ben").pk}),
            {"name": "Ben"},
            MANAGE,
        ),
        (reverse("club_rename", kwargs={"slug": slug}), {"name": "Neuer Name"}, OWN),
        (reverse("club_face", kwargs={"slug": slug}), {"colour": "#0b5d3b"}, OWN),
        (
            reverse("rename_table", kwargs={"slug": slug, "pk": sheet.pk}),
            {"title": "Freitag"},
            OWN,
        ),
        (reverse("archive_table", kwargs={"slug": slug, "pk": sheet.pk}), {}, OWN),
        (reverse("restore_table", kwargs={"slug": slug, "pk": sheet.pk}), {}, OWN),
        (reverse("site_backup"), {}, SITE),
        (reverse("site_reset"), {"username": "x"}, SITE),
        # The organiser merges; the owner, sending it again, is told it is done (302).
        # (A typo of a player who met him in no match: two who met are refused.)
        (
            reverse(
                "player_merge", kwargs={"slug": slug, "player_id": _player(club, "Spieler 1").pk}
            ),
            {"other": factories.players(club, "Spieler Eins")[0].pk},
            MANAGE,
        ),
    ]
    wrong = []
    for url, data, expected in posts:
        for persona in PERSONAS:
            if persona != "anonymous" and "key" in data:
                data = {**data, "key": factories.key()}
            code = clients[persona].post(url, data).status_code
            # An allowed write answers with the page (200) or a redirect after it (302).
            good = code in (200, 302) if expected[persona] == 200 else code == expected[persona]
            if not good:
                wrong.append((url, persona, code, expected[persona]))
    assert wrong == []
