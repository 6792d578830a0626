"""The pictures of the pages: the drawing tasks of cases and findings (diagram, the
same for narrow screens, animation), PNG and GIF encoding without metadata, and
running the tasks through the execution layer."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import Any

from ..execute import IN_PROCESS, Execution, Progress, map_ordered
from ..ruleset import Capability, Outcome, Ruleset
from .common import DESKTOP_FIT, _attempt, _optional

# Animation timing, in milliseconds: the first and last frames stay up longer.
FRAME_MS, FIRST_MS, LAST_MS = 1400, 2000, 3200


def _png(image: Any) -> bytes:
    """PNG without metadata (deterministic), in 256 colours: the pictures are flat colours,
    lines and anti-aliased text (about a thousand colours, mostly edge blends), which a fast
    octree palette keeps to within a few levels per channel, for a third of the bytes of
    full colour and half its encoding time. zlib level 3, the last of zlib's fast levels:
    level 6 takes twice as long for 15% fewer bytes, and the site is built often."""
    from PIL import Image
    if image.mode != "P":
        image = image.convert("RGB").quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=3)
    return buffer.getvalue()


def _gif(frames: Sequence[Any]) -> bytes:
    """An animated GIF that loops, with fixed durations and no metadata (deterministic).
    One palette for all frames (an octree over all of them), so colours do not
    flicker between frames and the file stays small."""
    from PIL import Image
    images = [im.convert("RGB") for im in frames]
    w, h = max(im.width for im in images), max(im.height for im in images)
    for k, im in enumerate(images):
        if im.size != (w, h):  # every frame of an animation has the size of the first
            canvas = Image.new("RGB", (w, h), (255, 255, 255))
            canvas.paste(im, (0, 0))
            images[k] = canvas
    montage = Image.new("RGB", (w, h * len(images)))
    for k, im in enumerate(images):
        montage.paste(im, (0, h * k))
    palette = montage.quantize(255, method=Image.Quantize.FASTOCTREE)  # three times faster than median cut
    quantized = [im.quantize(palette=palette, dither=Image.Dither.NONE) for im in images]
    durations = [FRAME_MS] * len(images)
    durations[0], durations[-1] = FIRST_MS, LAST_MS
    buffer = io.BytesIO()
    quantized[0].save(buffer, format="GIF", save_all=True, append_images=quantized[1:], duration=durations,
                      loop=0, optimize=False, disposal=1)
    return buffer.getvalue()


def _draw_case(rs: Ruleset, case: Any, outcome: Outcome, name: str) -> dict[str, Any]:
    """A case's pictures: its diagram, the same for narrow screens, and an animation
    if it has several steps; a refused action is drawn with the band that check draws
    under it. Returns files, view fields and warnings."""
    from ..kit.draw.layout import refusal_band
    from ..refusal import draw_outcome, refusal_words
    warnings: list[str] = []
    files: dict[str, bytes] = {}
    fields: dict[str, Any] = {}
    image = _attempt(rs, warnings, f"drawing {case.id}", None, draw_outcome, rs, case.before, case.actions, outcome,
                     case.title)
    if image is not None:
        narrow = _attempt(rs, warnings, f"drawing {case.id} for narrow screens", None,
                          _optional(rs, Capability.NARROW, "draw_narrow", None), case.before, case.actions,
                          [("Before", None), ("After: what happened", outcome)], title=case.title)
        if narrow is not None and outcome.refusal is not None:
            narrow = refusal_band(narrow, refusal_words(outcome.refusal))
        _keep(files, fields, f"cases/{name}", image.size, image, narrow)
    frames = _attempt(rs, warnings, f"animating {case.id}", [], _optional(rs, Capability.FRAMES, "draw_frames", []),
                      case.before, case.actions, outcome)
    if len(frames) >= 3:
        fields["gif"], fields["gif_size"] = f"cases/{name}.gif", frames[0].image.size
        fields["steps"] = [frame.words for frame in frames]
        files[fields["gif"]] = _gif([frame.image for frame in frames])
    return {"files": files, "fields": fields, "warnings": warnings}


def _draw_finding(rs: Ruleset, finding: Any, panels: list[Any], title: str, name: str,
                  drawn_size: tuple[int, int] | None = None) -> dict[str, Any]:
    """A finding's picture under every reading, and the same for narrow screens. Where the
    explorer's report drew the picture (``drawn_size``) too wide for the desktop column, every
    screen shows the narrow layout, so only that is drawn."""
    warnings: list[str] = []
    files: dict[str, bytes] = {}
    fields: dict[str, Any] = {}

    def draw_narrow() -> Any:
        return _attempt(rs, warnings, f"drawing finding {finding.fingerprint} for narrow screens", None,
                        _optional(rs, Capability.NARROW, "draw_narrow", None), finding.before, finding.actions,
                        panels, title=title)

    narrow_only = drawn_size is not None and drawn_size[0] > DESKTOP_FIT and rs.supports(Capability.NARROW)
    if narrow_only:
        narrow = draw_narrow()
        if narrow is not None:
            assert drawn_size is not None
            _keep(files, fields, f"findings/{name}", drawn_size, None, narrow)
            return {"files": files, "fields": fields, "warnings": warnings}
    image = _attempt(rs, warnings, f"drawing finding {finding.fingerprint}", None, rs.draw_readings,
                     finding.before, finding.actions, panels, title=title)
    if image is not None:  # (a narrow layout that failed above is not tried again)
        _keep(files, fields, f"findings/{name}", image.size, image, None if narrow_only else draw_narrow())
    return {"files": files, "fields": fields, "warnings": warnings}


def _keep(files: dict[str, bytes], fields: dict[str, Any], stem: str, size: tuple[int, int], image: Any,
          narrow: Any) -> None:
    """The picture (of ``size``) and its narrow layout as files, and their names and sizes as
    view fields. A picture too wide for the desktop column is shown stacked (its narrow layout)
    on every screen, so it is measured but not encoded or written (a sixth of the site's
    pixels); ``image`` None: it was not even drawn."""
    fields["image"], fields["size"] = f"{stem}.png", size
    if narrow is not None:
        fields["narrow"], fields["narrow_size"] = f"{stem}-narrow.png", narrow.size
        files[fields["narrow"]] = _png(narrow)
    if image is not None and (narrow is None or image.width <= DESKTOP_FIT):
        files[fields["image"]] = _png(image)


def _run_task(task: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    return task()


def run_tasks(tasks: Sequence[Callable[[], dict[str, Any]]], execution: Execution = IN_PROCESS,
              progress: Progress | None = None) -> list[dict[str, Any]]:
    """Run the drawing tasks on ``execution``. Local workers inherit the tasks, so only an
    index goes to them and only bytes come back; the results come back in order, so the
    site is the same either way."""
    return list(map_ordered(_run_task, list(tasks), execution, progress=progress))
