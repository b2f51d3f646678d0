"""Draw a board as an inline SVG diagram (for the admin; no JavaScript, no images).

The board is drawn in White's numbering, as White sees it (RULES R1, R2, R33): White's
head (point 24) at the top right, White travels the top row right to left (24 → 13),
then the bottom row left to right (12 → 1), its home (1–6) at the bottom right. Black's
head is White's 12, at the bottom left. Each point is labelled with its White number;
a stack taller than five checkers shows its count on the top checker. The tray on the
right shows how many checkers each side has borne off. In the hitting games (H1, H2)
the same drawing holds — Black's point ``p`` is White's ``25 − p`` — and checkers on
the bar stand on the middle strip: White's in the top half (it enters into Black's
home, White's 19–24, at the top right), Black's in the bottom half.

It reads the position only through its rule set's codec (``codec.stacks``: each point's
checkers bottom to top; ``codec.board``: the bar and the borne-off checkers), so a game
whose point holds both colours is drawn as it stands.

>>> from nardy import Position
>>> svg = board_svg(Position.initial())
>>> svg.startswith("<svg") and 'data-point="24" data-color="white" data-count="15"' in svg
True
"""

from __future__ import annotations

from typing import Final

from django.utils.html import escape

from nardy import BLACK, SIDE_NAMES, WHITE, BoardPosition, Side, other, ruleset

POINT_W: Final = 40
BAR_W: Final = 24
MARGIN: Final = 28
TRAY_W: Final = 96
ROW_H: Final = 190
GAP_H: Final = 36
RADIUS: Final = 17
SHOWN: Final = 5  # checkers drawn per stack; the rest are counted

BOARD_W: Final = 12 * POINT_W + BAR_W
WIDTH: Final = MARGIN + BOARD_W + 16 + TRAY_W + MARGIN
HEIGHT: Final = MARGIN + 2 * ROW_H + GAP_H + MARGIN

_FILL = {WHITE: "#f7f1e3", BLACK: "#2b2b2b"}
_STROKE = {WHITE: "#6b5b3e", BLACK: "#000000"}
_INK = {WHITE: "#2b2b2b", BLACK: "#f7f1e3"}
_NAME = SIDE_NAMES  # by side


def _column_x(point: int) -> float:
    """The left edge of White's ``point``'s column."""
    column = point - 13 if point >= 13 else 12 - point  # 0..11, left to right
    x = MARGIN + column * POINT_W
    return x + BAR_W if column >= 6 else x


def _point(point: int, stack: tuple[Side, ...]) -> list[str]:
    """One point: its triangle, its number, and its stack of checkers (bottom to top)."""
    top = point >= 13
    x = _column_x(point)
    y_edge = MARGIN if top else MARGIN + 2 * ROW_H + GAP_H
    tip = y_edge + ROW_H - 18 if top else y_edge - ROW_H + 18
    shade = "#c8a46e" if point % 2 else "#8e5b34"
    parts = [
        f'<polygon class="triangle" points="{x},{y_edge} {x + POINT_W},{y_edge} '
        f'{x + POINT_W / 2},{tip}" fill="{shade}"/>',
    ]
    label_y = MARGIN - 9 if top else HEIGHT - MARGIN + 19
    parts.append(f'<text class="point-number" x="{x + POINT_W / 2}" y="{label_y}" '
                 f'text-anchor="middle" font-size="13" fill="#333">{point}</text>')
    if stack:
        side = stack[-1]  # the top checker's colour names the stack
        n = len(stack)
        if all(s == side for s in stack):
            colour, title = _NAME[side], f"{n} {_NAME[side]}"
        else:  # a point holding both colours (e.g. a pinned checker under the top ones)
            colour = "mixed"
            title = ", ".join(f"{stack.count(s)} {_NAME[s]}" for s in (side, other(side)))
        parts.append(f'<g class="stack" data-point="{point}" data-color="{colour}" '
                     f'data-count="{n}"><title>{title} on point {point}</title>')
        parts += _stack(stack, x + POINT_W / 2, y_edge, top, RADIUS - 1, SHOWN - 1, 14)
        parts.append("</g>")
    return parts


def _stack(stack: tuple[Side, ...], cx: float, y_edge: float, top: bool, r: float,
           count_on: int, font_size: int) -> list[str]:
    """The checkers of ``stack`` (bottom first; at most ``SHOWN`` drawn, the bottom
    ones) stacked from ``y_edge``: down from the top edge, up from the bottom; their
    number written on checker ``count_on`` when more stand than up to it."""
    def cy(i: int) -> float:
        offset = RADIUS + i * (2 * RADIUS - 2)
        return y_edge + offset if top else y_edge - offset

    n = len(stack)
    parts = [f'<circle class="checker {_NAME[side]}" cx="{cx}" cy="{cy(i)}" r="{r}" '
             f'fill="{_FILL[side]}" stroke="{_STROKE[side]}" stroke-width="2"/>'
             for i, side in enumerate(stack[:SHOWN])]
    if n > count_on + 1:
        ink = _INK[stack[min(count_on, n - 1)]]
        parts.append(f'<text class="stack-count" x="{cx}" y="{cy(count_on) + 5}" '
                     f'text-anchor="middle" font-size="{font_size}" font-weight="bold" '
                     f'fill="{ink}">{n}</text>')
    return parts


def _bar(bar: dict[int, int]) -> list[str]:
    """Checkers on the bar: White's down from the top edge, Black's up from the bottom."""
    parts: list[str] = []
    cx = MARGIN + 6 * POINT_W + BAR_W / 2
    for side, n in bar.items():
        if not n:
            continue
        top = side == WHITE
        y_edge = MARGIN if top else MARGIN + 2 * ROW_H + GAP_H
        parts.append(f'<g class="bar-stack" data-color="{_NAME[side]}" data-count="{n}">'
                     f"<title>{n} {_NAME[side]} on the bar</title>")
        parts += _stack((side,) * n, cx, y_edge, top, BAR_W / 2 - 1, 0, 13)
        parts.append("</g>")
    return parts


def _tray(off: dict[int, int]) -> list[str]:
    x = MARGIN + BOARD_W + 16
    parts = [f'<rect class="tray" x="{x}" y="{MARGIN}" width="{TRAY_W}" '
             f'height="{2 * ROW_H + GAP_H}" fill="#5c3a1e" rx="6"/>']
    # White bears off into its home's side (bottom), Black into the top.
    for side, y0 in ((BLACK, MARGIN + 10), (WHITE, MARGIN + ROW_H + GAP_H + 10)):
        parts.append(f'<g class="off" data-color="{_NAME[side]}" data-count="{off[side]}">')
        parts.append(f'<text x="{x + TRAY_W / 2}" y="{y0 + 14}" text-anchor="middle" '
                     f'font-size="13" fill="#f7f1e3">{_NAME[side].capitalize()} off</text>')
        parts.append(f'<text class="off-count" x="{x + TRAY_W / 2}" y="{y0 + 44}" '
                     f'text-anchor="middle" font-size="26" font-weight="bold" '
                     f'fill="#f7f1e3">{off[side]}</text>')
        for i in range(off[side]):
            parts.append(f'<rect x="{x + 14}" y="{y0 + 58 + i * 7}" width="{TRAY_W - 28}" '
                         f'height="5" fill="{_FILL[side]}" stroke="{_STROKE[side]}" '
                         'stroke-width="1"/>')
        parts.append("</g>")
    return parts


def board_svg(position: BoardPosition, *, caption: str = "") -> str:
    """An SVG diagram of ``position`` in White's numbering (see the module doc).

    ``caption`` becomes the diagram's accessible title. The markup is built from
    numbers only, plus the escaped caption, so it is safe to mark as HTML-safe.
    """
    codec = ruleset(position.rules).codec
    board = codec.board(position, WHITE)
    bar = {WHITE: board["bar"]["mine"], BLACK: board["bar"]["theirs"]}
    off = {WHITE: board["off"]["mine"], BLACK: board["off"]["theirs"]}
    on_bar = "".join(f", {_NAME[side].capitalize()} {n} on the bar"
                     for side, n in bar.items() if n)
    summary = (f"{caption + ': ' if caption else ''}White {off[WHITE]} off, "
               f"Black {off[BLACK]} off{on_bar}")
    parts = [
        f'<svg class="nard-board" xmlns="http://www.w3.org/2000/svg" role="img" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" '
        f'aria-label="{escape(summary)}" data-position="{escape(position.to_id())}">',
        f"<title>{escape(summary)}</title>",
        f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#f3ead7" rx="8"/>',
        f'<rect class="board" x="{MARGIN}" y="{MARGIN}" width="{BOARD_W}" '
        f'height="{2 * ROW_H + GAP_H}" fill="#e9d3a8" stroke="#5c3a1e" stroke-width="3"/>',
        f'<rect class="bar" x="{MARGIN + 6 * POINT_W}" y="{MARGIN}" width="{BAR_W}" '
        f'height="{2 * ROW_H + GAP_H}" fill="#5c3a1e"/>',
    ]
    stacks = codec.stacks(position)
    for point in range(1, 25):
        parts += _point(point, stacks.get(point, ()))
    parts += _bar(bar)
    parts += _tray(off)
    parts.append("</svg>")
    return "".join(parts)
