"""The site's limits on how often something may be done: one API for all of them.

A limit counts under a key (the limit's name and whom it counts: ``"renders:account:7"``,
``"registrations:address:203.0.113.9"``) how many times it was used in a window of
``seconds`` that begins with the first use; past ``allowed`` uses the answer is no until
the window ends. The counts are rows of the database (``base.models.Count``): they are
never evicted, survive a restart, and every server process and every host of the site
counts the same. Each use is one conditional UPDATE (``count < allowed``, window still
open), so two processes counting at the same moment never both get the last use; a
row is made by ``get_or_create`` the first time a key counts. Rows of windows that
ended are deleted when a key begins a new window (one indexed DELETE then), and by the
task worker's schedule (``purge``).

The limits: new printouts per private link, per address and per account
(``base.printing``), registrations per address on a night's public form
(``tournaments.views.registrations``), wrong codes on the first-run page
(``clubs.first_run``). The sign-in lockout is django-axes', kept in its own table.
"""

from datetime import timedelta

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from base.models import Count

KEY_LENGTH = Count._meta.get_field("key").max_length


def take(key: str, allowed: int, seconds: int) -> bool:
    """Count one use of ``key``; False (and nothing counted) when ``allowed`` uses were
    counted already in its window of ``seconds``. The first use, and the first after a
    window ended, begins a new window."""
    key = key[:KEY_LENGTH]
    now = timezone.now()
    for _ in range(3):
        if Count.objects.filter(key=key, ends__gt=now, count__lt=allowed).update(
            count=F("count") + 1
        ):
            return True
        if Count.objects.filter(key=key, ends__gt=now).exists():
            return False  # the window is open and its uses are spent
        if allowed < 1:
            return False
        ends = now + timedelta(seconds=seconds)
        if Count.objects.filter(key=key, ends__lte=now).update(start=now, ends=ends, count=1):
            purge(now)
            return True
        try:
            with transaction.atomic():
                Count.objects.create(key=key, start=now, ends=ends, count=1)
        except IntegrityError:
            continue  # another process made the row at this moment: count in it
        purge(now)
        return True
    return False


def used(key: str) -> int:
    """The uses of ``key`` counted in its open window (0 when it has none)."""
    row = Count.objects.filter(key=key[:KEY_LENGTH], ends__gt=timezone.now()).first()
    return row.count if row else 0


def forget(key: str) -> None:
    """Drop ``key``'s count: its next use begins a new window."""
    Count.objects.filter(key=key[:KEY_LENGTH]).delete()


def purge(now=None) -> int:
    """Delete the rows of windows that ended; the number deleted."""
    deleted, _ = Count.objects.filter(ends__lte=now or timezone.now()).delete()
    return deleted
