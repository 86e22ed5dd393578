"""The rule cores' error type, ``RuleError``: defined in ``clubs.errors`` (pure Python, no
Django), so that the base app refuses input with the same type without importing scoring.
"""

from clubs.errors import RuleError, gettext_noop

__all__ = ["RuleError", "gettext_noop"]
