"""Two phones at one table, neither reloaded: every write form carries the state it was
rendered from (``after``); a write from an older state is refused with what happened
since, and one tap sends it anyway. A double tap still gives the first result.

Seats: Anna 0 deals first, Ben 1 is the first Rufer, Clara 2 (wiki rules: a Bettler is
worth 4 and anyone may play it; a Gang 9)."""

import re
import threading
import uuid
from html.parser import HTMLParser

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from scoring import reading, services
from scoring.models import Deal
from scoring.rules import DreierDeal, QuickDeal
from tests import factories

pytestmark = pytest.mark.django_db
ACTOR = services.Actor()
BETTLER_BEN = {"kind": "dreier", "declarer": 1, "contract": "bettler", "won": 1}
GANG_CLARA = {"kind": "dreier", "declarer": 2, "contract": "gang", "won": 1}
HX = {"HX-Request": "true"}


class Phone:
    """A phone with the sheet page open: it sends what its page was rendered with."""

    def __init__(self, sheet, user):
        self.sheet = sheet
        self.client = Client()
        self.client.force_login(user)

    def url(self, name, **kwargs):
        return reverse(f"sheet:{name}", kwargs={"pk": self.sheet.pk, **kwargs})

    def load(self, name="page", **kwargs):
        response = self.client.get(self.url(name, **kwargs))
        assert response.status_code == 200
        html = response.content.decode()
        self.after = factories.entry_key(html, name="after")
        self.key = factories.entry_key(html)
        return response

    def record(self, fields, key=None):
        data = {"key": key or self.key, "after": self.after, **fields}
        return self.client.post(self.url("record"), data, headers=HX)

    def anyway(self, response, headers=HX):
        """Tap the refusal's "record anyway" button."""
        stale = response.context["stale"]
        data = {**dict(stale["fields"]), "after": stale["after"]}
        return self.client.post(stale["action"], data, headers=headers)


@pytest.fixture
def sheet():
    return factories.sheet(factories.club())


@pytest.fixture
def phones(sheet):
    organiser = factories.user(sheet.club, role="organiser")
    scorer = factories.user(sheet.club, role="scorer")
    return Phone(sheet, organiser), Phone(sheet, scorer)


def totals(sheet):
    return reading.read_sheet(sheet).state.totals


def test_the_second_phone_recording_the_same_deal_is_refused_then_records_it_anyway(sheet, phones):
    anna_phone, ben_phone = phones
    anna_phone.load()
    ben_phone.load()
    anna_phone.record(BETTLER_BEN)
    assert totals(sheet) == (0, 4, 0)
    refused = ben_phone.record(BETTLER_BEN)
    html = refused.content.decode()
    assert refused.status_code == 200
    assert "Spiel 1 wurde von einem anderen Handy eingetragen: Bettler · Ben · gewonnen" in html
    assert "Trotzdem eintragen" in html
    assert totals(sheet) == (0, 4, 0)  # +4, not +8
    # The refusal shows the same entry again, from the sheet as it is now.
    assert refused.context["form"]["contract"].value() == "bettler"
    assert refused.context["stale"]["after"] == reading.read_sheet(sheet).version
    anyway = ben_phone.anyway(refused)
    assert "Gespeichert: Bettler · Ben · gewonnen" in anyway.content.decode()
    assert totals(sheet) == (0, 8, 0)


def test_a_double_tap_from_an_old_state_gives_the_first_result_not_a_refusal(sheet, phones):
    phone, _other = phones
    phone.load()
    first = phone.record(BETTLER_BEN)
    again = phone.record(BETTLER_BEN)  # same key, same old state
    assert "Gespeichert: Bettler · Ben · gewonnen" in first.content.decode()
    assert "Gespeichert: Bettler · Ben · gewonnen" in again.content.decode()
    assert 'class="banner error stale"' not in again.content.decode()
    assert totals(sheet) == (0, 4, 0)


def test_a_plain_post_from_an_old_state_gets_the_whole_page_with_the_refusal(sheet, phones):
    anna_phone, ben_phone = phones
    anna_phone.load()
    ben_phone.load()
    anna_phone.record(BETTLER_BEN)
    data = {"key": ben_phone.key, "after": ben_phone.after, **GANG_CLARA}
    refused = ben_phone.client.post(ben_phone.url("record"), data)
    html = refused.content.decode()
    assert "<html" in html and "Trotzdem eintragen" in html
    assert ben_phone.anyway(refused, headers={}).status_code == 302
    assert totals(sheet) == (0, 4, 9)


def test_the_refusal_lists_every_change_since_the_page_was_loaded(sheet, phones):
    anna_phone, ben_phone = phones
    services.record_entry(sheet, DreierDeal("gang", 0, True), uuid.uuid4(), ACTOR)
    ben_phone.load()
    first = Deal.objects.get(sheet=sheet)
    services.void_deal(sheet, first.pk, ACTOR)  # Anna's Gang struck out
    services.record_entry(sheet, DreierDeal("bettler", 1, True), uuid.uuid4(), ACTOR)
    services.record_entry(sheet, DreierDeal("bettler", 2, False), uuid.uuid4(), ACTOR)
    refused = ben_phone.record(GANG_CLARA)
    html = refused.content.decode()
    assert "Spiel 1 wurde von einem anderen Handy eingetragen: Bettler · Ben · gewonnen" in html
    assert "Spiel 2 wurde von einem anderen Handy eingetragen: Bettler · Clara · verloren" in html
    assert "Von einem anderen Handy gestrichen: Gang · Anna · gewonnen" in html
    assert totals(sheet) == (4, 8, 0)


def test_a_deal_recorded_and_struck_out_meanwhile_changes_nothing_for_the_other_phone(
    sheet, phones
):
    anna_phone, ben_phone = phones
    ben_phone.load()
    _view, deal = services.record_entry(sheet, DreierDeal("gang", 0, True), uuid.uuid4(), ACTOR)
    services.void_deal(sheet, deal.pk, ACTOR)  # "Undo" right after saving
    saved = ben_phone.record(BETTLER_BEN)
    assert "Gespeichert: Bettler · Ben · gewonnen" in saved.content.decode()
    assert totals(sheet) == (0, 4, 0)


def test_an_unreadable_state_is_refused_and_writes_nothing(sheet, phones):
    phone, _other = phones
    phone.load()
    phone.after = "yesterday"
    refused = phone.record(BETTLER_BEN)
    assert "Nichts gespeichert: Das Blatt wurde geändert" in refused.content.decode()
    assert totals(sheet) == (0, 0, 0)


def test_a_strike_out_from_an_old_state_is_refused_then_done_anyway(sheet, phones):
    anna_phone, ben_phone = phones
    _view, deal = services.record_entry(sheet, DreierDeal("gang", 0, True), uuid.uuid4(), ACTOR)
    ben_phone.load()
    anna_phone.load()
    anna_phone.record(BETTLER_BEN)  # deal 2 from Anna's phone
    void_url = ben_phone.url("void", deal_id=deal.pk)
    refused = ben_phone.client.post(void_url, {"after": ben_phone.after}, headers=HX)
    html = refused.content.decode()
    assert "Spiel 2 wurde von einem anderen Handy eingetragen: Bettler · Ben · gewonnen" in html
    assert "Trotzdem streichen" in html
    assert totals(sheet) == (9, 4, 0)
    done = ben_phone.anyway(refused)
    assert "Gestrichen: Gang · Anna · gewonnen" in done.content.decode()
    assert totals(sheet) == (0, 4, 0)


def test_a_double_tap_on_strike_out_strikes_once_without_a_refusal(sheet, phones):
    phone, _other = phones
    _view, deal = services.record_entry(sheet, DreierDeal("gang", 0, True), uuid.uuid4(), ACTOR)
    phone.load()
    url = phone.url("void", deal_id=deal.pk)
    for _ in range(2):
        response = phone.client.post(url, {"after": phone.after}, headers=HX)
        assert "Gestrichen: Gang · Anna · gewonnen" in response.content.decode()
    assert totals(sheet) == (0, 0, 0)


def test_a_correction_from_an_old_state_is_refused_then_made_anyway(sheet, phones):
    anna_phone, ben_phone = phones
    _view, deal = services.record_entry(sheet, DreierDeal("gang", 0, True), uuid.uuid4(), ACTOR)
    ben_phone.load("correct", deal_id=deal.pk)
    anna_phone.load()
    anna_phone.record(BETTLER_BEN)  # deal 2 from Anna's phone
    url = ben_phone.url("correct", deal_id=deal.pk)
    data = {"key": ben_phone.key, "after": ben_phone.after, **GANG_CLARA}
    refused = ben_phone.client.post(url, data)
    html = refused.content.decode()
    assert refused.status_code == 200
    assert "Spiel 2 wurde von einem anderen Handy eingetragen: Bettler · Ben · gewonnen" in html
    assert "Trotzdem korrigieren" in html
    assert totals(sheet) == (9, 4, 0)
    done = ben_phone.anyway(refused, headers={})
    assert done.status_code == 302
    assert totals(sheet) == (0, 4, 9)


def test_a_correction_of_a_deal_corrected_meanwhile_says_what_it_became(sheet, phones):
    anna_phone, ben_phone = phones
    _view, deal = services.record_entry(sheet, DreierDeal("gang", 0, True), uuid.uuid4(), ACTOR)
    ben_phone.load("correct", deal_id=deal.pk)
    services.correct_deal(sheet, deal.pk, DreierDeal("bettler", 1, True), uuid.uuid4(), ACTOR)
    url = ben_phone.url("correct", deal_id=deal.pk)
    data = {"key": ben_phone.key, "after": ben_phone.after, **GANG_CLARA}
    response = ben_phone.client.post(url, data, follow=True)
    (message,) = [str(m) for m in response.context["messages"]]
    assert "Spiel 1 wurde von einem anderen Handy korrigiert: Bettler · Ben · gewonnen" in message
    assert totals(sheet) == (0, 4, 0)


def test_a_strike_out_of_a_deal_corrected_meanwhile_is_refused_and_the_correction_stands(
    sheet, phones
):
    anna_phone, ben_phone = phones
    _view, deal = services.record_entry(sheet, DreierDeal("gang", 0, True), uuid.uuid4(), ACTOR)
    ben_phone.load()
    services.correct_deal(sheet, deal.pk, DreierDeal("bettler", 1, True), uuid.uuid4(), ACTOR)
    url = ben_phone.url("void", deal_id=deal.pk)
    refused = ben_phone.client.post(url, {"after": ben_phone.after}, headers=HX)
    html = refused.content.decode()
    assert "Gestrichen" not in html
    assert "Spiel 1 wurde von einem anderen Handy korrigiert: Bettler · Ben · gewonnen" in html
    assert totals(sheet) == (0, 4, 0)
    again = ben_phone.anyway(refused)  # "strike out anyway": the old deal is gone
    text = again.content.decode()
    assert "Nicht gestrichen: Dieses Spiel wurde inzwischen korrigiert" in text
    assert "Gestrichen:" not in text and totals(sheet) == (0, 4, 0)
    assert Deal.objects.filter(sheet=sheet, voided_at__isnull=True).count() == 1


@pytest.mark.parametrize("kind", ["no such row", "more struck than there are", "another sheet's"])
def test_a_state_the_sheet_never_was_in_is_refused_and_writes_nothing(sheet, phones, kind):
    """An ``after`` naming no state of the sheet's rows (a page from before a restore of
    the database, or a forged one) is refused as a stale page is."""
    phone, _other = phones
    services.record_entry(sheet, DreierDeal("gang", 0, True), uuid.uuid4(), ACTOR)
    other = factories.sheet(sheet.club, names=("Xaver", "Yvonne", "Zoe"))
    _view, elsewhere = services.record_entry(
        other, DreierDeal("gang", 0, True), uuid.uuid4(), ACTOR
    )
    phone.load()
    newest = Deal.objects.filter(sheet=sheet).latest("id").pk
    phone.after = {
        "no such row": "999999999999999999-0",
        "more struck than there are": f"{newest}-1",
        "another sheet's": f"{elsewhere.pk}-0",
    }[kind]
    refused = phone.record(BETTLER_BEN)
    assert "Nichts gespeichert: Das Blatt wurde geändert" in refused.content.decode()
    assert Deal.objects.filter(sheet=sheet).count() == 1


def banner(html: str) -> str:
    """The text of the error banner above the sheet ("" when there is none)."""
    found = re.search(r'<div class="banner error" role="alert"[^>]*>(.*?)</div>', html, re.S)
    return found.group(1).strip() if found else ""


def test_record_anyway_after_a_tie_became_due_says_why_nothing_was_saved(sheet, phones):
    phone, _other = phones
    phone.load()
    trumpfringerl = DreierDeal("trumpfringerl", 1, True)  # Ben 24, Anna and Clara tied at 0
    services.record_entry(sheet, trumpfringerl, uuid.uuid4(), ACTOR)
    refused = phone.record(BETTLER_BEN)
    again = phone.anyway(refused)
    assert banner(again.content.decode()) == (
        "Spiel 2: Die Runde endete mit Gleichstand: zuerst eintragen, wer das Stechen gewonnen hat."
    )
    assert Deal.objects.filter(sheet=sheet).count() == 1


def test_record_anyway_after_the_partie_was_decided_says_why_nothing_was_saved():
    two = factories.sheet(factories.club(), names=("Anna", "Ben"))
    phone = Phone(two, factories.user(two.club, role="organiser"))
    phone.load()
    for points in (3, 3, 1):  # Anna wins the Bummerl, Ben Schneider: two Bummerl, the Partie
        services.record_entry(two, QuickDeal(0, points), uuid.uuid4(), ACTOR)
    assert reading.read_sheet(two).state.partie_winner == 0
    count = Deal.objects.filter(sheet=two).count()
    refused = phone.record({"kind": "quick", "winner": 1, "points": 2})
    again = phone.anyway(refused)
    assert banner(again.content.decode()) == (
        "Spiel 4: Die Partie ist entschieden: bitte eine neue beginnen."
    )
    assert Deal.objects.filter(sheet=two).count() == count


DAMAGED = "Das Formular kam unvollständig oder beschädigt an: die Seite neu laden und noch einmal eintragen."


@pytest.mark.parametrize(
    "fields, text",
    [
        ({"key": "", **BETTLER_BEN}, DAMAGED),
        ({"key": "not-a-uuid", **BETTLER_BEN}, DAMAGED),
        ({"kind": "poker", "declarer": 1}, DAMAGED),
        (
            {"kind": "tiebreak", "tiebreak_winner": 1},
            "Spiel 1: Es gibt keinen Gleichstand zu entscheiden.",
        ),
    ],
)
def test_a_refusal_on_a_field_the_page_does_not_show_is_said_above_the_sheet(
    sheet, phones, fields, text
):
    phone, _other = phones
    phone.load()
    data = {"key": phone.key, "after": phone.after, **fields}
    response = phone.client.post(phone.url("record"), data, headers=HX)
    assert response.status_code == 200 and banner(response.content.decode()) == text
    assert not Deal.objects.filter(sheet=sheet).exists()
    _view, deal = services.record_entry(sheet, DreierDeal("gang", 0, True), uuid.uuid4(), ACTOR)
    phone.load("correct", deal_id=deal.pk)
    data = {"key": phone.key, "after": phone.after, **fields}
    response = phone.client.post(phone.url("correct", deal_id=deal.pk), data)
    assert response.status_code == 200 and text in banner(response.content.decode())
    assert Deal.objects.filter(sheet=sheet).count() == 1


class Forms(HTMLParser):
    """The POST forms of a page: (action, the names of their fields)."""

    def __init__(self):
        super().__init__()
        self.forms: list[tuple[str, set[str]]] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and attrs.get("method") == "post":
            self.forms.append((attrs.get("action") or "", set()))
        elif tag == "input" and self.forms and attrs.get("name"):
            self.forms[-1][1].add(attrs["name"])


def sheet_forms(html: str) -> list[tuple[str, set[str]]]:
    parser = Forms()
    parser.feed(html)
    return [
        (action, names)
        for action, names in parser.forms
        if re.search(r"/(record|void|correct)/$", action) or action == ""
    ]


SHEETS = {
    # kind: (players, entries before the page, POST forms that write to the sheet)
    "dreier": (3, [DreierDeal("gang", 0, True)], 4),  # entry, redeal, undo, deal list
    "tiebreak": (3, [DreierDeal("trumpfringerl", 1, True)], 3),  # tie-break, undo, list
    "schnapsen": (2, [QuickDeal(0, 2)], 4),  # quick, from the Augen, undo, deal list
    "correct": (3, [DreierDeal("gang", 0, True)], 1),  # the correction form
}


@pytest.mark.parametrize("kind", SHEETS)
def test_every_write_form_of_the_sheet_carries_the_state_it_was_rendered_from(kind):
    seats, entries, count = SHEETS[kind]
    club = factories.club()
    sheet = factories.sheet(club, names=("Anna", "Ben", "Clara")[:seats])
    for entry in entries:
        _view, deal = services.record_entry(sheet, entry, uuid.uuid4(), ACTOR)
    client = Client()
    client.force_login(factories.user(club, role="organiser"))
    if kind == "correct":
        url = reverse("sheet:correct", kwargs={"pk": sheet.pk, "deal_id": deal.pk})
    else:  # the page right after saving: with the "Undo" button
        url = reverse("sheet:page", kwargs={"pk": sheet.pk}) + f"?saved={deal.pk}"
    html = client.get(url).content.decode()
    forms = sheet_forms(html)
    assert len(forms) == count, forms
    assert all("after" in names for _action, names in forms), forms
    version = reading.read_sheet(sheet).version
    assert html.count('name="after"') == html.count(f'name="after" value="{version}"')


@pytest.mark.django_db(transaction=True)
def test_two_phones_sending_at_once_from_one_state_record_one_deal_and_refuse_the_other():
    club = factories.club()
    sheet = factories.sheet(club)
    after = reading.read_sheet(sheet).version
    outcomes = []

    def send():
        try:
            services.record_entry(
                sheet, DreierDeal("bettler", 1, True), uuid.uuid4(), ACTOR, after=after
            )
            outcomes.append("recorded")
        except services.SheetChanged as error:
            outcomes.append([c.what for c in error.changes])
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes, key=str) == sorted(["recorded", ["recorded"]], key=str)
    assert reading.read_sheet(sheet).state.totals == (0, 4, 0)


@pytest.mark.django_db(transaction=True)
def test_a_double_tap_arriving_at_once_is_saved_once_and_both_answers_say_so():
    """Both sends of one tap (the same key and state) wait on the sheet's lock while
    another connection holds it, so both read the sheet before either wrote (PostgreSQL's
    read committed reads a statement's rows as they were when it began). The second to
    get the lock must find the first one's deal by its key, not call it another phone's."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite takes the write lock at BEGIN: the sends cannot overlap")
    from django.db import connections, transaction

    sheet = factories.sheet(factories.club())
    phone = Phone(sheet, factories.user(sheet.club, role="organiser"))
    phone.load()
    answers = []

    def send():
        try:
            answers.append(phone.record(BETTLER_BEN).content.decode())
        finally:
            connections["default"].close()

    threads = [threading.Thread(target=send) for _ in range(2)]
    with transaction.atomic():
        list(type(sheet).objects.select_for_update().filter(pk=sheet.pk))
        for thread in threads:
            thread.start()
        watcher = connections.create_connection("default")
        with watcher.cursor() as watch:
            for _ in range(500):
                watch.execute(
                    "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() "
                    "AND wait_event_type = 'Lock'"
                )
                if watch.fetchone()[0] == 2:
                    break
                threading.Event().wait(0.01)
            else:
                pytest.fail("the two sends never waited on the sheet's lock")
        watcher.close()
    for thread in threads:
        thread.join()
    assert len(answers) == 2
    for html in answers:
        assert "Gespeichert: Bettler · Ben · gewonnen" in html
        assert "von einem anderen Handy" not in html
    assert Deal.objects.filter(sheet=sheet).count() == 1
    assert totals(sheet) == (0, 4, 0)
