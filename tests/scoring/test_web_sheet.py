"""The score sheet through Django's test client, against a real database."""

import json
import threading
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import reading, services, transfer, upkeep
from scoring.models import Deal
from scoring.rules import DreierDeal, QuickDeal, TieBreak
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(client):
    """Anna deals first, Ben is the first Rufer; an organiser of the club is signed in."""
    club = factories.club()
    alice = factories.user(club, role="organiser")
    client.force_login(alice)
    sheet = factories.sheet(club)
    return sheet


def record_url(sheet):
    return reverse("sheet:record", kwargs={"pk": sheet.pk})


def post_deal(client, sheet, htmx=True, key=None, **fields):
    data = {"key": key or factories.key(), "kind": "dreier", **fields}
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(record_url(sheet), data, headers=headers)


def live_points(sheet):
    return [d.points for d in Deal.objects.filter(sheet=sheet).live().order_by("position")]


def test_it_records_a_normal_game_for_the_rufer(client, table):
    response = post_deal(client, table, declarer=1, contract="normal", normal_points=2, won=1)
    assert response.status_code == 200
    assert live_points(table) == [[0, 2, 0]]
    assert b'id="sheet"' in response.content


def test_it_records_a_lost_spritzed_gang_to_each_opponent(client, table):
    post_deal(client, table, declarer=2, contract="gang", spritzen=2, won=0)
    assert live_points(table) == [[36, 36, 0]]


def test_it_redirects_a_plain_post_to_the_sheet(client, table):
    response = post_deal(
        client, table, htmx=False, declarer=1, contract="normal", normal_points=1, won=1
    )
    assert response.status_code == 302
    deal = Deal.objects.get(sheet=table)
    assert response["Location"].endswith(f"?saved={deal.pk}")


def test_a_repeated_submit_records_once(client, table):
    key = factories.key()
    for _ in range(3):
        response = post_deal(
            client, table, key=key, declarer=1, contract="normal", normal_points=3, won=1
        )
        assert response.status_code == 200
    assert live_points(table) == [[0, 3, 0]]


def test_two_different_deals_both_land_in_order(client, table):
    post_deal(client, table, declarer=1, contract="normal", normal_points=1, won=1)
    post_deal(client, table, declarer=2, contract="normal", normal_points=1, won=0)
    assert live_points(table) == [[0, 1, 0], [1, 1, 0]]


@pytest.mark.parametrize("htmx", [True, False])
def test_a_declarer_who_may_not_play_the_contract_is_named_in_place(client, table, htmx):
    # Ben is the Rufer: only a non-Rufer may play a Kontraschnapser.
    response = post_deal(client, table, htmx=htmx, declarer=1, contract="kontraschnapser", won=1)
    assert response.status_code == 200
    assert Deal.objects.count() == 0
    html = response.content.decode()
    assert 'id="err-declarer"' in html
    assert "Kontraschnapser" in html


@pytest.mark.parametrize("htmx", [True, False])
def test_a_normal_game_without_points_names_the_field(client, table, htmx):
    response = post_deal(client, table, htmx=htmx, declarer=1, contract="normal", won=1)
    assert 'id="err-normal_points"' in response.content.decode()
    assert Deal.objects.count() == 0


def test_garbage_input_is_refused_without_a_server_error(client, table):
    response = client.post(
        record_url(table),
        {"key": "not-a-key", "kind": "dreier", "declarer": "7", "spritzen": "99", "won": "x"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert Deal.objects.count() == 0


def test_voiding_keeps_the_deal_struck_out_and_totals_follow(client, table):
    post_deal(client, table, declarer=1, contract="normal", normal_points=3, won=1)
    deal = Deal.objects.get()
    url = reverse("sheet:void", kwargs={"pk": table.pk, "deal_id": deal.pk})
    client.post(url, headers={"HX-Request": "true"})
    client.post(url, headers={"HX-Request": "true"})  # a double tap changes nothing more
    deal.refresh_from_db()
    assert deal.voided_at is not None
    assert live_points(table) == []
    page = client.get(reverse("sheet:page", kwargs={"pk": table.pk})).content.decode()
    assert "<s>" in page


def test_a_correction_replaces_the_deal_in_its_place(client, table):
    post_deal(client, table, declarer=1, contract="normal", normal_points=3, won=1)
    post_deal(client, table, declarer=2, contract="normal", normal_points=1, won=1)
    first = Deal.objects.order_by("position").first()
    url = reverse("sheet:correct", kwargs={"pk": table.pk, "deal_id": first.pk})
    assert client.get(url).status_code == 200
    response = client.post(
        url,
        {"key": factories.key(), "kind": "dreier", "declarer": 0, "contract": "bettler", "won": 1},
    )
    assert response.status_code == 302
    assert live_points(table) == [[4, 0, 0], [0, 0, 1]]
    first.refresh_from_db()
    assert first.voided_at is not None and first.replaced_by.position == first.position


def test_a_correction_that_breaks_a_later_deal_is_refused(client, table):
    post_deal(client, table, declarer=1, contract="normal", normal_points=1, won=1)
    post_deal(client, table, declarer=2, contract="schnapser", won=1)  # Clara is Rufer in deal 2
    first = Deal.objects.order_by("position").first()
    # Striking deal 1 makes Ben the Rufer of the Schnapser: Clara may not play it then.
    url = reverse("sheet:void", kwargs={"pk": table.pk, "deal_id": first.pk})
    response = client.post(url, headers={"HX-Request": "true"})
    html = response.content.decode()
    # The refusal names the Schnapser as the sheet numbers it: deal 2.
    assert (
        "Nicht gestrichen: ohne dieses Spiel passen die Spiele danach nicht mehr (Geber und "
        "Rufer rücken um einen zurück). Spiel 2: Nur der Rufer darf Schnapser spielen."
    ) in html
    first.refresh_from_db()
    assert first.voided_at is None


def test_the_tie_break_is_asked_for_and_settles_the_loser(client, table):
    # Anna deals, Ben is Rufer: Ben loses a spritzed Kontrabauern... no: Clara (not Rufer)
    # loses a Trumpfringerl (24): Anna and Ben get 24 each, Clara 0 -> Clara loses alone.
    # A tie for the last place: Ben wins a Trumpfringerl (24): Anna 0, Clara 0.
    post_deal(client, table, declarer=1, contract="trumpfringerl", won=1)
    response = client.get(reverse("sheet:page", kwargs={"pk": table.pk}))
    assert b'name="tiebreak_winner"' in response.content
    refused = post_deal(client, table, declarer=2, contract="normal", normal_points=1, won=1)
    assert "tiebreak" in refused.content.decode()
    client.post(
        record_url(table),
        {"key": factories.key(), "kind": "tiebreak", "tiebreak_winner": 0},
        headers={"HX-Request": "true"},
    )
    view = reading.read_sheet(table)
    assert view.state.games[0].losers == (2,)
    assert view.state.tally == (0, 0, 2)  # Clara at 0 points: Schneider


def test_the_private_link_records_without_an_account(client, table):
    client.logout()
    url = reverse("entry:record", kwargs={"token": table.entry_token})
    response = client.post(
        url,
        {"key": factories.key(), "kind": "dreier", "declarer": 1, "contract": "gang", "won": 1},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    deal = Deal.objects.get()
    assert deal.via_link and deal.recorded_by is None and deal.points == [0, 9, 0]


def test_a_revoked_link_records_nothing(client, table):
    upkeep.revoke_link(table, services.Actor())
    client.logout()
    url = reverse("entry:record", kwargs={"token": table.entry_token})
    response = client.post(url, {"key": factories.key(), "kind": "redeal"})
    assert response.status_code == 404
    assert Deal.objects.count() == 0


def test_anonymous_visitors_are_sent_to_sign_in(client, table):
    client.logout()
    response = client.get(reverse("sheet:page", kwargs={"pk": table.pk}))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    response = post_deal(client, table, declarer=1, contract="normal", normal_points=1, won=1)
    assert response.status_code == 401 and "/accounts/login/" in response["Bummerl-Sign-In"]


def test_a_member_of_another_club_gets_404(client, table):
    factories.signed_in_club(client, role="owner")
    assert client.get(reverse("sheet:page", kwargs={"pk": table.pk})).status_code == 404


def test_a_reading_member_may_not_record(client, table):
    client.force_login(factories.user(table.club, role="member"))
    assert client.get(reverse("sheet:page", kwargs={"pk": table.pk})).status_code == 200
    response = post_deal(client, table, declarer=1, contract="normal", normal_points=1, won=1)
    assert response.status_code == 403


def statements(queries):
    """The queries a request sends, less the savepoints of the test's own transaction."""
    return [q["sql"] for q in queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]


def test_recording_a_deal_takes_at_most_8_queries(client, table):
    post_deal(client, table, declarer=1, contract="normal", normal_points=1, won=1)
    with CaptureQueriesContext(connection) as queries:
        response = post_deal(client, table, declarer=2, contract="gang", won=1)
    assert response.status_code == 200
    assert len(statements(queries)) <= 8, statements(queries)


def test_the_sheet_page_of_100_deals_takes_at_most_6_queries_flat(client, table):
    url = reverse("sheet:page", kwargs={"pk": table.pk})
    counts = []
    for target in (10, 100):
        while Deal.objects.filter(sheet=table).count() < target:
            state = reading.read_sheet(table).state
            entry = (
                TieBreak(state.awaiting_tiebreak[0])
                if state.awaiting_tiebreak
                else DreierDeal("normal", state.rufer, True, 0, 1 + len(state.lines) % 3)
            )
            services.record_entry(table, entry, uuid.uuid4(), services.Actor())
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts.append(len(statements(queries)))
    assert counts[1] <= 6
    assert counts[0] == counts[1]


def test_export_and_import_give_the_same_sheet(client, table):
    post_deal(client, table, declarer=1, contract="normal", normal_points=3, won=1)
    post_deal(client, table, declarer=0, contract="bettler", won=0)
    export = client.get(reverse("sheet:export", kwargs={"pk": table.pk}))
    document = json.loads(export.content)
    assert document["tally"] == {"Anna": 0, "Ben": 0, "Clara": 0}
    assert document["current"]["totals"] == {"Anna": 0, "Ben": 7, "Clara": 4}
    response = client.post(
        reverse("import_table", kwargs={"slug": table.club.slug}),
        {"document": json.dumps(document), "title": "copy"},
    )
    assert response.status_code == 302
    copy = reading.read_sheet(table.club.sheets.get(title="copy"))
    assert copy.state.totals == (0, 7, 4)


def test_import_names_the_wrong_deal_and_stores_nothing(client, table):
    document = {
        "variant": "dreierschnapsen",
        "players": ["Anna", "Ben", "Clara"],
        "deals": [
            {"contract": "normal", "declarer": "Ben", "won": True, "normal_points": 1},
            {"contract": "gang", "declarer": "Zoe", "won": True},
        ],
    }
    before = table.club.sheets.count()
    response = client.post(
        reverse("import_table", kwargs={"slug": table.club.slug}),
        {"document": json.dumps(document)},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "2" in html and "Zoe" in html
    assert table.club.sheets.count() == before


@pytest.mark.django_db(transaction=True)
def test_the_same_key_from_two_phones_at_once_records_once():
    club = factories.club()
    sheet = factories.sheet(club)
    key = uuid.uuid4()
    entry = DreierDeal("gang", 0, True)
    errors = []

    def send():
        try:
            services.record_entry(sheet, entry, key, services.Actor())
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert Deal.objects.filter(sheet=sheet).count() == 1


@pytest.mark.django_db(transaction=True)
def test_different_deals_from_two_phones_at_once_all_land_in_order():
    club = factories.club()
    sheet = factories.sheet(club)
    errors = []

    def send():
        try:
            # A Gang may be declared by anyone: every deal is legal whoever is Rufer.
            services.record_entry(
                sheet, DreierDeal("gang", 0, False), uuid.uuid4(), services.Actor()
            )
        except Exception as error:  # noqa: BLE001
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    positions = list(Deal.objects.filter(sheet=sheet).values_list("position", flat=True))
    assert sorted(positions) == [1, 2, 3, 4]


def test_an_exported_two_player_sheet_imports_again(client):
    club = factories.signed_in_club(client)
    sheet = factories.sheet(club, names=("Anna", "Ben"))
    services.record_entry(sheet, QuickDeal(1, 2), uuid.uuid4(), services.Actor())
    document = transfer.export_document(reading.read_sheet(sheet))
    copy = transfer.import_document(club, document, services.Actor(), "copy")
    assert reading.read_sheet(copy).state.totals == (0, 2)


def test_the_link_page_shows_a_qr_code_and_renewing_kills_the_old_link(client, table):
    page = client.get(reverse("sheet:link", kwargs={"pk": table.pk}))
    assert page.status_code == 200
    html = page.content.decode()
    assert "<svg" in html and f"/e/{table.entry_token}/" in html
    old = table.entry_token
    client.post(reverse("sheet:link_change", kwargs={"pk": table.pk, "action": "renew"}))
    table.refresh_from_db()
    assert table.entry_token != old
    assert client.get(f"/e/{old}/").status_code == 404
    assert client.get(f"/e/{table.entry_token}/").status_code == 200


def test_a_link_holder_cannot_touch_another_tables_deals(client, table):
    other = factories.sheet(table.club, names=("Dora", "Emil", "Fritz"))
    services.record_entry(other, DreierDeal("gang", 0, True), uuid.uuid4(), services.Actor())
    victim = Deal.objects.get(sheet=other)
    client.logout()
    url = reverse("entry:void", kwargs={"token": table.entry_token, "deal_id": victim.pk})
    client.post(url, headers={"HX-Request": "true"})
    victim.refresh_from_db()
    assert victim.voided_at is None
