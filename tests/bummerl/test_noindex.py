"""A private link's page tells search engines not to index it (``X-Robots-Tag:
noindex``), decided in one place (``bummerl.middleware.NoIndexMiddleware``) by the
private routes of the URLconf: every such route is walked here, with made-up tokens
(whatever it answers) and with the real links of a club (200); public pages stay
indexable."""

import pytest
from django.test import Client

from tests.bummerl.test_log_tokens import token_paths
from tests.bummerl.test_private_links_walk import private_links, world  # noqa: F401

pytestmark = pytest.mark.django_db


def test_every_private_route_answers_noindex_whatever_it_answers():
    client = Client()
    paths = token_paths()
    assert len(paths) >= 20
    missing = []
    for path, _tokens in paths:
        response = client.get(path)
        if response.get("X-Robots-Tag") != "noindex":
            missing.append((path, response.status_code))
    assert missing == []


def test_the_real_private_links_of_a_club_answer_their_page_with_noindex(world):  # noqa: F811
    client = Client()
    links = private_links(world)
    assert {url.split("/")[1] for url, _who in links.values()} >= {"e", "m", "s", "p", "j"}
    for url, _who in links.values():
        response = client.get(url)
        assert response.status_code == 200, url
        assert response["X-Robots-Tag"] == "noindex", url
    sheet = world["sheet"]
    for tail in ("version/", "export.json", "print/"):
        response = client.get(f"/e/{sheet.entry_token}/{tail}")
        assert response["X-Robots-Tag"] == "noindex", tail


def test_public_pages_stay_indexable(world):  # noqa: F811
    club = world["club"]
    club.public_page = True
    club.save(update_fields=["public_page"])
    t = world["tournament"]
    client = Client()
    for url in ("/", f"/k/{club.slug}/", f"/p/{t.public_token}/", "/accounts/login/"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert "X-Robots-Tag" not in response, url
