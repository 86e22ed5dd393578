"""Cups through their pages and writers (issue 30): bodies and their clubs, nights ticked
by the organiser and added by the admin, best n of m, categories, qualifying and the
invite to the final, person links and their undo, exports and the printout."""

import csv
import datetime as dt
import io
import uuid

import openpyxl
import pytest
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from base.errors import RuleError
from clubs import audit
from clubs.models import AuditEntry, Category, Player
from cups import finals, persons, services
from cups.models import Body, Link, Member, Night, Person
from tests import factories
from tournaments.models import Registration

pytestmark = pytest.mark.django_db


def signed_in(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def setup(client):
    """Two clubs in a body, its admin signed in, a cup counting best 2 of its nights."""
    admin = factories.user()
    north, south = factories.club(name="Nord"), factories.club(name="Süd")
    body = factories.body(admin, clubs=(north, south))
    cup = factories.cup(body, points_key="1: 25\n2: 20", best_of=2)
    signed_in(client, admin)
    return body, cup, north, south, admin


def night(club, winner, loser, days_ago, name="Cupabend"):
    when = timezone.now() - dt.timedelta(days=days_ago)
    return factories.played_night(club, [winner, loser], starts_at=when, name=name)


def count(cup, *nights, heat=""):
    for t in nights:
        services.count_night(cup, t, heat=heat, actor=audit.SYSTEM)


def public(client, cup, **query):
    url = reverse("cups:cup", kwargs={"slug": cup.body.slug, "cup_slug": cup.slug})
    return client.get(url, query)


def lines(response, code="all"):
    (found,) = [t for t in response.context["tables"] if t.code == code]
    return [
        (
            line.rank,
            line.entrant.name,
            [(c.points, "struck") if c.dropped else c.points for c in line.cells],
            line.total,
        )
        for line in found.lines
    ]


# -- bodies and their clubs --------------------------------------------------------------


def test_any_signed_in_user_creates_a_body_and_is_its_admin_once_for_a_double_post(client):
    user = factories.user()
    signed_in(client, user)
    form = {"key": factories.key(), "name": "Kärntner Schnapsverband", "slug": ""}
    for _ in range(2):
        response = client.post(reverse("cups:bodies"), form)
        assert response.status_code == 302
    (body,) = Body.objects.all()
    assert (body.slug, list(body.admins.all())) == ("karntner-schnapsverband", [user])
    assert response.url == reverse("cups:body", kwargs={"slug": body.slug})
    entry = AuditEntry.objects.get(scope="body", scope_id=body.pk)
    assert (entry.club_id, entry.action, entry.actor) == (None, "body created", user)


def test_an_admin_invites_another_admin_by_user_name_and_a_wrong_name_is_said_on_its_field(
    client, setup
):
    body, *_ = setup
    gerti = factories.user(username="gerti")
    url = reverse("cups:add_admin", kwargs={"slug": body.slug})
    response = client.post(url, {"username": "niemand"})
    assert response.status_code == 400
    assert response.context["admin_form"].errors["username"] == ["Es gibt kein Konto niemand."]
    assert client.post(url, {"username": "gerti"}).status_code == 302
    assert not body.admins.filter(username="gerti").exists()  # invited, not yet an admin
    assert [i.user for i in body.invitations.all()] == [gerti]


def test_a_club_owner_joins_by_the_link_and_a_renewed_link_no_longer_works(client):
    admin = factories.user()
    body = factories.body(admin)
    club = factories.club()
    owner = factories.user(club, role="owner")
    old = body.join_token
    client.force_login(owner)
    page = client.get(reverse("cups:join", kwargs={"token": old}))
    assert page.status_code == 200 and body.name in page.content.decode()
    for _ in range(2):  # a double tap joins once
        response = client.post(reverse("cups:join", kwargs={"token": old}), {"club": club.pk})
        assert response.status_code == 302
    assert Member.objects.live().filter(body=body, club=club).count() == 1
    services.renew_join_link(body, actor=audit.by(admin))
    assert client.get(reverse("cups:join", kwargs={"token": old})).status_code == 404
    other = factories.club()
    organiser = factories.user(other, role="organiser")
    client.force_login(organiser)  # not an owner: nothing to choose
    body.refresh_from_db()
    response = client.post(
        reverse("cups:join", kwargs={"token": body.join_token}), {"club": other.pk}
    )
    assert response.status_code == 400
    assert not Member.objects.filter(body=body, club=other).exists()


def test_a_body_admin_removes_a_club_whose_counted_night_stays_and_can_be_taken_out(client, setup):
    body, cup, north, south, admin = setup
    t = night(south, "Anna", "Ben", 5)
    count(cup, t)
    response = client.post(
        reverse("cups:remove_club", kwargs={"slug": body.slug, "club_id": south.pk})
    )
    assert response.status_code == 302
    member = Member.objects.get(body=body, club=south)
    assert member.left_at is not None  # kept, with the moment it left
    assert [n.tournament for n in Night.objects.live().filter(cup=cup)] == [t]
    page = client.get(
        reverse("cups:cup_admin", kwargs={"slug": body.slug, "cup_slug": cup.slug})
    ).content.decode()
    assert "(Verein nicht mehr Mitglied)" in page
    with pytest.raises(RuleError):
        services.count_night(cup, night(south, "Anna", "Ben", 4), actor=audit.SYSTEM)
    (counted,) = Night.objects.live().filter(cup=cup)
    response = client.post(
        reverse(
            "cups:remove_night",
            kwargs={"slug": body.slug, "cup_slug": cup.slug, "night_id": counted.pk},
        )
    )
    assert response.status_code == 302
    counted.refresh_from_db()
    assert counted.removed_at is not None
    actions = set(AuditEntry.objects.filter(club=None).values_list("action", flat=True))
    assert {"club removed from body", "cup night added", "cup night removed"} <= actions


# -- nights ------------------------------------------------------------------------------


def test_the_organiser_ticks_the_cup_on_his_nights_desk(client, setup):
    body, cup, north, *_ = setup
    t = night(north, "Anna", "Ben", 2)
    organiser = factories.user(north, role="organiser")
    client.force_login(organiser)
    desk = client.get(reverse("tournament", kwargs={"slug": north.slug, "tournament_id": t.pk}))
    html = desk.content.decode()
    assert f'name="cup" value="{cup.pk}"' in html and cup.name in html
    url = reverse("cups:tick", kwargs={"slug": north.slug, "tournament_id": t.pk})
    for _ in range(2):
        assert client.post(url, {"cup": str(cup.pk)}).status_code == 302
    assert Night.objects.live().filter(cup=cup, tournament=t).count() == 1
    assert client.post(url, {}).status_code == 302  # unticked: taken out, row kept
    assert Night.objects.live().filter(cup=cup).count() == 0
    assert Night.objects.filter(cup=cup).count() == 1
    # a scorer may not tick
    client.force_login(factories.user(north, role="scorer"))
    assert client.post(url, {"cup": str(cup.pk)}).status_code == 403


def test_the_desk_of_a_club_in_no_body_offers_no_cup_and_a_forged_tick_is_refused(client, setup):
    _body, cup, *_ = setup
    lone = factories.club()
    t = night(lone, "Anna", "Ben", 1)
    client.force_login(factories.user(lone, role="organiser"))
    desk = client.get(reverse("tournament", kwargs={"slug": lone.slug, "tournament_id": t.pk}))
    assert 'name="cup"' not in desk.content.decode()
    url = reverse("cups:tick", kwargs={"slug": lone.slug, "tournament_id": t.pk})
    response = client.post(url, {"cup": str(cup.pk)}, follow=True)
    assert not Night.objects.filter(cup=cup).exists()
    assert "Dieser Abend kann in diesem Cup nicht zählen." in response.content.decode()


def test_the_admin_adds_a_member_clubs_night_in_a_heat(client, setup):
    body, cup, north, *_ = setup
    t = night(north, "Anna", "Ben", 2)
    foreign = night(factories.club(), "Anna", "Ben", 2)
    url = reverse("cups:add_night", kwargs={"slug": body.slug, "cup_slug": cup.slug})
    response = client.post(url, {"tournament": foreign.pk, "heat": ""})
    assert response.status_code == 400
    assert "tournament" in response.context["night_form"].errors
    assert client.post(url, {"tournament": t.pk, "heat": "Nord"}).status_code == 302
    (counted,) = Night.objects.live().filter(cup=cup)
    assert (counted.tournament, counted.heat) == (t, "Nord")


# -- standings ---------------------------------------------------------------------------


def test_best_two_of_three_with_a_tie_on_the_public_page(client, setup):
    """Points 25 for 1st, 20 for 2nd, 1 for taking part; the best 2 nights count."""
    _body, cup, north, south, _admin = setup
    count(
        cup,
        night(north, "Anna", "Ben", 9),  # Anna 25, Ben 20
        night(north, "Ben", "Clara", 6),  # Ben 25, Clara 20
        night(north, "Clara", "Anna", 3),  # Clara 25, Anna 20
    )
    client.logout()
    response = public(client, cup)
    assert response.status_code == 200
    assert lines(response) == [
        (1, "Anna", [25, None, 20], 45),
        (1, "Ben", [20, 25, None], 45),
        (1, "Clara", [None, 20, 25], 45),
    ]
    count(cup, night(north, "Anna", "Ben", 1))  # Anna 25 again: her 20 is struck
    response = public(client, cup)
    assert lines(response) == [
        (1, "Anna", [25, None, (20, "struck"), 25], 50),
        (2, "Ben", [20, 25, None, (20, "struck")], 45),  # of equal points the later
        (2, "Clara", [None, 20, 25, None], 45),
    ]
    html = response.content.decode()
    assert '<del aria-label="gestrichen: 20 Punkte, nicht gezählt">20</del>' in html
    after_one = public(client, cup, after=1)
    assert lines(after_one) == [(1, "Anna", [25], 25), (2, "Ben", [20], 20)]


def test_two_players_of_one_name_in_two_clubs_stay_two_until_linked(client, setup):
    body, cup, north, south, admin = setup
    count(cup, night(north, "Anna", "Ben", 5), night(south, "Anna", "Dora", 4))
    before = lines(public(client, cup))
    assert [(r[1], r[3]) for r in before] == [("Anna", 25), ("Anna", 25), ("Ben", 20), ("Dora", 20)]
    north_anna = Player.objects.get(club=north, name="Anna")
    south_anna = Player.objects.get(club=south, name="Anna")
    first = persons.link_player(body, north_anna, None, actor=audit.by(admin))
    assert persons.suggestions(body, south_anna) == [first.person]  # offered, not linked
    assert [(r[1], r[3]) for r in lines(public(client, cup))] == [
        ("Anna", 25),
        ("Anna", 25),
        ("Ben", 20),
        ("Dora", 20),
    ]
    persons.link_player(body, south_anna, first.person, actor=audit.by(admin))
    assert lines(public(client, cup))[0] == (1, "Anna", [25, 25], 50)


def test_category_tables_take_the_clubs_categories_by_name_in_any_case(client, setup):
    body, cup, north, south, admin = setup
    services.save_cup(
        body,
        services.CupSettings(
            name=cup.name,
            slug=cup.slug,
            first_day=cup.first_day,
            last_day=cup.last_day,
            points_key=cup.key_lines,
            categories=("Damen",),
        ),
        actor=audit.by(admin),
        key=uuid.uuid4(),
        cup=cup,
    )
    count(cup, night(north, "Anna", "Ben", 5), night(south, "Clara", "Dora", 4))
    Category.objects.create(club=north, name="damen").players.add(
        Player.objects.get(club=north, name="Anna")
    )
    Category.objects.create(club=south, name="DAMEN").players.add(
        Player.objects.get(club=south, name="Dora")
    )
    response = public(client, cup)
    assert lines(response, "damen") == [(1, "Anna", [25, None], 25), (2, "Dora", [None, 20], 20)]
    assert [t.label for t in response.context["tables"]] == ["Gesamt", "Damen"]


# -- qualifying and the final ------------------------------------------------------------


def open_final(club):
    now = timezone.now()
    t = factories.tournament(
        club,
        name="Finale",
        starts_at=now + dt.timedelta(days=20),
        registration_public=True,
        registration_opens=now - dt.timedelta(days=1),
        registration_closes=now + dt.timedelta(days=10),
    )
    return t


def test_the_top_two_with_a_tie_at_the_cut_are_invited_once_to_the_final(client, setup):
    body, cup, north, south, admin = setup
    count(
        cup,
        night(north, "Anna", "Ben", 9),  # Anna 25, Ben 20
        night(south, "Clara", "Dora", 6),  # Clara 25, Dora 20
        night(north, "Emil", "Franz", 3),  # Emil 25, Franz 20
    )
    final = open_final(north)
    cup.final, cup.qualify_top, cup.final_accepted_at = final, 2, timezone.now()
    cup.save()
    page = client.get(reverse("cups:cup_admin", kwargs={"slug": body.slug, "cup_slug": cup.slug}))
    assert [q.line.entrant.name for q in page.context["qualifiers"]] == ["Anna", "Clara", "Emil"]
    url = reverse("cups:invite", kwargs={"slug": body.slug, "cup_slug": cup.slug})
    key = factories.key()
    for _ in range(2):  # a double tap registers once
        assert client.post(url, {"key": key}).status_code == 302
    again = client.post(url, {"key": factories.key()}, follow=True)  # a second invite
    clara = f"Clara ({south.name})"  # a guest of the host club Nord (RULES.md 8.6)
    assert f"Schon angemeldet: Anna, {clara}, Emil." in again.content.decode()
    names = sorted(Registration.objects.filter(tournament=final).values_list("name", flat=True))
    assert names == ["Anna", clara, "Emil"]
    entry = AuditEntry.objects.get(scope="cup", scope_id=cup.pk, action="cup finalists invited")
    assert set(entry.after["players"]) == {"Anna", clara, "Emil"}


def test_the_top_one_of_each_heat_qualify_with_a_tie_in_a_heat(setup):
    _body, cup, north, south, _admin = setup
    count(cup, night(north, "Anna", "Ben", 9), heat="Nord")
    count(cup, night(south, "Clara", "Dora", 6), night(south, "Dora", "Clara", 3), heat="Süd")
    cup.qualify_per_heat = 1
    cup.save()
    found = finals.cup_data(cup).qualifiers()
    assert [(q.line.entrant.name, q.heats) for q in found] == [
        ("Clara", ("Süd",)),
        ("Dora", ("Süd",)),
        ("Anna", ("Nord",)),
    ]


def test_an_invite_to_a_final_whose_registration_is_closed_is_refused_on_the_page(client, setup):
    body, cup, north, *_ = setup
    count(cup, night(north, "Anna", "Ben", 9))
    cup.final, cup.qualify_top = factories.tournament(north, name="Finale"), 1
    cup.final_accepted_at = timezone.now()
    cup.save()
    url = reverse("cups:invite", kwargs={"slug": body.slug, "cup_slug": cup.slug})
    response = client.post(url, {"key": factories.key()})
    assert response.status_code == 400
    assert "Die Anmeldung für diesen Abend ist geschlossen." in response.content.decode()
    assert not Registration.objects.exists()


# -- person links ------------------------------------------------------------------------


def test_a_link_and_its_undo_are_kept_and_audited(client, setup):
    body, cup, north, south, admin = setup
    count(cup, night(north, "Hans Maier", "Ben", 5), night(south, "Hans Maier", "Dora", 4))
    page = client.get(reverse("cups:links", kwargs={"slug": body.slug}))
    assert page.status_code == 200
    hans_n = Player.objects.get(club=north, name="Hans Maier")
    hans_s = Player.objects.get(club=south, name="Hans Maier")
    url = reverse("cups:link", kwargs={"slug": body.slug})
    assert client.post(url, {"player": hans_n.pk, "person": "new"}).status_code == 302
    person = Person.objects.get(body=body)
    page = client.get(reverse("cups:links", kwargs={"slug": body.slug}))
    (row,) = [r for r in page.context["rows"] if r.player == hans_s]
    assert row.suggested == [person] and row.link is None  # suggested, never linked alone
    assert client.post(url, {"player": hans_s.pk, "person": person.pk}).status_code == 302
    link = Link.objects.live().get(player=hans_s)
    response = client.post(url, {"player": hans_s.pk, "person": "new"})
    assert response.status_code == 400  # linked already: undo first
    undo = reverse("cups:unlink", kwargs={"slug": body.slug, "link_id": link.pk})
    assert client.post(undo).status_code == 302
    link.refresh_from_db()
    assert link.ended_at is not None and link.ended_by == admin
    assert Link.objects.filter(player=hans_s).count() == 1  # kept, ended
    entries = AuditEntry.objects.filter(scope="body", scope_id=body.pk).order_by("id")
    kept = [(e.action, (e.after or e.before)["player"]) for e in entries if "link" in e.action]
    assert kept == [
        ("cup player linked", "Hans Maier"),
        ("cup player linked", "Hans Maier"),
        ("cup player unlinked", "Hans Maier"),
    ]
    assert entries.last().before["club"] == south.name


def test_an_organiser_links_only_his_own_clubs_players(client, setup):
    body, cup, north, south, _admin = setup
    count(cup, night(north, "Anna", "Ben", 5), night(south, "Clara", "Dora", 4))
    client.force_login(factories.user(north, role="organiser"))
    page = client.get(reverse("cups:links", kwargs={"slug": body.slug}))
    assert {r.player.club for r in page.context["rows"]} == {north}
    url = reverse("cups:link", kwargs={"slug": body.slug})
    clara = Player.objects.get(club=south, name="Clara")
    assert client.post(url, {"player": clara.pk, "person": "new"}).status_code == 404
    anna = Player.objects.get(club=north, name="Anna")
    assert client.post(url, {"player": anna.pk, "person": "new"}).status_code == 302
    other = persons.link_player(body, clara, None, actor=audit.SYSTEM)
    undo = reverse("cups:unlink", kwargs={"slug": body.slug, "link_id": other.pk})
    assert client.post(undo).status_code == 404
    client.force_login(factories.user(north, role="scorer"))
    assert client.get(reverse("cups:links", kwargs={"slug": body.slug})).status_code == 404


# -- exports and the printout ------------------------------------------------------------


def test_the_exports_keep_the_ranking_order_and_a_formula_stays_text(client, setup):
    _body, cup, north, south, _admin = setup
    count(cup, night(north, "=1+1", "Ölz", 5), night(south, "Anna", "Ölz", 4))
    client.logout()
    content = public(client, cup, _export="csv", table="all").content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(content)))
    assert rows[0][:3] == ["Rang", "Spieler", "Vereine"]
    assert rows[0][-2:] == ["Abende", "Punkte"]
    assert [r[1] for r in rows[1:]] == ["'=1+1", "Anna", "Ölz", "Ölz"]
    assert [r[0] for r in rows[1:]] == ["1", "1", "3", "3"]
    book = openpyxl.load_workbook(io.BytesIO(public(client, cup, _export="xlsx").content))
    assert [r[1] for r in book.active.iter_rows(min_row=2, values_only=True)] == [
        "'=1+1",
        "Anna",
        "Ölz",
        "Ölz",
    ]
    ods = public(client, cup, _export="ods")
    assert ods.status_code == 200 and len(ods.content) > 1000


def test_the_printout_lists_the_standings(client, setup):
    _body, cup, north, *_ = setup
    count(cup, night(north, "Anna", "Ben", 5))
    client.logout()
    pdf = client.get(
        reverse("cups:cup_print", kwargs={"slug": cup.body.slug, "cup_slug": cup.slug})
    )
    assert pdf["Content-Type"] == "application/pdf"
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)
    assert cup.name in text and text.index("Anna") < text.index("Ben")


def test_the_public_cup_page_reads_a_fixed_number_of_queries_per_night(client, setup):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    _body, cup, north, *_ = setup
    count(cup, night(north, "Anna", "Ben", 5))
    with CaptureQueriesContext(connection) as one:
        public(client, cup)
    count(cup, night(north, "Clara", "Ben", 4))
    with CaptureQueriesContext(connection) as two:
        public(client, cup)
    assert len(two) - len(one) <= 5


def test_a_counted_night_cannot_be_the_final_nor_the_final_a_counted_night(setup):
    body, cup, north, south, admin = setup
    counted = night(north, "Anna", "Ben", 5)
    count(cup, counted)

    def with_final(final):
        return services.CupSettings(
            name=cup.name,
            slug=cup.slug,
            first_day=cup.first_day,
            last_day=cup.last_day,
            points_key=cup.key_lines,
            final=final,
        )

    with pytest.raises(RuleError) as refused:
        services.save_cup(
            body, with_final(counted), actor=audit.by(admin), key=uuid.uuid4(), cup=cup
        )
    assert (refused.value.field, refused.value.template) == (
        "final",
        "This night counts in the cup: take it out first, or choose another.",
    )
    cup.refresh_from_db()
    assert cup.final is None
    final = open_final(south)
    services.save_cup(body, with_final(final), actor=audit.by(admin), key=uuid.uuid4(), cup=cup)
    cup.refresh_from_db()
    with pytest.raises(RuleError) as refused:
        services.count_night(cup, final, actor=audit.by(admin))
    assert (refused.value.field, refused.value.template) == (
        "tournament",
        "The cup's final is not one of its nights.",
    )
    assert list(cup.nights.live().values_list("tournament", flat=True)) == [counted.pk]
