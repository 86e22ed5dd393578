"""The history page of an organising body: its entries and its cups', newest first,
in the registry's words; for its admins only, in a fixed number of queries."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs import audit
from clubs.models import Player
from cups import persons, services
from tests import factories
from tests.markup import squeezed

pytestmark = pytest.mark.django_db


def lines(html: str) -> list[str]:
    """Each entry as ("who · what", its details), in the page's order."""
    found = []
    for item in re.findall(r"<li>(.*?)</li>", squeezed(html), re.S):
        who = re.search(r'<span class="who">(.*?)</span>', item)
        what = re.search(r'<b class="what">(.*?)</b>', item)
        change = " ".join(
            re.sub(r"<[^>]+>", "", c).strip()
            for c in re.findall(r'<div class="change">(.*?)</div>', item, re.S)
        )
        if who and what:
            # The details in any order: PostgreSQL keeps them sorted its own way (jsonb).
            parts = frozenset(change.split(" · ")) if change else frozenset()
            found.append((f"{who.group(1)} · {what.group(1)}", parts))
    return found


def line(head: str, parts: str) -> tuple[str, frozenset[str]]:
    """An expected entry: "who · what" and its details, "|" between them."""
    return head, frozenset(parts.split(" | "))


def test_the_body_history_shows_the_body_and_its_cups_newest_first(client):
    admin = factories.user(username="vera")
    club = factories.club(name="Heim")
    body = factories.body(admin, name="Bezirksverband", clubs=(club,))
    cup = factories.cup(body, name="Bezirkscup")
    t = factories.played_night(club, ["Anna", "Ben"])
    night = services.count_night(cup, t, actor=audit.by(admin))
    services.remove_night(night, actor=audit.by(admin))
    player = Player.objects.get(club=club, name="Anna")
    link = persons.link_player(body, player, None, actor=audit.by(admin))
    persons.unlink(link, actor=audit.by(admin))
    client.force_login(admin)
    url = reverse("cups:history", kwargs={"slug": body.slug})
    response = client.get(url)
    assert response.status_code == 200
    today = t.starts_at.strftime("%d.%m.%Y")
    anna = (
        f"Spieler: Anna | Nummer des Spielers: {player.pk} | Verein: {club.name} | "
        f"Cup-Person: Anna | Nummer der Cup-Person: {link.person_id}"
    )
    night_parts = f"Abend: Cupabend | Verein: {club.name} | Tag: {today}"
    assert lines(response.content.decode()) == [
        line("vera · Verknüpfung mit einer Cup-Person aufgehoben", anna),
        line("vera · Spieler mit einer Cup-Person verknüpft", anna),
        line("vera · Abend aus dem Cup genommen · Bezirkscup", night_parts),
        line("vera · Abend in den Cup aufgenommen · Bezirkscup", night_parts),
        line(
            "– · Cup gespeichert · Bezirkscup",
            "Name: Bezirkscup | Adresse: bezirkscup | "
            f"erster Tag: {cup.first_day.isoformat()} | letzter Tag: {cup.last_day.isoformat()} | "
            "Punkteschlüssel: 1: 25 2: 20 3: 16 4: 13 5-8: 10 | Punkte für die Teilnahme: 1 | "
            "beste Abende gezählt: | Kategorien: | Erste qualifiziert: | "
            "Erste jeder Vorrunde qualifiziert: | Finale:",
        ),
        line(
            "vera · Verein dem Verband beigetreten", f"Verein: {club.name} | Adresse: {club.slug}"
        ),
        line("vera · Verband angelegt", f"Name: {body.name} | Adresse: {body.slug}"),
    ]
    # Another body's history is not in it; its page answers only its admins.
    other = factories.body(factories.user(username="otto"), name="Nachbarverband")
    assert "Nachbarverband" not in response.content.decode()
    client.force_login(factories.user(club, role="owner", username="obmann"))
    assert client.get(url).status_code == 404
    assert client.get(reverse("cups:history", kwargs={"slug": other.slug})).status_code == 404


def test_the_body_history_costs_the_same_queries_for_many_entries(client):
    admin = factories.user(username="vera")
    club = factories.club(name="Heim")
    body = factories.body(admin, clubs=(club,))
    cup = factories.cup(body)
    client.force_login(admin)
    url = reverse("cups:history", kwargs={"slug": body.slug})
    client.get(url)
    with CaptureQueriesContext(connection) as few:
        client.get(url)
    for n in range(5):
        t = factories.played_night(club, [f"Spieler {n}", f"Gegner {n}"])
        services.count_night(cup, t, actor=audit.by(admin))
    with CaptureQueriesContext(connection) as many:
        response = client.get(url)
    assert response.content.decode().count("Abend in den Cup aufgenommen") == 5
    assert len(many.captured_queries) == len(few.captured_queries)
