"""Questions per hour as server-made SVG: one row of bars per topic (or board), readable without colour.

Each row is labelled in words with its total; bars are drawn in the text's colour (so they follow a dark
theme), each with its hour and count as a tooltip (<title>); days are marked under the last row. The
busiest rows come first, the rest are summed in one row ("other").
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from adapters.web.html import Markup, esc

LABEL, BAR, ROW, TOTAL = 170, 6, 34, 70  # widths and heights, in pixels
ROWS = 6  # rows drawn; the rest summed in "other"


def hours_between(start: datetime, end: datetime) -> list[str]:
    """Every hour "YYYY-MM-DDTHH" from `start` to `end` (the bot's clock)."""
    hour, found = start.replace(minute=0, second=0, microsecond=0), []
    while hour <= end:
        found.append(hour.strftime("%Y-%m-%dT%H"))
        hour += timedelta(hours=1)
    return found


def rows_of(counts: list[tuple[str, str, int]], hours: list[str], named: Callable[[str], str]) -> list[tuple[str, list[int]]]:
    """(label, a count per hour) per key, busiest first; beyond ROWS - 1 keys, one row "other"."""
    where = {hour: i for i, hour in enumerate(hours)}
    series: dict[str, list[int]] = {}
    for hour, key, n in counts:
        if hour in where:
            series.setdefault(key, [0] * len(hours))[where[hour]] += n
    ranked = sorted(series.items(), key=lambda item: (-sum(item[1]), item[0]))
    if len(ranked) > ROWS:
        rest = [sum(column) for column in zip(*(values for _, values in ranked[ROWS - 1:]), strict=True)]
        ranked = [*ranked[:ROWS - 1], ("", rest)]
    return [(named(key) if key else "other", values) for key, values in ranked]


def hourly_chart(title: str, hours: list[str], rows: list[tuple[str, list[int]]]) -> Markup:
    """The chart: `rows` of (label, counts per hour of `hours`)."""
    if not rows:
        return Markup(f"<p>{esc(title)}: no questions in these days.</p>")
    top = max(max(values) for _, values in rows) or 1
    width, height = LABEL + BAR * len(hours) + TOTAL, ROW * len(rows) + 22
    parts = [f'<svg role="img" viewBox="0 0 {width} {height}" width="100%" class="chart" '
             f'xmlns="http://www.w3.org/2000/svg"><title>{esc(title)}</title>']
    for r, (label, values) in enumerate(rows):
        base = ROW * (r + 1) - 6
        parts.append(f'<text x="0" y="{base}" font-size="13" fill="currentColor">{esc(label[:24])}</text>')
        parts.append(f'<line x1="{LABEL}" y1="{base}" x2="{LABEL + BAR * len(hours)}" y2="{base}" '
                     'stroke="currentColor" stroke-opacity="0.3"/>')
        for i, n in enumerate(values):
            if n:
                tall = max(1, round((ROW - 10) * n / top))
                parts.append(f'<rect x="{LABEL + BAR * i}" y="{base - tall}" width="{BAR - 1}" height="{tall}" '
                             f'fill="currentColor"><title>{esc(label)}, {esc(hours[i].replace("T", " "))}h: '
                             f'{n}</title></rect>')
        parts.append(f'<text x="{LABEL + BAR * len(hours) + 8}" y="{base}" font-size="13" fill="currentColor">'
                     f'{sum(values):,}</text>')
    for i, hour in enumerate(hours):
        if hour.endswith("T00") or i == 0:
            x = LABEL + BAR * i
            parts.append(f'<text x="{x}" y="{height - 4}" font-size="11" fill="currentColor">{esc(hour[5:10])}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))
