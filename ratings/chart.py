"""A player's rating over his games as an SVG line (drawn on the server: no script, no
internet; it scales to a phone's width and prints in black and white). Pure: numbers
and labels in, markup out.

Unlike the figures of ``seasons.charts`` a rating does not start at 0: the y axis runs
over the values' own range (at least ``SPAN`` points, centred on them), marked at its
bottom, middle and top; the dashed line is the start value when it lies in that range.
"""

from html import escape

WIDTH, HEIGHT = 320, 160
LEFT, RIGHT, TOP, BOTTOM = 38, 8, 10, 24
SPAN = 40.0


def _axis(values: list[float]) -> tuple[float, float]:
    low, high = min(values), max(values)
    if high - low < SPAN:
        middle = (high + low) / 2
        low, high = middle - SPAN / 2, middle + SPAN / 2
    return low, high


def rating_chart(values: list[float], labels: list[str], title: str, start: float) -> str:
    """The line through ``values`` (oldest first; ``labels`` under the first and the
    last point), ``title`` for screen readers; "" without values."""
    if not values:
        return ""
    low, high = _axis(values)
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    many = len(values) > 1

    def x(i: int) -> float:
        return LEFT + (i * inner_w / (len(values) - 1) if many else inner_w / 2)

    def y(v: float) -> float:
        return TOP + (high - v) / (high - low) * inner_h

    out = [
        f'<svg class="chart rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
    ]
    for mark in (low, (low + high) / 2, high):
        out.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(mark):.1f}" y2="{y(mark):.1f}" '
            f'stroke="#999" stroke-width="0.5"/><text x="{LEFT - 3}" y="{y(mark) + 3:.1f}" '
            f'font-size="9" text-anchor="end">{mark:.0f}</text>'
        )
    if low <= start <= high:
        out.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(start):.1f}" y2="{y(start):.1f}" '
            f'stroke="#666" stroke-width="0.75" stroke-dasharray="3 3"/>'
        )
    line = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    out.append(f'<polyline points="{line}" fill="none" stroke="currentColor" stroke-width="2"/>')
    if len(values) <= 40:
        out += [
            f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="2.5" fill="currentColor"/>'
            for i, v in enumerate(values)
        ]
    if labels:
        out.append(f'<text x="{LEFT}" y="{HEIGHT - 6}" font-size="9">{escape(labels[0])}</text>')
    if len(labels) > 1:
        out.append(
            f'<text x="{WIDTH - RIGHT}" y="{HEIGHT - 6}" font-size="9" text-anchor="end">'
            f"{escape(labels[-1])}</text>"
        )
    out.append("</svg>")
    return "".join(out)
