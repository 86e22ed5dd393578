"""The pages of scoring: ``sheet`` (a table's sheet, its link and history), ``entry``
(recording, correcting and striking out deals), ``printing`` (PDFs of a sheet) and
``tables`` (a club's tables, tally and rule sets: opening and importing a table)."""
