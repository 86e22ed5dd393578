"""A private link cannot tie up the server: a sheet takes a bounded number of deals (as
an import does), no printout is made twice for the same content, and a link makes a
bounded number of new printouts in a while (``base.printing``)."""

import pytest
import weasyprint
from django.test import Client
from django.urls import reverse

from scoring.models import Deal
from tests import factories

pytestmark = pytest.mark.django_db
BETTLER_BEN = {"kind": "dreier", "declarer": 1, "contract": "bettler", "won": 1}
FULL_DE = "Ein Blatt hat höchstens 3 Spiele: für die nächsten einen neuen Tisch öffnen."
ROWS_DE = (
    "Ein Blatt hat höchstens 6 Zeilen, gestrichene und korrigierte Spiele mitgezählt: "
    "für die nächsten Spiele einen neuen Tisch öffnen."
)
TOO_MANY_DE = "Zu viele neue Ausdrucke in kurzer Zeit: bitte in 10 Minuten noch einmal versuchen."


@pytest.fixture
def made(monkeypatch):
    """How many PDFs WeasyPrint actually wrote (the library's call, counted)."""
    calls = []
    write = weasyprint.HTML.write_pdf

    def counted(self, *args, **kwargs):
        calls.append(1)
        return write(self, *args, **kwargs)

    monkeypatch.setattr(weasyprint.HTML, "write_pdf", counted)
    return calls


def link(sheet, name, **kwargs):
    return reverse(f"entry:{name}", kwargs={"token": sheet.entry_token, **kwargs})


def record(client, sheet):
    return client.post(
        link(sheet, "record"),
        {"key": factories.key(), **BETTLER_BEN},
        headers={"HX-Request": "true"},
    )


def test_a_sheet_takes_no_more_than_the_deals_an_import_may_have(settings):
    settings.BUMMERL_MAX_DEALS = 3
    sheet = factories.sheet(factories.club())
    phone = Client()
    for _ in range(3):
        assert "Gespeichert" in record(phone, sheet).content.decode()
    refused = record(phone, sheet)
    assert refused.status_code == 200
    assert FULL_DE in refused.content.decode()
    assert Deal.objects.filter(sheet=sheet).count() == 3


def test_corrections_cannot_grow_a_sheet_without_end(settings, client):
    settings.BUMMERL_MAX_DEALS = 3
    club = factories.club()
    sheet = factories.sheet(club)
    client.force_login(factories.user(club, role="organiser"))
    record(Client(), sheet)
    answers = []
    for _ in range(6):
        deal = Deal.objects.filter(sheet=sheet, voided_at=None).get()
        url = reverse("sheet:correct", kwargs={"pk": sheet.pk, "deal_id": deal.pk})
        answers.append(client.post(url, {"key": factories.key(), **BETTLER_BEN}, follow=True))
    # 1 deal + 5 corrections = 6 rows; the sixth correction would make a seventh.
    assert Deal.objects.filter(sheet=sheet).count() == 6
    assert ROWS_DE in answers[-1].content.decode()
    assert ROWS_DE not in answers[-2].content.decode()


def test_the_same_printout_in_the_same_state_is_made_once(made, client):
    club = factories.club()
    sheet = factories.sheet(club)
    client.force_login(factories.user(club, role="member"))
    url = reverse("sheet:print_summary", kwargs={"pk": sheet.pk})
    first = client.get(url)
    again = client.get(url)
    assert (first.status_code, again.status_code, len(made)) == (200, 200, 1)
    assert again.content == first.content and again["Content-Type"] == "application/pdf"
    record(Client(), sheet)  # a new state: a new printout
    assert client.get(url).content != first.content
    assert len(made) == 2
    # In English it is another document.
    client.cookies["django_language"] = "en"
    client.get(url)
    assert len(made) == 3


def test_a_link_makes_a_bounded_number_of_new_printouts(made, settings):
    settings.PRINT_RENDERS = 3
    settings.PRINT_WINDOW = 600
    sheet = factories.sheet(factories.club())
    other = factories.sheet(sheet.club, names=("Dora", "Emil", "Fritz"))
    phone = Client()
    summary = link(sheet, "print_summary")
    for _ in range(3):
        record(phone, sheet)
        assert phone.get(summary).status_code == 200
    # What was made already is handed out again without counting.
    assert phone.get(summary).status_code == 200
    record(phone, sheet)
    refused = phone.get(summary)
    assert refused.status_code == 429
    assert refused.content.decode() == TOO_MANY_DE
    assert refused["Retry-After"] == "600"
    assert phone.get(link(sheet, "print_blank")).status_code == 429
    assert len(made) == 3
    # Another link counts apart.
    assert phone.get(link(other, "print_summary")).status_code == 200
    assert len(made) == 4


def test_members_print_with_a_count_of_their_own(made, settings, client):
    settings.PRINT_RENDERS = 1
    settings.PRINT_RENDERS_ACCOUNT = 3
    club = factories.club()
    sheet = factories.sheet(club)
    client.force_login(factories.user(club, role="organiser"))
    for name in ("print_summary", "print_blank"):
        assert client.get(reverse(f"sheet:{name}", kwargs={"pk": sheet.pk})).status_code == 200
    record(Client(), sheet)
    assert client.get(reverse("sheet:print_summary", kwargs={"pk": sheet.pk})).status_code == 200
    assert len(made) == 3
    record(Client(), sheet)
    refused = client.get(reverse("sheet:print_summary", kwargs={"pk": sheet.pk}))
    assert refused.status_code == 429
    assert refused.content.decode() == TOO_MANY_DE
    assert len(made) == 3


def test_the_count_starts_again_when_the_window_is_over(made, settings, monkeypatch):
    from datetime import timedelta

    from django.utils import timezone

    settings.PRINT_RENDERS = 1
    settings.PRINT_WINDOW = 600
    clock = [timezone.now()]
    monkeypatch.setattr(timezone, "now", lambda: clock[0])
    sheet = factories.sheet(factories.club())
    phone = Client()
    assert phone.get(link(sheet, "print_summary")).status_code == 200
    assert phone.get(link(sheet, "print_blank")).status_code == 429
    clock[0] += timedelta(seconds=599)
    assert phone.get(link(sheet, "print_blank")).status_code == 429
    clock[0] += timedelta(seconds=2)
    assert phone.get(link(sheet, "print_blank")).status_code == 200
    assert len(made) == 2
