"""Links that carry someone's permission are checked when they are used, not only when
they are made: an owner's password reset link (``clubs.resets``) and an invitation with a
role (``clubs.invitations.invitation_refusal``) work only while the rule that allowed them
still holds.

Personas: olga owns the club and makes the links, otto is its second owner, max is a
member who forgot his password.
"""

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth.tokens import default_token_generator
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import int_to_base36, urlsafe_base64_encode

from base.errors import RuleError
from clubs import invitations, resets, services
from clubs.models import AuditEntry, Club, Invitation, Membership, Role
from tests import factories

pytestmark = pytest.mark.django_db
User = get_user_model()
OLD = "pw-max"
NEW = "Kartenrunde-2026"
REFUSED_GENERIC = "Dieser Link zum Zurücksetzen gilt nicht mehr: er wurde schon verwendet"


@pytest.fixture
def club():
    return factories.club(name="Schnapsrunde")


@pytest.fixture
def olga(club):
    return factories.user(club, role="owner", username="olga")


@pytest.fixture
def otto(club):
    return factories.user(club, role="owner", username="otto")


@pytest.fixture
def max_(club):
    return factories.user(club, role="member", username="max")


def reset_link(owner, member, club) -> str:
    """The path of the reset link ``owner`` makes on the members page for ``member``."""
    membership = Membership.objects.get(user=member, club=club)
    url = reverse("member_reset", kwargs={"slug": club.slug, "membership_id": membership.pk})
    page = factories.signed_in(owner).post(url)
    assert page.status_code == 200
    link = re.search(r'value="(http://testserver/accounts/reset/[^"]+)"', page.content.decode())
    return link.group(1).removeprefix("http://testserver")


def opened(link: str) -> tuple[Client, str]:
    """A phone that opened ``link`` while it worked: (its client, the form's address)."""
    phone = Client()
    first = phone.get(link)
    assert first.status_code == 302
    form_url = first["Location"]
    assert form_url.endswith("/set-password/")
    assert phone.get(form_url).status_code == 200
    return phone, form_url


def set_password(phone: Client, form_url: str):
    return phone.post(form_url, {"new_password1": NEW, "new_password2": NEW})


def banner(response) -> str:
    return re.search(
        r'<div class="banner error" role="alert">([^<]*)</div>', response.content.decode()
    ).group(1)


def assert_password_unchanged(user):
    user.refresh_from_db()
    assert user.check_password(OLD)
    assert not user.check_password(NEW)


# -- the rule still holds: the link works and names who made it ---------------------------


def test_an_owners_link_names_its_maker_and_sets_the_password(club, olga, max_):
    link = reset_link(olga, max_, club)
    phone, form_url = opened(link)
    page = phone.get(form_url).content.decode()
    assert "Neues Passwort für max setzen." in page
    assert f"olga, Obmann von {club.name}, hat diesen Link gemacht." in page
    done = set_password(phone, form_url)
    assert done.status_code == 302
    assert done["Location"] == reverse("password_reset_complete")
    max_.refresh_from_db()
    assert max_.check_password(NEW)
    used = AuditEntry.objects.get(action="reset link used")
    assert (used.club_id, used.actor_id, used.after) == (
        club.pk,
        max_.pk,
        {"user": "max", "issued_by": "olga"},
    )
    history = factories.signed_in(olga).get(reverse("club_history", kwargs={"slug": club.slug}))
    assert "Passwort mit einem Link zum Zurücksetzen gesetzt" in history.content.decode()
    assert "Link gemacht von: olga" in history.content.decode()


# -- the rule no longer holds: refused on GET and POST, with the reason --------------------


def promote(member, club, by):
    services.change_role(Membership.objects.get(user=member, club=club), Role.OWNER, by)


def test_a_member_made_owner_after_the_link_was_made_cannot_be_taken_over(club, olga, max_):
    link = reset_link(olga, max_, club)
    phone, form_url = opened(link)  # opened while it still worked
    promote(max_, club, olga)
    reason = (
        f"Dieser Link zum Zurücksetzen gilt nicht mehr: max ist jetzt Obmann von {club.name}, "
        "und Obleute ändern ihr Passwort selbst (oder fragen den Verwalter der Seite)."
    )
    # The form's page (GET) ...
    page = phone.get(form_url)
    assert page.status_code == 403
    assert banner(page) == reason
    assert 'name="new_password1"' not in page.content.decode()
    # ... the new password (POST) ...
    sent = set_password(phone, form_url)
    assert sent.status_code == 403
    assert banner(sent) == reason
    # ... and the link opened afresh are refused.
    again = Client().get(link)
    assert again.status_code == 403
    assert banner(again) == reason
    assert_password_unchanged(max_)
    assert not AuditEntry.objects.filter(action="reset link used").exists()


@pytest.mark.parametrize("change", ["demoted", "removed", "deactivated", "deleted"])
def test_a_link_whose_maker_is_no_longer_an_owner_is_refused(club, olga, otto, max_, change):
    link = reset_link(olga, max_, club)
    phone, form_url = opened(link)
    membership = Membership.objects.get(user=olga, club=club)
    if change == "demoted":
        services.change_role(membership, Role.ORGANISER, otto)
    elif change == "removed":
        services.remove_member(membership, otto)
    elif change == "deactivated":
        User.objects.filter(pk=olga.pk).update(is_active=False)
    else:
        olga.delete()
    maker = "?" if change == "deleted" else "olga"
    reason = (
        f"Dieser Link zum Zurücksetzen gilt nicht mehr: {maker}, der ihn gemacht hat, ist "
        f"nicht mehr Obmann von {club.name}. Bitte einen Obmann des Vereins um einen neuen."
    )
    for response in (phone.get(form_url), set_password(phone, form_url), Client().get(link)):
        assert response.status_code == 403
        assert banner(response) == reason
    assert_password_unchanged(max_)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (
            "removed",
            "Dieser Link zum Zurücksetzen gilt nicht mehr: max gehört nicht mehr zu {club}.",
        ),
        (
            "staff",
            "Dieser Link zum Zurücksetzen gilt nicht mehr: max verwaltet jetzt die Seite, und "
            "nur er selbst ändert sein Passwort.",
        ),
        (
            "elsewhere",
            "Dieser Link zum Zurücksetzen gilt nicht mehr: max gehört jetzt auch zu einem "
            "anderen Verein. Den Link zum Zurücksetzen gibt der Verwalter der Seite.",
        ),
    ],
)
def test_a_link_for_a_member_who_left_or_rose_is_refused(club, olga, max_, change, reason):
    link = reset_link(olga, max_, club)
    phone, form_url = opened(link)
    if change == "removed":
        services.remove_member(Membership.objects.get(user=max_, club=club), olga)
    elif change == "staff":
        User.objects.filter(pk=max_.pk).update(is_staff=True)
    else:
        Membership.objects.create(user=max_, club=factories.club(), role=Role.MEMBER)
    for response in (phone.get(form_url), set_password(phone, form_url), Client().get(link)):
        assert response.status_code == 403
        assert banner(response) == reason.format(club=club.name)
    assert_password_unchanged(max_)


def test_a_link_works_again_while_the_rule_holds_again(club, olga, otto, max_):
    """The link is valid exactly while the rule holds: demoted and made owner again, the
    maker's link works (nothing else about it changed)."""
    link = reset_link(olga, max_, club)
    membership = Membership.objects.get(user=olga, club=club)
    services.change_role(membership, Role.ORGANISER, otto)
    assert Client().get(link).status_code == 403
    services.change_role(membership, Role.OWNER, otto)
    phone, form_url = opened(link)
    assert set_password(phone, form_url).status_code == 302
    max_.refresh_from_db()
    assert max_.check_password(NEW)


def test_the_rule_is_asked_again_when_the_password_is_saved(club, olga, max_):
    """Between the POST's check and the save a promotion may land: the save asks the rule
    once more, under the club's row lock that role changes take."""
    uidb64, token = services.issue_reset_link(Membership.objects.get(user=max_), olga)
    check = resets.ResetLinkCheck()
    user = User.objects.get(pk=max_.pk)
    assert check.check_token(user, token)
    assert check.issuer == olga and check.club == club
    promote(max_, club, olga)
    form = resets_form(user)
    assert check.set_password(form) is False
    assert check.refused.startswith("Dieser Link zum Zurücksetzen gilt nicht mehr: max ist jetzt")
    assert_password_unchanged(max_)


def resets_form(user):
    form = SetPasswordForm(user, {"new_password1": NEW, "new_password2": NEW})
    assert form.is_valid()
    return form


# -- tokens: each kind only passes for itself -----------------------------------------------


def test_a_forged_maker_or_club_in_the_token_is_refused(club, olga, otto, max_):
    link = reset_link(olga, max_, club)
    uid, token = link.strip("/").split("/")[-2:]
    club_b36, issuer_b36, rest = token.split("-", 2)
    for forged in (
        f"{club_b36}-{int_to_base36(otto.pk)}-{rest}",
        f"{int_to_base36(factories.club().pk)}-{issuer_b36}-{rest}",
    ):
        response = Client().get(reverse("password_reset_confirm", args=[uid, forged]))
        assert response.status_code == 200
        assert REFUSED_GENERIC in banner(response)
    assert_password_unchanged(max_)


def test_a_token_of_djangos_default_generator_no_longer_works(club, max_):
    """Owners' links made before links were checked at use were Django's default token:
    they are refused, as is any token that is not one of the two kinds."""
    uid = urlsafe_base64_encode(force_bytes(max_.pk))
    token = default_token_generator.make_token(max_)
    response = Client().get(reverse("password_reset_confirm", args=[uid, token]))
    assert REFUSED_GENERIC in banner(response)
    owner_token = resets.owner_tokens.make_link_token(max_, club.pk, max_.pk)
    assert not resets.mail_tokens.check_token(max_, owner_token)
    assert not default_token_generator.check_token(max_, owner_token)
    assert resets.owner_tokens.read(max_, resets.mail_tokens.make_token(max_)) is None


def test_a_link_by_mail_still_sets_the_accounts_password(club, max_, settings):
    settings.EMAIL_HOST = "mail.example.org"
    settings.SITE_URL = "https://bummerl.example.org"
    User.objects.filter(pk=max_.pk).update(email="max@example.org")
    Client().post(reverse("password_reset"), {"email": "max@example.org"})
    [message] = mail.outbox
    link = re.search(r"https://bummerl.example.org(/accounts/reset/\S+)", message.body).group(1)
    phone, form_url = opened(link)
    assert "hat diesen Link gemacht" not in phone.get(form_url).content.decode()
    assert set_password(phone, form_url).status_code == 302
    max_.refresh_from_db()
    assert max_.check_password(NEW)
    assert not AuditEntry.objects.filter(action="reset link used").exists()


# -- invitations: a role given only while its maker is an owner ----------------------------


def join_path(invitation) -> str:
    return reverse("join", kwargs={"token": invitation.token})


@pytest.mark.parametrize("change", ["demoted", "removed", "deleted"])
def test_an_invitation_whose_maker_is_no_longer_an_owner_is_refused(club, olga, otto, change):
    invitation = invitations.create_invitation(club, Role.OWNER, olga)
    membership = Membership.objects.get(user=olga, club=club)
    if change == "demoted":
        services.change_role(membership, Role.MEMBER, otto)
    elif change == "removed":
        services.remove_member(membership, otto)
    else:
        olga.delete()
    reason = (
        "Dieser Einladungslink gilt nicht mehr: das Konto, das ihn gemacht hat, gibt es nicht "
        "mehr. Bitte den Obmann des Vereins um einen neuen."
        if change == "deleted"
        else "Dieser Einladungslink gilt nicht mehr: olga, der ihn gemacht hat, ist nicht mehr "
        f"Obmann von {club.name}. Bitte den Obmann des Vereins um einen neuen."
    )
    # Anonymous: the page and the new account's form.
    page = Client().get(join_path(invitation))
    assert page.status_code == 410
    assert reason in page.content.decode()
    sent = Client().post(
        join_path(invitation),
        {"username": "neu", "password1": NEW, "password2": NEW},
    )
    assert sent.status_code == 410
    assert reason in sent.content.decode()
    assert not User.objects.filter(username="neu").exists()
    # Signed in: the join button.
    someone = factories.user(username="someone")
    joined = factories.signed_in(someone).post(join_path(invitation))
    assert joined.status_code == 410
    assert reason in joined.content.decode()
    assert not Membership.objects.filter(user=someone).exists()
    invitation.refresh_from_db()
    assert invitation.used_at is None
    # The owner's members page marks it as not working.
    members = factories.signed_in(otto).get(reverse("members", kwargs={"slug": club.slug}))
    maker = "?" if change == "deleted" else "olga"
    assert f"Gilt nicht: {maker}, der sie gemacht hat, ist nicht mehr Obmann." in (
        members.content.decode()
    )


def test_the_service_refuses_an_invitation_whose_maker_was_demoted(club, olga, otto):
    invitation = invitations.create_invitation(club, Role.SCORER, olga)
    services.change_role(Membership.objects.get(user=olga, club=club), Role.SCORER, otto)
    with pytest.raises(RuleError) as error:
        invitations.accept_invitation(invitation, factories.user(username="late"))
    assert error.value.params == {"issuer": "olga", "club": club.name, "state": "issuer"}
    assert not Membership.objects.filter(user__username="late").exists()


def test_an_invitation_of_a_standing_owner_still_makes_a_member(club, olga):
    invitation = invitations.create_invitation(club, Role.SCORER, olga)
    members = factories.signed_in(olga).get(reverse("members", kwargs={"slug": club.slug}))
    assert "Gilt nicht:" not in members.content.decode()
    someone = factories.user(username="someone")
    response = factories.signed_in(someone).post(join_path(invitation))
    assert response.status_code == 302
    assert Membership.objects.get(user=someone, club=club).role == Role.SCORER
    assert Invitation.objects.get(pk=invitation.pk).used_by == someone
    assert Club.objects.get(pk=club.pk).memberships.count() == 2
