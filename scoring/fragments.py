"""One of the sheet page's two caches: the rendered sheet page of a sheet state, and its
blank entry forms (the other is the kept fold, ``scoring.foldcache``). A page shown again,
or fetched by every other phone at the table after a deal (the 2-second poll says the
state changed), is not read, folded and rendered again.

A page (or its ``#sheet`` partial) is kept in the ``fragments`` cache (each server
process's memory) under a key made of all it is rendered from; the key is the one
place it is invalidated (``key``): a write makes a new state, so a new key, and the
old page is never asked for again (the cache drops it when full):

- the sheet's state (``reading.sheet_stats``: its version, which changes with every
  write, and the times of the newest row and of the last strike, which tell states
  apart even after a restore of the database gave ids out again) and when the sheet
  was opened, so a deal recorded, corrected or struck is a new key;
- what is not part of the state: the players' names, the user names of the accounts
  that struck rows out (``struck_by``), the title, the club's name, the
  language, the address asked for (``?all=1``), page or partial, signed in or not, the
  way the sheet was reached (account or link: its URLs) and what the access allows
  (``can_write``, ``can_manage``, a tournament's lock and its text).

The same cache keeps the blank entry forms of the sheet for each Rufer (``forms_key``:
the sheet, its players' names, its URLs, the language), so that a page rendered afresh
after a deal does not build them again; they change with none of the sheet's deals.

What differs per response is not kept: the CSRF token, the one-time keys of the entry
forms and (in the kept entry forms) the page's version are rendered as markers and
filled in for each response (``fill``), so no two phones ever share a key and no token
is shared between users.

Not kept: a page with a bound form (errors), a banner or a message, and a two-player
sheet of a series or with its Partie decided, whose page shows the other Partien
(``views.sheet.series_context``), which change without this sheet's state.
"""

import hashlib
import uuid

from django.core.cache import caches
from django.middleware.csrf import get_token
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from base.htmx import wants_partial
from scoring.access import SheetAccess

CSRF = SafeString("<!--csrf-->")
"""Rendered for ``{% csrf_token %}``'s value; user text never holds ``<`` unescaped."""
KEYS = {
    "entry": SafeString("<!--key:entry-->"),
    "redeal": SafeString("<!--key:redeal-->"),
    "ended": SafeString("<!--key:ended-->"),
}
"""Rendered for the one-time keys of the entry forms (``EntryForm``'s ``key``, and the
redeal and Augen forms' ``keys``)."""
AFTER = SafeString("<!--after-->")
"""Rendered for the ``after`` field of the kept entry forms (the version of the page)."""


def _cache():
    return caches["fragments"]


def keeps(sheet, state) -> bool:
    """Whether the page of ``sheet`` in ``state`` may be kept (see the module
    docstring): not for a two-player sheet of a series or with its Partie decided."""
    return sheet.series_id is None and state.partie_winner is None


def may_have(sheet) -> bool:
    """Whether a page of ``sheet`` may have been kept, before it is read."""
    return sheet.series_id is None


def key(request, access: SheetAccess, stats) -> str:
    """The cache key of the sheet page (or its partial) answering ``request`` for
    ``access.sheet`` in the state ``stats`` (``reading.sheet_stats``): see the module
    docstring for what goes into it."""
    sheet = access.sheet
    parts = (
        sheet.pk,
        str(sheet.created_at),
        stats.version,
        str(stats.recorded),
        str(stats.voided),
        stats.struck_by,
        get_language(),
        wants_partial(request),
        request.get_full_path(),
        request.user.is_authenticated,
        access.namespace,
        sheet.entry_token if access.namespace == "entry" else "",
        access.can_write,
        access.can_manage,
        access.locked_text,
        sheet.title,
        sheet.club.name,
        sheet.club.slug,
        tuple(p.name for p in access.players),
    )
    return "sheet-page:" + hashlib.sha256(repr(parts).encode()).hexdigest()


def get(cache_key: str) -> str | None:
    return _cache().get(cache_key)


def put(cache_key: str, html: str) -> None:
    _cache().set(cache_key, str(html))


def forms_key(access: SheetAccess, players, rufer: int | None) -> str:
    """The cache key of the unbound entry forms of ``access.sheet`` (its rules, players
    and URLs, the language) when ``rufer`` is Rufer."""
    sheet = access.sheet
    parts = (
        sheet.pk,
        str(sheet.created_at),
        get_language(),
        access.namespace,
        sheet.entry_token if access.namespace == "entry" else "",
        tuple(p.name for p in players),
        rufer,
    )
    return "entry-forms:" + hashlib.sha256(repr(parts).encode()).hexdigest()


def fill(html: str, request, version: str) -> str:
    """``html`` rendered with the markers, with this response's CSRF token, fresh
    one-time keys and the page's ``version``."""
    html = html.replace(CSRF, get_token(request)).replace(AFTER, version)
    for marker in KEYS.values():
        if marker in html:
            html = html.replace(marker, str(uuid.uuid4()))
    return html
