"""A table is named the same wherever it is shown: its title, else its players' names in
seat order ("Anna · Ben · Clara"): the sheet page (title and heading), the link page, the
club's list of tables, a player's page and both printouts."""

import io
import re

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests import factories

pytestmark = pytest.mark.django_db
NAMED = "Anna · Ben · Clara"


def pdf_title_line(response) -> str:
    return PdfReader(io.BytesIO(response.content)).pages[0].extract_text().splitlines()[0]


@pytest.mark.parametrize("title", ["", "Stammtisch"])
def test_a_table_has_one_name_on_every_page_and_printout(client, title):
    club = factories.signed_in_club(client)
    sheet = factories.sheet(club)
    sheet.title = title
    sheet.save(update_fields=["title"])
    factories.fill(sheet, count=3)
    name = title or NAMED
    page = client.get(reverse("sheet:page", kwargs={"pk": sheet.pk})).content.decode()
    assert f"<title>{name} · Bummerl</title>" in page
    assert re.search(rf"<h1>{re.escape(name)}\s", page)
    link = client.get(reverse("sheet:link", kwargs={"pk": sheet.pk})).content.decode()
    assert f"<small>{name}</small>" in link and f'data-title="{name}"' in link
    tables = client.get(reverse("club", kwargs={"slug": club.slug})).content.decode()
    assert f">{name}</a>" in tables
    anna = sheet.seats.get(position=0).player
    url = reverse("player", kwargs={"slug": club.slug, "player_id": anna.pk})
    assert f">{name}</a>" in client.get(url).content.decode()
    for printout in ("print_blank", "print_summary"):
        response = client.get(reverse(f"sheet:{printout}", kwargs={"pk": sheet.pk}))
        assert pdf_title_line(response) == f"{name} · Dreierschnapsen"
