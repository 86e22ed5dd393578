"""Money as the pages and printouts show it: one helper for every amount in euros.

``euro(Decimal("5120"))`` is "€ 5.120,00" in German (a dot between thousands, a comma
before the cents) and "€5,120.00" in English: the digits by Django's number format of
the active language, always grouped and with two decimals, the sign by the translation
of "€%(amount)s". The template filter is ``{{ amount|euro }}`` (``{% load money %}``).
"""

from decimal import ROUND_HALF_UP, Decimal

from django.utils.formats import number_format
from django.utils.translation import pgettext

CENT = Decimal("0.01")


def euro(amount) -> str:
    """``amount`` (a Decimal, int or str of euros; None counts as 0) as shown to a
    reader in the active language, rounded half up to the cent: "€ 5.120,00" (German),
    "€5,120.00" (English), a negative one with its minus first ("-€ 2,50"). Raises
    ``decimal.InvalidOperation`` for a text that is no number."""
    value = Decimal(0 if amount is None else str(amount)).quantize(CENT, rounding=ROUND_HALF_UP)
    digits = number_format(abs(value), 2, use_l10n=True, force_grouping=True)
    shown = pgettext("money", "€%(amount)s") % {"amount": digits}
    return f"-{shown}" if value < 0 else shown
