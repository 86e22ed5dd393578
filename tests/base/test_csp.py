"""Every answer of the site carries one strict Content-Security-Policy (``base.csp``),
and nothing the site sends to a browser needs more: no inline script, no ``on…=``
attribute, no ``javascript:`` link, no ``style=`` attribute or ``<style>``, no htmx
feature that needs eval or an inline style."""

import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests import factories

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'"
)
HTMX_CONFIG = (
    """<meta name="htmx-config" content='{"includeIndicatorStyles": false, "allowEval": false}'>"""
)


def policy(response) -> str:
    return response.headers["Content-Security-Policy"]


def test_a_page_carries_the_policy_and_tells_htmx_to_need_no_eval_or_inline_style(client):
    response = client.get(reverse("login"))
    assert response.status_code == 200
    assert policy(response) == POLICY
    assert HTMX_CONFIG in response.content.decode()


def test_the_sheet_page_and_its_partial_carry_the_policy(client):
    sheet = factories.sheet(factories.club())
    url = reverse("entry:page", kwargs={"token": sheet.entry_token})
    page = client.get(url)
    assert page.status_code == 200
    assert policy(page) == POLICY
    partial = client.get(url, headers={"HX-Request": "true"})
    assert policy(partial) == POLICY


def test_a_pdf_carries_the_policy(client):
    sheet = factories.sheet(factories.club())
    response = client.get(reverse("entry:print_blank", kwargs={"token": sheet.entry_token}))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert policy(response) == POLICY


def test_a_static_file_carries_the_policy(settings):
    """Answered by WhiteNoise, below the policy's middleware (from the static folders, as
    on a laptop: the tests collect no static files)."""
    settings.WHITENOISE_USE_FINDERS = True
    client = Client()  # its middleware is set up with the setting
    for path in ("/static/css/site.css", "/static/favicon.svg", "/static/js/site.js"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert policy(response) == POLICY


def test_the_admin_carries_the_same_policy(client):
    assert policy(client.get("/admin/login/")) == POLICY
    admin = get_user_model().objects.create_superuser("chef", password="pw-chef")
    client.force_login(admin)
    response = client.get("/admin/clubs/membership/add/")
    assert response.status_code == 200
    assert policy(response) == POLICY


def test_refusals_and_the_service_worker_carry_the_policy(client):
    assert policy(client.get("/no-such-page/")) == POLICY
    big = client.generic(
        "POST", "/", "x", content_type="text/plain", headers={"Content-Length": "99999999"}
    )
    assert big.status_code == 413
    assert policy(big) == POLICY
    worker = client.get(reverse("service_worker"))
    assert policy(worker) == POLICY
    # The sheet page the worker keeps for a dead spot keeps the page's policies.
    assert (
        'var KEPT_HEADERS = ["Content-Security-Policy", "Permissions-Policy"];'
        in worker.content.decode()
    )
    assert policy(client.get("/healthz")) == POLICY


# -- nothing the browser gets needs more ------------------------------------------------------

# Templates rendered for a browser; templates/print/ is read by WeasyPrint on the server.
PAGES = sorted(
    p for p in (ROOT / "templates").rglob("*") if p.suffix == ".html" and "print" not in p.parts
)
FORBIDDEN = {
    "inline script": re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I),
    "event attribute": re.compile(r"<[^>]*\son[a-z]+\s*=", re.I),
    "style attribute": re.compile(r"<[^>]*\sstyle\s*=", re.I),
    "style element": re.compile(r"<style\b", re.I),
    "javascript: URL": re.compile(r"javascript:", re.I),
    "htmx eval": re.compile(r"\b(?:data-)?hx-(?:on\b|on:|vars\b)|js:", re.I),
}


def test_the_check_finds_each_kind():
    samples = {
        "inline script": "<script>go()</script>",
        "event attribute": '<form onsubmit="return confirm(1)">',
        "style attribute": '<body style="margin:0">',
        "style element": "<style>p{}</style>",
        "javascript: URL": '<a href="javascript:history.back()">',
        "htmx eval": "<button hx-on:click=\"go()\" hx-vals='js:{a: 1}'>",
    }
    for kind, sample in samples.items():
        assert FORBIDDEN[kind].search(sample), kind
    assert not FORBIDDEN["inline script"].search('<script src="/static/js/site.js" defer>')


@pytest.mark.parametrize("path", PAGES, ids=lambda p: str(p.relative_to(ROOT / "templates")))
def test_no_template_needs_an_inline_script_or_style(path):
    text = path.read_text("utf-8")
    found = [(kind, m.group(0)) for kind, rx in FORBIDDEN.items() for m in rx.finditer(text)]
    assert found == []


def test_the_scripts_use_no_eval_and_set_no_style_attribute():
    for path in sorted((ROOT / "static" / "js").glob("*.js")):
        text = path.read_text("utf-8")
        for pattern in (r"\beval\(", r"new Function\(", r"setAttribute\(\s*['\"]style", "style="):
            assert not re.search(pattern, text), (path.name, pattern)


def test_htmx_s_indicator_rules_are_in_the_sites_stylesheet():
    css = (ROOT / "static" / "css" / "site.css").read_text("utf-8")
    assert ".htmx-indicator { opacity:0; visibility:hidden; }" in css
    assert ".htmx-request .htmx-indicator, .htmx-request.htmx-indicator { opacity:1;" in css


# -- the Permissions-Policy: only what the site uses ------------------------------------------

PERMISSIONS = (
    "accelerometer=(), autoplay=(), camera=(), clipboard-read=(), display-capture=(), "
    "encrypted-media=(), fullscreen=(), geolocation=(), gyroscope=(), hid=(), "
    "idle-detection=(), magnetometer=(), microphone=(), midi=(), payment=(), "
    "picture-in-picture=(), publickey-credentials-get=(), screen-wake-lock=(), serial=(), "
    "usb=(), xr-spatial-tracking=(), clipboard-write=(self), web-share=(self)"
)


def test_every_answer_carries_the_permissions_policy(client, settings):
    sheet = factories.sheet(factories.club())
    answers = [
        client.get(reverse("login")),
        client.get(reverse("entry:page", kwargs={"token": sheet.entry_token})),
        client.get(reverse("entry:print_blank", kwargs={"token": sheet.entry_token})),
        client.get("/no-such-page/"),
        client.get("/healthz"),
        client.get(reverse("service_worker")),
    ]
    settings.WHITENOISE_USE_FINDERS = True
    answers.append(Client().get("/static/js/site.js"))
    for answer in answers:
        assert answer["Permissions-Policy"] == PERMISSIONS, answer


def test_the_permissions_policy_allows_what_the_scripts_use_and_no_more():
    """Copying a link and the share sheet are the scripts' only powerful features."""
    scripts = (
        "\n".join(path.read_text() for path in (ROOT / "static" / "js").rglob("*.js"))
        + (ROOT / "templates" / "scoring" / "sw.js").read_text()
    )
    assert "navigator.clipboard.writeText" in scripts and "navigator.share" in scripts
    for unused in (
        "getUserMedia",
        "geolocation",
        "requestFullscreen",
        "PaymentRequest",
        "wakeLock",
    ):
        assert unused not in scripts
