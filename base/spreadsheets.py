"""Spreadsheet exports (CSV, ODS, XLSX) that open without running anything a visitor
typed: every spreadsheet export of the site goes through ``TableExport`` here.

A text cell that begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is
read as a formula by Excel, LibreOffice and Google Sheets (and openpyxl stores such a
text as a formula in an XLSX file): a player called ``=HYPERLINK(…)`` would run in the
club's spreadsheet. ``cell`` writes such a text with a leading apostrophe, as OWASP
advises for CSV injection, so it stays text (``=1+1`` is exported as ``'=1+1``).
Numbers stay numbers, whatever their sign.
"""

from django_tables2 import export
from tablib import Dataset

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""The first characters that make a spreadsheet read a text as a formula."""


def cell(value):
    """``value`` as a spreadsheet cell: a text beginning with one of ``FORMULA_STARTS``
    with an apostrophe before it (``"=1+1"`` -> ``"'=1+1"``); any other value (numbers,
    other texts, None) as it is."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class TableExport(export.TableExport):
    """django-tables2's export of a table (``TableExport(format, table).response(name)``)
    with every header and value written by ``cell``."""

    def table_to_dataset(self, table, exclude_columns, dataset_kwargs=None) -> Dataset:
        """The table as a tablib ``Dataset``: the headers and rows of
        ``table.as_values`` through ``cell``, titled as django-tables2 titles it."""
        dataset = super().table_to_dataset(table, exclude_columns, dataset_kwargs)
        headers = [cell(header) for header in dataset.headers or ()]
        rows = [tuple(cell(value) for value in row) for row in dataset]
        return Dataset(*rows, headers=headers or None, title=dataset.title)
