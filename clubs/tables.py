"""A club's players as a django-tables2 table: sortable, ties broken by name and id
(stable); ``paginate`` pages any of the project's tables."""

import django_tables2 as tables
from django.core.paginator import EmptyPage, PageNotAnInteger
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from base.numbers import whole_number
from clubs.models import Player


def paginate(table, page: str | None, per_page: int) -> None:
    """Page ``page`` of the table; the first page for a page that is not there."""
    try:
        table.paginate(page=whole_number(page) or 1, per_page=per_page)
    except (EmptyPage, PageNotAnInteger):
        table.paginate(page=1, per_page=per_page)


class PlayerTable(tables.Table):
    name = tables.Column(verbose_name=_("Name"), order_by=("name_key", "name", "id"))
    created_at = tables.DateColumn(
        verbose_name=_("since"), format="d.m.Y", order_by=("created_at", "id")
    )

    class Meta:
        model = Player
        fields = ("name", "created_at")
        order_by = ("name",)
        attrs = {"class": "list"}
        empty_text = _("No players yet.")

    def __init__(self, *args, club, **kwargs):
        self.club = club
        super().__init__(*args, **kwargs)

    def render_name(self, record):
        url = reverse("player", kwargs={"slug": self.club.slug, "player_id": record.pk})
        return format_html('<a href="{}">{}</a>', url, record.name)
