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
language) costs the template, not WeasyPrint. A private link (a table's or a match's)
and an anonymous visitor's address make at most ``BUMMERL_PRINT_RENDERS`` new PDFs in
``BUMMERL_PRINT_WINDOW`` seconds, a signed-in account ``BUMMERL_PRINT_RENDERS_ACCOUNT``
(``base.limits``), so that no one keeps the server's processes busy; past that the
answer is 429 with a wait.

A printout that takes more than a second (the match sheets of a large round, the bracket
of a large night) is made by the task worker (``queued_pdf_response``, ``base.tasks``):
the page answers at once with "PDF wird erstellt …", its progress (waiting, reading the
night, making the PDF) and a refresh every two seconds, and the same address hands out
the file once it is made. Its job is a database row (``base.models.PrintJob``), one per
state (the caller's ``state``, e.g. the night's latest change) and language, so two
organisers asking for the same printout at the same moment start one job. A start that
fails, or whose worker died, is begun again a bounded number of times; then the page
says it failed, with a button to begin it again.
"""

import functools
import hashlib
import io
import json
import logging
import threading
import uuid
from contextlib import contextmanager, suppress
from datetime import timedelta
from itertools import repeat

import segno
from django.conf import settings
from django.core.cache import caches
from django.db import IntegrityError, connections
from django.db.models import F
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _
from weasyprint import HTML
from weasyprint.text.fonts import FontConfiguration

from base import limits, tasks
from base.clientip import limit_address
from base.links import absolute_url, phones_warning
from base.models import PrintJob

log = logging.getLogger(__name__)

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


def render_lanes(request) -> tuple[tuple[str, int], ...]:
    """Whose new PDFs ``pdf_response`` counts, each lane with its allowance in
    ``PRINT_WINDOW``: a private link (its token, from the URL) and a signed-in account
    (``PRINT_RENDERS`` and ``PRINT_RENDERS_ACCOUNT``: a night's organiser prints a dozen
    documents in a minute), else an anonymous visitor's address as limits count it
    (``base.clientip.limit_address``: IPv6 by its /64 network)."""
    lanes = []
    token = (request.resolver_match.kwargs.get("token") if request.resolver_match else None) or ""
    if token:
        digest = hashlib.sha256(token.encode()).hexdigest()[:32]
        lanes.append((f"renders:link:{digest}", settings.PRINT_RENDERS))
    if request.user.is_authenticated:
        lanes.append((f"renders:account:{request.user.pk}", settings.PRINT_RENDERS_ACCOUNT))
    if not lanes:
        lanes.append((f"renders:address:{limit_address(request)}", settings.PRINT_RENDERS))
    return tuple(lanes)


def _may_render(request) -> bool:
    """Count one new PDF in each of the request's lanes (``render_lanes``); False when
    one of them made its allowance already in the ``PRINT_WINDOW`` seconds since its
    first of the window (``base.limits``: counted in the database, shared by every
    process and host)."""
    return all(
        limits.take(lane, allowed, settings.PRINT_WINDOW) for lane, allowed in render_lanes(request)
    )


def pdf_response(request, template: str, context: dict, filename: str) -> HttpResponse:
    """``template`` with ``context`` as an inline PDF named ``filename``: the kept PDF of
    the same HTML when there is one (see the module docstring), else made and kept.
    429 (plain text in the visitor's language, ``Retry-After``) when the visitor's lane
    (``render_lanes``) made too many new PDFs lately. The template also gets
    ``phones_unreachable`` (``base.links.phones_warning``): the warning a printout
    with QR codes prints on its first page, ``None`` when phones reach their address."""
    context = {**context, "phones_unreachable": phones_warning(request)}
    html = render_to_string(template, context)
    key = "pdf:" + hashlib.sha256(html.encode()).hexdigest()
    cache = caches["printouts"]
    pdf = cache.get(key)
    if pdf is None:
        if not _may_render(request):
            return _too_many()
        pdf = _pdf_of(html)
        cache.set(key, pdf)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


# Printouts made by the task worker ----------------------------------------------------

Step = PrintJob.Step
STEPS = (Step.WAITING, Step.READING, Step.MAKING)
"""A queued printout's steps, in order; ``done`` and ``failed`` end it."""

TRIES = 3
"""Starts of one printout that may end without a PDF (a failure, or a worker that died)
before the page says it failed; each is begun again by itself until then."""

STALE_SECONDS = 30
"""A start that showed no sign of life for this long (its worker died) is begun again by
the next request; a running start beats every ``BEAT_SECONDS``."""

BEAT_SECONDS = 5

WAITING_SECONDS = 60
"""A start still waiting this long is queued once more (the queue may have lost it), and
the page asks whether the worker runs."""

KEPT = timedelta(days=1)
"""A job's row is kept as long as its PDF (the printouts' cache keeps it a day)."""


def queued_pdf_response(request, job: str, args: tuple, filename: str, state: str) -> HttpResponse:
    """The printout made by ``job`` (the dotted path of a function ``job(*args, base=…)``
    that returns ``(template, context)``; ``base``: the site's address, for QR codes) as
    an inline PDF named ``filename`` once the task worker made it; until then a page that
    says so, with the job's step, and asks again every 2 seconds. ``state`` names what
    the printout shows (a new ``state`` makes a new job).

    One job per printout (``base.models.PrintJob``, unique by the printout's key). A
    start that fails, or whose worker stops beating for ``STALE_SECONDS``, is begun again
    up to ``TRIES`` starts; then the page says it failed, with a button that POSTs here
    with a one-time key to begin it again. The visitor's limit on new printouts
    (``render_lanes``) counts a job when it is asked for: 429 past it."""
    warning = phones_warning(request) or ""
    base = absolute_url(request, "/").rstrip("/")
    language = translation.get_language()
    identity = json.dumps([job, list(args), state, language, base, warning], sort_keys=True)
    key = hashlib.sha256(identity.encode()).hexdigest()
    row = PrintJob.objects.filter(key=key).first()
    if request.method == "POST":
        if row is not None and not _asked_again(request, row):
            return _too_many()
        return HttpResponseRedirect(request.get_full_path(), status=303)
    if row is None:
        if not _may_render(request):
            return _too_many()
        now = timezone.now()
        PrintJob.objects.filter(asked_at__lt=now - KEPT).delete()
        row, created = PrintJob.objects.get_or_create(
            key=key,
            defaults={
                "job": job,
                "args": list(args),
                "language": language,
                "base": base,
                "warning": warning,
                "name": f"{filename} {state}"[:200],
                "asked_at": now,
                "beat": now,
            },
        )
        if created:
            _enqueue(row)
            row.refresh_from_db()
    elif row.step == Step.DONE and _kept_pdf(key) is None:
        row = _begin_again(row, tries=0)  # the file was evicted: made again
    elif row.step != Step.FAILED:
        row = _revived(row)
    pdf = _kept_pdf(key) if row.step == Step.DONE else None
    if pdf is not None:
        response = HttpResponse(pdf, content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="{filename}"'
        return response
    waited = int((timezone.now() - row.asked_at).total_seconds())
    number = STEPS.index(Step(row.step)) + 1 if row.step in STEPS else 0
    return render(
        request,
        "printing/progress.html",
        {
            "filename": filename,
            "step": row.step,
            "number": number,
            "steps": len(STEPS),
            "waited": max(0, waited),
            "again": row.tries,
            "stuck": row.step == Step.WAITING and waited >= WAITING_SECONDS,
            "failed": row.step == Step.FAILED,
            "retry_key": uuid.uuid4(),
        },
        status=202,
    )


def _kept_pdf(key: str) -> bytes | None:
    return caches["printouts"].get("pdf-job:" + key)


def _revived(row: PrintJob) -> PrintJob:
    """``row``, begun again when its start died: running without a beat for
    ``STALE_SECONDS`` (a try counted), or waiting for ``WAITING_SECONDS``."""
    quiet = (timezone.now() - row.beat).total_seconds()
    if row.step == Step.WAITING and quiet >= WAITING_SECONDS:
        return _begin_again(row)  # queued again; a try only counts once it started
    if row.step in (Step.READING, Step.MAKING) and quiet >= STALE_SECONDS:
        log.warning("printout %s: start %s stopped beating: begun again", row.pk, row.run)
        if row.tries + 1 >= TRIES:
            PrintJob.objects.filter(pk=row.pk, run=row.run).update(
                step=Step.FAILED, tries=F("tries") + 1, error="the worker stopped"
            )
            row.refresh_from_db()
            return row
        return _begin_again(row, tries=F("tries") + 1)
    return row


def _begin_again(row: PrintJob, **changes) -> PrintJob:
    """Queue a new start of ``row`` unless another request did since it was read (a
    conditional UPDATE on its start's number: one new start whatever the timing)."""
    now = timezone.now()
    begun = PrintJob.objects.filter(pk=row.pk, run=row.run).update(
        step=Step.WAITING, run=row.run + 1, beat=now, **changes
    )
    row.refresh_from_db()
    if begun:
        _enqueue(row)
    return row


def _asked_again(request, row: PrintJob) -> bool:
    """The retry form's POST: a failed job begun again with ``TRIES`` new starts, once
    per one-time key (the same key sent twice begins it once). False when the visitor's
    limit on new printouts is reached."""
    try:
        retry_key = uuid.UUID(request.POST.get("key", ""))
    except ValueError:
        return True  # no form of ours: nothing to do
    if row.step != Step.FAILED or PrintJob.objects.filter(retry_key=retry_key).exists():
        return True
    if not _may_render(request):
        return False
    with suppress(IntegrityError):  # the same key sent twice at once: the first began it
        _begin_again(row, tries=0, retry_key=retry_key, asked_at=timezone.now(), error="")
    return True


def _enqueue(row: PrintJob) -> None:
    tasks.enqueue("base.printing.make_printout", row.pk, row.run, name=row.name)


def make_printout(job_id: int, run: int) -> None:
    """The task of ``queued_pdf_response``: start ``run`` of the ``PrintJob`` ``job_id``
    (nothing when another start has it, or a newer start was queued): its job read in its
    language, rendered and made into a PDF, kept in the printouts' cache; the step is
    kept on the row as it goes, with a beat every ``BEAT_SECONDS``. A start that raises
    is begun again (``TRIES`` in all), then the job is ``failed``; the error is logged."""
    mine = PrintJob.objects.filter(pk=job_id, run=run)
    if not mine.filter(step=Step.WAITING).update(step=Step.READING, beat=timezone.now()):
        return
    row = PrintJob.objects.get(pk=job_id)
    try:
        with _beating(mine), translation.override(row.language):
            template, context = import_string(row.job)(*row.args, base=row.base)
            context = {**context, "phones_unreachable": row.warning or None}
            html = render_to_string(template, context)
            mine.update(step=Step.MAKING, beat=timezone.now())
            caches["printouts"].set("pdf-job:" + row.key, _pdf_of(html))
        mine.update(step=Step.DONE, beat=timezone.now())
    except Exception as error:
        log.exception("printout %s: start %s failed", job_id, run)
        why = f"{type(error).__name__}: {error}"[:300]
        if row.tries + 1 >= TRIES:
            mine.update(step=Step.FAILED, tries=F("tries") + 1, error=why, beat=timezone.now())
        elif mine.update(
            step=Step.WAITING, run=run + 1, tries=F("tries") + 1, error=why, beat=timezone.now()
        ):
            row.refresh_from_db()
            _enqueue(row)


@contextmanager
def _beating(rows):
    """A sign of life on ``rows`` every ``BEAT_SECONDS`` while the block runs, from a
    thread of its own (its own connection); none when tasks run in the request."""
    if settings.TASKS_SYNC:
        yield
        return
    stop = threading.Event()

    def beat() -> None:
        try:
            while not stop.wait(BEAT_SECONDS):
                rows.update(beat=timezone.now())
        finally:
            connections.close_all()

    thread = threading.Thread(target=beat, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


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
