"""Charts as SVG drawn on the server: no script, no internet, readable on a 360 px
phone (the drawing scales to the width of the page) and in black and white on paper.
Pure Python: the functions take numbers and labels and return SVG markup."""

from html import escape

WIDTH, HEIGHT = 320, 160
LEFT, RIGHT, TOP, BOTTOM = 34, 8, 10, 24


def _y_top(values: list[float]) -> float:
    """The top of the y axis: the largest value rounded up to a half, at least 0.5."""
    top = max([0.5, *values])
    return -(-top * 2 // 1) / 2


def _num(value: float) -> str:
    return f"{value:.2f}".replace(".", ",")


def line_chart(values: list[float], labels: list[str], title: str) -> str:
    """A line through ``values`` (one per point in time, left to right; ``labels`` the
    dates under the first and the last point), the y axis from 0 with its top and middle
    marked. ``title`` names the chart for screen readers. Empty ``values``: ""."""
    if not values:
        return ""
    top = _y_top(values)
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step = inner_w / (len(values) - 1) if len(values) > 1 else 0

    def x(i: int) -> float:
        return LEFT + (i * step if len(values) > 1 else inner_w / 2)

    def y(v: float) -> float:
        return TOP + inner_h - v / top * inner_h

    points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
    ]
    for mark in (0, top / 2, top):
        parts.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(mark):.1f}" y2="{y(mark):.1f}" '
            f'stroke="#999" stroke-width="0.5"/>'
            f'<text x="{LEFT - 3}" y="{y(mark) + 3:.1f}" font-size="9" text-anchor="end">'
            f"{_num(mark)}</text>"
        )
    parts.append(
        f'<polyline points="{points}" fill="none" stroke="currentColor" stroke-width="2"/>'
    )
    if len(values) <= 40:
        parts += [
            f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="2.5" fill="currentColor"/>'
            for i, v in enumerate(values)
        ]
    if labels:
        parts.append(f'<text x="{LEFT}" y="{HEIGHT - 6}" font-size="9">{escape(labels[0])}</text>')
        if len(labels) > 1:
            parts.append(
                f'<text x="{WIDTH - RIGHT}" y="{HEIGHT - 6}" font-size="9" '
                f'text-anchor="end">{escape(labels[-1])}</text>'
            )
    parts.append("</svg>")
    return "".join(parts)
