"""``{{ round|round_name }}``: a round's name in templates (``tournaments.rows.round_name``)."""

from django import template

from tournaments.rows import round_name as _round_name

register = template.Library()


@register.filter
def round_name(round_) -> str:
    """The name of a ``Round`` (``knockout`` tells a Leben or points round)."""
    return _round_name(round_.number, round_.pot_size, round_.knockout)
