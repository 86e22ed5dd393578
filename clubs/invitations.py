"""The writers of a club's invitations: made by an owner with a role, revoked, and
accepted once by whoever opens the link (an account of his own or a new one), while its
maker is still an owner (checked when used). Each in one transaction with an audit entry
(scope "club"); refusals are RuleErrors naming the form field."""

import datetime
import uuid

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from base.errors import RuleError, gettext_noop, key_reused
from clubs import audit
from clubs.audit import Action
from clubs.models import Club, Invitation, Membership, Role
from clubs.services import lock_members

# -- Invitations -------------------------------------------------------------------------


def create_invitation(club: Club, role: str, by, key: uuid.UUID | None = None) -> Invitation:
    """A single-use link for ``club`` that makes its holder a member with ``role``; open
    for ``BUMMERL_INVITE_DAYS`` (default 7) days. ``by`` is the owner's account.
    A repeated ``key`` returns the first request's invitation when it is the same (club,
    role, account); another is refused on ``key`` (``base.errors.key_reused``).
    Refused (RuleError on ``role``): a role that does not exist."""
    if role not in Role.values:
        raise RuleError("role", gettext_noop("Choose a role."))
    if key is not None:
        earlier = Invitation.objects.filter(key=key).first()
        if earlier is not None:
            return _same_invitation(earlier, club, role, by)
    days = settings.INVITE_DAYS
    try:
        with transaction.atomic():
            invitation = Invitation.objects.create(
                club=club,
                role=role,
                key=key,
                created_by=by,
                expires_at=timezone.now() + datetime.timedelta(days=days),
            )
            audit.record(
                club.pk,
                "club",
                club.pk,
                Action.INVITATION_CREATED,
                actor=audit.by(by),
                before=None,
                after={"invitation": invitation.pk, "role": role, "expires_at": _iso(invitation)},
            )
            return invitation
    except IntegrityError:
        earlier = Invitation.objects.filter(key=key).first() if key else None
        if earlier is None:
            raise key_reused() from None
        return _same_invitation(earlier, club, role, by)


def _same_invitation(earlier: Invitation, club: Club, role: str, by) -> Invitation:
    """``earlier`` when its key is sent again for the same club, role and account."""
    if (earlier.club_id, earlier.role, earlier.created_by_id) != (
        club.pk,
        role,
        getattr(by, "pk", None),
    ):
        raise key_reused()
    return earlier


def _iso(invitation: Invitation) -> str:
    return invitation.expires_at.isoformat(timespec="seconds")


def revoke_invitation(invitation: Invitation, by) -> None:
    """Close an open invitation: its link then says it was revoked. A used, revoked or
    expired invitation is left as it is."""
    with transaction.atomic():
        done = Invitation.objects.open().filter(pk=invitation.pk).update(revoked_at=timezone.now())
        if done:
            audit.record(
                invitation.club_id,
                "club",
                invitation.club_id,
                Action.INVITATION_REVOKED,
                actor=audit.by(by),
                before={"invitation": invitation.pk, "role": invitation.role},
                after=None,
            )


GONE = {
    "used": gettext_noop(
        "This invitation link has already been used. Ask the club's owner for a new one."
    ),
    "revoked": gettext_noop(
        "This invitation link was revoked. Ask the club's owner for a new one."
    ),
    "expired": gettext_noop(
        "This invitation link has expired. Ask the club's owner for a new one."
    ),
}


ISSUER_GONE = {
    "issuer": gettext_noop(
        "This invitation link no longer works: %(issuer)s, who made it, is no longer an "
        "owner of %(club)s. Ask the club's owner for a new one."
    ),
    "no_issuer": gettext_noop(
        "This invitation link no longer works: the account that made it no longer exists. "
        "Ask the club's owner for a new one."
    ),
}


def invitation_refusal(invitation: Invitation) -> RuleError | None:
    """Why an open ``invitation`` cannot be accepted now: only an owner of the club makes
    one (the members page), and it works only while its maker still is one, an active
    account (an invitation may make an owner). RuleError on ``invitation`` with ``state``
    ``issuer`` (the maker is no longer an owner) or ``no_issuer`` (his account is gone);
    None while the rule holds. One query."""
    maker = invitation.created_by
    if maker is None:
        return RuleError("invitation", ISSUER_GONE["no_issuer"], state="no_issuer")
    if (
        maker.is_active
        and Membership.objects.filter(
            club_id=invitation.club_id, user=maker, role=Role.OWNER
        ).exists()
    ):
        return None
    return RuleError(
        "invitation",
        ISSUER_GONE["issuer"],
        issuer=maker.get_username(),
        club=invitation.club.name,
        state="issuer",
    )


def accept_invitation(invitation: Invitation, user) -> Membership:
    """Make ``user`` a member of the invitation's club with its role, and use it up.

    Single use is kept by the database: one conditional UPDATE (``used_at IS NULL``, not
    revoked, not expired) marks it used; of two requests at the same moment, the second
    updates no row and is refused. The maker must still be an owner of the club
    (``invitation_refusal``, asked under the club's row lock, which role changes take).
    Refused (RuleError on ``invitation``, with ``state``
    ``used``/``revoked``/``expired``/``member``/``issuer``/``no_issuer``): a link that is
    not open, a user who already belongs to the club (the link then stays open for
    someone else), a maker who is no longer an owner.
    """
    club = invitation.club
    try:
        with transaction.atomic():
            lock_members(club)
            refused = invitation_refusal(
                Invitation.objects.select_related("created_by", "club").get(pk=invitation.pk)
            )
            if refused is not None:
                raise refused
            current = Membership.objects.filter(user=user, club=club).first()
            if current is not None:
                raise RuleError(
                    "invitation",
                    gettext_noop("You already belong to %(club)s as %(role)s."),
                    club=club.name,
                    role=current.get_role_display(),
                    state="member",
                )
            now = timezone.now()
            used = (
                Invitation.objects.open().filter(pk=invitation.pk).update(used_at=now, used_by=user)
            )
            if not used:
                invitation.refresh_from_db()
                state = invitation.state
                raise RuleError("invitation", GONE.get(state, GONE["used"]), state=state)
            membership = Membership.objects.create(user=user, club=club, role=invitation.role)
            audit.record(
                club.pk,
                "club",
                club.pk,
                Action.INVITATION_ACCEPTED,
                actor=audit.by(user),
                before=None,
                after={
                    "invitation": invitation.pk,
                    "user": user.get_username(),
                    "role": invitation.role,
                },
            )
            return membership
    except IntegrityError:
        # The same account joined through another link at the same moment.
        raise RuleError(
            "invitation",
            gettext_noop("You already belong to %(club)s."),
            club=club.name,
            state="member",
        ) from None


def join_with_new_account(invitation: Invitation, username: str, password: str):
    """A new account ``username`` (validated by the caller's form) that accepts
    ``invitation``: both or neither (a refused invitation creates no account).
    Returns ``(user, membership)``; refusals as ``accept_invitation``, and RuleError on
    ``username`` when the name was taken a moment ago."""
    try:
        with transaction.atomic():
            user = get_user_model().objects.create_user(username, password=password)
            return user, accept_invitation(invitation, user)
    except IntegrityError:
        raise RuleError(
            "username", gettext_noop("A user with that username already exists.")
        ) from None
