"""PDF documents with WeasyPrint: one function that renders a template to PDF bytes.

The fonts come with the project (``static/fonts``: DejaVu Sans, and a subset of Symbola
for emoji and symbols) and are embedded in every PDF, so a server without fonts prints
the same. ``base.text.unprintable`` names the characters of a text they cannot draw. Templates extend
``print/base.html``, which sets the page size, the font and the repeated headers (the
bracket sheet leaves those out, block ``page_boxes``, and prints its own in the page:
WeasyPrint's margin boxes cost it about as much per page as ten lines of text).

No printout is made twice for the same content: ``pdf_response`` keeps each PDF in the
``printouts`` cache (files shared by the server's processes) under the hash of the HTML
it is made from, so a sheet, a bracket or a ranking printed again in the same state (and
language) costs the template, not WeasyPrint. A visitor without an account (a table's or
match's private link, a public ranking) makes at most ``BUMMERL_PRINT_RENDERS`` new PDFs
in ``BUMMERL_PRINT_WINDOW`` seconds per link (or per address), so that one link cannot
keep the server's processes busy; past that the answer is 429 with a wait.

A printout that takes more than a second (the match sheets of a large round, the bracket
of a large night) is made by the task worker (``queued_pdf_response``, ``base.tasks``):
the page answers at once with "PDF wird erstellt …", its progress (waiting, reading the
night, making the PDF) and a refresh every two seconds, and the same address hands out
the file once it is made. It is kept per state (the caller's ``state``, e.g. the
night's latest change) and language, so two organisers asking for the same printout
start one job; a job that failed says so and is started again by the next request.
"""

import functools
import hashlib
import io
import json
import threading
import time
from itertools import repeat

import segno
from django.conf import settings
from django.core.cache import caches
from django.http import HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _
from weasyprint import HTML
from weasyprint.text.fonts import FontConfiguration

from base import tasks
from base.clientip import limit_address
from base.links import absolute_url, phones_warning

_fonts = threading.local()


def font_config() -> FontConfiguration:
    """This thread's WeasyPrint font configuration, made once: the shipped fonts are
    unpacked from WOFF and registered with Fontconfig on the first PDF only, not for
    every document (a tenth of a second each). One per thread, as Pango's font maps
    are not shared between threads."""
    config = getattr(_fonts, "config", None)
    if config is None:
        config = _fonts.config = FontConfiguration()
    return config


@functools.cache
def _advances() -> dict[int, float]:
    """Code point -> advance width of DejaVu Sans (regular), in em; read once from the
    shipped font's metrics."""
    from fontTools.ttLib import TTFont  # a WeasyPrint dependency, loaded on first use

    font = TTFont(settings.BASE_DIR / "static" / "fonts" / "DejaVuSans.woff", lazy=True)
    metrics, em = font["hmtx"], font["head"].unitsPerEm
    return {code: metrics[glyph][0] / em for code, glyph in font.getBestCmap().items()}


def text_width(text: str, size: float) -> float:
    """The width in mm of one line of ``text`` in DejaVu Sans at ``size`` pt, without
    kerning (which only narrows it); a character the font lacks counts 1 em."""
    return sum(map(_advances().get, map(ord, text), repeat(1.0))) * size * 25.4 / 72


def qr_svg(url: str) -> str:
    """A QR code of ``url`` as inline SVG (segno), black on white."""
    return segno.make(url, error="m").svg_inline(scale=3, dark="#000", light="#fff", border=2)


def qr_png(url: str) -> str:
    """A QR code of ``url`` as a ``data:`` URI of a PNG with one pixel per module (segno);
    printouts scale it up with ``image-rendering: pixelated``. Much cheaper for WeasyPrint
    than ``qr_svg`` where hundreds of codes go into one document."""
    return segno.make(url, error="m").png_data_uri(scale=1, border=2, dark="#000", light="#fff")


def render_pdf(template: str, context: dict) -> bytes:
    """The PDF of ``template`` rendered with ``context`` (made afresh, not kept)."""
    return _pdf_of(render_to_string(template, context))


def _pdf_of(html: str) -> bytes:
    buffer = io.BytesIO()
    HTML(string=html, base_url=str(settings.BASE_DIR)).write_pdf(buffer, font_config=font_config())
    return buffer.getvalue()


def render_lane(request) -> str | None:
    """Whose new PDFs ``pdf_response`` counts: a private link (its token, from the URL),
    else an anonymous visitor's address as limits count it (``base.clientip.
    limit_address``: IPv6 by its /64 network); None for a signed-in
    member, whose prints are not limited (the club knows him, and a night's organiser
    prints a dozen documents in a minute)."""
    token = (request.resolver_match.kwargs.get("token") if request.resolver_match else None) or ""
    if token:
        return "link:" + hashlib.sha256(token.encode()).hexdigest()[:32]
    if request.user.is_authenticated:
        return None
    return f"address:{limit_address(request)}"


def _may_render(lane: str | None) -> bool:
    """Count one new PDF for ``lane``; False when it made ``PRINT_RENDERS`` already in
    the ``PRINT_WINDOW`` seconds since its first one of the window. The count is kept
    with the window's start; two processes counting at the same moment may both count
    one (a limit, not a ledger)."""
    if lane is None:
        return True
    cache, key, now = caches["printouts"], f"renders:{lane}", time.time()
    start, made = cache.get(key) or (now, 0)
    if now - start >= settings.PRINT_WINDOW:
        start, made = now, 0
    if made >= settings.PRINT_RENDERS:
        return False
    cache.set(key, (start, made + 1), timeout=max(1, int(start + settings.PRINT_WINDOW - now)))
    return True


def pdf_response(request, template: str, context: dict, filename: str) -> HttpResponse:
    """``template`` with ``context`` as an inline PDF named ``filename``: the kept PDF of
    the same HTML when there is one (see the module docstring), else made and kept.
    429 (plain text in the visitor's language, ``Retry-After``) when the visitor's lane
    (``render_lane``) made too many new PDFs lately. The template also gets
    ``phones_unreachable`` (``base.links.phones_warning``): the warning a printout
    with QR codes prints on its first page, ``None`` when phones reach their address."""
    context = {**context, "phones_unreachable": phones_warning(request)}
    html = render_to_string(template, context)
    key = "pdf:" + hashlib.sha256(html.encode()).hexdigest()
    cache = caches["printouts"]
    pdf = cache.get(key)
    if pdf is None:
        if not _may_render(render_lane(request)):
            return _too_many()
        pdf = _pdf_of(html)
        cache.set(key, pdf)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


# Printouts made by the task worker ----------------------------------------------------

STEPS = ("waiting", "reading", "making")
"""A queued printout's steps, in order; ``done`` and ``failed`` end it."""

JOB_HOURS = 1
"""A job's status is kept this long: a job whose worker died is started afresh after."""


def queued_pdf_response(request, job: str, args: tuple, filename: str, state: str) -> HttpResponse:
    """The printout made by ``job`` (the dotted path of a function ``job(*args, base=…)``
    that returns ``(template, context)``; ``base``: the site's address, for QR codes) as
    an inline PDF named ``filename`` once the task worker made it; until then a page that
    says so, with the job's step, and asks again every 2 seconds. ``state`` names what
    the printout shows (a new ``state`` makes a new job). The visitor's limit on new
    printouts (``render_lane``) counts a job when it starts: 429 past it."""
    warning = phones_warning(request)
    base = absolute_url(request, "/").rstrip("/")
    language = translation.get_language()
    identity = json.dumps([job, list(args), state, language, base, warning], sort_keys=True)
    key = "job:" + hashlib.sha256(identity.encode()).hexdigest()
    cache = caches["printouts"]
    status = cache.get(key + ":status")
    if status is None or status["step"] == "failed":
        if not _may_render(render_lane(request)):
            return _too_many()
        failed = status
        status = {"step": "waiting", "since": time.time()}
        cache.set(key + ":status", status, timeout=JOB_HOURS * 3600)
        tasks.enqueue(
            "base.printing.make_printout",
            job,
            list(args),
            language,
            base,
            warning,
            key,
            name=f"{filename} {state}",
        )
        status = cache.get(key + ":status") or status
        status = {**status, "again": bool(failed)}
    if status["step"] == "done":
        pdf = cache.get(key)
        if pdf is not None:
            response = HttpResponse(pdf, content_type="application/pdf")
            response["Content-Disposition"] = f'inline; filename="{filename}"'
            return response
        cache.delete(key + ":status")  # the file was evicted: make it again
        return queued_pdf_response(request, job, args, filename, state)
    waited = int(time.time() - status["since"])
    return render(
        request,
        "printing/progress.html",
        {
            "filename": filename,
            "step": status["step"],
            "number": STEPS.index(status["step"]) + 1 if status["step"] in STEPS else 0,
            "steps": len(STEPS),
            "waited": waited,
            "stuck": status["step"] == "waiting" and waited >= 60,
            "failed": status["step"] == "failed",
        },
        status=202,
    )


def make_printout(job: str, args: list, language: str, base: str, warning, key: str) -> None:
    """The task of ``queued_pdf_response``: ``job(*args, base=base)`` read in
    ``language``, rendered and made into a PDF, kept under ``key``; its status (the
    step) is kept beside it as it goes, ``failed`` when anything raises (re-raised for
    the worker's log)."""
    cache = caches["printouts"]
    status = cache.get(key + ":status") or {"since": time.time()}

    def step(name: str) -> None:
        cache.set(key + ":status", {**status, "step": name}, timeout=JOB_HOURS * 3600)

    try:
        with translation.override(language):
            step("reading")
            template, context = import_string(job)(*args, base=base)
            html = render_to_string(template, {**context, "phones_unreachable": warning})
            step("making")
            cache.set(key, _pdf_of(html))
        step("done")
    except Exception:
        step("failed")
        raise


def _too_many() -> HttpResponse:
    minutes = -(-settings.PRINT_WINDOW // 60)
    response = HttpResponse(
        _("Too many new printouts in a short time: try again in %(minutes)s minutes.")
        % {"minutes": minutes},
        status=429,
        content_type="text/plain; charset=utf-8",
    )
    response["Retry-After"] = str(settings.PRINT_WINDOW)
    return response
