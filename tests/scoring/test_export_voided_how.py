"""The JSON export's voided deals say how they left the sheet (undone right after
saving, struck out, or corrected) and by whom, as the sheet's history page does; the
export still imports."""

import json
import re

import pytest
from django.urls import reverse

from scoring import reading
from scoring.models import Deal
from tests import factories

pytestmark = pytest.mark.django_db


def post_deal(client, url, **fields):
    data = {"key": factories.key(), "kind": "dreier", "contract": "normal", "won": 1, **fields}
    return client.post(url, data, headers={"HX-Request": "true"})


@pytest.fixture
def table(client):
    """Anna deals first, Ben is the first Rufer; Alice, an organiser, is signed in."""
    club = factories.club()
    client.force_login(factories.user(club, role="organiser", username="alice"))
    return factories.sheet(club)


def deal_at(sheet, position):
    return Deal.objects.get(sheet=sheet, position=position, voided_at__isnull=True)


def test_the_export_says_how_and_by_whom_each_deal_was_voided(client, table):
    record = reverse("sheet:record", kwargs={"pk": table.pk})
    post_deal(client, record, declarer=1, normal_points=1)  # deal 1, Ben Rufer
    post_deal(client, record, declarer=2, normal_points=2)  # deal 2, Clara Rufer
    post_deal(client, record, declarer=0, normal_points=3)  # deal 3, Anna Rufer
    # Deal 4 undone with the banner's Rückgängig, as the sheet sends it.
    saved = post_deal(client, record, declarer=1, normal_points=1).content.decode()  # deal 4
    undo = re.search(r'<form method="post"\s+action="([^"]*)"', saved).group(1)
    fields = dict(re.findall(r'<input type="hidden" name="(after|undo)" value="([^"]*)"', saved))
    assert fields["undo"] == "1"
    last = deal_at(table, 4)
    assert undo == reverse("sheet:void", kwargs={"pk": table.pk, "deal_id": last.pk})
    client.post(undo, fields, headers={"HX-Request": "true"})
    # Deal 1 corrected by Alice (same Rufer, one point more).
    first = deal_at(table, 1)
    client.post(
        reverse("sheet:correct", kwargs={"pk": table.pk, "deal_id": first.pk}),
        {
            "key": factories.key(),
            "kind": "dreier",
            "declarer": 1,
            "contract": "normal",
            "normal_points": 2,
            "won": 1,
        },
    )
    # Deal 3 struck out by a phone with the table's link.
    third = deal_at(table, 3)
    factories.phone().post(
        reverse("entry:void", kwargs={"token": table.entry_token, "deal_id": third.pk})
    )

    document = json.loads(client.get(reverse("sheet:export", kwargs={"pk": table.pk})).content)
    assert [
        (d["declarer"], d["voided_as"], d["voided_by"], d["voided_via_link"])
        for d in document["voided"]
    ] == [
        ("Ben", "corrected", "alice", False),
        ("Anna", "struck", None, True),
        ("Ben", "undone", "alice", False),
    ]
    assert all(d["voided_at"] for d in document["voided"])

    # The history page names the same three ways.
    history = client.get(reverse("sheet:history", kwargs={"pk": table.pk})).content.decode()
    assert "Spiel rückgängig gemacht" in history
    assert "Spiel gestrichen" in history and "Spiel korrigiert" in history

    # The export still imports: the live deals make the same sheet.
    response = client.post(
        reverse("import_table", kwargs={"slug": table.club.slug}),
        {"document": json.dumps(document), "title": "copy"},
    )
    assert response.status_code == 302
    copy = reading.read_sheet(table.club.sheets.get(title="copy"))
    assert copy.state.totals == reading.read_sheet(table).state.totals


def test_undo_sent_for_an_earlier_deal_is_kept_as_a_strike_out(client, table):
    two = factories.sheet(table.club, names=("Dora", "Emil"))
    record = reverse("sheet:record", kwargs={"pk": two.pk})
    for winner in (0, 1):
        data = {"key": factories.key(), "kind": "quick", "winner": winner, "points": 1}
        client.post(record, data, headers={"HX-Request": "true"})
    first = deal_at(two, 1)
    url = reverse("sheet:void", kwargs={"pk": two.pk, "deal_id": first.pk})
    client.post(url, {"undo": "1"}, headers={"HX-Request": "true"})
    first.refresh_from_db()
    assert first.voided_as == "struck"
