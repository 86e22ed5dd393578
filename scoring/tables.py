"""A club's tables (score sheets) and Bummerl tally as django-tables2 tables: sortable,
ties broken by name and id (stable)."""

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from scoring.models import Sheet


class SheetTable(tables.Table):
    created_at = tables.DateTimeColumn(
        verbose_name=_("opened"), format="d.m.Y H:i", order_by=("created_at", "id")
    )
    title = tables.Column(verbose_name=_("Table"), empty_values=(), order_by=("title", "id"))
    variant = tables.Column(verbose_name=_("Game"))

    class Meta:
        model = Sheet
        fields = ("created_at", "title", "variant")
        order_by = ("-created_at",)
        attrs = {"class": "list"}
        empty_text = _("No tables yet: open the first one above.")

    def render_title(self, record):
        players = [seat.player for seat in record.seats.all()]
        names = ", ".join(p.name for p in players)
        label = record.name_with(players)
        return format_html(
            '<a href="{}">{}</a><br><small>{}</small>',
            reverse("sheet:page", kwargs={"pk": record.pk}),
            label,
            names,
        )


class TallyTable(tables.Table):
    """Rows of ``scoring.tally.tally`` as dicts, each with ``name_key`` (``german_key``):
    the name column sorts in German order ("anna" before "Zita", "Ömer" after "Ole")."""

    name = tables.Column(verbose_name=_("Player"), order_by=("name_key", "name", "player_id"))
    bummerl = tables.Column(verbose_name=_("Bummerl received"), attrs={"td": {"class": "num"}})
    schneider = tables.Column(verbose_name=_("Schneider"), attrs={"td": {"class": "num"}})
    games = tables.Column(verbose_name=_("Games"), attrs={"td": {"class": "num"}})
    # Abende are calendar days, Tische are sheets: the figures of the rankings
    days = tables.Column(verbose_name=_("Evenings"), attrs={"td": {"class": "num"}})
    sheets = tables.Column(verbose_name=_("Tables"), attrs={"td": {"class": "num"}})

    class Meta:
        attrs = {"class": "list"}
        empty_text = _("No Bummerl yet.")
        orderable = True

    def __init__(self, *args, club, **kwargs):
        self.club = club
        super().__init__(*args, **kwargs)

    def render_name(self, record, value):
        url = reverse("player", kwargs={"slug": self.club.slug, "player_id": record["player_id"]})
        return format_html('<a href="{}">{}</a>', url, value)
