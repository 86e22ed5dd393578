"""Template filters for lengths of time (loaded as ``{% load durations %}``)."""

import datetime

from django import template

register = template.Library()


@register.filter
def minutes(value: datetime.timedelta | None) -> int | None:
    """A ``timedelta`` as whole minutes, rounded up (90 s -> 2); ``None`` stays ``None``."""
    if value is None:
        return None
    seconds = int(value.total_seconds())
    return -(-seconds // 60)
