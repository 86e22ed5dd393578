"""Password reset links an owner makes for a member of his club (no mail is sent), and
the tokens of reset links by mail.

Whoever holds an owner's link takes over the account, so the rule that allows it is
checked when the link is made (``clubs.services.issue_reset_link``) and again every time
it is used: on the confirm page (GET) and when the new password is sent (POST, under the
club's row lock, as role changes take it). The rule (``refusal``):

- the issuer is an active account and an owner of the club;
- the member belongs to the club, is not an owner, not a site administrator (staff or
  superuser) and belongs to no other club.

A link works while the rule holds: made for a member who is an owner by the time it is
used, or by an owner who was demoted or removed since, it is refused with the reason.

The token (``OwnerResetTokens``) names the club and the issuer (``<club>-<issuer>-<time>-
<signature>``, numbers in base 36), signed together with what Django's own token depends
on (the account's password hash and last sign-in, the time made): it works once, until
the password changes, for ``PASSWORD_RESET_TIMEOUT``. Links by mail (the account's own
address, ``MailResetTokens``) are Django's token under a salt of their own: neither kind
passes for the other, nor does a token of Django's default generator.
"""

from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.db import transaction
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.encoding import force_bytes
from django.utils.http import base36_to_int, int_to_base36, urlsafe_base64_encode
from django.utils.translation import gettext

from base.errors import RuleError, gettext_noop
from clubs import audit
from clubs.audit import Action
from clubs.models import Club, Membership, Role

# Why a link may not be made (the owner's members page) ...
ISSUE = {
    "issuer": gettext_noop("Only the club's owners make password reset links."),
    "not_member": gettext_noop("%(name)s does not belong to %(club)s."),
    "admin": gettext_noop("%(name)s administers the site: only he can change his password."),
    "owner": gettext_noop(
        "%(name)s is an owner: owners change their own password (or ask the site's administrator)."
    ),
    "elsewhere": gettext_noop(
        "%(name)s also belongs to another club: ask the site's administrator for a reset link."
    ),
}
# ... and why a link made no longer works (its confirm page).
USE = {
    "issuer": gettext_noop(
        "This reset link no longer works: %(issuer)s, who made it, is no longer an owner of "
        "%(club)s. Ask an owner of the club for a new one."
    ),
    "not_member": gettext_noop(
        "This reset link no longer works: %(name)s no longer belongs to %(club)s."
    ),
    "admin": gettext_noop(
        "This reset link no longer works: %(name)s administers the site now, and only he "
        "changes his password."
    ),
    "owner": gettext_noop(
        "This reset link no longer works: %(name)s is an owner of %(club)s now, and owners "
        "change their own password (or ask the site's administrator)."
    ),
    "elsewhere": gettext_noop(
        "This reset link no longer works: %(name)s belongs to another club now. Ask the "
        "site's administrator for a reset link."
    ),
}


def refusal(club: Club, user, issuer) -> tuple[str, dict] | None:
    """Why ``issuer`` (an account, or None when it no longer exists) may not hand a reset
    link of ``club`` to the account ``user``: ``(code, params)``, a key of ``ISSUE`` and
    ``USE`` with the values of its placeholders (``name``, ``club``, ``issuer``); None
    when he may. Three queries."""
    name = user.get_username()
    params = {
        "name": name,
        "club": club.name,
        "issuer": issuer.get_username() if issuer is not None else "?",
    }
    if (
        issuer is None
        or not issuer.is_active
        or not Membership.objects.filter(club=club, user=issuer, role=Role.OWNER).exists()
    ):
        return "issuer", params
    roles = dict(Membership.objects.filter(user=user).values_list("club_id", "role"))
    if club.pk not in roles:
        return "not_member", params
    if user.is_superuser or user.is_staff:
        return "admin", params
    if roles[club.pk] == Role.OWNER:
        return "owner", params
    if len(roles) > 1:
        return "elsewhere", params
    return None


class MailResetTokens(PasswordResetTokenGenerator):
    """The token of a reset link sent by mail to the account's own address (Django's,
    under this project's salt)."""

    key_salt = "bummerl.clubs.resets.MailResetTokens"


class OwnerResetTokens(PasswordResetTokenGenerator):
    """The token of a reset link an owner made: it names and signs the club and the
    issuer besides what Django's token depends on (see the module docstring)."""

    key_salt = "bummerl.clubs.resets.OwnerResetTokens"

    def make_link_token(self, user, club_id: int, issuer_id: int) -> str:
        """The token for ``user``, made now by the account ``issuer_id`` of ``club_id``."""
        timestamp = self._num_seconds(self._now())
        return self._token(user, club_id, issuer_id, timestamp, self.secret)

    def read(self, user, token: str | None) -> tuple[int, int] | None:
        """``(club_id, issuer_id)`` of a genuine owner's token for ``user`` that has not
        been used (the password is the same) nor run out; None for anything else."""
        if token is None:
            return None
        parts = token.split("-")
        if len(parts) != 4:
            return None
        try:
            club_id, issuer_id, timestamp = (base36_to_int(part) for part in parts[:3])
        except ValueError:
            return None
        for secret in [self.secret, *self.secret_fallbacks]:
            if constant_time_compare(
                self._token(user, club_id, issuer_id, timestamp, secret), token
            ):
                break
        else:
            return None
        if self._num_seconds(self._now()) - timestamp > settings.PASSWORD_RESET_TIMEOUT:
            return None
        return club_id, issuer_id

    def check_token(self, user, token) -> bool:
        """True for a genuine, unused, fresh owner's token (the rule is not asked)."""
        return bool(user) and self.read(user, token) is not None

    def _token(self, user, club_id: int, issuer_id: int, timestamp: int, secret) -> str:
        value = f"{self._make_hash_value(user, timestamp)}|{club_id}|{issuer_id}"
        signature = salted_hmac(self.key_salt, value, secret=secret, algorithm=self.algorithm)
        return "-".join(
            (
                int_to_base36(club_id),
                int_to_base36(issuer_id),
                int_to_base36(timestamp),
                signature.hexdigest()[::2],
            )
        )


owner_tokens = OwnerResetTokens()
mail_tokens = MailResetTokens()


def link_parts(membership: Membership, issuer) -> tuple[str, str]:
    """``(uidb64, token)`` of the confirm page's address for the member of ``membership``,
    made by ``issuer``. No check: ``clubs.services.issue_reset_link`` asks the rule."""
    user = membership.user
    token = owner_tokens.make_link_token(user, membership.club_id, issuer.pk)
    return urlsafe_base64_encode(force_bytes(user.pk)), token


@dataclass
class ResetLinkCheck:
    """The token check of one request to the confirm page: ``check_token(user, token)``
    as Django's token generators have it (``PasswordResetConfirmView`` asks it on GET and
    POST), which for an owner's link also asks ``refusal``.

    After a check: ``club`` and ``issuer`` name whom a genuine owner's link came from
    (None for a mail link or a broken token); ``refused`` is the translated reason when
    the rule no longer holds (else empty)."""

    club: Club | None = None
    issuer: AbstractBaseUser | None = None
    refused: str = ""

    def check_token(self, user, token) -> bool:
        self.club = self.issuer = None
        self.refused = ""
        if not (user and token):
            return False
        read = owner_tokens.read(user, token)
        if read is None:
            return mail_tokens.check_token(user, token)
        club_id, issuer_id = read
        self.club = Club.objects.filter(pk=club_id).first()
        if self.club is None:
            return False
        self.issuer = get_user_model().objects.filter(pk=issuer_id).first()
        return self._allowed(self.club, user)

    def _allowed(self, club: Club, user) -> bool:
        found = refusal(club, user, self.issuer)
        if found is None:
            return True
        code, params = found
        self.refused = gettext(USE[code]) % params
        return False

    def set_password(self, form) -> bool:
        """Save ``form`` (Django's ``SetPasswordForm``, valid) when the link still may be
        used: for an owner's link the rule is asked again under the club's row lock (a
        role change takes it first), and the club's history keeps whose password was set
        with whose link. False (nothing saved, ``refused`` says why) when it may not."""
        with transaction.atomic():
            if self.club is not None:
                Club.objects.select_for_update(no_key=True).filter(pk=self.club.pk).first()
                if not self._allowed(self.club, form.user):
                    return False
            form.save()
            if self.club is not None:
                audit.record(
                    self.club.pk,
                    "club",
                    self.club.pk,
                    Action.RESET_LINK_USED,
                    actor=audit.by(form.user),
                    before=None,
                    after={
                        "user": form.user.get_username(),
                        # the issuer is there: a link of a deleted one is refused
                        "issued_by": self.issuer.get_username() if self.issuer is not None else "?",
                    },
                )
        return True


def refusal_error(code: str, params: dict) -> RuleError:
    """The refusal ``(code, params)`` of ``refusal`` as the members page shows it."""
    return RuleError("member", ISSUE[code], **params)
