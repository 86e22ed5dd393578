"""PDF documents with WeasyPrint: one function that renders a template to PDF bytes.

The fonts come with the project (``static/fonts``: DejaVu Sans, and a subset of Symbola
for emoji and symbols) and are embedded in every PDF, so a server without fonts prints
the same. ``clubs.text.unprintable`` names the characters of a text they cannot draw. Templates extend
``print/base.html``, which sets the page size, the font and the repeated headers (the
bracket sheet leaves those out, block ``page_boxes``, and prints its own in the page:
WeasyPrint's margin boxes cost it about as much per page as ten lines of text).
"""

import functools
import io
import threading
from itertools import repeat

import segno
from django.conf import settings
from django.http import HttpResponse
from django.template.loader import render_to_string
from weasyprint import HTML
from weasyprint.text.fonts import FontConfiguration

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
    """The PDF of ``template`` rendered with ``context``."""
    html = render_to_string(template, context)
    buffer = io.BytesIO()
    HTML(string=html, base_url=str(settings.BASE_DIR)).write_pdf(buffer, font_config=font_config())
    return buffer.getvalue()


def pdf_response(template: str, context: dict, filename: str) -> HttpResponse:
    response = HttpResponse(render_pdf(template, context), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response
