"""The sheet page's body kept rendered (``scoring.fragments``): a page taken from the
kept body is the page rendered afresh, to the byte, but for the CSRF token and the
one-time keys, which are new in every response; every input of the body that is not the
sheet's version (names, the way in, a tournament's lock, a restore) gives a new key.

Seats: Anna 0 deals first, Ben 1 is the first Rufer, Clara 2 (wiki rules)."""

import contextlib
import re
import uuid

import pytest
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from base.errors import RuleError
from clubs.players import rename_player
from scoring import reading, services
from scoring.models import Deal
from scoring.rules import DreierDeal, Redeal, TieBreak
from tests import factories
from tournaments.services.sheets import lock_sheet, unlock_sheet

pytestmark = pytest.mark.django_db
ACTOR = services.Actor()
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def page_url(sheet) -> str:
    return reverse("sheet:page", kwargs={"pk": sheet.pk})


def plain(html: str) -> str:
    """The page without what is new in every response: tokens, one-time keys."""
    html = TOKEN.sub('name="csrfmiddlewaretoken" value="T"', html)
    html = html.replace('hx-headers=\'{"X-CSRFToken": "', 'hx-headers=\'{"X-CSRFToken": "T')
    html = re.sub(r'"X-CSRFToken": "T[^"]*"', '"X-CSRFToken": "T"', html)
    return UUID.sub("K", html)


def fresh(client, url, **headers) -> str:
    """The page rendered afresh (nothing kept)."""
    caches["fragments"].clear()
    response = client.get(url, headers=headers)
    assert response.status_code == 200
    return response.content.decode()


def kept(client, url, **headers) -> str:
    """The page taken from the kept body (asked twice: the first keeps it)."""
    client.get(url, headers=headers)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, headers=headers)
    assert response.status_code == 200
    # no read of the deal rows (``scoring.models.deal_rows``)
    assert not any('AS "voided_by__username"' in q["sql"] for q in queries)
    return response.content.decode()


@pytest.fixture
def table():
    club = factories.club()
    client = Client()
    client.force_login(factories.user(club, role="organiser"))
    return factories.sheet(club), client


WRITES = st.lists(
    st.sampled_from(["normal", "bettler", "redeal", "strike", "correct"]), min_size=1, max_size=12
)


def write(sheet, what: str) -> None:
    """One write of the kind ``what`` (nothing when it does not fit the sheet)."""
    scored = reading.read_sheet(sheet)
    state, live = scored.state, scored.live_deals
    with contextlib.suppress(RuleError):
        if what == "strike" and live:
            services.void_deal(sheet, live[-1].pk, ACTOR)
        elif what == "correct" and live:
            entry = DreierDeal("normal", 0, False, 0, 2)
            services.correct_deal(sheet, live[-1].pk, entry, uuid.uuid4(), ACTOR)
        elif state.awaiting_tiebreak:
            services.record_entry(sheet, TieBreak(state.awaiting_tiebreak[0]), uuid.uuid4(), ACTOR)
        elif what == "bettler":
            entry = DreierDeal("bettler", state.rufer, len(live) % 2 == 0, 1, None)
            services.record_entry(sheet, entry, uuid.uuid4(), ACTOR)
        elif what == "redeal":
            services.record_entry(sheet, Redeal(), uuid.uuid4(), ACTOR)
        else:
            services.record_entry(sheet, factories.next_entry(sheet), uuid.uuid4(), ACTOR)


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(writes=WRITES)
def test_a_kept_page_is_the_page_rendered_afresh_after_any_writes(writes):
    club = factories.club()
    client = Client()
    client.force_login(factories.user(club, role="organiser"))
    sheet = factories.sheet(club)
    url = page_url(sheet)
    for what in writes:
        write(sheet, what)
        for headers in ({}, {"HX-Request": "true"}):
            assert plain(kept(client, url, **headers)) == plain(fresh(client, url, **headers))


def test_two_phones_shown_the_kept_page_get_their_own_one_time_keys(table):
    sheet, client = table
    factories.fill(sheet, count=3)
    other = Client()
    other.force_login(factories.user(sheet.club, role="scorer"))
    first = client.get(page_url(sheet)).content.decode()
    second = other.get(page_url(sheet)).content.decode()
    again = other.get(page_url(sheet)).content.decode()
    keys = [factories.entry_key(html) for html in (first, second, again)]
    assert len(set(keys)) == 3
    assert "<!--" not in "".join(re.findall(r'value="([^"]*)"', first + second + again))


def test_the_kept_page_records_with_this_users_token_and_its_own_key(table):
    sheet, _client = table
    factories.fill(sheet, count=2)
    client = Client(enforce_csrf_checks=True)
    client.force_login(factories.user(sheet.club, role="scorer"))
    client.get(page_url(sheet))
    html = client.get(page_url(sheet)).content.decode()  # from the kept body
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    data = {
        "csrfmiddlewaretoken": token,
        "key": factories.entry_key(html),
        "after": factories.entry_key(html, name="after"),
        "kind": "dreier",
        "declarer": "1",
        "contract": "bettler",
        "won": "1",
    }
    response = client.post(reverse("sheet:record", kwargs={"pk": sheet.pk}), data)
    assert response.status_code == 302
    assert (
        Deal.objects.filter(sheet=sheet, key=data["key"], inputs__contract="bettler").count() == 1
    )


def test_a_renamed_player_shows_at_once(table):
    sheet, client = table
    factories.fill(sheet, count=2)
    assert "Clara" in kept(client, page_url(sheet))
    clara = reading.load_players(sheet)[2]
    rename_player(clara, "Klara", ACTOR)
    html = client.get(page_url(sheet)).content.decode()
    assert "Klara" in html and "Clara" not in html


def test_a_page_by_the_private_link_never_gets_the_accounts_urls(table):
    sheet, client = table
    factories.fill(sheet, count=2)
    kept(client, page_url(sheet))
    link = reverse("entry:page", kwargs={"token": sheet.entry_token})
    html = Client().get(link).content.decode()
    assert f"/tables/{sheet.pk}/" not in html
    assert f'action="/e/{sheet.entry_token}/record/"' in html


def test_a_tournament_lock_takes_the_entry_form_away_at_once(table):
    sheet, client = table
    factories.fill(sheet, count=2)
    scorer = Client()
    scorer.force_login(factories.user(sheet.club, role="scorer"))
    assert '<form class="entry deal-form"' in kept(scorer, page_url(sheet))
    lock_sheet(sheet.pk, "result", "The result of this match stands.")
    assert '<form class="entry deal-form"' not in scorer.get(page_url(sheet)).content.decode()
    unlock_sheet(sheet.pk)
    assert '<form class="entry deal-form"' in scorer.get(page_url(sheet)).content.decode()


def test_a_restore_that_gives_ids_out_again_shows_the_deals_restored(table):
    """A restore may bring back a database in which the same row ids and counts hold
    other deals: the times of the rows tell them apart."""
    sheet, client = table
    factories.fill(sheet, count=2)
    assert "Bettler · Clara" not in kept(client, page_url(sheet))
    last = reading.read_sheet(sheet).live_deals[-1]
    Deal.objects.filter(pk=last.pk).update(
        kind="dreier",
        inputs={"contract": "bettler", "declarer": 2, "won": True, "spritzen": 0},
        recorded_at=timezone.now(),
    )
    Deal.objects.filter(sheet=sheet).update(points=[0, 0, 0])
    sheet.refresh_from_db()
    sheet.fold = ""
    type(sheet).objects.filter(pk=sheet.pk).update(fold="")
    assert "Bettler · Clara" in client.get(page_url(sheet)).content.decode()


def test_the_kept_page_costs_four_queries_whatever_the_number_of_deals(table):
    sheet, client = table
    for count in (5, 60):
        factories.fill(sheet, count=count)
        client.get(page_url(sheet))
        with CaptureQueriesContext(connection) as queries:
            assert client.get(page_url(sheet)).status_code == 200
        # session, user, sheet with the member's role, the deals' aggregate with names
        assert len(queries) == 4, [q["sql"][:80] for q in queries]


def test_an_account_renamed_or_removed_shows_at_once_on_the_rows_it_struck(table):
    """A struck row names the account that struck it out: its user name is no part of
    the sheet's state, and changes (or goes, with the account) in the admin."""
    sheet, client = table
    olga = factories.user(sheet.club, role="scorer", username="olga")
    factories.fill(sheet, count=3)
    services.void_deal(sheet, reading.read_sheet(sheet).live_deals[-1].pk, services.Actor(olga))
    assert re.search(r"<small>\S+ \d\d:\d\d · olga</small>", kept(client, page_url(sheet)))
    olga.username = "olga.k"
    olga.save()
    html = client.get(page_url(sheet)).content.decode()
    assert re.search(r"<small>\S+ \d\d:\d\d · olga\.k</small>", html)
    olga.delete()
    html = client.get(page_url(sheet)).content.decode()
    assert re.search(r"<small>\S+ \d\d:\d\d</small>", html)
    assert "olga" not in html


def test_a_rename_while_the_page_is_read_is_not_kept_under_the_names_after(table, monkeypatch):
    """The players the page shows are read with the access, and the key takes their
    names from there: a rename before the deals' aggregate is read keeps the page under
    the names it shows, and the next page shows the new name."""
    sheet, client = table
    factories.fill(sheet, count=2)
    clara = reading.load_players(sheet)[2]
    sheet_stats = reading.sheet_stats

    def renamed_meanwhile(sheet, *args, **kwargs):
        monkeypatch.setattr(reading, "sheet_stats", sheet_stats)
        rename_player(clara, "Klara", ACTOR)
        return sheet_stats(sheet, *args, **kwargs)

    monkeypatch.setattr(reading, "sheet_stats", renamed_meanwhile)
    html = client.get(page_url(sheet)).content.decode()
    assert "Clara" in html and "Klara" not in html  # read before the rename
    html = client.get(page_url(sheet)).content.decode()
    assert "Klara" in html and "Clara" not in html


def test_an_account_renamed_while_the_page_is_read_is_not_kept_under_the_name_before(
    table, monkeypatch
):
    sheet, client = table
    olga = factories.user(sheet.club, role="scorer", username="olga")
    factories.fill(sheet, count=3)
    services.void_deal(sheet, reading.read_sheet(sheet).live_deals[-1].pk, services.Actor(olga))
    read_recent = reading.read_recent

    def renamed_meanwhile(*args, **kwargs):
        monkeypatch.setattr(reading, "read_recent", read_recent)
        olga.username = "olga.k"
        olga.save()
        return read_recent(*args, **kwargs)

    monkeypatch.setattr(reading, "read_recent", renamed_meanwhile)
    assert " · olga.k</small>" in client.get(page_url(sheet)).content.decode()
    olga.username = "olga"
    olga.save()
    html = client.get(page_url(sheet)).content.decode()
    assert " · olga</small>" in html and "olga.k" not in html


def test_a_deal_sent_twice_is_answered_from_the_recent_part_not_the_whole_sheet(table):
    """A double tap or a retried request reads the sheet as its page does (the fold kept
    with the sheet), not every row of the evening."""
    sheet, client = table
    factories.fill(sheet, count=40)
    data = factories.deal_form(sheet)
    url = reverse("sheet:record", kwargs={"pk": sheet.pk})
    first = client.post(url, data, headers={"HX-Request": "true"})
    with CaptureQueriesContext(connection) as queries:
        again = client.post(url, data, headers={"HX-Request": "true"})
    reads = [q["sql"] for q in queries if 'AS "voided_by__username"' in q["sql"]]
    assert reads and all('"position" >' in sql or '"key" =' in sql for sql in reads)
    assert Deal.objects.filter(sheet=sheet, key=data["key"]).count() == 1
    assert plain(again.content.decode()) == plain(first.content.decode())
