"""The rule pages in a real browser: headless Chromium (Debian's, driven by
Playwright) opens the built site from a local server on loopback and checks that
every image loads, every internal link and anchor resolves, nothing is asked of
any other host, the console stays free of errors, and a phone-sized window needs
no sideways scrolling. It takes a desktop and a phone screenshot. At 1280 and 390 px wide it measures
every ruleset's pages: a rule page is at most 25 screens tall (a screen is the
1280x800 viewport) and has a glossary, no page scrolls sideways, and no picture is
shown narrower than 60 % of its drawn width.

Skipped, with a message, only where there is no Chromium on the machine (.ci/run
installs Debian's chromium). Set VERIFIER_SITE_SCREENSHOT=FILE to keep the
desktop screenshot (the README's docs/images/site-screenshot.png is made so).
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from pathlib import Path
from urllib.parse import urldefrag, urlparse

import pytest

from verifier.kit.draw.palette import SMALLEST_TEXT

ROOT = Path(__file__).resolve().parent.parent
# What Chromium needs on these machines, as root and with no network: no sandbox, no GPU,
# and none of the background connections it would otherwise try to make.
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]


def chromium() -> str | None:
    found = os.environ.get("VERIFIER_CHROMIUM")
    if found:
        return found
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


NO_BROWSER = ("no Chromium on this machine, so the pages were not opened in a browser: install Debian's "
              "chromium (apt-get install chromium), as .ci/run does, or set VERIFIER_CHROMIUM to a Chromium or "
              "Chrome binary")
pytestmark = pytest.mark.skipif(chromium() is None, reason=NO_BROWSER)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep the test output clean
        pass


@pytest.fixture(scope="module")
def served(docs_site, browser):
    """The site built from the bundled cases (tests/conftest.py), served on 127.0.0.1."""
    site = docs_site.out
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield site, f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def browser():
    binary = chromium()
    if binary is None:
        pytest.skip(NO_BROWSER)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - the test extra installs it
        pytest.fail("the Python package 'playwright' is missing: pip install -e '.[test]'")
    with sync_playwright() as p:
        instance = p.chromium.launch(executable_path=binary, headless=True, args=FLAGS)
        try:
            yield instance
        finally:
            instance.close()


def _open(browser, base: str, *, width: int, height: int, mobile: bool = False):
    """A new page that reports console errors, page errors, failed and off-site requests."""
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=mobile,
                                  has_touch=mobile, device_scale_factor=1)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url} ({r.failure})"))
    page.on("response", lambda r: problems.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None)

    def only_loopback(route):
        if route.request.url.startswith(base) or route.request.url.startswith("data:"):
            route.continue_()
        else:
            problems.append(f"asked the network for {route.request.url}")
            route.abort()

    page.route("**/*", only_loopback)
    return context, page, problems


IMAGES = """() => Array.from(document.images).map(i => ({
    src: i.currentSrc || i.src, complete: i.complete, width: i.naturalWidth, alt: i.alt}))"""
LINKS = "() => Array.from(document.querySelectorAll('a[href]')).map(a => a.href)"
SOURCES = """() => Array.from(document.querySelectorAll('source[srcset]'))
    .map(s => new URL(s.srcset, document.baseURI).href)"""
IDS = "() => Array.from(document.querySelectorAll('[id]')).map(e => e.id)"


def test_site_in_a_real_browser(served, browser, tmp_path):
    site, base = served
    context, page, problems = _open(browser, base, width=1280, height=900)
    pages: dict[str, set[str]] = {}  # page URL -> its ids
    links: list[tuple[str, str]] = []  # (from page, to URL)
    files: set[str] = set()  # images and other non-page targets
    queue = [base + "index.html"]
    while queue:
        url = queue.pop()
        if url in pages:
            continue
        response = page.goto(url, wait_until="load")
        assert response is not None and response.ok, url
        images = page.evaluate(IMAGES)
        assert images or url.endswith("index.html"), url
        for image in images:
            assert image["complete"] and image["width"] > 0, f"{url}: image did not load: {image['src']}"
            assert image["alt"].strip(), f"{url}: image without alt text: {image['src']}"
        pages[url] = set(page.evaluate(IDS))
        files.update(page.evaluate(SOURCES))
        for href in page.evaluate(LINKS):
            assert urlparse(href).scheme in ("http", "https") and href.startswith(base), \
                f"{url}: a link that leaves the site: {href}"
            links.append((url, href))
            target = urldefrag(href).url
            if target.endswith(".html"):
                queue.append(target)
            else:
                files.add(target)
    for url, href in links:
        target, anchor = urldefrag(href)
        if target.endswith(".html"):
            assert target in pages, f"{url}: broken link {href}"
            if anchor:
                assert anchor in pages[target], f"{url}: no anchor #{anchor} in {target}"
    for file in sorted(files):
        response = context.request.get(file)
        assert response.ok, f"missing file {file}"
    ruleset_pages = [u for u in pages if u != base + "index.html"]
    assert ruleset_pages and any(u.endswith("ypp/index.html") for u in ruleset_pages)
    page.goto(base + "ypp/index.html#clause-move.2d", wait_until="load")
    page.screenshot(path=str(tmp_path / "desktop.png"))
    keep = os.environ.get("VERIFIER_SITE_SCREENSHOT")
    if keep:
        page.screenshot(path=keep)
    context.close()
    assert problems == [], "\n".join(problems)
    assert (tmp_path / "desktop.png").stat().st_size > 10_000


def test_site_on_a_phone(served, browser, tmp_path):
    _, base = served
    context, page, problems = _open(browser, base, width=390, height=844, mobile=True)
    for path in ("index.html", "ypp/index.html"):
        page.goto(base + path, wait_until="load")
        widths = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        assert widths[0] <= widths[1], f"{path}: the page scrolls sideways on a phone ({widths})"
        wide = page.evaluate("""() => Array.from(document.images)
            .filter(i => i.getBoundingClientRect().right > window.innerWidth + 1).map(i => i.src)""")
        assert wide == [], f"{path}: images wider than the screen"
    # On a narrow screen the diagrams switch to their stacked layout.
    chosen = page.evaluate("() => Array.from(document.querySelectorAll('picture img')).map(i => i.currentSrc)")
    assert chosen and all(src.endswith("-narrow.png") for src in chosen)
    page.goto(base + "ypp/index.html#clause-move.2d", wait_until="load")
    page.screenshot(path=str(tmp_path / "phone.png"))
    context.close()
    assert problems == [], "\n".join(problems)


# A screen is the 1280x800 desktop viewport; a ruleset's rule page is at most this many of them tall.
# No picture is shown under 60 % of its drawn width, nor so small that its smallest text (the
# kit's SMALLEST_TEXT, in drawn pixels) stands under 9 px on the screen.
SCREEN, MAX_SCREENS, MIN_SHOWN, MIN_TEXT_PX = (1280, 800), 25, 0.6, 9
MEASURE = """() => ({
    height: document.documentElement.scrollHeight,
    scroll: document.documentElement.scrollWidth, width: window.innerWidth,
    glossary: document.querySelectorAll('#glossary dt').length,
    narrowest: Array.from(document.images).filter(i => i.naturalWidth > 0 && i.getClientRects().length > 0)
        .map(i => ({src: i.currentSrc, ratio: i.getBoundingClientRect().width / i.naturalWidth}))
        .sort((a, b) => a.ratio - b.ratio)[0] || null})"""


@pytest.mark.parametrize("width,height", [SCREEN, (390, 844)], ids=["desktop", "phone"])
def test_every_page_is_legible_and_a_rule_page_is_a_read(served, browser, width, height):
    site, base = served
    context, page, problems = _open(browser, base, width=width, height=height, mobile=width < 600)
    rulesets = sorted(p.parent.name for p in site.glob("*/index.html"))
    assert len(rulesets) >= 5
    for ruleset in rulesets:
        for name in ("index.html", "cases.html", "findings.html"):
            path = f"{ruleset}/{name}"
            page.goto(base + path, wait_until="load")
            m = page.evaluate(MEASURE)
            assert m["scroll"] <= m["width"], f"{path} scrolls sideways at {width} px ({m['scroll']} px wide)"
            least = m["narrowest"]
            assert least is None or least["ratio"] >= MIN_SHOWN - 0.005, \
                f"{path} at {width} px shows {least['src']} at {least['ratio']:.0%} of its drawn width"
            assert least is None or least["ratio"] * SMALLEST_TEXT >= MIN_TEXT_PX - 0.05, \
                f"{path} at {width} px shows the text of {least['src']} at {least['ratio'] * SMALLEST_TEXT:.1f} px"
            if name == "index.html":
                assert m["glossary"] > 0, f"{path} has no glossary"
                if (width, height) == SCREEN:
                    assert m["height"] <= MAX_SCREENS * SCREEN[1], \
                        f"{path} is {m['height'] / SCREEN[1]:.1f} screens tall at {width} px"
    context.close()
    assert problems == [], "\n".join(problems)
