"""Signals the score sheets send.

``sheet_changed(sheet, state, key, actor)`` after every write to a sheet (a deal recorded,
corrected or struck out), inside the writing transaction: a receiver's writes land with
the change, and a RuleError it raises refuses the change. ``state`` is the sheet's new
``SheetState``; ``key`` the one-time key of the write (None for a strike-out);
``actor`` the ``clubs.audit.Actor`` who wrote.
"""

from django.dispatch import Signal

sheet_changed = Signal()
