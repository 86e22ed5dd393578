"""Signals the tournaments send.

``result_changed(pairing)`` after a match's result was recorded, corrected or voided,
inside the writing transaction (``services.results``): for what follows the results
(``ratings``), which tournaments need not know.
"""

from django.dispatch import Signal

result_changed = Signal()
