"""The empty Bummerl grids of a printed match sheet, drawn once as one picture.

A round's match sheets (``print/match_sheets.html``, up to 512 for a 1024-card night)
all show the same empty grids: per Bummerl a heading row (its name, then 7 down to 0)
and two empty rows, one per card. Laid out as HTML tables WeasyPrint spends most of the
document's time on those cells; drawn once with Pillow at print resolution and placed as
the same image on every sheet, they cost nothing per sheet. The card numbers in the first
column differ per sheet: the template writes them over the picture at ``label_tops``.
"""

import base64
import functools
import io
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from PIL import Image, ImageDraw, ImageFont

DPI = 300
WIDTH_MM = 92.8  # the sheet's width inside its padding
ROW_MM = 4.6
GAP_MM = 2.0
LABEL_MM = 24.0
COUNTDOWN = range(7, -1, -1)
FONT = Path(settings.BASE_DIR) / "static" / "fonts" / "DejaVuSans-Bold.woff"


@dataclass(frozen=True)
class Grid:
    src: str  # data: URI of the PNG
    width_mm: float
    height_mm: float
    label_tops: tuple[tuple[float, float], ...]  # per Bummerl: tops (mm) of the two rows
    row_mm: float = ROW_MM


def _px(mm: float) -> int:
    return round(mm * DPI / 25.4)


@functools.lru_cache(maxsize=32)
def grid(headings: tuple[str, ...]) -> Grid:
    """The grids for one heading each (``("Bummerl 1", "Bummerl 2", …)``): one black
    and white PNG at ``DPI``, with the tops of the card rows for the labels."""
    height = len(headings) * (3 * ROW_MM + GAP_MM) - GAP_MM
    image = Image.new("L", (_px(WIDTH_MM) + 1, _px(height) + 1), 255)
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(str(FONT), _px(2.9))
    line = max(1, _px(0.15))
    column = (WIDTH_MM - LABEL_MM) / len(COUNTDOWN)
    tops = []
    for n, heading in enumerate(headings):
        top = n * (3 * ROW_MM + GAP_MM)
        draw.rectangle((0, _px(top), _px(WIDTH_MM), _px(top + ROW_MM)), fill=230)
        middle = _px(top + ROW_MM / 2)
        draw.text((_px(1.5), middle), heading, font=font, fill=0, anchor="lm")
        for i, points in enumerate(COUNTDOWN):
            x = _px(LABEL_MM + column * (i + 0.5))
            draw.text((x, middle), str(points), font=font, fill=0, anchor="mm")
        for k in range(4):
            y = _px(top + k * ROW_MM)
            draw.line((0, y, _px(WIDTH_MM), y), fill=0, width=line)
        xs = [0, LABEL_MM] + [LABEL_MM + column * (i + 1) for i in range(len(COUNTDOWN))]
        for at in xs:
            draw.line((_px(at), _px(top), _px(at), _px(top + 3 * ROW_MM)), fill=0, width=line)
        tops.append((top + ROW_MM, top + 2 * ROW_MM))
    buffer = io.BytesIO()
    image.convert("1", dither=Image.Dither.NONE).save(buffer, "PNG", optimize=True)
    src = "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()
    return Grid(src, WIDTH_MM, height, tuple(tops))
