"""HEAD answers as GET does on every page (a link checker or a proxy's health check sends
HEAD), and /healthz answers 200 even where every other address is sent to HTTPS."""

import datetime
import uuid

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from clubs.models import Invitation, Membership, Player
from scoring import services as scoring
from scoring.models import Deal, RuleSet
from scoring.rules import DreierDeal
from seasons.models import Season
from tests import factories
from tournaments.models import Card, Pairing, Round
from tournaments.simulation import simulate


def _params(resolver=None):
    """Every route's parameter names, prefixes included (``include`` patterns add slug)."""
    resolver = resolver or get_resolver()
    for item in resolver.url_patterns:
        if isinstance(item, URLResolver):
            if item.app_name == "admin":
                continue
            outer = tuple(item.pattern.converters)
            for name, inner in _params(item):
                prefix = f"{item.namespace}:" if item.namespace else ""
                yield prefix + name, outer + inner
        elif isinstance(item, URLPattern) and item.name:
            yield item.name, tuple(item.pattern.converters)


@pytest.mark.django_db
def test_head_answers_as_get_on_every_page_for_a_signed_in_owner():
    factories.presets()
    club = factories.club()
    owner = factories.user(club, role="owner")
    sheet = factories.sheet(club)
    actor = scoring.Actor(owner)
    scoring.record_entry(sheet, DreierDeal("gang", 0, True), uuid.uuid4(), actor)
    t = simulate(club, cards=8, players=6, max_cards=2, seed=1, stop_after=1)
    invitation = Invitation.objects.create(
        club=club, role="member", expires_at=timezone.now() + datetime.timedelta(days=1)
    )
    pairing = Pairing.objects.filter(tournament=t, kind="match").first()
    registration = factories.announced_registration(club)  # an announced night (issue 28)
    season = Season.objects.create(
        club=club,
        name="2026",
        first_day=datetime.date(2026, 1, 1),
        last_day=datetime.date(2026, 12, 31),
    )
    values = {
        "slug": club.slug,
        "season_id": season.pk,
        "pk": sheet.pk,
        "deal_id": Deal.objects.filter(sheet=sheet).first().pk,
        "membership_id": Membership.objects.get(user=owner).pk,
        "invitation_id": invitation.pk,
        "player_id": Player.objects.get(club=club, name="Anna").pk,
        "rule_set_id": RuleSet.objects.filter(club__isnull=True).first().pk,
        "tournament_id": t.pk,
        "card_id": Card.objects.filter(tournament=t).first().pk,
        "round_id": Round.objects.filter(tournament=t).first().pk,
        "pairing_id": pairing.pk,
        "registration_id": registration.pk,
        "number": 1,
        "action": "renew",
        "side": "left",
        "variant": "dreierschnapsen",
        "uidb64": "MQ",
        # cups (issue 30): no body of the club's slug, so these answer 404 to GET and HEAD
        "cup_slug": "cup",
        "club_id": club.pk,
        "night_id": 1,
        "link_id": 1,
        "cup_id": 1,
    }
    tokens = {
        "join": invitation.token,
        "match_link": pairing.token,
        "match_sheet": pairing.token,
        "bracket": t.public_token,
        "room_screen": t.public_token,
        "side_link": pairing.left_token,
        "register": registration.tournament.public_token,
        "registration_link": registration.token,
    }
    client = Client()
    client.force_login(owner)
    walked, unresolved, differ = [], [], []
    for name, params in dict(_params()).items():
        kwargs = {}
        for param in params:
            if param == "token":
                kwargs[param] = (
                    sheet.entry_token if name.startswith("entry:") else tokens.get(name, "x")
                )
            elif param in values:
                kwargs[param] = values[param]
            else:
                unresolved.append((name, param))
                break
        else:
            url = reverse(name, kwargs=kwargs)
            get = client.get(url).status_code
            head = client.head(url).status_code
            walked.append((name, get))
            if get != head:
                differ.append((url, get, head))
    assert unresolved == []
    assert differ == []
    # The walk reached the pages, not only refusals: most answer 200.
    assert len(walked) >= 50
    shown = sorted(name for name, code in walked if code == 200)
    for name in ("club", "members", "players", "sheet:page", "entry:page", "tournament"):
        assert name in shown
    head = client.head(reverse("sheet:page", kwargs={"pk": sheet.pk}))
    assert head.status_code == 200


@pytest.mark.django_db
def test_healthz_answers_head_and_get_with_200_while_the_rest_is_sent_to_https(settings):
    settings.SECURE_SSL_REDIRECT = True
    client = Client()
    assert client.get("/").status_code == 301
    assert client.get("/").headers["Location"] == "https://testserver/"
    for method in (client.get, client.head):
        response = method("/healthz")
        assert response.status_code == 200
    assert client.get("/healthz").content == b"ok"


def test_production_settings_exempt_healthz_from_the_https_redirect(settings):
    import re

    assert any(re.search(pattern, "healthz") for pattern in settings.SECURE_REDIRECT_EXEMPT)
    assert not any(re.search(pattern, "healthzz") for pattern in settings.SECURE_REDIRECT_EXEMPT)
    assert not any(re.search(pattern, "c/x/healthz") for pattern in settings.SECURE_REDIRECT_EXEMPT)
