"""The entry link page: a readable, unguessable link to copy and share; a revoked link
offers nothing to copy."""

import re

import pytest
from django.urls import reverse

from scoring import services, upkeep
from scoring.models import Sheet, new_token
from tests import factories
from tests.markup import squeezed

pytestmark = pytest.mark.django_db

READABLE = re.compile(r"^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}$")


@pytest.fixture
def table(client):
    club = factories.signed_in_club(client)
    return factories.sheet(club)


def link_page(client, sheet) -> str:
    response = client.get(reverse("sheet:link", kwargs={"pk": sheet.pk}))
    assert response.status_code == 200
    return response.content.decode()


def test_a_new_link_is_four_groups_of_four_signs_with_80_random_bits():
    tokens = {new_token() for _ in range(2000)}
    assert len(tokens) == 2000
    assert all(READABLE.match(t) for t in tokens)
    # 16 signs of an alphabet of 32: 16 × 5 = 80 bits of randomness.
    signs = {c for t in tokens for c in t.replace("-", "")}
    assert len(signs) == 32 and not signs & set("ilou")


def test_the_link_page_offers_copy_and_share_with_the_link_in_a_field(client, table):
    html = link_page(client, table)
    url = f"http://testserver/e/{table.entry_token}/"
    assert READABLE.match(table.entry_token)
    assert f'<input class="copy" readonly value="{url}"' in html
    # Both buttons are shown by the script (copy always, share where the phone has one).
    html = squeezed(html)
    assert re.search(r"<button type=\"button\" data-copy hidden[^>]*>Link kopieren</button>", html)
    assert re.search(r"<button type=\"button\" data-share-sheet hidden[^>]*>Teilen</button>", html)
    assert "js/share." in html


def test_a_revoked_link_disables_copy_and_share_and_says_why(client, table):
    upkeep.revoke_link(table, services.Actor())
    html = link_page(client, table)
    assert "Der Link ist gesperrt" in html
    assert table.entry_token not in html
    assert html.count('disabled aria-describedby="link-revoked"') == 2
    assert "Nichts zu kopieren oder zu teilen: zuerst einen neuen Link machen." in html


def test_an_old_style_link_keeps_working(client, table):
    Sheet.objects.filter(pk=table.pk).update(entry_token="Ab3_xY9-kLmNoPqRsTuVwX12")
    assert client.get("/e/Ab3_xY9-kLmNoPqRsTuVwX12/").status_code == 200
    assert client.get("/e/ab3_xy9-klmnopqrstuvwx12/").status_code == 404


def test_a_renewed_link_is_readable_and_the_old_one_is_dead(client, table):
    old = table.entry_token
    client.post(reverse("sheet:link_change", kwargs={"pk": table.pk, "action": "renew"}))
    table.refresh_from_db()
    assert READABLE.match(table.entry_token) and table.entry_token != old
    assert client.get(f"/e/{old}/").status_code == 404
    assert client.get(f"/e/{table.entry_token}/").status_code == 200
