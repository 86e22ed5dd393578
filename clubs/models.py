"""Clubs, their players and the accounts that run them.

A *player* is a name at the card table; an *account* (Django user) signs in to run
the club. Roles per club: owner, organiser, scorer, member (read).
"""

import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from base.text import TYPED_MAX, clean_name, german_key, name_fold, name_search


def colour_check(value: str) -> None:
    """A colour as ``#rrggbb`` (seven characters, hex digits); ValidationError else."""
    if not (
        len(value) == 7
        and value[0] == "#"
        and all(c in "0123456789abcdefABCDEF" for c in value[1:])
    ):
        raise ValidationError(_("A colour is written as #rrggbb, for example #0b5d3b."))


class Club(models.Model):
    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(_("short name"), unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    key = models.UUIDField(null=True, blank=True, unique=True, help_text="one-time key of its form")
    public_page = models.BooleanField(
        _("club page public"),
        default=False,
        help_text=_("its upcoming nights, past results, calendar feed and widgets"),
    )
    colour = models.CharField(
        _("club colour"),
        max_length=7,
        default="#0b5d3b",
        validators=[colour_check],
        help_text=_("#rrggbb, for the club's public page and widgets"),
    )

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Category(models.Model):
    """A category players may carry (RULES.md 5.9): *Damen*, *Jugend*, *Senioren* or a
    club's own; a tournament may have a prize list per category."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="categories")
    name = models.CharField(_("name"), max_length=60)

    class Meta:
        verbose_name = _("category")
        verbose_name_plural = _("categories")
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="one_category_per_name_in_club")
        ]

    def __str__(self) -> str:
        return self.name


class PlayerQuerySet(models.QuerySet):
    def search(self, text: str) -> "PlayerQuerySet":
        """Players whose name contains ``text``, umlauts and case folded (Mül finds Müller,
        Mue finds Müller and Mueller: ``base.text.name_search``); none for a text longer
        than ``TYPED_MAX`` (no name is that long)."""
        if len(text) > TYPED_MAX:
            return self.none()
        return self.filter(name_key__regex=name_search(text).pattern)


class Player(models.Model):
    """A person at the card table. ``name`` is stored clean (``base.text.clean_name``);
    ``name_fold`` is the person's identity in the club (case folded, unique per club:
    "anna" is Anna); ``name_key`` sorts and searches in German order."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="players")
    name = models.CharField(_("name"), max_length=80)
    name_fold = models.CharField(max_length=240, editable=False)
    name_key = models.CharField(max_length=240, editable=False, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    categories = models.ManyToManyField(
        Category, blank=True, related_name="players", verbose_name=_("categories")
    )

    objects = PlayerQuerySet.as_manager()

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["name_key", "name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "name_fold"], name="one_player_per_name_in_club"
            )
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        self.name = clean_name(self.name)
        self.name_fold = name_fold(self.name)
        self.name_key = german_key(self.name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_fold", "name_key"}
        super().save(*args, **kwargs)

    def clean(self):
        """For model forms (the admin): the name cleaned, and refused when the club has
        that person already (in any case), on the name field."""
        super().clean()
        self.name = clean_name(self.name or "")
        self.name_fold = name_fold(self.name)
        if self.club_id is not None:
            other = (
                Player.objects.filter(club_id=self.club_id, name_fold=self.name_fold)
                .exclude(pk=self.pk)
                .first()
            )
            if other is not None:
                raise ValidationError(
                    {"name": _("%(name)s already plays in this club.") % {"name": other.name}}
                )


class Role(models.TextChoices):
    OWNER = "owner", _("owner")
    ORGANISER = "organiser", _("organiser")
    SCORER = "scorer", _("scorer")
    MEMBER = "member", _("member")


ROLE_RANK = {Role.MEMBER: 0, Role.SCORER: 1, Role.ORGANISER: 2, Role.OWNER: 3}


def role_allows(have: str, need: str) -> bool:
    """True when the role ``have`` ranks at least as high as ``need``."""
    return ROLE_RANK[Role(have)] >= ROLE_RANK[Role(need)]


class Membership(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(_("role"), max_length=20, choices=Role.choices, default=Role.MEMBER)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["user", "club"], name="one_membership_per_club")
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.club} ({self.role})"

    def allows(self, role: str) -> bool:
        return role_allows(self.role, role)


def new_invitation_token() -> str:
    return secrets.token_urlsafe(24)


class InvitationQuerySet(models.QuerySet):
    def open(self) -> "InvitationQuerySet":
        """Invitations that can still be accepted: not used, not revoked, not expired."""
        return self.filter(
            used_at__isnull=True, revoked_at__isnull=True, expires_at__gt=timezone.now()
        )


class Invitation(models.Model):
    """A single-use link that makes whoever accepts it a member of ``club`` with ``role``.

    Open until ``expires_at``; ``used_at``/``used_by`` are set once, by a conditional
    UPDATE (``clubs.invitations.accept_invitation``), so two phones opening the same link
    make one membership. Revoked invitations keep ``revoked_at``; nothing is deleted."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(_("role"), max_length=20, choices=Role.choices, default=Role.MEMBER)
    token = models.CharField(max_length=40, unique=True, default=new_invitation_token)
    key = models.UUIDField(null=True, blank=True, unique=True, help_text="one-time key of its form")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(_("valid until"))
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = InvitationQuerySet.as_manager()

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.club} ({self.role}, {self.created_at:%Y-%m-%d})"

    @property
    def state(self) -> str:
        """``"open"``, ``"used"``, ``"revoked"`` or ``"expired"`` (in that order of precedence
        after open: a used link says used even when it has expired since)."""
        if self.used_at:
            return "used"
        if self.revoked_at:
            return "revoked"
        if self.expires_at <= timezone.now():
            return "expired"
        return "open"


class AuditEntry(models.Model):
    """One change of a club's records: who (an account, or the holder of a private link),
    when, what, and the values before and after. ``scope`` names what it belongs to
    ("sheet" or "tournament") and ``scope_id`` its id. Written by the services only.
    ``club`` is None for an entry of no club: an organising body's or a cup's
    (``cups``, scopes "body" and "cup"), which no club's history shows."""

    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.CASCADE, related_name="audit"
    )
    scope = models.CharField(max_length=20)
    scope_id = models.PositiveIntegerField()
    action = models.CharField(max_length=40)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    via_link = models.BooleanField(default=False)
    at = models.DateTimeField(auto_now_add=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        verbose_name = _("history entry")
        verbose_name_plural = _("history")
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["scope", "scope_id", "at"])]

    def __str__(self) -> str:
        return f"{self.scope} {self.scope_id}: {self.action}"


class Archived(models.Model):
    """A thing of a club put in its archive: taken out of the club's lists, never
    deleted, still readable by its link and counted where it counted before (rankings).
    ``scope`` names its kind (``"sheet"``: a table) and ``scope_id`` its id, as
    ``AuditEntry`` names what it belongs to, so that clubs needs to know nothing of the
    apps built on it. One row per thing; restoring it deletes the row."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="archived")
    scope = models.CharField(max_length=20)
    scope_id = models.PositiveBigIntegerField()
    archived_at = models.DateTimeField(auto_now_add=True)
    archived_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        verbose_name = _("archived item")
        verbose_name_plural = _("archive")
        constraints = [models.UniqueConstraint(fields=["scope", "scope_id"], name="archived_once")]

    def __str__(self) -> str:
        return f"{self.scope} {self.scope_id}"
