"""Cups across clubs (issue 30): organising bodies, their member clubs, their cups, the
nights a cup counts, and the cup persons that join one person's players of several
clubs.

Words: a *body* (*Verband*, a federation or a group of clubs) has admins (accounts)
and member clubs; a club joins by its owner opening the body's *join link* and
confirming. A *cup* (*Cup*, *Serie*) of a body counts *nights* (tournaments of member
clubs) and ranks its *cup players* by points per place (RULES.md 7). A *cup person*
belongs to one body and stands for one human being who plays in several clubs: each
club keeps its own ``clubs.Player``, and a *link* ties a club player to a person. A
club player without a live link is his own cup player; two people of the same name
stay two until someone links them.

Nothing here is deleted by the site: a club leaving, a night taken out of a cup and a
link undone keep their rows with the moment they ended (``left_at``, ``removed_at``,
``ended_at``); partial unique constraints allow one live row each. Writes go through
``cups.services`` and ``cups.persons``.
"""

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from base.text import german_key
from clubs.models import Club, Player
from seasons import ranking
from seasons.models import default_key
from tournaments.models import Tournament


def new_join_token() -> str:
    return secrets.token_urlsafe(18)


class Body(models.Model):
    """An organising body: a federation or a group of clubs, with its admins."""

    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(_("short name"), unique=True)
    join_token = models.CharField(max_length=40, unique=True, default=new_join_token)
    admins = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="cup_bodies", verbose_name=_("admins")
    )
    created_at = models.DateTimeField(auto_now_add=True)
    key = models.UUIDField(null=True, blank=True, unique=True, help_text="one-time key of its form")

    class Meta:
        verbose_name = _("organising body")
        verbose_name_plural = _("organising bodies")
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class AdminInvitation(models.Model):
    """An account invited to be an admin of a body: it becomes one when it accepts
    (``accepted_at``); declined, it keeps its row with ``ended_at``. At most one open
    invitation per body and account."""

    body = models.ForeignKey(Body, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="cup_invitations"
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    invited_at = models.DateTimeField(auto_now_add=True)
    accepted_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("invitation to be an admin")
        verbose_name_plural = _("invitations to be an admin")
        ordering = ["-invited_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["body", "user"],
                condition=models.Q(accepted_at__isnull=True, ended_at__isnull=True),
                name="one_open_admin_invitation",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.body}"


class MemberQuerySet(models.QuerySet["Member"]):
    def live(self) -> "MemberQuerySet":
        """Clubs in the body now (not left, not removed)."""
        return self.filter(left_at__isnull=True)


class Member(models.Model):
    """A club's membership of a body, from ``joined_at`` until ``left_at`` (removed by an
    admin); a club that joins again has a new row."""

    body = models.ForeignKey(Body, on_delete=models.CASCADE, related_name="members")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="cup_bodies")
    joined_at = models.DateTimeField(auto_now_add=True)
    joined_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    left_at = models.DateTimeField(null=True, blank=True)
    removed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    objects = MemberQuerySet.as_manager()

    class Meta:
        verbose_name = _("member club")
        verbose_name_plural = _("member clubs")
        ordering = ["club__name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["body", "club"],
                condition=models.Q(left_at__isnull=True),
                name="one_live_membership_per_body",
            )
        ]

    def __str__(self) -> str:
        return f"{self.club} @ {self.body}"

    def is_live(self) -> bool:
        return self.left_at is None


class Cup(models.Model):
    """A cup of a body (a series of nights): points per place by ``points_key``
    (``[[first, last, points], …]``, ``seasons.ranking.KeyLine``) and ``participation``
    points for taking part; ``best_of`` counts a player's best n nights (None: all);
    ``categories`` are names (Damen, Jugend, …) of separate tables: a cup player is in
    a category when one of his club players (his own, or any linked to his cup person)
    is in a club category (``clubs.models.Category``) of that name, compared
    case-insensitively (``str.casefold``). Qualifying for the ``final``: the top
    ``qualify_top`` of the cup and/or the top ``qualify_per_heat`` of each heat."""

    body = models.ForeignKey(Body, on_delete=models.CASCADE, related_name="cups")
    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(_("short name"))
    first_day = models.DateField(_("first day"))
    last_day = models.DateField(_("last day"))
    points_key = models.JSONField(_("points key"), default=default_key)
    participation = models.PositiveSmallIntegerField(_("points for taking part"), default=1)
    best_of = models.PositiveSmallIntegerField(_("best nights counted"), null=True, blank=True)
    categories = models.JSONField(_("categories"), default=list, blank=True)
    qualify_top = models.PositiveSmallIntegerField(_("top places qualify"), null=True, blank=True)
    qualify_per_heat = models.PositiveSmallIntegerField(
        _("top places of each heat qualify"), null=True, blank=True
    )
    final = models.ForeignKey(
        Tournament,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="cup_finals",
        verbose_name=_("final"),
    )
    # The final is *proposed* until an organiser (or owner) of its club accepts it on the
    # night's desk; a new final is proposed afresh.
    final_accepted_at = models.DateTimeField(null=True, blank=True)
    final_accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    key = models.UUIDField(null=True, blank=True, unique=True, help_text="one-time key of its form")

    class Meta:
        verbose_name = _("cup")
        verbose_name_plural = _("cups")
        ordering = ["-first_day", "name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["body", "slug"], name="one_cup_per_slug_in_body"),
            models.CheckConstraint(
                condition=models.Q(first_day__lte=models.F("last_day")),
                name="cup_ends_after_it_starts",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def key_lines(self) -> list[ranking.KeyLine]:
        return [ranking.KeyLine(*line) for line in self.points_key]

    @property
    def final_accepted(self) -> bool:
        """The final's club has accepted the night as the cup's final."""
        return self.final_id is not None and self.final_accepted_at is not None


class NightQuerySet(models.QuerySet["Night"]):
    def live(self) -> "NightQuerySet":
        """Nights counted now (not taken out)."""
        return self.filter(removed_at__isnull=True)


class Night(models.Model):
    """A tournament counted in a cup, in its ``heat`` (a qualifying group; blank: none);
    taken out, it keeps its row with ``removed_at``."""

    cup = models.ForeignKey(Cup, on_delete=models.CASCADE, related_name="nights")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="cup_nights")
    heat = models.CharField(_("heat"), max_length=40, blank=True)
    added_at = models.DateTimeField(auto_now_add=True)
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    removed_at = models.DateTimeField(null=True, blank=True)
    removed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    objects = NightQuerySet.as_manager()

    class Meta:
        verbose_name = _("cup night")
        verbose_name_plural = _("cup nights")
        ordering = ["tournament__starts_at", "tournament_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["cup", "tournament"],
                condition=models.Q(removed_at__isnull=True),
                name="one_live_night_per_cup",
            )
        ]

    def __str__(self) -> str:
        return f"{self.cup}: {self.tournament}"

    def is_live(self) -> bool:
        return self.removed_at is None


class Person(models.Model):
    """One human being in a body's cups, whatever clubs he plays in."""

    body = models.ForeignKey(Body, on_delete=models.CASCADE, related_name="persons")
    name = models.CharField(_("name"), max_length=80)
    name_key = models.CharField(max_length=240, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("cup person")
        verbose_name_plural = _("cup persons")
        ordering = ["name_key", "id"]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name_key = german_key(self.name)
        super().save(*args, **kwargs)


class LinkQuerySet(models.QuerySet["Link"]):
    def live(self) -> "LinkQuerySet":
        return self.filter(ended_at__isnull=True)


class Link(models.Model):
    """A club player counted as a cup person, from ``linked_at`` until ``ended_at`` (the
    link undone); at most one live link per player and body (``body`` is the person's,
    kept here for the constraint)."""

    body = models.ForeignKey(Body, on_delete=models.CASCADE, related_name="links")
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="links")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="cup_links")
    linked_at = models.DateTimeField(auto_now_add=True)
    linked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    ended_at = models.DateTimeField(null=True, blank=True)
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    objects = LinkQuerySet.as_manager()

    class Meta:
        verbose_name = _("link to a cup person")
        verbose_name_plural = _("links to cup persons")
        ordering = ["-linked_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["body", "player"],
                condition=models.Q(ended_at__isnull=True),
                name="one_live_link_per_player_in_body",
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} → {self.person}"

    def is_live(self) -> bool:
        return self.ended_at is None
