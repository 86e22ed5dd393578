"""``{{ amount|euro }}``: an amount of money in templates (``tournaments.money.euro``)."""

from django import template

from tournaments.money import euro as _euro

register = template.Library()


@register.filter
def euro(amount) -> str:
    """``amount`` in euros as the active language writes it: "€ 5.120,00", "€5,120.00"."""
    return _euro(amount)
