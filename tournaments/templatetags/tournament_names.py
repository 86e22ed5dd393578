"""``{{ round|round_name }}``: a round's name in templates (``tournaments.rows.round_name``)."""

from django import template

from tournaments.rows import round_name as _round_name

register = template.Library()


@register.filter
def round_name(round_) -> str:
    """The name of a ``Round`` (``knockout`` tells a Leben or points round)."""
    return _round_name(round_.number, round_.pot_size, round_.knockout)


@register.simple_tag
def named_round(number: int, pot_size: int, knockout: bool = True) -> str:
    """``{% named_round number pot_size knockout as name %}``: the name of a round not
    drawn yet (``tournaments.rows.round_name``), e.g. the next one the desk draws:
    "Viertelfinale" for pots of 4; not ``knockout`` (Leben, points): "Runde 3"."""
    return _round_name(number, pot_size, knockout)
