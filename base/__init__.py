"""What every app of the site uses and that knows no app: the one error type of refused
input (``errors.RuleError``), text folding (``text``), the answers to htmx requests
(``htmx``), links and their reach (``links``), printouts (``printing``), spreadsheet
exports, the task queue (``tasks``), the hand-written read of rows (``sqlrows``), the
Content-Security-Policy (``csp``) and backups (``backups``).

Nothing here imports ``clubs``, ``scoring``, ``tournaments``, ``seasons`` or ``bummerl``
(``tests/bummerl/test_layers.py``).
"""
