"""The one error type of the project: something the user can fix.

Pure Python (no Django import): the rule cores (``scoring.rules``, re-exported there)
and every app's services raise it, and clubs, the base app, owns it.

A ``RuleError`` names the input field that is wrong (``field``), the position of the
entry in its sheet when there is one (``index``, counted from 0), and a message
template in English. The web layer translates ``template`` with gettext and fills in
``params``; ``str(error)`` gives the English text for the command line.
Bugs are not RuleErrors: they raise whatever Python raises.
"""

from typing import Any


def gettext_noop(message: str) -> str:
    """Marks a message for translation without importing Django (xgettext finds it)."""
    return message


class RuleError(ValueError):
    """Input that breaks a rule of RULES.md.

    Args:
        field: the input field at fault, e.g. ``"declarer"`` or ``"other_augen"``.
        template: an English message with ``%(name)s`` placeholders, marked with ``gettext_noop``.
        index: position of the entry in the sheet (0-based), or None.
        **params: values for the placeholders.
    """

    def __init__(self, field: str, template: str, index: int | None = None, **params: Any):
        self.field = field
        self.template = template
        self.params = params
        self.index = index
        super().__init__(str(self))

    def at(self, index: int) -> "RuleError":
        """The same error, located at entry ``index`` of a sheet."""
        return RuleError(self.field, self.template, index, **self.params)

    def __str__(self) -> str:
        text = self.template % self.params if self.params else self.template
        if self.index is None:
            return f"{self.field}: {text}"
        return f"deal {self.index + 1}, {self.field}: {text}"


def key_reused() -> RuleError:
    """A one-time key that already wrote something else: the page was old (Back, a
    second tab), so nothing is written and the user is told to look again."""
    return RuleError(
        "key",
        gettext_noop(
            "This form was already used for another entry: nothing was saved. "
            "Reload the page and enter it again."
        ),
    )
