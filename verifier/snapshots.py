"""PNG snapshots of case diagrams, compared on decoded pixels.

Snapshots live in ``snapshots/<ruleset>/<case id>.png`` at the top of the
repository. A snapshot is only ever written when the user asks for it
(``verifier check --update-snapshots`` or ``pytest --snapshot-update``).
On a mismatch the expected, actual and diff images are written to a failure
folder, and the result names them.
"""

from __future__ import annotations

import hashlib
import io
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:  # Pillow is imported when a picture is compared, not when the command starts
    from PIL import Image

DEFAULT_FAILURE_DIR = Path(".verifier-failures")


def png_bytes(image: Image.Image, software: str | None = None, *, digest: bool = False) -> bytes:
    """Encode deterministically: fixed compression, and no metadata but, where given,
    the name of the ``software`` that wrote the file (so that it may replace it later),
    and with ``digest`` the digest of the pixels (see :func:`recorded_digest`)."""
    from PIL import PngImagePlugin
    buffer = io.BytesIO()
    info = PngImagePlugin.PngInfo()
    if software:
        info.add_text("Software", software)
    image.save(buffer, format="PNG", optimize=False, compress_level=9, pnginfo=info)
    data = buffer.getvalue()
    if digest:
        record = f"pixels={pixel_digest(image)} idat={_idat_digest(_chunks(data))}".encode("ascii")
        end = data.rindex(b"IEND") - 4  # the length field of the last chunk
        data = data[:end] + _chunk(b"tEXt", DIGEST_KEY + b"\0" + record) + data[end:]
    return data


# A snapshot written by ``check`` carries the digest of its pixels in a text chunk, with the
# digest of the compressed image data it was written beside: a drawing whose digest is the
# recorded one matches without the snapshot being decoded, which was most of the time a
# comparison took. A file re-encoded by another tool keeps the text but not the image data,
# so its record is not trusted and its pixels are decoded and compared as before.
DIGEST_KEY = b"verifier-pixels"
_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def pixel_digest(image: Image.Image) -> str:
    """A digest of the mode, size and pixels of ``image``."""
    h = hashlib.sha256(f"{image.mode} {image.width}x{image.height}\n".encode("ascii"))
    h.update(image.tobytes())
    return h.hexdigest()


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def _chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """The chunks of a PNG file as (type, body), or [] for bytes that are not one."""
    if not data.startswith(_SIGNATURE):
        return []
    found, at = [], len(_SIGNATURE)
    while at + 8 <= len(data):
        (length,) = struct.unpack_from(">I", data, at)
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        if len(body) != length:
            return []
        found.append((kind, body))
        at += 12 + length
    return found


def _idat_digest(chunks: list[tuple[bytes, bytes]]) -> str:
    h = hashlib.sha256()
    for kind, body in chunks:
        if kind == b"IDAT":
            h.update(body)
    return h.hexdigest()


def recorded_digest(data: bytes) -> str | None:
    """The pixel digest a snapshot file records, if it records one for the image data it holds."""
    chunks = _chunks(data)
    for kind, body in chunks:
        if kind == b"tEXt" and body.startswith(DIGEST_KEY + b"\0"):
            fields = dict(part.split("=", 1) for part in body[len(DIGEST_KEY) + 1:].decode("ascii", "replace").split()
                          if "=" in part)
            if fields.get("idat") == _idat_digest(chunks):
                return fields.get("pixels")
    return None


def decode(data: bytes) -> Image.Image:
    from PIL import Image
    with Image.open(io.BytesIO(data)) as image:
        return image.convert("RGBA")


def changed_mask(expected: Image.Image, actual: Image.Image) -> Image.Image:
    """255 where any channel differs. (Converting to "L" could round a small change to zero.)"""
    from PIL import ImageChops
    bands = [b.point(lambda v: 255 if v else 0) for b in ImageChops.difference(expected, actual).split()]
    mask = bands[0]
    for band in bands[1:]:
        mask = ImageChops.lighter(mask, band)
    return mask


@dataclass(frozen=True)
class PixelDiff:
    same: bool
    message: str
    differing: int = 0
    box: tuple[int, int, int, int] | None = None


def compare_pixels(expected: Image.Image, actual: Image.Image) -> PixelDiff:
    expected, actual = expected.convert("RGBA"), actual.convert("RGBA")
    if expected.size != actual.size:
        return PixelDiff(False, f"size differs: snapshot is {expected.size[0]}x{expected.size[1]}, "
                                f"drawing is {actual.size[0]}x{actual.size[1]}")
    mask = changed_mask(expected, actual)
    box = mask.getbbox()
    if box is None:
        return PixelDiff(True, "identical pixels")
    differing = mask.histogram()[255]
    return PixelDiff(False, f"{differing} pixels differ inside box {box}", differing, box)


def diff_image(expected: Image.Image, actual: Image.Image) -> Image.Image:
    """The actual drawing, faded, with differing pixels in magenta."""
    from PIL import Image
    expected, actual = expected.convert("RGBA"), actual.convert("RGBA")
    width, height = max(expected.width, actual.width), max(expected.height, actual.height)
    canvas_e = Image.new("RGBA", (width, height), "white")
    canvas_e.paste(expected, (0, 0))
    canvas_a = Image.new("RGBA", (width, height), "white")
    canvas_a.paste(actual, (0, 0))
    faded = Image.blend(canvas_a.convert("RGB"), Image.new("RGB", (width, height), "white"), 0.7)
    faded.paste((230, 0, 180), (0, 0), changed_mask(canvas_e, canvas_a))
    return faded


SnapshotStatus = Literal["match", "mismatch", "missing", "written"]


@dataclass(frozen=True)
class SnapshotResult:
    status: SnapshotStatus
    path: Path
    message: str
    artifacts: tuple[Path, ...] = ()

    @property
    def ok(self) -> bool:
        return self.status in ("match", "written")


class SnapshotStore:
    """Where snapshots of one project live, and how they are checked."""

    def __init__(self, root: Path | str = "snapshots", failure_dir: Path | str = DEFAULT_FAILURE_DIR,
                 update_advice: str = "verifier check --update-snapshots"):
        self.root = Path(root)
        self.failure_dir = Path(failure_dir)
        self.update_advice = update_advice  # the command that stores a new drawing, as the caller runs it

    def path_for(self, ruleset: str, case_id: str) -> Path:
        return self.root / ruleset / f"{case_id}.png"

    def write_failure(self, ruleset: str, case_id: str, expected: Image.Image | None,
                      actual: Image.Image) -> tuple[Path, ...]:
        folder = self.failure_dir / ruleset
        folder.mkdir(parents=True, exist_ok=True)
        written = []
        actual_path = folder / f"{case_id}.actual.png"
        actual_path.write_bytes(png_bytes(actual))
        written.append(actual_path)
        if expected is not None:
            expected_path = folder / f"{case_id}.expected.png"
            expected_path.write_bytes(png_bytes(expected))
            diff_path = folder / f"{case_id}.diff.png"
            diff_path.write_bytes(png_bytes(diff_image(expected, actual)))
            written[:0] = [expected_path]
            written.append(diff_path)
        return tuple(written)

    def check(self, ruleset: str, case_id: str, image: Image.Image, update: bool = False) -> SnapshotResult:
        path = self.path_for(ruleset, case_id)
        if not path.exists():
            if update:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(png_bytes(image, digest=True))
                return SnapshotResult("written", path, f"wrote new snapshot {path}")
            artifacts = self.write_failure(ruleset, case_id, None, image)
            return SnapshotResult("missing", path,
                                  f"no snapshot at {path}; the drawing is at {artifacts[0]}. Run "
                                  f"'{self.update_advice}' to store it", artifacts)
        try:
            data = path.read_bytes()
            recorded = recorded_digest(data)
            if recorded is not None and recorded == pixel_digest(image):
                return SnapshotResult("match", path, "identical pixels")
            expected = decode(data)
        except Exception as exc:  # a corrupt snapshot is reported, never silently replaced
            return SnapshotResult("mismatch", path, f"cannot read snapshot {path}: {exc}")
        diff = compare_pixels(expected, image)
        if diff.same:
            if update and recorded is None:  # the same pixels, stored again with their digest
                path.write_bytes(png_bytes(image, digest=True))
            return SnapshotResult("match", path, diff.message)
        if update:
            path.write_bytes(png_bytes(image, digest=True))
            return SnapshotResult("written", path, f"updated snapshot {path} ({diff.message})")
        artifacts = self.write_failure(ruleset, case_id, expected, image)
        return SnapshotResult("mismatch", path, f"diagram differs from {path}: {diff.message}; see "
                                                + ", ".join(str(a) for a in artifacts), artifacts)

    def unused(self, used: set[tuple[str, str]], rulesets: set[str] | None = None) -> list[Path]:
        """Snapshot files that no loaded case names."""
        if not self.root.is_dir():
            return []
        found = []
        for path in sorted(self.root.glob("*/*.png")):
            ruleset = path.parent.name
            if rulesets is not None and ruleset not in rulesets:
                continue
            if (ruleset, path.stem) not in used:
                found.append(path)
        return found
