"""Rows read by hand-written SQL (``base.sqlrows``) are what the ORM reads, field by
field, on the database the tests run on (SQLite, and PostgreSQL where DATABASE_URL is
set); and the access to a sheet built on them answers as before for every kind of
address."""

from datetime import timedelta

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from base.sqlrows import Columns, fetch, table
from clubs.models import Club, Player
from scoring import reading, services
from scoring.models import Deal, DealRow, Sheet, deal_rows
from tests import factories

pytestmark = pytest.mark.django_db


def fields_of(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def read(model, alias: str, pk: int):
    columns = Columns(model, alias)
    rows = fetch(f'SELECT {columns.sql} FROM {table(model)} {alias} WHERE {alias}."id" = %s', [pk])
    return columns.instance(rows[0])


def test_a_sheet_with_every_kind_of_field_reads_as_the_orm_reads_it():
    club = factories.club()
    sheet = factories.sheet(club)
    factories.fill(sheet, count=30)  # keeps a fold
    voided = reading.read_sheet(sheet).live_deals[-1]
    services.void_deal(sheet, voided.pk, services.Actor(factories.user(club)))
    Sheet.objects.filter(pk=sheet.pk).update(
        locked_at=timezone.now(),
        lock={"kind": "result", "template": "Gesperrt: %(x)s", "params": {"x": "ä"}},
        token_revoked_at=timezone.now() - timedelta(minutes=3),
        title="Stammtisch „Zur Post“",
    )
    ours, orms = read(Sheet, "s", sheet.pk), Sheet.objects.get(pk=sheet.pk)
    assert fields_of(ours) == fields_of(orms)
    assert '"marks":[{' in ours.fold and ours.lock["params"] == {"x": "ä"}
    assert ours.created_at.tzinfo is not None and ours._state.adding is False
    assert ours.core_rules == orms.core_rules
    assert fields_of(read(Club, "c", club.pk)) == fields_of(Club.objects.get(pk=club.pk))
    player = factories.players(club, "Ödön")[0]
    assert fields_of(read(Player, "p", player.pk)) == fields_of(Player.objects.get(pk=player.pk))


def test_chosen_fields_are_converted_as_the_orm_converts_them():
    club = factories.club()
    sheet = factories.sheet(club)
    factories.fill(sheet, count=5)
    names = ("id", "inputs", "points", "key", "recorded_at", "voided_at", "via_link")
    columns = Columns(Deal, "d", names)
    rows = fetch(
        f'SELECT {columns.sql} FROM {table(Deal)} d WHERE d."sheet_id" = %s ORDER BY d."id"',
        [sheet.pk],
    )
    assert [columns.values(row) for row in rows] == [
        list(values)
        for values in Deal.objects.filter(sheet=sheet).order_by("id").values_list(*names)
    ]
    with pytest.raises(TypeError):
        columns.instance(rows[0])


def test_the_select_list_is_quoted_for_the_database():
    quote = connection.ops.quote_name
    assert Columns(Club, "c", ("id", "name")).sql == f"{quote('c')}.{quote('id')}, " + (
        f"{quote('c')}.{quote('name')}"
    )


def test_the_access_query_answers_every_kind_of_address(client):
    club = factories.club()
    sheet = factories.sheet(club, names=("Anna", "Ben", "Clara", "Dora"))
    member = factories.user(club, role="member")
    stranger = factories.user(factories.club(), role="organiser")
    page = reverse("sheet:page", kwargs={"pk": sheet.pk})
    link = reverse("entry:page", kwargs={"token": sheet.entry_token})
    assert client.get(link).status_code == 200  # the private link, no account
    html = client.get(link).content.decode()
    assert [html.index(name) for name in ("Anna", "Ben", "Clara", "Dora")] == sorted(
        html.index(name) for name in ("Anna", "Ben", "Clara", "Dora")
    )
    client.force_login(stranger)
    assert client.get(page).status_code == 404  # another club's sheet
    for pk in (0, 2**63, 10**30):
        assert client.get(f"/tables/{pk}/").status_code == 404
    client.force_login(member)
    assert client.get(page).status_code == 200
    assert client.post(reverse("sheet:record", kwargs={"pk": sheet.pk})).status_code == 403
    Sheet.objects.filter(pk=sheet.pk).update(created_at=timezone.now() - timedelta(days=400))
    client.logout()
    assert client.get(link).status_code == 404  # the link ran out


def test_deal_rows_are_the_deals_as_the_orm_reads_them():
    club = factories.club()
    sheet = factories.sheet(club)
    factories.fill(sheet, count=8)
    live = reading.read_sheet(sheet).live_deals
    services.void_deal(sheet, live[-1].pk, services.Actor(factories.user(club, username="olga")))
    services.void_deal(sheet, live[-2].pk, services.Actor(None, via_link=True))
    fields = ("pk", "position", "kind", "inputs", "points", "key", "recorded_at", "voided_at")
    fields += ("voided_by__username", "voided_via_link")
    orms = [
        DealRow(*values)
        for values in Deal.objects.filter(sheet=sheet)
        .order_by("position", "recorded_at", "id")
        .values_list(*fields)
    ]
    assert deal_rows(sheet.pk) == orms
    assert [d.voided_by for d in orms if d.voided_at] == [None, "olga"]
    assert [d.voided_via_link for d in orms if d.voided_at] == [True, False]
    assert deal_rows(sheet.pk, orms[4].position) == orms[5:]
    assert deal_rows(sheet.pk, key=orms[3].key) == [orms[3]]
    assert deal_rows(sheet.pk + 1) == []


def stored(instance) -> dict:
    """The row of ``instance`` as the ORM reads it back, without its id and times."""
    row = fields_of(type(instance).objects.get(pk=instance.pk))
    return {k: v for k, v in row.items() if k not in ("id", "at", "recorded_at")}
