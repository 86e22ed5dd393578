"""Rule sets, score sheets (a table's evening), seats and deals.

A ``Sheet`` is one table's score sheet: two, three or four players in seating order, the
first dealer, and a copy of the rule set it was opened with (``rules``), so editing a
club's rule set later never changes a recorded evening. A two-player table plays a
series of Partien as a chain of sheets: each next Partie points to the one before
(``previous``, at most one next) and to the first of the series (``series``). A ``Deal`` row keeps the raw
inputs of one entry (``kind`` and ``inputs``) and the points computed when it was
recorded. Deals are never edited: a correction voids the row (who, when) and records
a new one at the same ``position``. Writes go through ``scoring.services`` only.
"""

import dataclasses
import json
import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, models
from django.utils.translation import get_language, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from base.errors import gettext_noop
from base.sqlrows import Columns, fetch, table
from clubs.models import Club, Player
from scoring import rules as core
from scoring.contract_names import shown_rules


class RuleSet(models.Model):
    """A preset (``club`` empty) or a club's own rule set; ``data`` is ``core.RuleSet.to_dict()``."""

    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.CASCADE, related_name="rule_sets"
    )
    name = models.CharField(_("name"), max_length=80)
    preset = models.CharField(max_length=40, blank=True)
    data = models.JSONField()
    key = models.UUIDField(null=True, blank=True, unique=True, help_text="one-time key of its form")
    copied_from = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="the rule set this one was copied from",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("rule set")
        verbose_name_plural = _("rule sets")
        ordering = ["club_id", "name", "id"]

    def __str__(self) -> str:
        """A preset's name in the active language; a club's as the club typed it."""
        if self.club_id is None:
            return pgettext("rule set", self.name)
        return self.name

    @property
    def rules(self) -> core.RuleSet:
        return core.RuleSet.from_dict(self.data)


class Variant(models.TextChoices):
    SCHNAPSEN = "schnapsen", _("Schnapsen (two players)")
    DREIERSCHNAPSEN = "dreierschnapsen", _("Dreierschnapsen")
    BAUERNSCHNAPSEN = "bauernschnapsen", _("Bauernschnapsen")


TOKEN_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"
"""32 signs that cannot be mistaken for one another when read aloud or typed (no i, l,
o, u): each sign carries 5 bits."""


def new_token() -> str:
    """A private link's token, readable and unguessable: four groups of four signs of
    ``TOKEN_ALPHABET`` (80 random bits), e.g. ``"k7m4-p9x2-r3q8-w5ab"``. Tokens of
    older links (``secrets.token_urlsafe``) stay valid: the lookup compares the whole
    token, whatever its shape."""
    signs = "".join(secrets.choice(TOKEN_ALPHABET) for _ in range(16))
    return "-".join(signs[i : i + 4] for i in range(0, 16, 4))


class Sheet(models.Model):
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="sheets")
    title = models.CharField(_("title"), max_length=100, blank=True)
    variant = models.CharField(_("game"), max_length=20, choices=Variant.choices)
    rule_set = models.ForeignKey(RuleSet, null=True, on_delete=models.SET_NULL, related_name="+")
    rules = models.JSONField(help_text="the rule set as it was when the sheet was opened")
    first_dealer = models.PositiveSmallIntegerField(default=0)
    entry_token = models.CharField(max_length=40, unique=True, default=new_token)
    key = models.UUIDField(null=True, blank=True, unique=True, help_text="one-time key of its form")
    reports_result = models.BooleanField(
        default=False, help_text="another part of the site follows this sheet (a tournament match)"
    )
    token_revoked_at = models.DateTimeField(null=True, blank=True)
    locked_at = models.DateTimeField(
        null=True, blank=True, help_text="set while the part of the site it reports to holds it"
    )
    lock = models.JSONField(
        default=dict,
        blank=True,
        help_text='why it is locked: {"kind": "result" or "closed", "template", "params"}',
    )
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    players = models.ManyToManyField(Player, through="Seat", related_name="sheets")
    previous = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="next_partie",
        help_text="the Partie this table played before this one, on the same seats",
    )
    series = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="the first sheet of the series of Partien this one belongs to",
    )
    # JSON text, not a JSONField: ``scoring.foldcache`` reads it by its text, once per
    # process for each state of the sheet, instead of decoding it with every write.
    fold = models.TextField(
        default="",
        blank=True,
        editable=False,
        help_text="where its last two games began, kept for speed (scoring.foldcache)",
    )

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.title or f"#{self.pk}"

    def name_with(self, players) -> str:
        """The table's name wherever it is shown with its players (``players`` in seat
        order): its title, else their names ("Anna · Ben · Clara"), as its sheet says."""
        return self.title or " · ".join(p.name for p in players)

    @property
    def core_rules(self) -> core.RuleSet:
        """The sheet's rules for scoring and showing: the presets' contract names in the
        active language (``scoring.contract_names``); ``rules`` keeps them as stored.
        Read once per language and stored ``rules`` value on this instance (a request
        asks for them several times; a ``core.RuleSet`` is frozen)."""
        language = get_language()
        made = self.__dict__.get("_core_rules")
        if made is None or made[0] != language or made[1] is not self.rules:
            made = (language, self.rules, shown_rules(core.RuleSet.from_dict(self.rules)))
            self.__dict__["_core_rules"] = made
        return made[2]

    @property
    def core_variant(self) -> core.Variant:
        return core.Variant(self.variant)

    def write_refusal(self, *, organiser: bool) -> core.RuleError | None:
        """Why this sheet takes no write from this writer, or None when it does: the one
        rule of a locked sheet (``scoring.access`` asks it for the page, ``scoring.services``
        again under the sheet's row lock).

        A sheet that reports to a tournament match is locked by the tournament: kind
        ``result`` while the match has a result (only organisers still write: what they
        change corrects the result), kind ``closed`` when the match is gone (its draw
        undone, a walkover after a withdrawal): nobody writes. The RuleError (field
        ``sheet``) carries the tournament's message template and parameters.
        """
        if self.locked_at is None:
            return None
        lock = self.lock or {}
        if lock.get("kind") == "result" and organiser:
            return None
        return core.RuleError(
            "sheet",
            lock.get("template") or gettext_noop("This sheet takes no more entries."),
            **(lock.get("params") or {}),
        )

    @staticmethod
    def size_refusal(live: int, rows: int) -> core.RuleError | None:
        """Why a write may not leave a sheet with ``live`` live deals and ``rows`` rows,
        or None: more than ``BUMMERL_MAX_DEALS`` live deals (the limit of an import), or
        more than twice as many rows with the struck-out and corrected ones (a private
        link cannot grow a sheet without end; its page and printouts read every row)."""
        limit = settings.BUMMERL_MAX_DEALS
        if live > limit:
            return core.RuleError(
                "sheet",
                gettext_noop("A sheet has at most %(limit)s deals: open a new table for the next."),
                limit=limit,
            )
        if rows > 2 * limit:
            return core.RuleError(
                "sheet",
                gettext_noop(
                    "A sheet keeps at most %(limit)s rows, struck-out and corrected deals "
                    "included: open a new table for the next deals."
                ),
                limit=2 * limit,
            )
        return None


def as_stored(value):
    """A value as a JSON field gives it back (tuples as lists, enums as strings)."""
    return json.loads(json.dumps(value))


class Seat(models.Model):
    sheet = models.ForeignKey(Sheet, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()
    # The seat's figures as the sheet stands (``SheetState.seat_figures``), kept by
    # ``scoring.services`` with every write, so that rankings sum them in the database.
    games = models.PositiveIntegerField(default=0, help_text="games finished")
    bummerl = models.PositiveIntegerField(default=0, help_text="Bummerl received, weighted")
    schneider = models.PositiveIntegerField(default=0, help_text="games lost as Schneider")

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "position"], name="one_player_per_seat"),
            models.UniqueConstraint(fields=["sheet", "player"], name="one_seat_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.sheet_id}/{self.position}"


ENTRY_TYPES: dict[str, type] = {
    "dreier": core.DreierDeal,
    "redeal": core.Redeal,
    "tiebreak": core.TieBreak,
    "quick": core.QuickDeal,
    "ended": core.EndedDeal,
}
KIND_OF = {cls: kind for kind, cls in ENTRY_TYPES.items()}


@dataclass(slots=True)
class DealRow:
    """A deal as the sheet reads it: plain values, without the cost of a model instance.
    ``voided_by`` is the user name of who struck it out, if anyone did."""

    pk: int
    position: int
    kind: str
    inputs: dict
    points: list
    key: uuid.UUID
    recorded_at: datetime
    voided_at: datetime | None
    voided_by: str | None
    voided_via_link: bool

    @property
    def entry(self):
        return ENTRY_TYPES[self.kind](**self.inputs)


class VoidedAs(models.TextChoices):
    """How a deal left the sheet: *Rückgängig* right after saving, *Streichen*, or
    *Korrigieren* (the corrected deal takes its place)."""

    UNDONE = "undone", _("undone")
    STRUCK = "struck", _("struck out")
    CORRECTED = "corrected", _("corrected")


class DealQuerySet(models.QuerySet):
    def live(self) -> "DealQuerySet":
        return self.filter(voided_at__isnull=True)


def deal_rows(
    sheet_id: int, after: int | None = None, key: uuid.UUID | None = None
) -> list[DealRow]:
    """The deals of a sheet in play order (struck ones in place) as ``DealRow``s, in one
    hand-written query (``base.sqlrows``): all, or those at a position after
    ``after``, or (with ``key``) the rows of that one-time key."""
    where = 'd."sheet_id" = %s'
    params: list = [sheet_id]
    if after is not None:
        where += ' AND d."position" > %s'
        params.append(after)
    if key is not None:
        where += ' AND d."key" = %s'
        params.append(Deal._meta.get_field("key").get_db_prep_value(key, connection))
    user = get_user_model()
    rows = fetch(
        f'SELECT {_ROW.sql}, u."{user._meta.get_field("username").column}" '
        f'AS "voided_by__username", d."voided_via_link" FROM {table(Deal)} d '
        f'LEFT JOIN {table(user)} u ON u."id" = d."voided_by_id" WHERE {where} '
        'ORDER BY d."position", d."recorded_at", d."id"',
        params,
    )
    width = _ROW.width
    return [
        DealRow(*[*values, row[width], bool(row[width + 1])])
        for values, row in zip(_ROW.values_of(rows), rows, strict=True)
    ]


class Deal(models.Model):
    sheet = models.ForeignKey(Sheet, on_delete=models.PROTECT, related_name="deals")
    position = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, choices=[(k, k) for k in ENTRY_TYPES])
    inputs = models.JSONField(help_text="the entry's fields, seats as numbers")
    points = models.JSONField(help_text="points per seat, computed when recorded")
    key = models.UUIDField(unique=True, help_text="the one-time key of the form that sent it")
    recorded_at = models.DateTimeField(auto_now_add=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    via_link = models.BooleanField(default=False)
    replaces = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="replaced_by"
    )
    voided_at = models.DateTimeField(null=True, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    voided_via_link = models.BooleanField(default=False)
    voided_as = models.CharField(
        max_length=10,
        choices=VoidedAs.choices,
        blank=True,
        help_text="how it left the sheet: undone, struck out or corrected (empty: it stands)",
    )

    objects = DealQuerySet.as_manager()

    class Meta:
        verbose_name = _("deal")
        verbose_name_plural = pgettext_lazy("records", "deals")
        ordering = ["position", "recorded_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["sheet", "position"],
                condition=models.Q(voided_at__isnull=True),
                name="one_live_deal_per_position",
            )
        ]

    def __str__(self) -> str:
        return f"{self.sheet_id}#{self.position} {self.kind}"

    @property
    def entry(self) -> "core.sheet.Entry":
        return ENTRY_TYPES[self.kind](**self.inputs)

    @staticmethod
    def inputs_of(entry) -> tuple[str, dict]:
        return KIND_OF[type(entry)], dataclasses.asdict(entry)


_ROW = Columns(
    Deal, "d", ("id", "position", "kind", "inputs", "points", "key", "recorded_at", "voided_at")
)
"""The columns of a ``DealRow`` before the name of who struck it out."""
