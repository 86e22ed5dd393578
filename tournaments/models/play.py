"""Preisschnapsen: a knock-out tournament of two-player Schnapsen (RULES.md section 5).

Words: a *card* (Teilnahmekarte) is one life in the tournament, sold to a player at the
door; a player may hold several. A *round* is drawn from two *pots* of numbers; each
*pull* is kept in order. A *pairing* is what a number produced: a *match* of two cards,
a *bye* (Freilos: the card advances without playing) or a *walkover* (a player met
himself: he gives up one card and advances with the other). A *result* decides a match;
it is never edited, a correction voids it and records a new one. Undone draws are kept.
A *withdrawn* card (RULES.md 5.7) is one whose holder went home: it is not drawn again,
and an open match it is in becomes a walkover for the other card.
Placement matches (for prizes 3 to 8) are pairings of their own stage.
A *side* of a match is one of its two cards; each side has a private link of its own.
With the tournament's ``result_check`` "confirm", a result entered with a side link is
a *report*: it becomes the result when the other side confirms it or an organiser
accepts it; two reports that differ are a *disagreement* for the desk.
"""

import secrets
import uuid
from decimal import Decimal

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Player


def new_token() -> str:
    return secrets.token_urlsafe(12)


def side_token() -> str:
    """A side link's token: readable aloud, like a table's link (``scoring.models``)."""
    from scoring.models import new_token as readable

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
    # The next digital draw's seed and nonce, secret until it is drawn (RULES.md 5.12)
    draw_seed = models.BigIntegerField(default=new_seed, editable=False)
    draw_nonce = models.CharField(max_length=32, default=new_nonce, editable=False)
    # An announced night (issue 28): players register on its public page while the
    # window is open and ``registration_public`` is set (``services.registrations``).
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


class CardQuerySet(models.QuerySet):
    def not_withdrawn(self):
        """The cards no withdrawal took out (RULES.md 5.7); before round 1 these are the
        cards in play."""
        return self.filter(withdrawn_round__isnull=True)

    def withdrawn(self):
        return self.filter(withdrawn_round__isnull=False)


class Card(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="card_set")
    number = models.PositiveIntegerField(_("card number"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="cards")
    paid = models.BooleanField(_("paid"), default=False)
    sale_key = models.UUIDField(null=True, blank=True, db_index=True)
    sold_at = models.DateTimeField(auto_now_add=True)
    sold_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    withdrawn_round = models.PositiveSmallIntegerField(
        _("withdrawn in round"),
        null=True,
        blank=True,
        help_text="the first round the card does not play (RULES.md 5.7); empty while in",
    )
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Leben (RULES.md 5.10) and points events (6): the one entry of a player.
    rebuys = models.PositiveSmallIntegerField(_("lives bought"), default=0)
    team = models.CharField(_("team"), max_length=60, blank=True)

    objects = CardQuerySet.as_manager()

    class Meta:
        verbose_name = _("participation card")
        verbose_name_plural = _("participation cards")
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="card_number_unique")
        ]

    def __str__(self) -> str:
        return f"#{self.number}"


class RoundQuerySet(models.QuerySet):
    def live(self):
        """The draws that count: not undone (an undone draw is kept in the history)."""
        return self.filter(undone_at__isnull=True)


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    pot_size = models.PositiveIntegerField()
    seed = models.BigIntegerField(null=True, blank=True, help_text="empty for a physical draw")
    drawn_at = models.DateTimeField(
        null=True, blank=True, help_text="empty while pulls are typed in"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    drawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    nonce = models.CharField(max_length=32, blank=True, help_text="hashed with the seed")
    commitment = models.CharField(
        max_length=64, blank=True, help_text="SHA-256 of the seed and inputs (RULES.md 5.12)"
    )

    objects = RoundQuerySet.as_manager()

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["number", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"],
                condition=models.Q(undone_at__isnull=True),
                name="one_live_draw_per_round",
            )
        ]

    def __str__(self) -> str:
        return f"{self.tournament} R{self.number}"

    @property
    def knockout(self) -> bool:
        """A round of the card format (named Finale, Halbfinale, …), not of a Leben or
        points event (RULES.md 5.10, 6). ``load_state`` hands each round its tournament,
        so reading this costs no query there."""
        return self.tournament.format == Format.CARDS


class PullQuerySet(models.QuerySet):
    def live(self):
        """The pulls that count: not undone (a wrongly typed pull is undone, and kept)."""
        return self.filter(undone_at__isnull=True)


class Pull(models.Model):
    """One number pulled (RULES.md 5.6). A pull of a draw still being typed in can be
    undone (the last one first): it stays, marked undone, and its place in the order is
    taken by the next pull typed in."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pulls")
    index = models.PositiveIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="+")
    pot = models.CharField(max_length=5, choices=[("left", _("left")), ("right", _("right"))])
    number = models.PositiveIntegerField()
    put_back = models.BooleanField(default=False)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    objects = PullQuerySet.as_manager()

    class Meta:
        verbose_name = _("pull")
        verbose_name_plural = _("pulls")
        ordering = ["index", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "index"],
                condition=models.Q(undone_at__isnull=True),
                name="pull_order",
            )
        ]

    def __str__(self) -> str:
        return f"{self.round} pull {self.index}"


class Stage(models.TextChoices):
    MAIN = "main", _("main draw")
    PLACEMENT = "placement", _("placement")


class Kind(models.TextChoices):
    MATCH = "match", _("match")
    BYE = "bye", _("bye")
    WALKOVER = "walkover", _("walkover")


class PairingQuerySet(models.QuerySet):
    def live(self):
        """The pairings that count: not voided (an undone draw or a placement match made
        again voids its pairings, and keeps them)."""
        return self.filter(voided_at__isnull=True)


class Pairing(models.Model):
    """A pairing of a round (``stage`` main), or a placement match (``label`` names the
    places it decides: "3" for 3/4, "5-8" for the two drawn quarter-final-loser matches,
    "5" for 5/6, "7" for 7/8)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="pairings")
    round = models.ForeignKey(
        Round, null=True, blank=True, on_delete=models.CASCADE, related_name="pairings"
    )
    stage = models.CharField(max_length=10, choices=Stage.choices, default=Stage.MAIN)
    number = models.PositiveIntegerField()
    label = models.CharField(max_length=10, blank=True)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    seed = models.BigIntegerField(
        null=True, blank=True, help_text='a "5-8" placement draw\'s seed, kept to replay it'
    )
    left = models.ForeignKey(
        Card, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    right = models.ForeignKey(
        Card, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    token = models.CharField(max_length=30, unique=True, default=new_token)
    left_token = models.CharField(max_length=40, unique=True, default=side_token)
    right_token = models.CharField(max_length=40, unique=True, default=side_token)
    left_revoked_at = models.DateTimeField(null=True, blank=True)
    right_revoked_at = models.DateTimeField(null=True, blank=True)
    sheet = models.OneToOneField(
        "scoring.Sheet", null=True, blank=True, on_delete=models.SET_NULL, related_name="pairing"
    )
    sheet_winner = models.ForeignKey(
        Card,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="the card the match's score sheet shows as winner (empty while open)",
    )
    sheet_score = models.CharField(max_length=5, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    voided_at = models.DateTimeField(null=True, blank=True)

    objects = PairingQuerySet.as_manager()

    class Meta:
        verbose_name = _("pairing")
        verbose_name_plural = _("pairings")
        ordering = ["stage", "number"]

    def __str__(self) -> str:
        return f"{self.round or self.label} #{self.number}"


class ResultQuerySet(models.QuerySet):
    def live(self):
        """The results that stand: not voided (a correction voids a result, and keeps it)."""
        return self.filter(voided_at__isnull=True)

    def live_for(self, pairing) -> "Result | None":
        """The result that stands for ``pairing`` (with who recorded it), or None."""
        return self.live().filter(pairing=pairing).select_related("recorded_by").first()


class Result(models.Model):
    pairing = models.ForeignKey(Pairing, on_delete=models.PROTECT, related_name="results")
    # None: a draw (a level score of a points match of even Bummerl, RULES.md 6)
    winner = models.ForeignKey(
        Card, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    score = models.CharField(_("score"), max_length=5, help_text="Bummerl won: 2:0, 2:1, 3:2 …")
    key = models.UUIDField(unique=True)
    recorded_at = models.DateTimeField(auto_now_add=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    via_link = models.BooleanField(default=False)
    from_sheet = models.BooleanField(default=False, help_text="decided by the match's score sheet")
    voided_at = models.DateTimeField(null=True, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    objects = ResultQuerySet.as_manager()

    class Meta:
        verbose_name = _("result")
        verbose_name_plural = _("results")
        ordering = ["recorded_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["pairing"],
                condition=models.Q(voided_at__isnull=True),
                name="one_live_result_per_pairing",
            )
        ]

    def __str__(self) -> str:
        return f"{self.pairing}: {self.winner} {self.score}"


class Side(models.TextChoices):
    LEFT = "left", _("left")
    RIGHT = "right", _("right")


class Outcome(models.TextChoices):
    """How a report was closed."""

    CONFIRMED = "confirmed", _("confirmed by the other player")
    ACCEPTED = "accepted", _("accepted by the organisers")
    REPLACED = "replaced", _("replaced by a new report of the same player")
    SET_ASIDE = "set_aside", _("set aside: another result was made final")


class ReportQuerySet(models.QuerySet):
    def open(self):
        """The reports still waiting: not confirmed, accepted, replaced or set aside."""
        return self.filter(closed_at__isnull=True)


class Report(models.Model):
    """A result reported with one side's link (``side``), waiting for the other side or
    the organisers (``Tournament.result_check`` "confirm"). Never edited: a new report of
    the same side closes the old one (``replaced``); the result made final closes every
    open report of the match."""

    pairing = models.ForeignKey(Pairing, on_delete=models.PROTECT, related_name="reports")
    side = models.CharField(max_length=5, choices=Side.choices)
    # None: a draw reported (RULES.md 6)
    winner = models.ForeignKey(
        Card, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    score = models.CharField(_("score"), max_length=5)
    key = models.UUIDField(unique=True)
    reported_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=10, choices=Outcome.choices, blank=True)

    objects = ReportQuerySet.as_manager()

    class Meta:
        verbose_name = _("reported result")
        verbose_name_plural = _("reported results")
        ordering = ["reported_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["pairing", "side"],
                condition=models.Q(closed_at__isnull=True),
                name="one_open_report_per_side",
            )
        ]

    def __str__(self) -> str:
        return f"{self.pairing} ({self.side}): {self.winner} {self.score}"


class TieBreakQuerySet(models.QuerySet):
    def live(self):
        """The orders that stand: not voided (a Stechen entered again voids the old one)."""
        return self.filter(voided_at__isnull=True)


class TieBreak(models.Model):
    """The order of a shared place range (RULES.md 5.8): by *Stechen* (one-deal play-offs
    the organiser records) or by lot (``seed``, replayable with ``ranking.lot_order``).
    ``first`` is the range's first place, ``order`` the card ids in their new order."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="tie_breaks")
    first = models.PositiveIntegerField()
    kind = models.CharField(
        max_length=10, choices=[("stechen", _("Stechen")), ("lot", _("by lot"))]
    )
    order = models.JSONField(default=list)
    seed = models.BigIntegerField(null=True, blank=True)
    key = models.UUIDField(null=True, blank=True, unique=True)
    recorded_at = models.DateTimeField(auto_now_add=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    voided_at = models.DateTimeField(null=True, blank=True)

    objects = TieBreakQuerySet.as_manager()

    class Meta:
        verbose_name = _("tie-break")
        verbose_name_plural = _("tie-breaks")
        ordering = ["first", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "first"],
                condition=models.Q(voided_at__isnull=True),
                name="one_live_order_per_range",
            )
        ]

    def __str__(self) -> str:
        return f"{self.tournament} {self.first}+ ({self.kind})"


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
    count against the cards laid out, ``services.registrations.reserved``); *waiting*
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
"""The statuses of a registration whose cards are held for it (``reading.count_reserved``):
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
