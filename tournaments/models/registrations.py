"""Registrations for a night before it, made on the night's public page."""

import secrets
import uuid

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.tournament import Tournament


def registration_token() -> str:
    """A registration's private link token: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


TRANSFER_LETTERS = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
"""The signs of a transfer reference: no 0/O, no 1/I, so it reads back from a bank
statement."""


def transfer_reference() -> str:
    """A registration's reference code for a bank transfer: ``BU-`` and two groups of
    four signs (``BU-7K3M-9P2X``, 40 random bits), printed on its page."""
    signs = "".join(secrets.choice(TRANSFER_LETTERS) for _ in range(8))
    return f"BU-{signs[:4]}-{signs[4:]}"


class RegistrationStatus(models.TextChoices):
    """Where a registration stands. *registered* holds its cards for the night (they
    count against the cards laid out, ``services.counts.holding_registrations``); *waiting*
    is on the waiting list, in the order the registrations came in; *offered* is the
    first in line whose cards are held for it until ``offered_until``; *refused* was
    turned down by the organiser; *checked_in* sold
    its cards at the door; *cancelled* and *no_show* released them."""

    REGISTERED = "registered", _("registered")
    WAITING = "waiting", _("on the waiting list")
    OFFERED = "offered", _("cards offered")
    CHECKED_IN = "checked_in", _("checked in")
    CANCELLED = "cancelled", _("cancelled")
    REFUSED = "refused", _("refused")
    NO_SHOW = "no_show", _("did not come")


ACTIVE_REGISTRATION = ("registered", "waiting", "offered", "checked_in")
"""The statuses of a registration that stands: one person has at most one of them."""

HOLDING_REGISTRATION = (RegistrationStatus.REGISTERED, RegistrationStatus.OFFERED)
"""The statuses of a registration whose cards are held for it (``counts.count_reserved``):
registered, or offered from the waiting list until ``offered_until``."""


class Registration(models.Model):
    """A player's registration for a night before it, made on the night's public page.

    It holds a name (cleaned and folded as at the door, ``clubs.players``), no club
    player: the player is found or added when the registration is checked in and its
    cards are sold (``sell_cards``). ``contact`` (phone or e-mail) is private: only the
    organisers see it."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="registrations"
    )
    name = models.CharField(_("name"), max_length=80)
    name_fold = models.CharField(max_length=80)
    contact = models.CharField(_("phone or e-mail"), max_length=120, blank=True)
    cards = models.PositiveSmallIntegerField(_("cards"))
    status = models.CharField(
        _("status"), max_length=12, choices=RegistrationStatus, default="registered"
    )
    paid = models.BooleanField(_("paid"), default=False)
    token = models.CharField(max_length=30, unique=True, default=registration_token)
    # The calendar feed's own token: a subscribed calendar hands its address around
    # (shared calendars, sync services), so it reads the nights and changes nothing.
    feed_token = models.CharField(max_length=30, unique=True, default=registration_token)
    key = models.UUIDField(null=True, blank=True, unique=True, help_text="the form's one-time key")
    sale_key = models.UUIDField(default=uuid.uuid4, editable=False, help_text="its check-in sale")
    reference = models.CharField(
        _("transfer reference"), max_length=12, unique=True, default=transfer_reference
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    offered_until = models.DateTimeField(null=True, blank=True)
    language = models.CharField(max_length=8, blank=True, help_text="of its mails")
    reminded_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    changed_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "name_fold"],
                condition=models.Q(status__in=ACTIVE_REGISTRATION),
                name="registration_one_per_person",
            )
        ]

    def __str__(self) -> str:
        return self.name
