"""One label, one action: on no page do two links or buttons that lead to different
actions carry the same words (the site bar's *Einloggen* beside a night's registration
*Anmelden*, issue 42). Every page of the demo club, as its owner and as a visitor without
an account (the pages of ``tests/browser/test_browser_narrow_walk.py``'s walk): each
link's and each form button's words, and the view it leads to (a link's address, a
button's form), resolved through the URLconf."""

import io
import re
from collections import defaultdict
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import Resolver404, resolve
from django.utils.translation import gettext, override

from tests.browser.test_browser_narrow_walk import demo_pages

pytestmark = [pytest.mark.django_db, pytest.mark.heavy]

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}


def target(page: str, address: str | None) -> str | None:
    """The view (its URL name, and the ``action`` of a route that has one) that
    ``address`` leads to from ``page``; None for a fragment, a script, another site."""
    if address is None or address.startswith(("#", "javascript:", "mailto:", "tel:")):
        return None
    parts = urlsplit(urljoin(page, address))
    if parts.netloc not in ("", "testserver"):
        return None
    try:
        match = resolve(parts.path)
    except Resolver404:
        return None
    action = match.kwargs.get("action")
    return f"{match.view_name}:{action}" if action else match.view_name


class Actions(HTMLParser):
    """(label, view) of every link and submit button of a page."""

    def __init__(self, page: str):
        super().__init__(convert_charrefs=True)
        self.page = page
        self.save = gettext("Save")
        self.found: dict[str, set[str]] = defaultdict(set)
        self.form: str | None = None
        self.open: list[tuple[str, str | None, list[str]]] = []  # tag, view, words
        self.header = 0  # inside a table's column headers: their links sort the table

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.form = target(self.page, a.get("action") or self.page)
        elif tag == "th":
            self.header += 1
        elif tag == "a" and a.get("href") and not self.header:
            self.open.append(("a", target(self.page, a["href"]), []))
        elif tag == "button" and a.get("type", "submit") == "submit":
            view = target(self.page, a["formaction"]) if a.get("formaction") else self.form
            self.open.append(("button", view, []))
        elif tag == "input" and a.get("type") == "submit" and a.get("value"):
            self._add(a["value"], self.form)
        elif tag not in VOID:
            return

    def handle_endtag(self, tag):
        if tag == "form":
            self.form = None
        elif tag == "th":
            self.header = max(0, self.header - 1)
        elif self.open and self.open[-1][0] == tag:
            _tag, view, words = self.open.pop()
            self._add(" ".join(words), view)

    def handle_data(self, data):
        for _tag, _view, words in self.open:
            words.append(data)

    def _add(self, label: str, view: str | None):
        label = re.sub(r"\s+", " ", label).strip()
        if label == self.save:  # each form's own *Speichern*: one action, saving it
            return
        if view and label:
            self.found[label].add(view)


def doubled(page: str, html: str) -> dict[str, set[str]]:
    parser = Actions(page)
    parser.feed(html)
    return {label: views for label, views in parser.found.items() if len(views) > 1}


def test_no_page_has_two_actions_of_the_same_words():
    call_command("seed", stdout=io.StringIO())
    owner = Client()
    owner.force_login(get_user_model().objects.get(username="demo"))
    paths = demo_pages(owner)
    assert len(paths) >= 60
    found = {}
    for who, client in (("owner", owner), ("visitor", Client())):
        for path in paths:
            response = client.get(path)
            if response.status_code != 200 or "html" not in response["Content-Type"]:
                continue
            with override("de"):
                same = doubled(path, response.content.decode())
            if same:
                found[(who, path)] = same
    assert found == {}
    # a night's registration: the site bar signs in, the form registers (issue 42)
    register = next(p for p in paths if p.endswith("/register/"))
    html = Client().get(register).content.decode()
    with override("de"):
        parser = Actions(register)
        parser.feed(html)
    assert parser.found["Einloggen"] == {"login"}
    assert parser.found["Anmelden"] == {"register"}
