"""A real club starts on its own server: founding a club, invitation links, roles,
passwords, the admin, ``createclub`` and the README's first-run steps.

Personas: olga owns the club, max is a member, a stranger belongs elsewhere.
"""

import datetime
import re
import threading

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from clubs import invitations, services
from clubs.admin import HistoryAdmin
from clubs.models import AuditEntry, Club, Invitation, Membership, Role
from scoring.rules import RuleError
from tests import factories
from tests.markup import squeezed
from tournaments.simulation import simulate

pytestmark = pytest.mark.django_db
User = get_user_model()
PASSWORD = "Kartenrunde-2026"


@pytest.fixture
def olga():
    """Olga, owner of a club of her own."""
    club = factories.club()
    return factories.user(club, role="owner", username="olga")


@pytest.fixture
def club(olga):
    return Club.objects.get(memberships__user=olga)


def invite(club, owner, role="member") -> Invitation:
    return invitations.create_invitation(club, role, owner)


def join_path(invitation) -> str:
    return reverse("join", kwargs={"token": invitation.token})


# -- 1. Founding a club -------------------------------------------------------------------


def test_a_user_without_a_club_is_offered_to_found_one():
    lonely = factories.user(username="lonely")
    page = factories.signed_in(lonely).get("/").content.decode()
    assert "Du gehörst noch zu keinem Verein." in page
    assert f'href="{reverse("club_new")}"' in page
    assert "Verein gründen" in page


def test_founding_a_club_makes_its_founder_the_owner_and_is_in_the_history():
    founder = factories.user(username="franz")
    client = factories.signed_in(founder)
    response = client.post(
        reverse("club_new"), {"name": "  Schnapsrunde   Öhling ", "key": factories.key()}
    )
    assert response.status_code == 302
    assert response["Location"] == "/c/schnapsrunde-ohling/members/"
    club = Club.objects.get(slug="schnapsrunde-ohling")
    assert club.name == "Schnapsrunde Öhling"
    assert list(club.memberships.values_list("user__username", "role")) == [("franz", "owner")]
    entry = AuditEntry.objects.get(scope="club", scope_id=club.pk)
    assert (entry.action, entry.actor_id) == ("club created", founder.pk)
    assert entry.after == {
        "name": "Schnapsrunde Öhling",
        "slug": "schnapsrunde-ohling",
        "owner": "franz",
    }
    assert client.get(response["Location"]).status_code == 200


def test_a_second_club_of_the_same_name_gets_the_next_free_slug(olga):
    first = services.create_club("Schnapsrunde Öhling", olga)
    second = services.create_club("Schnapsrunde Öhling", olga)
    third = services.create_club("Schnapsrunde-Öhling!", olga)
    assert [first.slug, second.slug, third.slug] == [
        "schnapsrunde-ohling",
        "schnapsrunde-ohling-2",
        "schnapsrunde-ohling-3",
    ]


def test_a_name_without_letters_for_the_address_gets_the_slug_verein(olga):
    assert services.create_club("♠♣♥♦", olga).slug == "verein"


def test_a_double_tap_on_found_makes_one_club():
    founder = factories.user()
    client = factories.signed_in(founder)
    data = {"name": "Die Bummerl-Buam", "key": factories.key()}
    assert client.post(reverse("club_new"), data).status_code == 302
    assert client.post(reverse("club_new"), data).status_code == 302
    assert Club.objects.filter(name="Die Bummerl-Buam").count() == 1


def test_an_empty_club_name_is_refused_on_its_field():
    client = factories.signed_in(factories.user())
    response = client.post(reverse("club_new"), {"name": "   ", "key": factories.key()})
    assert response.status_code == 200
    assert response.context["form"].errors["name"] == ["Dieses Feld ist zwingend erforderlich."]
    assert not Club.objects.exists()


def test_founding_needs_a_sign_in(client):
    response = client.get(reverse("club_new"))
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_a_member_with_one_club_finds_found_another_club_on_its_page(olga, club):
    page = (
        factories.signed_in(olga).get(reverse("club", kwargs={"slug": club.slug})).content.decode()
    )
    assert "Weiteren Verein gründen" in page
    assert f'href="{reverse("members", kwargs={"slug": club.slug})}"' in page


# -- 2. Invitations -----------------------------------------------------------------------


def test_an_owner_makes_a_link_with_a_role_and_sees_it_with_its_qr_code(olga, club):
    client = factories.signed_in(olga)
    url = reverse("members", kwargs={"slug": club.slug})
    response = client.post(url, {"role": "scorer", "key": factories.key()})
    invitation = Invitation.objects.get(club=club)
    assert response["Location"] == f"{url}?new={invitation.pk}"
    assert (invitation.role, invitation.created_by, invitation.used_at) == ("scorer", olga, None)
    assert len(invitation.token) >= 32
    page = client.get(response["Location"])
    html = page.content.decode()
    assert f"http://testserver/j/{invitation.token}/" in html
    assert "<details open><summary>Link und QR-Code" in squeezed(html)
    assert "<svg" in html
    assert "no-store" in page["Cache-Control"]
    entry = AuditEntry.objects.get(scope="club", scope_id=club.pk, action="invitation created")
    assert entry.after["role"] == "scorer"


def test_an_invitation_is_open_seven_days(olga, club):
    invitation = invite(club, olga)
    span = invitation.expires_at - invitation.created_at
    assert datetime.timedelta(days=7) - span < datetime.timedelta(seconds=1)


@pytest.mark.parametrize(
    ("role", "expected"),
    [("owner", 200), ("organiser", 403), ("scorer", 403), ("member", 403)],
)
def test_only_owners_open_the_members_page(club, role, expected):
    client = factories.signed_in(factories.user(club, role=role))
    response = client.get(reverse("members", kwargs={"slug": club.slug}))
    assert response.status_code == expected
    if expected == 403:
        # Who can help: the owner changes roles now, not an organiser.
        assert "Der Obmann des Vereins kann sie ändern." in response.content.decode()


def test_strangers_and_anonymous_visitors_do_not_see_the_members_page(club):
    url = reverse("members", kwargs={"slug": club.slug})
    stranger = factories.signed_in(factories.user(factories.club(), role="owner"))
    assert stranger.get(url).status_code == 404
    assert stranger.post(url, {"role": "owner", "key": factories.key()}).status_code == 404
    assert Client().get(url).status_code == 302
    assert not Invitation.objects.exists()


def test_opening_the_link_does_not_use_it_joining_does(olga, club):
    invitation = invite(club, olga, "scorer")
    max_ = factories.user(username="max")
    client = factories.signed_in(max_)
    page = client.get(join_path(invitation))
    assert page.status_code == 200
    assert "Verein beitreten" in page.content.decode()
    invitation.refresh_from_db()
    assert invitation.used_at is None
    response = client.post(join_path(invitation))
    assert response["Location"] == reverse("club", kwargs={"slug": club.slug})
    assert Membership.objects.get(club=club, user=max_).role == "scorer"
    invitation.refresh_from_db()
    assert invitation.used_by == max_ and invitation.used_at is not None
    assert client.get(response["Location"]).status_code == 200
    entry = AuditEntry.objects.get(scope="club", scope_id=club.pk, action="invitation accepted")
    assert (entry.actor_id, entry.after["role"], entry.after["user"]) == (max_.pk, "scorer", "max")


def test_an_anonymous_visitor_makes_an_account_on_the_link_and_joins(olga, club):
    invitation = invite(club, olga, "organiser")
    client = Client()
    page = client.get(join_path(invitation)).content.decode()
    assert "Passwort wiederholen" in page
    # Someone with an account signs in and comes back to the link.
    assert f'href="/accounts/login/?next={join_path(invitation)}"' in page
    response = client.post(
        join_path(invitation),
        {"username": "Maria", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response["Location"] == reverse("club", kwargs={"slug": club.slug})
    maria = User.objects.get(username="Maria")
    assert maria.check_password(PASSWORD)
    assert Membership.objects.get(club=club, user=maria).role == "organiser"
    # Signed in on the spot: the club's page opens.
    assert client.get(response["Location"]).status_code == 200


def test_two_different_passwords_make_no_account_and_keep_the_link(olga, club):
    invitation = invite(club, olga)
    response = Client().post(
        join_path(invitation),
        {"username": "maria", "password1": PASSWORD, "password2": PASSWORD + "x"},
    )
    assert response.status_code == 200
    assert response.context["form"].errors["password2"] == [
        "Die beiden Passwörter sind nicht identisch."
    ]
    assert not User.objects.filter(username="maria").exists()
    invitation.refresh_from_db()
    assert invitation.used_at is None


def test_a_taken_user_name_is_refused_on_its_field(olga, club):
    invitation = invite(club, olga)
    factories.user(username="maria")
    response = Client().post(
        join_path(invitation),
        {"username": "MARIA", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 200
    assert response.context["form"].errors["username"] == [
        "Dieser Benutzername ist bereits vergeben."
    ]


@pytest.mark.parametrize(
    ("state", "text"),
    [
        ("used", "Dieser Einladungslink wurde schon verwendet."),
        ("revoked", "Dieser Einladungslink wurde widerrufen."),
        ("expired", "Dieser Einladungslink ist abgelaufen."),
    ],
)
def test_a_used_revoked_or_expired_link_says_so_with_410(olga, club, state, text):
    invitation = invite(club, olga)
    if state == "used":
        invitations.accept_invitation(invitation, factories.user())
    elif state == "revoked":
        invitations.revoke_invitation(invitation, olga)
    else:
        Invitation.objects.filter(pk=invitation.pk).update(
            expires_at=timezone.now() - datetime.timedelta(seconds=1)
        )
    late = factories.user(username="late")
    members_before = Membership.objects.filter(club=club).count()
    for client in (Client(), factories.signed_in(late)):
        for response in (
            client.get(join_path(invitation)),
            client.post(
                join_path(invitation),
                {"username": "neu", "password1": PASSWORD, "password2": PASSWORD},
            ),
        ):
            assert response.status_code == 410
            assert text in response.content.decode()
    assert Membership.objects.filter(club=club).count() == members_before
    assert not User.objects.filter(username="neu").exists()


def test_an_unknown_link_is_not_found(client):
    assert client.get("/j/not-a-token/").status_code == 404


def test_a_member_opening_an_invitation_keeps_it_open_for_someone_else(olga, club):
    invitation = invite(club, olga, "owner")
    max_ = factories.user(club, role="member", username="max")
    client = factories.signed_in(max_)
    for response in (client.get(join_path(invitation)), client.post(join_path(invitation))):
        assert response.status_code == 200
        assert "Du gehörst schon als Mitglied zu diesem Verein." in response.content.decode()
    invitation.refresh_from_db()
    assert invitation.used_at is None
    assert Membership.objects.get(club=club, user=max_).role == "member"


def test_a_link_used_while_the_form_was_filled_in_makes_no_account(olga, club):
    invitation = invite(club, olga)
    visitor = Client()
    assert visitor.get(join_path(invitation)).status_code == 200
    invitations.accept_invitation(invitation, factories.user())
    response = visitor.post(
        join_path(invitation), {"username": "spaet", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 410
    assert not User.objects.filter(username="spaet").exists()


def test_the_owner_revokes_an_open_invitation(olga, club):
    invitation = invite(club, olga)
    client = factories.signed_in(olga)
    url = reverse("invitation_revoke", kwargs={"slug": club.slug, "invitation_id": invitation.pk})
    assert client.post(url).status_code == 302
    invitation.refresh_from_db()
    assert invitation.state == "revoked"
    assert invitation.token not in client.get(reverse("members", args=[club.slug])).content.decode()
    assert AuditEntry.objects.filter(action="invitation revoked", scope_id=club.pk).count() == 1


def test_two_accepts_of_one_link_at_once_make_one_membership(transactional_db):
    club = factories.club()
    owner = factories.user(club, role="owner")
    invitation = invitations.create_invitation(club, "scorer", owner)
    people = [factories.user(), factories.user()]
    start = threading.Barrier(2)
    outcomes = []

    def accept(person):
        try:
            start.wait()
            invitations.accept_invitation(Invitation.objects.get(pk=invitation.pk), person)
            outcomes.append("joined")
        except RuleError as error:
            outcomes.append(error.params["state"])
        finally:
            connection.close()

    threads = [threading.Thread(target=accept, args=(p,)) for p in people]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["joined", "used"]
    assert Membership.objects.filter(club=club, user__in=people).count() == 1
    invitation.refresh_from_db()
    assert Membership.objects.get(club=club, user=invitation.used_by).role == "scorer"


# -- 3. Roles -----------------------------------------------------------------------------


def role_url(club, membership) -> str:
    return reverse("member_role", kwargs={"slug": club.slug, "membership_id": membership.pk})


def remove_url(club, membership) -> str:
    return reverse("member_remove", kwargs={"slug": club.slug, "membership_id": membership.pk})


def test_an_owner_changes_a_members_role_and_the_history_keeps_it(olga, club):
    max_ = factories.user(club, role="member", username="max")
    membership = Membership.objects.get(user=max_)
    response = factories.signed_in(olga).post(role_url(club, membership), {"role": "organiser"})
    assert response["Location"] == reverse("members", kwargs={"slug": club.slug})
    membership.refresh_from_db()
    assert membership.role == "organiser"
    entry = AuditEntry.objects.get(action="role changed", scope_id=club.pk)
    assert (entry.before, entry.after, entry.actor_id) == (
        {"user": "max", "role": "member"},
        {"user": "max", "role": "organiser"},
        olga.pk,
    )


def test_the_last_owner_cannot_be_demoted_and_is_told_why(olga, club):
    mine = Membership.objects.get(user=olga)
    response = factories.signed_in(olga).post(role_url(club, mine), {"role": "organiser"})
    assert response.status_code == 409
    assert (
        "olga ist der letzte Obmann des Vereins: bitte zuerst jemand anderen zum Obmann machen."
        in response.content.decode()
    )
    mine.refresh_from_db()
    assert mine.role == "owner"
    assert not AuditEntry.objects.filter(action="role changed").exists()


def test_the_last_owner_cannot_be_removed_and_is_told_why(olga, club):
    mine = Membership.objects.get(user=olga)
    response = factories.signed_in(olga).post(remove_url(club, mine))
    assert response.status_code == 409
    assert "olga ist der letzte Obmann des Vereins" in response.content.decode()
    assert Membership.objects.filter(pk=mine.pk).exists()


def test_with_a_second_owner_the_first_may_step_down(olga, club):
    factories.user(club, role="owner", username="otto")
    mine = Membership.objects.get(user=olga)
    response = factories.signed_in(olga).post(role_url(club, mine), {"role": "member"})
    # No longer an owner: the members page is not hers any more.
    assert response["Location"] == reverse("home")
    assert Membership.objects.filter(club=club, role="owner").count() == 1


def test_two_owners_demoting_each_other_leave_one_owner(olga, club):
    otto = factories.user(club, role="owner", username="otto")
    services.change_role(Membership.objects.get(user=olga), "member", otto)
    with pytest.raises(RuleError) as refused:
        services.change_role(Membership.objects.get(user=otto), "member", olga)
    assert refused.value.field == "role"
    assert Membership.objects.filter(club=club, role="owner").count() == 1


def test_two_owners_demoting_each_other_at_once_leave_one_owner(transactional_db):
    club = factories.club()
    anna = factories.user(club, role="owner")
    berta = factories.user(club, role="owner")
    start = threading.Barrier(2)
    outcomes = []

    def demote(victim, by):
        try:
            start.wait()
            services.change_role(Membership.objects.get(user=victim), "member", by)
            outcomes.append("demoted")
        except RuleError as error:
            outcomes.append(error.field)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=demote, args=(anna, berta)),
        threading.Thread(target=demote, args=(berta, anna)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["demoted", "role"]
    assert Membership.objects.filter(club=club, role="owner").count() == 1


def test_an_unknown_role_is_refused(olga, club):
    membership = Membership.objects.get(user=factories.user(club, role="member"))
    response = factories.signed_in(olga).post(role_url(club, membership), {"role": "king"})
    assert response.status_code == 400
    assert "Bitte eine Rolle wählen." in response.content.decode()
    assert Membership.objects.get(pk=membership.pk).role == "member"


def test_the_members_history_shows_who_joined_for_owners_only(olga, club):
    invitation = invite(club, olga, "scorer")
    invitations.accept_invitation(invitation, factories.user(username="max"))
    url = reverse("club_history", kwargs={"slug": club.slug})
    page = factories.signed_in(olga).get(url)
    actions = [row.action for row in page.context["rows"]]
    assert actions == ["Einladung angenommen", "Einladung erstellt"]
    max_ = User.objects.get(username="max")
    assert factories.signed_in(max_).get(url).status_code == 403


def test_the_members_page_costs_the_same_queries_for_2_and_20_members(olga, club):
    client = factories.signed_in(olga)
    url = reverse("members", kwargs={"slug": club.slug})

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return len(captured)

    factories.user(club, role="member")
    invite(club, olga)
    few = queries()
    for _ in range(18):
        factories.user(club, role="scorer")
        invite(club, olga)
    assert queries() == few


def test_an_owner_removes_a_member_who_keeps_his_account(olga, club):
    max_ = factories.user(club, role="scorer", username="max")
    membership = Membership.objects.get(user=max_)
    assert factories.signed_in(olga).post(remove_url(club, membership)).status_code == 302
    assert not Membership.objects.filter(pk=membership.pk).exists()
    assert User.objects.filter(pk=max_.pk).exists()
    assert (
        factories.signed_in(max_).get(reverse("club", kwargs={"slug": club.slug})).status_code
        == 404
    )
    entry = AuditEntry.objects.get(action="member removed", scope_id=club.pk)
    assert entry.before == {"user": "max", "role": "scorer"}


def test_only_owners_change_roles_and_only_of_their_own_club(olga, club):
    max_ = factories.user(club, role="organiser", username="max")
    membership = Membership.objects.get(user=max_)
    assert (
        factories.signed_in(max_).post(role_url(club, membership), {"role": "owner"}).status_code
        == 403
    )
    other = factories.club()
    stranger = Membership.objects.get(user=factories.user(other, role="member"))
    wrong = reverse("member_role", kwargs={"slug": club.slug, "membership_id": stranger.pk})
    assert factories.signed_in(olga).post(wrong, {"role": "owner"}).status_code == 404
    remove = reverse("member_remove", kwargs={"slug": club.slug, "membership_id": stranger.pk})
    assert factories.signed_in(olga).post(remove).status_code == 404
    assert Membership.objects.get(pk=membership.pk).role == "organiser"
    assert Membership.objects.get(pk=stranger.pk).role == "member"


# -- 4. Passwords -------------------------------------------------------------------------


def test_a_member_changes_his_password_from_the_header_link(club):
    max_ = factories.user(club, role="member", username="max")
    client = factories.signed_in(max_)
    page = client.get(reverse("club", kwargs={"slug": club.slug})).content.decode()
    assert f'href="{reverse("password_change")}"' in page
    form = client.get(reverse("password_change"))
    assert "registration/password_change_form.html" in [t.name for t in form.templates]
    assert "Passwort ändern" in form.content.decode()
    response = client.post(
        reverse("password_change"),
        {"old_password": "pw-max", "new_password1": PASSWORD, "new_password2": PASSWORD},
    )
    assert response["Location"] == reverse("password_change_done")
    assert "Dein neues Passwort gilt." in client.get(response["Location"]).content.decode()
    max_.refresh_from_db()
    assert max_.check_password(PASSWORD)


def test_an_owner_hands_a_reset_link_to_a_member_who_sets_a_new_password(olga, club):
    max_ = factories.user(club, role="scorer", username="max")
    membership = Membership.objects.get(user=max_)
    url = reverse("member_reset", kwargs={"slug": club.slug, "membership_id": membership.pk})
    page = factories.signed_in(olga).post(url)
    assert page.status_code == 200
    html = page.content.decode()
    link = re.search(r'value="(http://testserver/accounts/reset/[^"]+)"', html).group(1)
    assert "Link zum Zurücksetzen für max" in html and "<svg" in html
    assert "no-store" in page["Cache-Control"]
    assert AuditEntry.objects.get(action="reset link issued").after == {"user": "max"}

    phone = Client()
    form = phone.get(link.removeprefix("http://testserver"), follow=True)
    assert "Neues Passwort für max setzen." in form.content.decode()
    set_url = form.redirect_chain[-1][0]
    done = phone.post(set_url, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    assert done["Location"] == reverse("password_reset_complete")
    assert "Dein neues Passwort gilt." in phone.get(done["Location"]).content.decode()
    max_.refresh_from_db()
    assert max_.check_password(PASSWORD)
    # Once used, the link is dead.
    again = Client().get(link.removeprefix("http://testserver"), follow=True)
    assert "Dieser Link zum Zurücksetzen gilt nicht mehr" in again.content.decode()


@pytest.mark.parametrize("who", ["owner", "superuser", "staff", "member_elsewhere"])
def test_no_reset_link_for_owners_admins_or_members_of_another_club(olga, club, who):
    target = factories.user(club, role="owner" if who == "owner" else "member", username="ziel")
    if who == "superuser":
        User.objects.filter(pk=target.pk).update(is_superuser=True, is_staff=True)
    elif who == "staff":
        User.objects.filter(pk=target.pk).update(is_staff=True)
    elif who == "member_elsewhere":
        Membership.objects.create(user=target, club=factories.club(), role="member")
    membership = Membership.objects.get(user=target, club=club)
    url = reverse("member_reset", kwargs={"slug": club.slug, "membership_id": membership.pk})
    response = factories.signed_in(olga).post(url)
    assert response.status_code == 409
    assert "/accounts/reset/" not in response.content.decode()
    assert not AuditEntry.objects.filter(action="reset link issued").exists()


def test_no_reset_link_from_non_owners_or_for_other_clubs(olga, club):
    max_ = factories.user(club, role="organiser", username="max")
    mine = Membership.objects.get(user=max_)
    url = reverse("member_reset", kwargs={"slug": club.slug, "membership_id": mine.pk})
    assert factories.signed_in(max_).post(url).status_code == 403
    stranger = Membership.objects.get(user=factories.user(factories.club(), role="member"))
    wrong = reverse("member_reset", kwargs={"slug": club.slug, "membership_id": stranger.pk})
    assert factories.signed_in(olga).post(wrong).status_code == 404


def test_forgotten_password_page_says_whom_to_ask_and_sends_no_mail(client, mailoutbox):
    page = client.get(reverse("login")).content.decode()
    assert f'href="{reverse("password_reset")}"' in page
    response = client.get(reverse("password_reset"))
    assert "Diese Seite verschickt keine Mails." in response.content.decode()
    assert client.post(reverse("password_reset"), {"email": "a@b.at"}).status_code == 405
    assert mailoutbox == []


# -- 5. The admin -------------------------------------------------------------------------


@pytest.fixture
def everything(olga, club):
    """At least one row of every model."""
    factories.presets()
    sheet = factories.sheet(club)
    from scoring import services as scoring_services
    from scoring.rules import Redeal

    scoring_services.record_entry(sheet, Redeal(), factories.key(), scoring_services.Actor(olga))
    simulate(club, cards=8, players=6, max_cards=2, seed=1)
    invite(club, olga)
    admin_user = User.objects.create_superuser("root", password=PASSWORD)
    return factories.signed_in(admin_user)


OUR_APPS = ("clubs", "scoring", "tournaments", "seasons")


def test_every_model_of_the_site_is_in_the_admin():
    ours = {m for name in OUR_APPS for m in apps.get_app_config(name).get_models()}
    assert ours - set(admin.site._registry) == set()


def test_every_changelist_and_change_page_answers_200_for_a_superuser(everything):
    wrong = []
    for model in admin.site._registry:
        meta = model._meta
        changelist = reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
        code = everything.get(changelist).status_code
        first = model.objects.first()
        if first is not None:
            change = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[first.pk])
            code = (code, everything.get(change).status_code)
        else:
            code = (code, 200)
        if code != (200, 200):
            wrong.append((meta.label, code))
    assert wrong == []


HISTORY = [
    "clubs.AuditEntry",
    "scoring.Sheet",
    "scoring.Seat",
    "scoring.Deal",
    "tournaments.Tournament",
    "tournaments.Card",
    "tournaments.Round",
    "tournaments.Pull",
    "tournaments.Pairing",
    "tournaments.Result",
]


def test_history_is_read_only_in_the_admin(everything):
    wrong = []
    for label in HISTORY:
        model = apps.get_model(label)
        assert isinstance(admin.site._registry[model], HistoryAdmin), label
        meta = model._meta
        first = model.objects.first()
        assert first is not None, label
        before = model.objects.count()
        codes = (
            everything.post(
                reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[first.pk]), {}
            ).status_code,
            everything.post(
                reverse(f"admin:{meta.app_label}_{meta.model_name}_delete", args=[first.pk]),
                {"post": "yes"},
            ).status_code,
            everything.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_add")).status_code,
        )
        if codes != (403, 403, 403) or model.objects.count() != before:
            wrong.append((label, codes))
    assert wrong == []


# -- 6. createclub ------------------------------------------------------------------------


def test_createclub_founds_a_club_owned_by_the_named_account(capsys):
    factories.user(username="anna")
    call_command("createclub", "Schnapsclub Zöbern", "--owner", "anna")
    club = Club.objects.get(slug="schnapsclub-zobern")
    assert list(club.memberships.values_list("user__username", "role")) == [("anna", "owner")]
    assert "/c/schnapsclub-zobern/" in capsys.readouterr().out
    assert AuditEntry.objects.get(scope="club", scope_id=club.pk).action == "club created"


def test_createclub_refuses_an_unknown_user_and_an_empty_name():
    with pytest.raises(CommandError, match="No user named 'nobody'"):
        call_command("createclub", "X", "--owner", "nobody")
    factories.user(username="anna")
    with pytest.raises(CommandError, match="name: Enter a name."):
        call_command("createclub", "  ", "--owner", "anna")
    assert not Club.objects.exists()


# -- 7. README's first run ----------------------------------------------------------------


@pytest.mark.parametrize("found", ["on the site", "with createclub"])
def test_the_readmes_first_run_steps_start_a_club(monkeypatch, found):
    """The steps of README "Deployment", first run, in their order, on an empty database
    seeded as ``make serve`` seeds it."""
    call_command("seed", "--no-demo", verbosity=0)
    assert not Club.objects.exists()
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", PASSWORD)
    call_command(
        "createsuperuser", "--noinput", "--username", "obmann", "--email", "obmann@example.org"
    )
    owner = Client()
    if found == "with createclub":
        call_command("createclub", "Schnapsrunde Öhling", "--owner", "obmann")
    signed = owner.post(reverse("login"), {"username": "obmann", "password": PASSWORD})
    assert signed["Location"] == "/"
    if found == "on the site":
        assert "Verein gründen" in owner.get("/").content.decode()
        owner.post(reverse("club_new"), {"name": "Schnapsrunde Öhling", "key": factories.key()})
    assert owner.get("/")["Location"] == "/c/schnapsrunde-ohling/"

    members = owner.get("/c/schnapsrunde-ohling/").content.decode()
    assert 'href="/c/schnapsrunde-ohling/members/"' in members
    made = owner.post("/c/schnapsrunde-ohling/members/", {"role": "scorer", "key": factories.key()})
    page = owner.get(made["Location"]).content.decode()
    link = re.search(r'value="http://testserver(/j/[^/"]+/)"', page).group(1)

    newcomer = Client()
    joined = newcomer.post(
        link, {"username": "vroni", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert joined["Location"] == "/c/schnapsrunde-ohling/"
    assert newcomer.get("/c/schnapsrunde-ohling/").status_code == 200
    assert Membership.objects.get(user__username="vroni").role == Role.SCORER


# -- On a phone ---------------------------------------------------------------------------

PHONE = {"width": 360, "height": 640}


def fits(page) -> bool:
    """Nothing sticks out sideways on the phone (no horizontal scrolling)."""
    return page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_founding_inviting_and_joining_on_a_360_pixel_phone(live_server, browser, tmp_path):
    from playwright.sync_api import expect

    factories.user(username="obmann")
    owner = browser.new_context(viewport=PHONE, locale="de-AT").new_page()
    owner.goto(live_server.url + reverse("login"))
    owner.locator("input[name=username]").fill("obmann")
    owner.locator("input[name=password]").fill("pw-obmann")
    owner.locator("form.stack button").click()
    owner.get_by_role("link", name="Verein gründen").click()
    expect(owner.locator("input[name=name]")).to_be_visible()  # the page has loaded
    assert fits(owner)
    owner.locator("input[name=name]").fill("Schnapsrunde zum Grünen Baum")
    owner.get_by_role("button", name="Verein gründen").click()
    expect(owner).to_have_url(live_server.url + "/c/schnapsrunde-zum-grunen-baum/members/")
    owner.locator("form.invite select[name=role]").select_option("scorer")
    owner.get_by_role("button", name="Einladungslink erstellen").click()
    link = owner.locator(".invitations input.copy").input_value()
    expect(owner.locator(".invitations .qr svg")).to_be_visible()
    owner.locator(".members summary").first.click()
    assert fits(owner)
    owner.screenshot(path=str(tmp_path / "members.png"), full_page=True)

    newcomer = browser.new_context(viewport=PHONE, locale="de-AT").new_page()
    newcomer.goto(link)
    assert fits(newcomer)
    newcomer.locator("input[name=username]").fill("vroni")
    newcomer.locator("input[name=password1]").fill(PASSWORD)
    newcomer.locator("input[name=password2]").fill(PASSWORD)
    newcomer.get_by_role("button", name="Konto anlegen und beitreten").click()
    expect(newcomer).to_have_url(live_server.url + "/c/schnapsrunde-zum-grunen-baum/")
    expect(newcomer.locator(".messages")).to_contain_text("du bist Schreiber")
    # The used link, opened again, says why it no longer works.
    again = browser.new_context(viewport=PHONE, locale="de-AT").new_page()
    again.goto(link)
    expect(again.locator("main .banner.error")).to_contain_text("schon verwendet")
    assert fits(again)
