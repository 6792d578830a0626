"""Writing the site safely: refusing folders where a site does not belong, never
writing outside the folder or through a link, and removing only the files an
earlier build wrote (listed in its marker file)."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from ..errors import VerifierError

MARKER = ".verifier-docs.json"


class SiteError(VerifierError):
    """The site cannot be written where it was asked to go."""


def _project_root() -> Path:
    return Path(__file__).resolve().parent.parent.parent


def check_out_dir(out: Path, *, protect: Iterable[Path] = ()) -> Path:
    """The resolved folder to write the site into, or SiteError if it is not a safe place:
    the root, the home folder, a folder holding the project's sources or data, a folder
    inside the project's sources, a file, a symbolic link, or a non-empty folder that
    ``verifier docs`` did not make."""
    out = Path(out)
    if out.is_symlink():
        raise SiteError(f"{out}: --out is a symbolic link; give the real folder")
    if out.exists() and not out.is_dir():
        raise SiteError(f"{out}: --out is a file, not a folder")
    resolved = out.resolve()
    if resolved == Path(resolved.anchor):
        raise SiteError(f"{out}: refusing to write a site into the root folder")
    home = Path.home().resolve()
    if resolved == home:
        raise SiteError(f"{out}: refusing to write a site into your home folder; give a folder of its own, "
                        "such as site/")
    root = _project_root()
    guarded = [root, Path.cwd().resolve(), *(Path(p).resolve() for p in protect)]
    for place in guarded:
        if place == resolved or resolved in place.parents:
            raise SiteError(f"{out}: refusing to write a site into a folder that holds the project ({place}); "
                            "give a folder of its own, such as site/")
    sources = [root / "verifier", root / "cases", root / "snapshots", root / "tests", root / ".git",
               *(Path(p).resolve() for p in protect)]
    for place in sources:
        if place.exists() and (resolved == place or place in resolved.parents):
            raise SiteError(f"{out}: refusing to write a site inside the project's sources ({place})")
    for marker in ("pyproject.toml", "setup.py", ".git", "verifier", "cases", "snapshots"):
        if (resolved / marker).exists():
            raise SiteError(f"{out}: refusing to write a site into a folder that holds {marker}; it looks like "
                            "a project, not a site")
    if resolved.is_dir() and any(resolved.iterdir()) and not (resolved / MARKER).is_file():
        raise SiteError(f"{out}: the folder is not empty and was not made by 'verifier docs' (it has no {MARKER}); "
                        "give a new or empty folder")
    if (resolved / MARKER).is_symlink():
        raise SiteError(f"{out}: {MARKER} is a symbolic link; refusing to use this folder")
    return resolved


def _safe_parts(name: str) -> list[str]:
    parts = name.split("/")
    if not name or name.startswith("/") or any(p in ("", ".", "..") for p in parts) or "\\" in name:
        raise SiteError(f"refusing to write {name!r}: not a plain path inside the site")
    return parts


def _ensure_dir(root: Path, parts: Sequence[str]) -> Path:
    """Create the folders ``parts`` under ``root``, refusing to pass through a link."""
    here = root
    for part in parts:
        here = here / part
        try:
            mode = os.lstat(here).st_mode
        except FileNotFoundError:
            os.mkdir(here)
            continue
        if not stat.S_ISDIR(mode):
            raise SiteError(f"{here}: expected a folder, found a file or a link; refusing to write through it")
    return here


def _write_file(root: Path, name: str, data: bytes) -> None:
    parts = _safe_parts(name)
    folder = _ensure_dir(root, parts[:-1])
    path = folder / parts[-1]
    try:
        mode = os.lstat(path).st_mode
        if stat.S_ISLNK(mode):
            os.unlink(path)  # the link itself, inside the site; never its target
        elif not stat.S_ISREG(mode):
            raise SiteError(f"{path}: not a regular file; refusing to overwrite it")
    except FileNotFoundError:
        pass
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o644)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)


def _previous_files(root: Path) -> list[str]:
    marker = root / MARKER
    try:
        data = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [f for f in data.get("files", []) if isinstance(f, str)]


def write_site(out: Path, files: Mapping[str, bytes], *, protect: Iterable[Path] = ()) -> Path:
    """Write ``files`` into ``out`` (made if missing), after ``check_out_dir``. Files
    an earlier build wrote and this one does not are removed; nothing else is."""
    root = check_out_dir(out, protect=protect)
    root.mkdir(parents=True, exist_ok=True)
    for name in _previous_files(root):
        if name in files:
            continue
        try:
            parts = _safe_parts(name)
        except SiteError:
            continue
        path = root.joinpath(*parts)
        try:
            if any(os.path.islink(root.joinpath(*parts[:i])) for i in range(1, len(parts))):
                continue
            if stat.S_ISREG(os.lstat(path).st_mode) or stat.S_ISLNK(os.lstat(path).st_mode):
                os.unlink(path)
        except FileNotFoundError:
            continue
        for i in range(len(parts) - 1, 0, -1):  # folders left empty
            try:
                os.rmdir(root.joinpath(*parts[:i]))
            except OSError:
                break
    for name in sorted(files):
        _write_file(root, name, files[name])
    manifest = {"made_by": "verifier docs", "files": sorted(files)}
    _write_file(root, MARKER, (json.dumps(manifest, indent=1) + "\n").encode("utf-8"))
    return root
