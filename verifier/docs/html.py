"""HTML pieces shared by the pages: escaping, the page frame (no scripts, no
network), pictures that open at full size, badges and citations."""

from __future__ import annotations

import html
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .common import DESKTOP_FIT, MIN_SHOWN, PHONE_FIT
from .model import CaseView


def esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _picture(src: str, size: tuple[int, int] | None, alt: str, narrow: str | None = None,
             narrow_size: tuple[int, int] | None = None) -> str:
    """An image that opens at full size when selected; on a narrow screen, its narrow layout."""
    dimensions = f' width="{size[0]}" height="{size[1]}"' if size else ""
    img = f'<img src="{esc(src)}"{dimensions} alt="{esc(alt)}">'
    if narrow and narrow_size:
        nw, nh = narrow_size
        img = (f'<picture><source media="(max-width: 40rem)" srcset="{esc(narrow)}" width="{nw}" height="{nh}">'
               f"{img}</picture>")
    return f'<a class="zoom" href="{esc(src)}">{img}</a>'


def _status_badge(status: str) -> str:
    return f'<span class="status status-{esc(status)}">{esc(status)}</span>'


def _verdict_class(view: CaseView) -> str:
    if view.verdict_ok is None:
        return "open"
    return "ok" if view.verdict_ok else "bad"


def _citation(source: Any, titles: Mapping[str, str] | None = None) -> str:
    """A source named by its title and section; the file it was read from is the detail,
    shown on hover, for a reader who wants to open it."""
    title = (titles or {}).get(source.seed)
    cite = (f'<cite class="titled" title="read from the file {esc(source.seed)}">{esc(title)}</cite>' if title
            else f"<cite>{esc(source.seed)}</cite>")
    text = f"{cite}, {esc(source.section)}"
    return text + (f", \u201c{esc(source.example)}\u201d" if getattr(source, "example", None) else "")




def _legible_picture(src: str, size: tuple[int, int] | None, alt: str, narrow: str | None = None,
                     narrow_size: tuple[int, int] | None = None) -> str:
    """A picture that stays legible on any screen: a strip too wide for the desktop column
    is shown stacked (its narrow layout) where there is one; a phone gets the narrow
    layout; whatever would still shrink below MIN_SHOWN of its drawn width is shown at
    full size in a box that scrolls on its own, so the page never does."""
    wide_ok = size is None or size[0] <= DESKTOP_FIT
    desk, desk_size = (src, size) if wide_ok or not (narrow and narrow_size) else (narrow, narrow_size)
    phone, phone_size = (narrow, narrow_size) if narrow and narrow_size else (desk, desk_size)
    classes = _scroll_classes(desk_size, phone_size)
    dimensions = f' width="{desk_size[0]}" height="{desk_size[1]}"' if desk_size else ""
    img = f'<img src="{esc(desk)}"{dimensions} alt="{esc(alt)}">'
    if phone != desk and phone_size:
        img = (f'<picture><source media="(max-width: 40rem)" srcset="{esc(phone)}" width="{phone_size[0]}" '
               f'height="{phone_size[1]}">{img}</picture>')
    return f'<a class="{classes}" href="{esc(desk)}">{img}</a>'


# An animation is shown at most this wide on a desktop (it stands beside the case's text).
ANIMATION_FIT = int(560 / MIN_SHOWN)


def _scroll_classes(desk: tuple[int, int] | None, phone: tuple[int, int] | None = None, *,
                    animation: bool = False) -> str:
    """The classes of a picture's box: ``zoom``, plus ``scroll-desk`` or ``scroll-phone``
    where the picture is too wide to shrink legibly on that screen, so it shows at full
    size in a box that scrolls on its own."""
    phone = phone or desk
    classes = ["zoom"]
    if desk and desk[0] > (ANIMATION_FIT if animation else DESKTOP_FIT):
        classes.append("scroll-desk")
    if phone and phone[0] > PHONE_FIT:
        classes.append("scroll-phone")
    return " ".join(classes)


def _shown_height(size: tuple[int, int] | None, narrow_size: tuple[int, int] | None = None) -> int:
    """About how tall ``_legible_picture`` shows a picture in the desktop column, in px."""
    if size is None:
        return 0
    w, h = size if size[0] <= DESKTOP_FIT or narrow_size is None else narrow_size
    return int(h * min(1.0, 1120 / w)) if w <= DESKTOP_FIT else h


def _read_text(path: str | None) -> str:
    try:
        return Path(path).read_text(encoding="utf-8") if path else ""
    except OSError:
        return ""


# No scripts, no network: the pages load their own images and style sheet, nothing else.
_CSP = "default-src 'none'; img-src 'self' data:; style-src 'self'; base-uri 'none'; form-action 'none'"


def _page(title: str, body: str, css_href: str, description: str) -> str:
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{_CSP}">
<meta name="description" content="{esc(description)}">
<title>{esc(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="{css_href}">
</head>
<body>
<main>
{body}
</main>
</body>
</html>
"""
