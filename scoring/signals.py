"""Signals the score sheets send.

``sheet_changed(sheet, state, key, actor)`` after every write to a sheet (a deal recorded,
corrected or struck out), inside the writing transaction: a receiver's writes land with
the change, and a RuleError it raises refuses the change. ``state`` is the sheet's new
``SheetState``; ``key`` the one-time key of the write (None for a strike-out);
``actor`` the ``clubs.audit.Actor`` who wrote.

``games_changed(sheet, state)`` after a write that may change the sheet's finished games
(a deal that ended a game, any correction or strike-out, an imported sheet), on every
sheet, inside the writing transaction: for what follows the games (``ratings``). Not
sent for a deal that ended no game (most deals): nothing finished changed.

``link_open(sheet)`` before a private link of a sheet that another part of the site
follows (``Sheet.reports_result``: a tournament match) is let in: a receiver answers
False when that part has closed its links (the night's match links ended), and the link
then answers 404 as an expired one does; None when it has no say.
"""

from django.dispatch import Signal

sheet_changed = Signal()
games_changed = Signal()
link_open = Signal()
