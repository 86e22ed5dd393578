"""Signed out meanwhile (the session ended): no answer that saved nothing looks saved.

A deal is recorded only when the answer says so (``Bummerl-Recorded``, the deal's id);
an htmx request or a page's script that must sign in first gets 401 with the sign-in
address in ``Bummerl-Sign-In`` (``bummerl.middleware.SignInMiddleware``), never a
redirect that ``fetch`` follows silently; and the sign-in comes back to the page the
request was sent from, never to a URL that takes only POST."""

from urllib.parse import quote

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Deal
from tests import factories

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}
BETTLER_BEN = {"kind": "dreier", "declarer": 1, "contract": "bettler", "won": 1}


@pytest.fixture
def table():
    club = factories.club()
    return factories.sheet(club), factories.user(club, role="organiser")


def urls(sheet):
    page = reverse("sheet:page", kwargs={"pk": sheet.pk})
    return page, reverse("sheet:record", kwargs={"pk": sheet.pk})


def sign_in_at(page: str) -> str:
    return f"/accounts/login/?next={quote(page)}"


def test_a_recorded_deal_says_so_by_its_id_and_a_double_send_names_the_same(table, client):
    sheet, user = table
    client.force_login(user)
    page, record = urls(sheet)
    key = factories.key()
    first = client.post(record, {"key": key, **BETTLER_BEN}, headers=HX)
    again = client.post(record, {"key": key, **BETTLER_BEN}, headers=HX)
    deal = Deal.objects.get(sheet=sheet)
    assert first["Bummerl-Recorded"] == again["Bummerl-Recorded"] == str(deal.pk)
    plain = client.post(record, {"key": factories.key(), **BETTLER_BEN})
    assert plain.status_code == 302
    assert plain["Bummerl-Recorded"] == str(Deal.objects.filter(sheet=sheet).latest("pk").pk)


def test_a_refused_deal_does_not_say_recorded(table, client):
    sheet, user = table
    client.force_login(user)
    _page, record = urls(sheet)
    old = factories.entry_key(client.get(urls(sheet)[0]).content.decode(), name="after")
    client.post(record, {"key": factories.key(), **BETTLER_BEN}, headers=HX)
    stale = client.post(record, {"key": factories.key(), "after": old, **BETTLER_BEN}, headers=HX)
    wrong = client.post(record, {"key": factories.key(), "kind": "dreier"}, headers=HX)
    assert "von einem anderen Handy" in stale.content.decode()
    assert "Bummerl-Recorded" not in stale and "Bummerl-Recorded" not in wrong
    assert Deal.objects.filter(sheet=sheet).count() == 1


def test_a_deal_sent_signed_out_saves_nothing_and_names_the_sign_in_back_to_the_sheet(table):
    sheet, _user = table
    page, record = urls(sheet)
    phone = Client()
    answer = phone.post(
        record,
        {"key": factories.key(), **BETTLER_BEN},
        headers={**HX, "HX-Current-URL": f"http://testserver{page}?all=1"},
    )
    assert answer.status_code == 401
    assert answer["Bummerl-Sign-In"] == sign_in_at(f"{page}?all=1")
    assert "HX-Redirect" not in answer and "Bummerl-Recorded" not in answer
    assert not Deal.objects.filter(sheet=sheet).exists()


def test_the_version_poll_signed_out_asks_to_sign_in(table):
    sheet, _user = table
    page, _record = urls(sheet)
    version = reverse("sheet:version", kwargs={"pk": sheet.pk})
    answer = Client().get(version, headers={**HX, "HX-Current-URL": f"http://testserver{page}"})
    assert (answer.status_code, answer["Bummerl-Sign-In"]) == (401, sign_in_at(page))


def test_a_plain_post_signed_out_signs_in_back_to_the_page_it_came_from(table):
    sheet, _user = table
    page, record = urls(sheet)
    answer = Client().post(
        record,
        {"key": factories.key(), **BETTLER_BEN},
        headers={"Referer": f"http://testserver{page}"},
    )
    assert (answer.status_code, answer["Location"]) == (302, sign_in_at(page))
    # From no page of this site: the home page, never the POST-only URL.
    elsewhere = Client().post(
        record, {"kind": "redeal"}, headers={"Referer": "https://evil.example/tables/1/"}
    )
    assert elsewhere["Location"] == sign_in_at("/")
    assert not Deal.objects.filter(sheet=sheet).exists()


def test_a_page_opened_signed_out_still_signs_in_back_to_itself(table):
    sheet, _user = table
    page, _record = urls(sheet)
    answer = Client().get(f"{page}?all=1")
    assert (answer.status_code, answer["Location"]) == (302, sign_in_at(f"{page}?all=1"))


def test_every_form_that_needs_an_account_answers_a_signed_out_script_the_same(table):
    """Not the sheet only: a desk's form (``login_required``) too."""
    sheet, _user = table
    desk = reverse("club", kwargs={"slug": sheet.club.slug})
    accept = reverse(
        "accept_report", kwargs={"slug": sheet.club.slug, "tournament_id": 1, "pairing_id": 1}
    )
    answer = Client().post(
        accept, {"report": 1}, headers={**HX, "HX-Current-URL": f"http://testserver{desk}"}
    )
    assert (answer.status_code, answer["Bummerl-Sign-In"]) == (401, sign_in_at(desk))
    plain = Client().post(accept, {"report": 1}, headers={"Referer": f"http://testserver{desk}"})
    assert plain["Location"] == sign_in_at(desk)


def test_htmx_restoring_history_signed_out_gets_the_whole_sign_in_page(table):
    sheet, _user = table
    page, _record = urls(sheet)
    answer = Client().get(page, headers={**HX, "HX-History-Restore-Request": "true"})
    assert (answer.status_code, answer["Location"]) == (302, sign_in_at(page))
