"""Cups act on a club only with its consent (RULES.md 8, issue 38): an admin is invited
and accepts, a night becomes a cup's final once its club accepts, the registrations a
cup writes name the admin, a link across clubs needs the body's admin or an organiser
of both clubs, and the invitation to the final names the person (8.6)."""

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from base.errors import RuleError
from clubs import audit
from clubs.models import AuditEntry, Membership, Player
from cups import persons, services
from cups.models import Link
from tests import factories
from tournaments.models import Card, Registration
from tournaments.services.checkin import check_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup(client):
    """Two clubs in a body, its admin signed in, a cup of the top 2."""
    admin = factories.user()
    north, south = factories.club(name="Nord"), factories.club(name="Süd")
    body = factories.body(admin, clubs=(north, south))
    cup = factories.cup(body, points_key="1: 25\n2: 20", qualify_top=2)
    client.force_login(admin)
    return body, cup, north, south, admin


def night(club, order, days_ago):
    when = timezone.now() - dt.timedelta(days=days_ago)
    return factories.played_night(club, order, starts_at=when)


def open_final(club):
    now = timezone.now()
    return factories.tournament(
        club,
        name="Cupfinale",
        starts_at=now + dt.timedelta(days=20),
        registration_public=True,
        registration_opens=now - dt.timedelta(days=1),
        registration_closes=now + dt.timedelta(days=10),
    )


def propose(cup, final):
    """The admin's settings with ``final`` chosen: proposed to its club."""
    return services.save_cup(
        cup.body,
        services.CupSettings(
            name=cup.name,
            slug=cup.slug,
            first_day=cup.first_day,
            last_day=cup.last_day,
            points_key=cup.key_lines,
            qualify_top=cup.qualify_top,
            final=final,
        ),
        actor=audit.SYSTEM,
        key=factories.key(),
        cup=cup,
    )


def desk(club, t):
    return reverse("tournament", kwargs={"slug": club.slug, "tournament_id": t.pk})


def answer_url(club, t, cup):
    kwargs = {"slug": club.slug, "tournament_id": t.pk, "cup_id": cup.pk}
    return reverse("cups:answer_final", kwargs=kwargs)


def invite_url(cup):
    return reverse("cups:invite", kwargs={"slug": cup.body.slug, "cup_slug": cup.slug})


# -- an admin is invited and accepts ------------------------------------------------------


def test_an_invited_account_is_no_admin_until_it_accepts_and_may_decline(client, setup):
    body, *_ = setup
    boss = User.objects.create_superuser("chefin", "chefin@example.org", "pw-of-the-boss")
    other = factories.user(username="otto")
    url = reverse("cups:add_admin", kwargs={"slug": body.slug})
    for name in ("chefin", "otto"):
        assert client.post(url, {"username": name}).status_code == 302
    assert list(body.admins.all()) != [] and not body.admins.filter(pk__in=[boss.pk, other.pk])
    assert client.post(url, {"username": "chefin"}).status_code == 302  # once
    assert body.invitations.filter(user=boss).count() == 1
    body_page = reverse("cups:body", kwargs={"slug": body.slug})
    client.force_login(boss)
    assert client.get(body_page).status_code == 404  # invited is not admitted
    bodies = client.get(reverse("cups:bodies"))
    (invitation,) = bodies.context["invitations"]
    assert invitation.body == body
    answer = reverse("cups:answer_invitation", kwargs={"invitation_id": invitation.pk})
    client.force_login(other)
    assert client.post(answer, {"answer": "accept"}).status_code == 404  # not his
    client.force_login(boss)
    assert client.post(answer, {"answer": "accept"}).status_code == 302
    assert client.get(body_page).status_code == 200
    (mine,) = body.invitations.filter(user=other)
    client.force_login(other)
    decline = reverse("cups:answer_invitation", kwargs={"invitation_id": mine.pk})
    assert client.post(decline, {"answer": "decline"}).status_code == 302
    assert set(body.admins.values_list("username", flat=True)) == {
        body.admins.exclude(pk=boss.pk).get().username,
        "chefin",
    }
    actions = list(
        AuditEntry.objects.filter(scope="body", scope_id=body.pk, action__startswith="body admin")
        .order_by("id")
        .values_list("action", "actor__username")
    )
    assert actions[-2:] == [("body admin added", "chefin"), ("body admin declined", "otto")]


# -- a club accepts before its night becomes a final --------------------------------------


def test_a_final_is_proposed_until_an_organiser_of_its_club_accepts_it(client, setup):
    body, cup, north, south, admin = setup
    for order in (["Anna", "Ben"], ["Clara", "Dora"]):
        services.count_night(cup, night(north, order, 5), actor=audit.SYSTEM)
    final = open_final(north)
    cup = propose(cup, final)
    assert not cup.final_accepted
    response = client.post(invite_url(cup), {"key": factories.key()})
    assert response.status_code == 400
    assert response.context["invite_error"] == (
        f"{north.name} hat Cupfinale noch nicht als Finale angenommen: seine "
        "Turnierleitung nimmt es auf der Seite des Abends an."
    )
    assert not Registration.objects.filter(tournament=final).exists()
    public = client.get(reverse("cups:cup", kwargs={"slug": body.slug, "cup_slug": cup.slug}))
    assert "Cupfinale" not in public.content.decode()  # proposed is not announced

    client.force_login(factories.user(south, role="owner"))  # another club's owner
    assert client.post(answer_url(north, final, cup), {"answer": "accept"}).status_code in (
        403,
        404,
    )
    organiser = factories.user(north, role="organiser")
    client.force_login(organiser)
    page = client.get(desk(north, final))
    assert page.status_code == 200
    assert (
        f"{body.name} schlägt diesen Abend als Finale von {cup.name} vor" in page.content.decode()
    )
    assert client.post(answer_url(north, final, cup), {"answer": "accept"}).status_code == 302
    cup.refresh_from_db()
    assert cup.final_accepted and cup.final_accepted_by == organiser
    entry = AuditEntry.objects.get(club=north, scope="tournament", action="cup final accepted")
    assert (entry.scope_id, entry.actor) == (final.pk, organiser)

    client.force_login(admin)
    assert client.post(invite_url(cup), {"key": factories.key()}).status_code == 302
    registered = AuditEntry.objects.filter(
        club=north, scope="tournament", scope_id=final.pk, action="registered"
    )
    assert registered.count() == 2
    assert {e.actor for e in registered} == {admin}  # the cup's entries name its admin

    cup = propose(cup, open_final(south))  # another final: proposed afresh
    assert not cup.final_accepted


def test_a_club_declines_its_night_as_a_final(client, setup):
    body, cup, north, *_ = setup
    final = open_final(north)
    cup = propose(cup, final)
    client.force_login(factories.user(north, role="owner"))
    assert client.post(answer_url(north, final, cup), {"answer": "decline"}).status_code == 302
    cup.refresh_from_db()
    assert cup.final is None and not cup.final_accepted
    assert AuditEntry.objects.filter(scope="cup", scope_id=cup.pk, action="cup final declined")


# -- a link across clubs -------------------------------------------------------------------


def test_an_organiser_links_to_another_clubs_person_only_when_he_organises_both(client, setup):
    body, cup, north, south, admin = setup
    services.count_night(cup, night(north, ["Anna", "Ben"], 5), actor=audit.SYSTEM)
    services.count_night(cup, night(south, ["Clara", "Dora"], 4), actor=audit.SYSTEM)
    clara = Player.objects.get(club=south, name="Clara")
    person = persons.link_player(body, clara, None, actor=audit.by(admin)).person
    anna = Player.objects.get(club=north, name="Anna")
    url = reverse("cups:link", kwargs={"slug": body.slug})
    organiser = factories.user(north, role="organiser")
    client.force_login(organiser)
    response = client.post(url, {"player": anna.pk, "person": person.pk})
    assert response.status_code == 400
    assert response.context["rows"]  # the page again, with the error on the person
    assert not Link.objects.live().filter(player=anna).exists()
    line = client.get(reverse("cups:cup", kwargs={"slug": body.slug, "cup_slug": cup.slug}))
    assert [t.lines for t in line.context["tables"]][0][0].entrant.name == "Anna"
    # an organiser of both clubs may, as the body's admin may
    Membership.objects.create(user=organiser, club=south, role="organiser")
    assert client.post(url, {"player": anna.pk, "person": person.pk}).status_code == 302
    assert Link.objects.live().get(player=anna).person == person


# -- the invitation names the person (8.6) ------------------------------------------------


def test_two_qualifiers_of_one_name_both_come_and_each_stays_his_own_person(client, setup):
    body, cup, north, south, admin = setup
    services.count_night(cup, night(north, ["Anna", "Ben"], 5), actor=audit.SYSTEM)
    services.count_night(cup, night(south, ["Anna", "Dora"], 4), actor=audit.SYSTEM)
    final = open_final(north)
    cup = propose(cup, final)
    services.answer_final(cup, final, accept=True, actor=audit.SYSTEM)
    cup.refresh_from_db()
    assert client.post(invite_url(cup), {"key": factories.key()}).status_code == 302
    guest = f"Anna ({south.name})"
    names = sorted(Registration.objects.filter(tournament=final).values_list("name", flat=True))
    assert names == ["Anna", guest]  # both come
    south_anna = Player.objects.get(club=south, name="Anna")
    host_anna = Player.objects.get(club=north, name="Anna")
    visitor = Player.objects.get(club=north, name=guest)
    person = Link.objects.live().get(player=south_anna).person
    assert Link.objects.live().get(player=visitor).person == person
    assert not Link.objects.live().filter(player=host_anna).exists()
    entry = AuditEntry.objects.filter(scope="body", action="cup player linked").last()
    assert entry.actor == admin
    registration = Registration.objects.get(tournament=final, name=guest)
    registration.tournament.refresh_from_db()
    (card,) = check_in(registration, audit.by(admin))
    assert card.player == visitor  # checked in at another club's final: his own person
    assert not Card.objects.filter(tournament=final, player=host_anna).exists()


def test_qualifiers_of_one_name_from_two_clubs_come_to_a_third_clubs_final(client, setup):
    body, cup, north, south, admin = setup
    west = factories.club(name="West")
    services.join(body, west, body.join_token, actor=audit.by(admin))
    services.count_night(cup, night(north, ["Anna", "Ben"], 5), actor=audit.SYSTEM)
    services.count_night(cup, night(south, ["Anna", "Dora"], 4), actor=audit.SYSTEM)
    factories.players(west, "Anna")  # the host's own Anna, who did not qualify
    final = open_final(west)
    cup = propose(cup, final)
    services.answer_final(cup, final, accept=True, actor=audit.SYSTEM)
    cup.refresh_from_db()
    assert client.post(invite_url(cup), {"key": factories.key()}).status_code == 302
    names = sorted(Registration.objects.filter(tournament=final).values_list("name", flat=True))
    assert names == sorted([f"Anna ({north.name})", f"Anna ({south.name})"])
    again = client.post(invite_url(cup), {"key": factories.key()}, follow=True)
    assert Registration.objects.filter(tournament=final).count() == 2  # nobody twice
    assert "Schon angemeldet" in again.content.decode()


# -- public lists show what the clubs show publicly ---------------------------------------


def test_a_private_clubs_players_keep_their_place_on_public_lists_but_not_their_name(client):
    north, south = factories.club(name="Nord"), factories.club(name="Süd")
    body = factories.body(clubs=(north, south))
    factories.lists_public(south, False)  # Süd keeps its lists to its members
    cup = factories.cup(body, points_key="1: 25\n2: 20")
    services.count_night(cup, night(north, ["Anna", "Ben"], 5), actor=audit.SYSTEM)
    services.count_night(cup, night(south, ["Clara", "Dora"], 4), actor=audit.SYSTEM)
    factories.partie(south, Player.objects.filter(club=south).order_by("name"), winner=0)
    factories.partie(north, Player.objects.filter(club=north).order_by("name"), winner=0)
    kwargs = {"slug": body.slug, "cup_slug": cup.slug}
    hidden = "Spieler eines privaten Vereins"
    page = client.get(reverse("cups:cup", kwargs=kwargs))
    (overall, *_) = page.context["tables"]
    assert [(line.rank, line.entrant.name, line.entrant.clubs) for line in overall.lines] == [
        (1, "Anna", (north.name,)),
        (1, hidden, ()),
        (3, "Ben", (north.name,)),
        (3, hidden, ()),
    ]
    html = page.content.decode()
    # the night of Süd stays in the calendar; its players are not named
    assert "Clara" not in html and "Dora" not in html and html.count(hidden) == 2
    content = client.get(reverse("cups:cup", kwargs=kwargs), {"_export": "csv"})
    text = content.content.decode("utf-8-sig")
    assert "Clara" not in text and "Dora" not in text and text.count(hidden) == 2
    ratings = client.get(reverse("cups:cup_ratings", kwargs=kwargs))
    rows = ratings.context["ranked"] + ratings.context["below"]
    assert sorted(r.name for r in rows) == sorted(["Anna", "Ben", hidden, hidden])
    assert "Clara" not in ratings.content.decode()
    # the club's own lists stay closed to the public, as before
    assert client.get(reverse("seasons:all_time", kwargs={"slug": south.slug})).status_code in (
        302,
        404,
    )


def test_two_players_who_met_in_a_match_are_not_linked_to_one_person(setup):
    body, cup, north, *_ = setup
    t = night(north, ["Hans Huber", "Hans Hüber"], 5)
    hans, junior = (Player.objects.get(club=north, name=n) for n in ("Hans Huber", "Hans Hüber"))
    person = persons.link_player(body, hans, None, actor=audit.SYSTEM).person
    with pytest.raises(RuleError) as error:
        persons.link_player(body, junior, person, actor=audit.SYSTEM)
    assert error.value.field == "person"
    day = timezone.localtime(t.starts_at).strftime("%d.%m.%Y")
    assert error.value.params["where"] == f"{t.name} ({day}), Finale"
    assert not Link.objects.live().filter(player=junior).exists()


def test_the_nights_history_says_which_cup_its_club_accepted(client, setup):
    body, cup, north, *_ = setup
    final = open_final(north)
    cup = propose(cup, final)
    organiser = factories.user(north, role="organiser")
    client.force_login(organiser)
    client.post(answer_url(north, final, cup), {"answer": "accept"})
    url = reverse("tournament_history", kwargs={"slug": north.slug, "tournament_id": final.pk})
    rows = client.get(url).context["rows"]
    (row,) = [r for r in rows if r.action == "Abend als Finale eines Cups angenommen"]
    assert set(row.after.split(" · ")) == {
        f"Cup: {cup.name}",
        f"Verband: {body.name}",
        "Abend: Cupfinale",
    }


def test_an_organisers_links_page_names_no_person_of_another_club(client, setup):
    body, cup, north, south, admin = setup
    services.count_night(cup, night(north, ["Anna", "Ben"], 5), actor=audit.SYSTEM)
    services.count_night(cup, night(south, ["Anna", "Dora"], 4), actor=audit.SYSTEM)
    south_anna = Player.objects.get(club=south, name="Anna")
    theirs = persons.link_player(body, south_anna, None, actor=audit.by(admin)).person
    client.force_login(factories.user(north, role="organiser"))
    page = client.get(reverse("cups:links", kwargs={"slug": body.slug}))
    assert theirs not in page.context["persons"]
    assert all(theirs not in row.suggested for row in page.context["rows"])
    client.force_login(admin)
    page = client.get(reverse("cups:links", kwargs={"slug": body.slug}))
    (row,) = [r for r in page.context["rows"] if r.player.club == north and r.player.name == "Anna"]
    assert row.suggested == [theirs]  # the admin is offered him
