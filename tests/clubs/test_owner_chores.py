"""Owners do on the members page what only the shell or /admin/ did: lift a member's
sign-in lock, set a member's e-mail address, rename the club. Each for owners only,
each kept in the club's history."""

import pytest
from axes.models import AccessAttempt
from django.test import Client
from django.urls import reverse

from clubs.models import AuditEntry, Club, Membership
from tests import factories

pytestmark = pytest.mark.django_db

NOT_OWNERS = ("member", "scorer", "organiser")


@pytest.fixture
def club():
    return factories.club()


def membership(user) -> Membership:
    return Membership.objects.get(user=user)


def history(club, action):
    return list(
        AuditEntry.objects.filter(club=club, action=action)
        .order_by("id")
        .values_list("before", "after")
    )


def lock_out(username: str) -> Client:
    """Five wrong passwords for ``username`` from one browser: locked (429)."""
    phone = Client()
    for attempt in range(5):
        response = phone.post(reverse("login"), {"username": username, "password": "wrong"})
        assert response.status_code == (429 if attempt == 4 else 200)
    return phone


def test_five_wrong_passwords_lock_a_member_the_owner_unlocks_and_he_signs_in(club):
    owner = factories.signed_in(
        factories.user(club, role="owner", username="obmann"), language="en"
    )
    anna = factories.user(club, role="member", username="anna")
    phone = lock_out("anna")
    assert (
        phone.post(reverse("login"), {"username": "anna", "password": "pw-anna"}).status_code == 429
    )

    page = owner.get(reverse("members", kwargs={"slug": club.slug}))
    assert page.context["locked"] == [membership(anna)]
    unlock = reverse(
        "member_unlock", kwargs={"slug": club.slug, "membership_id": membership(anna).pk}
    )
    assert unlock in page.content.decode()

    response = owner.post(unlock)
    assert response.status_code == 302
    assert AccessAttempt.objects.filter(username="anna").count() == 0
    assert owner.get(reverse("members", kwargs={"slug": club.slug})).context["locked"] == []
    # a double tap deletes nothing more and records nothing twice
    assert owner.post(unlock).status_code == 302
    assert history(club, "sign-in unlocked") == [(None, {"user": "anna"})]

    response = phone.post(reverse("login"), {"username": "anna", "password": "pw-anna"})
    assert response.status_code == 302
    assert phone.session["_auth_user_id"] == str(anna.pk)


def test_a_member_of_another_club_is_not_listed_nor_unlocked_here(club):
    owner = factories.signed_in(factories.user(club, role="owner"), language="en")
    other = factories.club()
    ben = factories.user(other, role="member", username="ben")
    lock_out("ben")
    assert owner.get(reverse("members", kwargs={"slug": club.slug})).context["locked"] == []
    url = reverse("member_unlock", kwargs={"slug": club.slug, "membership_id": membership(ben).pk})
    assert owner.post(url).status_code == 404
    assert AccessAttempt.objects.filter(username="ben").exists()


@pytest.mark.parametrize("role", NOT_OWNERS)
def test_only_owners_unlock_set_addresses_and_rename(club, role):
    someone = factories.signed_in(factories.user(club, role=role), language="en")
    anna = factories.user(club, role="member", username="anna")
    lock_out("anna")
    ids = {"slug": club.slug, "membership_id": membership(anna).pk}
    assert someone.post(reverse("member_unlock", kwargs=ids)).status_code == 403
    assert someone.post(reverse("member_email", kwargs=ids), {"email": "a@b.at"}).status_code == 403
    assert (
        someone.post(reverse("club_rename", kwargs={"slug": club.slug}), {"name": "X"}).status_code
        == 403
    )
    assert AccessAttempt.objects.filter(username="anna").exists()
    anna.refresh_from_db()
    assert anna.email == ""
    assert Club.objects.get(pk=club.pk).name == club.name
    assert AuditEntry.objects.filter(club=club).count() == 0


def test_the_owner_sets_and_clears_a_members_e_mail_address(club):
    owner = factories.signed_in(
        factories.user(club, role="owner", username="obmann"), language="en"
    )
    anna = factories.user(club, role="member", username="anna")
    url = reverse("member_email", kwargs={"slug": club.slug, "membership_id": membership(anna).pk})
    assert owner.post(url, {"email": "anna@example.at"}).status_code == 302
    assert owner.post(url, {"email": "anna@example.at"}).status_code == 302  # a double tap
    anna.refresh_from_db()
    assert anna.email == "anna@example.at"
    # another account may have the same address
    ben = factories.user(club, role="member", username="ben")
    ben_url = reverse(
        "member_email", kwargs={"slug": club.slug, "membership_id": membership(ben).pk}
    )
    assert owner.post(ben_url, {"email": "anna@example.at"}).status_code == 302
    assert owner.post(url, {"email": ""}).status_code == 302
    anna.refresh_from_db()
    assert anna.email == ""
    assert history(club, "e-mail changed") == [
        ({"user": "anna", "email": ""}, {"user": "anna", "email": "anna@example.at"}),
        ({"user": "ben", "email": ""}, {"user": "ben", "email": "anna@example.at"}),
        ({"user": "anna", "email": "anna@example.at"}, {"user": "anna", "email": ""}),
    ]


def test_a_wrong_address_is_shown_on_the_members_field(club):
    owner = factories.signed_in(factories.user(club, role="owner"), language="en")
    anna = factories.user(club, role="member", username="anna")
    ms = membership(anna)
    url = reverse("member_email", kwargs={"slug": club.slug, "membership_id": ms.pk})
    response = owner.post(url, {"email": "anna at home"})
    assert response.status_code == 400
    body = response.content.decode()
    assert f'id="id_email_{ms.pk}"' in body
    assert 'value="anna at home"' in body
    assert "Enter a valid email address." in body
    anna.refresh_from_db()
    assert anna.email == ""
    assert history(club, "e-mail changed") == []


def test_an_owner_cannot_set_the_address_of_another_owner(club):
    """Setting an address and asking for a reset mail would take the account over."""
    owner = factories.signed_in(
        factories.user(club, role="owner", username="obmann"), language="en"
    )
    other = factories.user(club, role="owner", username="kassier")
    url = reverse("member_email", kwargs={"slug": club.slug, "membership_id": membership(other).pk})
    response = owner.post(url, {"email": "mine@example.at"})
    assert response.status_code == 409
    assert "kassier is an owner: owners change their own password" in response.content.decode()
    other.refresh_from_db()
    assert other.email == ""
    # his own address he sets
    own = reverse(
        "member_email",
        kwargs={"slug": club.slug, "membership_id": membership(owner_user(club, "obmann")).pk},
    )
    assert owner.post(own, {"email": "obmann@example.at"}).status_code == 302
    assert owner_user(club, "obmann").email == "obmann@example.at"


def owner_user(club, username):
    return Membership.objects.get(club=club, user__username=username).user


def test_the_owner_renames_the_club_and_its_address_stays(club):
    owner = factories.signed_in(factories.user(club, role="owner"), language="en")
    old = club.name
    url = reverse("club_rename", kwargs={"slug": club.slug})
    response = owner.post(url, {"name": "  Schnapsrunde   Ottakring "})
    assert response.status_code == 302
    assert response["Location"] == f"/c/{club.slug}/members/"
    assert owner.post(url, {"name": "Schnapsrunde Ottakring"}).status_code == 302  # double tap
    renamed = Club.objects.get(pk=club.pk)
    assert (renamed.name, renamed.slug) == ("Schnapsrunde Ottakring", club.slug)
    assert owner.get(f"/c/{club.slug}/").status_code == 200
    assert history(club, "club renamed") == [({"name": old}, {"name": "Schnapsrunde Ottakring"})]


@pytest.mark.parametrize(
    ("name", "error"),
    [(" \u200b ", "Enter a name."), ("x" * 101, "Ensure this value has at most 100 characters")],
)
def test_a_refused_club_name_is_shown_on_the_field(club, name, error):
    owner = factories.signed_in(factories.user(club, role="owner"), language="en")
    response = owner.post(
        reverse("club_rename", kwargs={"slug": club.slug}),
        {"name": name},
    )
    assert response.status_code == 400
    assert error in response.content.decode()
    assert Club.objects.get(pk=club.pk).name == club.name


def test_the_members_page_speaks_german_first(club):
    owner = Client()
    owner.force_login(factories.user(club, role="owner"))
    factories.user(club, role="member", username="anna")
    lock_out("anna")
    body = owner.get(reverse("members", kwargs={"slug": club.slug})).content.decode()
    for text in ("Gesperrt", "Entsperren", "Adresse speichern", "Verein umbenennen"):
        assert text in body
    owner.post(reverse("club_rename", kwargs={"slug": club.slug}), {"name": "Neuer Name"})
    body = owner.get(reverse("members", kwargs={"slug": club.slug})).content.decode()
    assert "Der Verein heißt jetzt Neuer Name." in body
