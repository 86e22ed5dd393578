"""The only writers of tournaments, one module per thing they write:

- ``reading``: reading (``load_state`` and ``TournamentState``, the reads of a draw typed
  in at the venue); ``result_texts``: the texts of a stored result; ``counts``: what is
  counted before round 1; nothing in these writes;
- ``cards``: create a tournament, sell cards, payment; ``layout``: lowering, tables;
  ``withdrawals``: withdrawing a card and taking it back;
- ``draws``: digital draws, undoing a draw, placement matches; ``physical_draws``: the
  draw at the venue, pull by pull;
- ``registrations`` (what their writers share), ``signup``, ``waiting_list``,
  ``checkin``: an announced night's registrations;
- ``results``: record, correct and void a match result;
- ``sheets``: a match played on a score sheet, and the locks on such sheets (the one
  module that speaks to ``scoring.services``).

The JSON export is ``tournaments.export``; the pure draw and bracket rules are
``tournaments.draw`` and ``tournaments.bracket``.

Every writer runs in one transaction and first locks the tournament row, so two
organisers (or two phones on one match) are served one after the other; database
constraints (one live draw per round, one live result per pairing, one key per submit)
back every guard. Nothing is deleted: corrections void a result, undoing a draw marks
the round undone, and both stay in the history. Every writer keeps what it did in the
club's audit log.
"""
