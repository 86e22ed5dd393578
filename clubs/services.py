"""The only writers of clubs and memberships (invitations: ``clubs.invitations``;
players: ``clubs.players``).

Every writer runs in one transaction, locks what it changes and keeps an audit entry
(scope ``"club"``, ``scope_id`` the club's id). User-fixable refusals are ``RuleError``s
naming the form field.
"""

import datetime
import uuid

from axes.models import AccessAttempt
from axes.utils import reset as axes_reset
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.text import slugify

from base.errors import RuleError, gettext_noop, key_reused
from base.text import clean_name
from clubs import audit, resets
from clubs.audit import Action
from clubs.models import AuditEntry, Club, Membership, Role, colour_check

# -- Clubs -------------------------------------------------------------------------------


def _free_slug(name: str) -> str:
    """``slugify(name)`` (ASCII, at most 50 characters; "verein" when nothing is left),
    with ``-2``, ``-3`` … appended when a club already has it."""
    base = slugify(name)[:40].strip("-") or "verein"
    taken = set(Club.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    if base not in taken:
        return base
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


def create_club(name: str, owner, key: uuid.UUID | None = None) -> Club:
    """A new club called ``name`` (whitespace collapsed) owned by the account ``owner``.

    The slug (the club's address ``/c/<slug>/``) is ``slugify(name)``, made unique with a
    number. A repeated ``key`` (a double tap) returns the club made by the first request
    when it is the same founding (same name, same account); another name or another
    account with that key is refused on ``key`` (``base.errors.key_reused``: an old
    page's form), never answered with the earlier club.
    Refused (RuleError on ``name``): an empty name (nothing visible, as
    ``base.text.clean_name``), more than 100 characters.
    """
    name = clean_name(name)
    if not name:
        raise RuleError("name", gettext_noop("Enter a name."))
    if len(name) > 100:
        raise RuleError("name", gettext_noop("A club's name has at most 100 characters."))
    if key is not None:
        earlier = Club.objects.filter(key=key).first()
        if earlier is not None:
            return _same_club(earlier, name, owner)
    for _attempt in range(5):
        try:
            with transaction.atomic():
                club = Club.objects.create(name=name, slug=_free_slug(name), key=key)
                Membership.objects.create(user=owner, club=club, role=Role.OWNER)
                audit.record(
                    club.pk,
                    "club",
                    club.pk,
                    Action.CLUB_CREATED,
                    actor=audit.by(owner),
                    before=None,
                    after={"name": club.name, "slug": club.slug, "owner": owner.get_username()},
                )
                return club
        except IntegrityError:
            # Another request took the slug (try the next number) or sent the same key.
            earlier = Club.objects.filter(key=key).first() if key is not None else None
            if earlier is not None:
                return _same_club(earlier, name, owner)
    raise RuleError("name", gettext_noop("Another club is being created: send again."))


def _same_club(earlier: Club, name: str, owner) -> Club:
    """``earlier`` when the key that made it is sent again for the same founding (the
    name, and the account that founded it as the history keeps it); else ``key_reused``."""
    founder = (
        AuditEntry.objects.filter(club=earlier, scope="club", action=Action.CLUB_CREATED)
        .values_list("actor_id", flat=True)
        .first()
    )
    if earlier.name != name or founder is None or founder != getattr(owner, "pk", None):
        raise key_reused()
    return earlier


# -- Members -----------------------------------------------------------------------------


def lock_members(club: Club) -> None:
    # Two owners demoting each other at the same moment must not leave the club without
    # an owner: every change of roles takes the club's row lock first.
    Club.objects.select_for_update(no_key=True).filter(pk=club.pk).first()


def _last_owner(membership: Membership) -> bool:
    return (
        membership.role == Role.OWNER
        and Membership.objects.filter(club_id=membership.club_id, role=Role.OWNER).count() == 1
    )


def change_role(membership: Membership, role: str, by) -> Membership:
    """Give the member ``role``. Refused (RuleError on ``role``): an unknown role, and
    demoting the club's last owner (someone else must be made owner first)."""
    if role not in Role.values:
        raise RuleError("role", gettext_noop("Choose a role."))
    with transaction.atomic():
        lock_members(membership.club)
        locked = Membership.objects.select_related("user").get(pk=membership.pk)
        if locked.role == role:
            return locked
        if role != Role.OWNER and _last_owner(locked):
            raise RuleError(
                "role",
                gettext_noop("%(name)s is the club's last owner: make someone else owner first."),
                name=locked.user.get_username(),
            )
        before = locked.role
        locked.role = role
        locked.save(update_fields=["role"])
        audit.record(
            locked.club_id,
            "club",
            locked.club_id,
            Action.ROLE_CHANGED,
            actor=audit.by(by),
            before={"user": locked.user.get_username(), "role": before},
            after={"user": locked.user.get_username(), "role": role},
        )
        return locked


def remove_member(membership: Membership, by) -> None:
    """Take the account out of the club (its account and the club's records stay).
    Refused (RuleError on ``member``): the club's last owner."""
    with transaction.atomic():
        lock_members(membership.club)
        locked = Membership.objects.select_related("user").filter(pk=membership.pk).first()
        if locked is None:
            return
        if _last_owner(locked):
            raise RuleError(
                "member",
                gettext_noop(
                    "%(name)s is the club's last owner and cannot be removed: make someone "
                    "else owner first."
                ),
                name=locked.user.get_username(),
            )
        locked.delete()
        audit.record(
            locked.club_id,
            "club",
            locked.club_id,
            Action.MEMBER_REMOVED,
            actor=audit.by(by),
            before={"user": locked.user.get_username(), "role": locked.role},
            after=None,
        )


def issue_reset_link(membership: Membership, by) -> tuple[str, str]:
    """``(uidb64, token)`` for the site's password reset page (``password_reset_confirm``):
    a link the owner ``by`` hands to a member who forgot his password (no mail is sent).
    The link works once, until the password changes, for ``PASSWORD_RESET_TIMEOUT`` (3
    days), and only while the rule that allows it still holds (``clubs.resets``: checked
    again each time it is used).

    Refused (RuleError on ``member``), since whoever holds the link takes over the
    account: ``by`` not an owner of the club; owners (the link would give one owner
    another's account), site administrators (staff, superusers), and accounts that belong
    to another club too (their other club's owner, or the site administrator, decides for
    them).
    """
    found = resets.refusal(membership.club, membership.user, by)
    if found is not None:
        raise resets.refusal_error(*found)
    with transaction.atomic():
        audit.record(
            membership.club_id,
            "club",
            membership.club_id,
            Action.RESET_LINK_ISSUED,
            actor=audit.by(by),
            before=None,
            after={"user": membership.user.get_username()},
        )
    return resets.link_parts(membership, by)


# -- Owners' chores: sign-in locks, e-mail addresses, the club's name ---------------------


def locked_out(club: Club) -> list[str]:
    """The usernames of ``club``'s members whose sign-in django-axes refuses now: at
    least ``AXES_FAILURE_LIMIT`` failed attempts from one address within the last
    ``AXES_COOLOFF_TIME`` hours (the lock counts a name together with the address it is
    guessed from). Sorted; empty when nobody is locked out. Two queries."""
    names = list(Membership.objects.filter(club=club).values_list("user__username", flat=True))
    since = timezone.now() - datetime.timedelta(hours=settings.AXES_COOLOFF_TIME)
    rows = (
        AccessAttempt.objects.filter(username__in=names, attempt_time__gte=since)
        .values("username", "ip_address")
        .annotate(failures=Sum("failures_since_start"))
        .filter(failures__gte=settings.AXES_FAILURE_LIMIT)
    )
    return sorted({row["username"] for row in rows})


def unlock_sign_in(membership: Membership, by) -> int:
    """Take away the sign-in lock of the member of ``membership``: every failed attempt
    django-axes keeps for his username is deleted (``axes.utils.reset``), so he signs in
    at once. Returns the number of attempt records deleted; the club's history keeps the
    unlock when there was something to delete (a second tap deletes nothing and records
    nothing). ``by`` is the owner's account (the view checks the role)."""
    username = membership.user.get_username()
    with transaction.atomic():
        deleted = axes_reset(username=username)
        if deleted:
            audit.record(
                membership.club_id,
                "club",
                membership.club_id,
                Action.SIGN_IN_UNLOCKED,
                actor=audit.by(by),
                before=None,
                after={"user": username},
            )
    return deleted


def set_email(membership: Membership, email: str, by) -> bool:
    """Give the member's account the e-mail address ``email`` (already validated by the
    form; empty: none), where a password reset by mail is sent. Another account may have
    the same address. True when it changed (recorded in the club's history), False when
    it was that already.

    Whoever sets an account's address can take it over by a reset mail, so an owner sets
    it only for the accounts he may make a reset link for (``clubs.resets.refusal``:
    not an owner, not a site administrator, in no other club), and his own. Refused
    (RuleError on ``email``) otherwise."""
    user = membership.user
    if user.pk != getattr(by, "pk", None):
        found = resets.refusal(membership.club, user, by)
        if found is not None:
            code, params = found
            raise RuleError("email", resets.ISSUE[code], **params)
    with transaction.atomic():
        lock_members(membership.club)
        account = get_user_model().objects.select_for_update(no_key=True).get(pk=user.pk)
        before = account.email
        if before == email:
            return False
        account.email = email
        account.save(update_fields=["email"])
        audit.record(
            membership.club_id,
            "club",
            membership.club_id,
            Action.E_MAIL_CHANGED,
            actor=audit.by(by),
            before={"user": account.get_username(), "email": before},
            after={"user": account.get_username(), "email": email},
        )
    user.email = email
    return True


def rename_club(club: Club, name: str, by) -> Club:
    """Call ``club`` ``name`` (whitespace collapsed, as ``create_club``). The slug, its
    address ``/c/<slug>/``, stays: every link, QR code and printout made before keeps
    working. Returns the club; a rename to the same name changes and records nothing.
    Refused (RuleError on ``name``): an empty name, more than 100 characters."""
    name = clean_name(name)
    if not name:
        raise RuleError("name", gettext_noop("Enter a name."))
    if len(name) > 100:
        raise RuleError("name", gettext_noop("A club's name has at most 100 characters."))
    with transaction.atomic():
        locked = Club.objects.select_for_update(no_key=True).get(pk=club.pk)
        if locked.name == name:
            return locked
        before = locked.name
        locked.name = name
        locked.save(update_fields=["name"])
        audit.record(
            locked.pk,
            "club",
            locked.pk,
            Action.CLUB_RENAMED,
            actor=audit.by(by),
            before={"name": before},
            after={"name": name},
        )
    return locked


def set_public_face(club: Club, by, *, public_page: bool, colour: str) -> Club:
    """Make the club's public page (``/k/<slug>/``: its nights, results, calendar feed and
    widgets) public or not, and set the club's colour. Returns the club; the same values
    again change and record nothing. RuleError on ``colour`` unless it is ``#rrggbb``."""
    try:
        colour_check(colour)
    except ValidationError:
        raise RuleError(
            "colour", gettext_noop("A colour is written as #rrggbb, for example #0b5d3b.")
        ) from None
    colour = colour.lower()
    with transaction.atomic():
        locked = Club.objects.select_for_update(no_key=True).get(pk=club.pk)
        before = {"public_page": locked.public_page, "colour": locked.colour}
        after = {"public_page": public_page, "colour": colour}
        if before == after:
            return locked
        locked.public_page, locked.colour = public_page, colour
        locked.save(update_fields=["public_page", "colour"])
        audit.record(
            locked.pk,
            "club",
            locked.pk,
            Action.CLUB_PAGE_CHANGED,
            actor=audit.by(by),
            before=before,
            after=after,
        )
    return locked
