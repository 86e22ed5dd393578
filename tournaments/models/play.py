"""A night's play: cards, rounds and their pulls, pairings, results, reports and tie-breaks
(``tournaments.models``: the words)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import Player
from tournaments.models.tournament import Format, Tournament, new_token, side_token


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

    @property
    def is_withdrawn(self) -> bool:
        """The card's twin of ``Card.objects.withdrawn()`` (false: ``not_withdrawn()``)."""
        return self.withdrawn_round is not None


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
    def is_live(self) -> bool:
        """The round's twin of ``Round.objects.live()``: not undone."""
        return self.undone_at is None

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

    @property
    def is_live(self) -> bool:
        """The pull's twin of ``Pull.objects.live()``: not undone."""
        return self.undone_at is None


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
    label = models.CharField(max_length=10, blank=True)  # a Place; "" in the main draw
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

    @property
    def is_live(self) -> bool:
        """The pairing's twin of ``Pairing.objects.live()``: not voided."""
        return self.voided_at is None


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
    reported_side = models.CharField(
        max_length=5,
        blank=True,
        help_text="the side (left, right) whose own link reported the result; empty when "
        "entered with the match link, by a user or by the score sheet",
    )
    confirmed_side = models.CharField(
        max_length=5, blank=True, help_text="the side whose own link confirmed the report"
    )
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

    @property
    def is_live(self) -> bool:
        """The result's twin of ``Result.objects.live()``: it stands, not voided."""
        return self.voided_at is None


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

    @property
    def is_open(self) -> bool:
        """The report's twin of ``Report.objects.open()``: still waiting."""
        return self.closed_at is None


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

    @property
    def is_live(self) -> bool:
        """The order's twin of ``TieBreak.objects.live()``: it stands, not voided."""
        return self.voided_at is None
