"""The start page, the pages' description and the web app's manifest name the three
games the site keeps score of: Schnapsen, Dreierschnapsen and Bauernschnapsen (the
description names the Preisschnapsen nights as well)."""

import json
import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

GAMES = ("Schnapsen", "Dreierschnapsen", "Bauernschnapsen")


def test_the_start_page_names_the_three_games(client):
    html = client.get(reverse("home")).content.decode()
    intro = re.search(r"<h1>Bummerl</h1>\s*<p>\s*([^<]*)</p>", html).group(1)
    assert intro.startswith(
        "Aufschreiben für Schnapsen, Dreierschnapsen und Bauernschnapsen: jedes Spiel"
    )
    description = re.search(r'<meta name="description"\s+content="([^"]*)">', html).group(1)
    assert description == (
        "Bummerl: Aufschreiben für Schnapsen, Dreierschnapsen, Bauernschnapsen und "
        "Preisschnapsen-Abende"
    )


def test_the_manifest_names_the_three_games(client):
    manifest = json.loads(client.get(reverse("manifest")).content)
    assert all(game in manifest["description"] for game in GAMES)
