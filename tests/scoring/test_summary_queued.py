"""The summary of a long sheet is made by the task worker, not in the request
(``scoring.views.printing.HEAVY_DEALS``), and counts in the account's limit on new
printouts like every other."""

import pytest
from django.test import Client
from django.urls import reverse
from django_q.models import OrmQ

from base.models import PrintJob
from scoring.views import printing
from tests import factories
from tests.base.test_printing import pdf_of, text_of
from tests.markup import squeezed

pytestmark = pytest.mark.django_db
TOO_MANY_DE = "Zu viele neue Ausdrucke in kurzer Zeit: bitte in 10 Minuten noch einmal versuchen."


@pytest.fixture
def long_sheet(monkeypatch):
    """A sheet one deal longer than the longest made in the request (4 deals, with the
    threshold at 3 for the test)."""
    monkeypatch.setattr(printing, "HEAVY_DEALS", 3)
    sheet = factories.sheet(factories.club())
    factories.fill(sheet, count=4)
    return sheet


def summary_url(sheet) -> str:
    return reverse("sheet:print_summary", kwargs={"pk": sheet.pk})


def test_a_long_sheets_summary_is_queued_and_the_page_shows_its_progress(long_sheet, settings):
    settings.TASKS_SYNC = False
    member = factories.signed_in(factories.user(long_sheet.club, role="member"))
    first = member.get(summary_url(long_sheet))
    assert first.status_code == 202
    html = squeezed(first.content.decode())
    assert "Die PDF wird erstellt …" in html
    assert "Schritt 1 von 3: warte auf den Hintergrunddienst" in html
    assert member.get(summary_url(long_sheet)).status_code == 202
    assert OrmQ.objects.count() == 1  # one job, however often the page asks
    job = PrintJob.objects.get()
    assert (job.job, job.args) == ("scoring.views.printing.summary_job", [long_sheet.pk])
    # The private link asks for the same printout: the same job.
    phone = Client()
    link = reverse("entry:print_summary", kwargs={"token": long_sheet.entry_token})
    assert phone.get(link).status_code == 202
    assert OrmQ.objects.count() == 1


def test_a_new_deal_makes_a_new_job_and_a_short_sheet_is_made_at_once(long_sheet, settings):
    settings.TASKS_SYNC = False
    member = factories.signed_in(factories.user(long_sheet.club, role="member"))
    member.get(summary_url(long_sheet))
    factories.fill(long_sheet, count=5)
    member.get(summary_url(long_sheet))
    assert OrmQ.objects.count() == 2
    short = factories.sheet(long_sheet.club, names=("Dora", "Emil", "Fritz"))
    factories.fill(short, count=3)
    made = member.get(summary_url(short))
    assert made.status_code == 200 and made["Content-Type"] == "application/pdf"
    assert OrmQ.objects.count() == 2


def test_the_workers_summary_is_the_summary(long_sheet):
    """In the test run the task runs at once: the page is the PDF."""
    member = factories.signed_in(factories.user(long_sheet.club, role="member"))
    text = text_of(pdf_of(member.get(summary_url(long_sheet))))
    assert all(name in text for name in ("Anna", "Ben", "Clara"))
    assert PrintJob.objects.get().step == PrintJob.Step.DONE


def test_queued_summaries_count_in_the_accounts_limit(long_sheet, settings):
    settings.TASKS_SYNC = False
    settings.PRINT_RENDERS_ACCOUNT = 2
    member = factories.signed_in(factories.user(long_sheet.club, role="member"))
    assert member.get(summary_url(long_sheet)).status_code == 202
    factories.fill(long_sheet, count=5)
    assert member.get(summary_url(long_sheet)).status_code == 202
    factories.fill(long_sheet, count=6)
    refused = member.get(summary_url(long_sheet))
    assert refused.status_code == 429
    assert refused.content.decode() == TOO_MANY_DE
    assert refused["Retry-After"] == "600"
    assert OrmQ.objects.count() == 2
