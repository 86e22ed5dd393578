"""The standings of a large Leben or points night and the call list of a large night's
draw at the venue are made by the task worker, as the other printouts of a large night
(``tournaments.printing.HEAVY_CARDS``); a small night's are made in the request."""

import uuid

import pytest
from django.urls import reverse
from django_q.models import OrmQ

from base.models import PrintJob
from tests import factories
from tournaments import printing
from tournaments.services.cards import sell_cards
from tournaments.services.physical_draws import start_physical_draw
from tournaments.services.sheets import Actor

pytestmark = pytest.mark.django_db


def url(name, t):
    return reverse(name, kwargs={"slug": t.club.slug, "tournament_id": t.pk})


@pytest.fixture
def organiser(client):
    club = factories.club()
    client.force_login(factories.user(club))
    return club, client


def test_the_standings_of_a_large_leben_night_are_queued(organiser, settings, monkeypatch):
    settings.TASKS_SYNC = False
    club, client = organiser
    monkeypatch.setattr(printing, "HEAVY_CARDS", 6)
    small = factories.leben_night(club, players=5)
    made = client.get(url("print_standings", small))
    assert made.status_code == 200 and made["Content-Type"] == "application/pdf"
    large = factories.leben_night(club, players=6)
    queued = client.get(url("print_standings", large))
    assert queued.status_code == 202
    assert "Die PDF wird erstellt …" in queued.content.decode()
    job = PrintJob.objects.get()
    assert (job.job, job.args) == ("tournaments.views.formats.standings_job", [large.pk])
    assert OrmQ.objects.count() == 1


def test_the_workers_standings_are_the_standings(organiser, monkeypatch):
    """In the test run the task runs at once: the page is the PDF."""
    club, client = organiser
    monkeypatch.setattr(printing, "HEAVY_CARDS", 6)
    large = factories.leben_night(club, players=6)
    made = client.get(url("print_standings", large))
    assert made.status_code == 200 and made["Content-Type"] == "application/pdf"
    assert PrintJob.objects.get().step == PrintJob.Step.DONE


def test_the_call_list_of_a_large_night_is_queued(organiser, settings, monkeypatch):
    settings.TASKS_SYNC = False
    club, client = organiser
    monkeypatch.setattr(printing, "HEAVY_CARDS", 8)
    t = factories.tournament(club, cards=8)
    for name in ("Anna", "Ben", "Clara", "Dora", "Emil"):
        sell_cards(t, name, 1, Actor(), uuid.uuid4(), paid=True)
    start_physical_draw(t, Actor())
    queued = client.get(url("print_calls", t))
    assert queued.status_code == 202
    job = PrintJob.objects.get()
    assert job.job == "tournaments.printing.calls_job"
    assert OrmQ.objects.count() == 1
