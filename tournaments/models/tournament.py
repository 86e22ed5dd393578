"""The tournament and its settings (``tournaments.models``: the words)."""

import secrets
from decimal import Decimal

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from scoring.models import new_token as readable


def new_token() -> str:
    return secrets.token_urlsafe(12)


def side_token() -> str:
    """A side link's token: readable aloud, like a table's link (``scoring.models``)."""
    return readable()


class ResultCheck(models.TextChoices):
    """How a result entered with a player's link becomes final."""

    SINGLE = "single", _("final when entered")
    CONFIRM = "confirm", _("final when the other player confirms it")


class Format(models.TextChoices):
    """How a tournament is played: knock-out by cards (RULES.md 5), by lives (5.10) or a
    points event with Danish pairing (6)."""

    CARDS = "cards", _("cards (knock-out)")
    LEBEN = "leben", _("lives (Leben)")
    POINTS = "points", _("points (Danish system)")


def new_seed() -> int:
    """A seed for the next digital draw, kept secret until that draw (RULES.md 5.12)."""
    return secrets.randbits(48)


def new_nonce() -> str:
    """128 random bits (hex) hashed with a draw's seed into its commitment, so that the
    commitment cannot be searched for the seed (RULES.md 5.12)."""
    return secrets.token_hex(16)


class Tournament(models.Model):
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="tournaments")
    name = models.CharField(_("name"), max_length=100)
    starts_at = models.DateTimeField(_("start"))
    cards = models.PositiveIntegerField(_("cards"), help_text=_("a power of two, 8 to 1024"))
    max_cards = models.PositiveSmallIntegerField(_("most cards per player"), default=3)
    match_bummerl = models.PositiveSmallIntegerField(_("Bummerl to win a match"), default=2)
    entry_fee = models.DecimalField(
        _("entry fee per card"), max_digits=8, decimal_places=2, default=0
    )
    one_prize_per_player = models.BooleanField(_("one prize per player"), default=False)
    result_check = models.CharField(
        _("results from the players' phones"),
        max_length=10,
        choices=ResultCheck.choices,
        default=ResultCheck.SINGLE,
    )
    tables = models.PositiveSmallIntegerField(
        _("tables"),
        default=0,
        help_text=_("how many tables the matches are played at (0: no table numbers)"),
    )
    prizes = models.JSONField(_("prizes"), default=list, help_text="[{place, description}]")
    public_token = models.CharField(max_length=30, unique=True, default=new_token)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The formats of RULES.md 5.10 and 6 (tournaments/formats.py); cards: all unused.
    format = models.CharField(_("format"), max_length=10, choices=Format, default=Format.CARDS)
    lives = models.PositiveSmallIntegerField(_("lives per player"), default=1)
    rebuy_until = models.PositiveSmallIntegerField(
        _("a life may be bought until round"), null=True, blank=True
    )
    life_fee = models.DecimalField(
        _("life fee"),
        max_digits=8,
        decimal_places=2,
        null=True,
        blank=True,
        help_text=_("the price of a life bought (empty: the entry fee)"),
    )
    rounds_planned = models.PositiveSmallIntegerField(_("rounds"), null=True, blank=True)
    avoid_repeat = models.BooleanField(_("avoid the last opponent"), default=False)
    team_size = models.PositiveSmallIntegerField(_("players per team"), null=True, blank=True)
    # A points event's match and bye (RULES.md 6): a Partie to ``match_bummerl`` or, with
    # ``match_games``, exactly that many Bummerl; a Schneider counts ``schneider_counts``;
    # a bye scores ``bye_bummerl`` to 0 (None: ``danish.bye_default``).
    match_games = models.PositiveSmallIntegerField(_("Bummerl per match"), null=True, blank=True)
    schneider_counts = models.PositiveSmallIntegerField(_("Bummerl for a Schneider"), default=1)
    bye_bummerl = models.PositiveSmallIntegerField(_("Bummerl for a bye"), null=True, blank=True)
    # Ranking, categories and consolation (RULES.md 5.8, 5.9, 5.11), tournaments.ranking
    ranking_ties = models.CharField(
        _("equal places"),
        max_length=10,
        default="shared",
        choices=[("shared", _("shared")), ("stechen", _("Stechen")), ("lot", _("by lot"))],
    )
    category_with_overall = models.BooleanField(
        _("a winner of an overall prize may also win a category prize"), default=False
    )
    category_prizes = models.JSONField(
        _("category prizes"), default=list, help_text="[{category (id), place, description}]"
    )
    parent = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="consolations",
        help_text="the main event of a consolation (Trostbewerb)",
    )
    consolation_rounds = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="a consolation's field: the losers of rounds 1 to this"
    )
    # The next digital draw's seed and nonce, secret until it is drawn (RULES.md 5.12):
    # never in a backup (a restore makes new ones, and so a new commitment); a drawn
    # round keeps its own, for the audit.
    draw_seed = models.BigIntegerField(default=new_seed, editable=False)
    draw_nonce = models.CharField(max_length=32, default=new_nonce, editable=False)
    BACKUP_LEAVES_OUT = ("draw_seed", "draw_nonce")
    # An announced night (issue 28): players register on its public page while the
    # window is open and ``registration_public`` is set (``services.signup``).
    registration_opens = models.DateTimeField(_("registration opens"), null=True, blank=True)
    registration_closes = models.DateTimeField(_("registration closes"), null=True, blank=True)
    registration_public = models.BooleanField(_("registration open to the public"), default=False)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    rule_set = models.ForeignKey(
        "scoring.RuleSet",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("rule set"),
        help_text=_("of the match sheets; none: the preset"),
    )
    confirm_registrations = models.BooleanField(
        _("the organiser confirms each registration"), default=False
    )
    transfer_to = models.CharField(
        _("bank account for prepayment"),
        max_length=200,
        blank=True,
        help_text=_("holder and IBAN; each registration's page shows its reference code"),
    )
    checkin_closes = models.DateTimeField(
        _("check-in closes"),
        null=True,
        blank=True,
        help_text=_("registrations not checked in by then release their cards"),
    )

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-starts_at", "-id"]

    def __str__(self) -> str:
        return self.name

    @property
    def life_price(self) -> Decimal:
        """The euros a life bought costs (RULES.md 5.10 ``rebuy``): ``life_fee``, or the
        entry fee when it is empty."""
        return Decimal(self.entry_fee if self.life_fee is None else self.life_fee)
