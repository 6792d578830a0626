"""HTML pieces shared by the pages: escaping, the page frame (no scripts, no
network), pictures that open at full size, badges and citations."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

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


def _citation(source: Any) -> str:
    text = f"<cite>{esc(source.seed)}</cite>, {esc(source.section)}"
    return text + (f", \u201c{esc(source.example)}\u201d" if getattr(source, "example", None) else "")


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
