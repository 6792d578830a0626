"""Ending every process of an implementation, wherever it went.

Killing the implementation's process group is not enough: a child that calls
``setsid()`` leaves the group (and the session), and if it keeps the stdout pipe
open the verifier never sees end-of-file. On Linux, when an implementation is
stopped, this module finds

- its descendants (walking parent links in /proc before anything is killed),
- every process that holds one of its pipes (/proc/PID/fd links to the pipe's
  inode), wherever it is in the process tree, and
- the orphans it left behind: the verifier makes itself a child subreaper
  (``prctl(PR_SET_CHILD_SUBREAPER)``), so that a daemon the implementation
  double-forked becomes the verifier's child instead of init's, and is found as a
  child of the verifier that did not exist before the implementation started and
  is not in the verifier's own session (an implementation runs in a session of its
  own; the children other code in the verifier starts inherit the verifier's). A
  child that other code started in a new session of its own while the
  implementation ran cannot be told from an orphan, and would be killed too;

and kills them all, then reaps those that became the verifier's children. Elsewhere,
the process group is killed (the portable fallback).

Being a subreaper is a property of the whole verifier process: orphans of other
code's children come to it too (they are left alone, and their zombies stay until
the verifier exits).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import time
from collections.abc import Iterable

PROC = "/proc"
PR_SET_CHILD_SUBREAPER = 36
_subreaper: bool | None = None


def linux_proc() -> bool:
    return sys.platform.startswith("linux") and os.path.isdir(f"{PROC}/self/fd")


def become_subreaper() -> bool:
    """Make orphaned descendants this process's children (Linux 3.4+); once per process."""
    global _subreaper
    if _subreaper is None:
        _subreaper = False
        if sys.platform.startswith("linux"):
            try:
                libc = ctypes.CDLL(None, use_errno=True)
                _subreaper = libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
            except (OSError, AttributeError):
                pass
    return _subreaper


def _pids() -> list[int]:
    try:
        return [int(name) for name in os.listdir(PROC) if name.isdigit()]
    except OSError:
        return []


def _stat(pid: int) -> list[bytes]:
    """The fields of /proc/PID/stat after the command name: state, ppid, pgrp, session, ..."""
    try:
        with open(f"{PROC}/{pid}/stat", "rb") as stat:
            data = stat.read()
    except OSError:
        return []
    return data[data.rfind(b")") + 2:].split()  # the name may hold spaces and parentheses


def _parent(pid: int) -> int | None:
    fields = _stat(pid)
    return int(fields[1]) if len(fields) > 1 else None


def _session(pid: int) -> int | None:
    fields = _stat(pid)
    return int(fields[3]) if len(fields) > 3 else None


def _table() -> dict[int, tuple[int, int]]:
    """pid -> (parent, session) for every process, from one pass over /proc."""
    table = {}
    for pid in _pids():
        fields = _stat(pid)
        if len(fields) > 3:
            table[pid] = (int(fields[1]), int(fields[3]))
    return table


def children_of(pid: int, table: dict[int, tuple[int, int]] | None = None) -> set[int]:
    table = _table() if table is None else table
    return {p for p, (parent, _) in table.items() if parent == pid}


def descendants(roots: Iterable[int], table: dict[int, tuple[int, int]] | None = None) -> set[int]:
    table = _table() if table is None else table
    found: set[int] = set()
    frontier = set(roots)
    while frontier:
        found |= frontier
        frontier = {p for p, (parent, _) in table.items() if parent in frontier and p not in found}
    return found


def pipe_holders(inodes: Iterable[int]) -> set[int]:
    """Processes other than this one with an open file descriptor on one of these pipes."""
    wanted = {f"pipe:[{inode}]" for inode in inodes}
    me = os.getpid()
    holders = set()
    for pid in _pids():
        if pid == me:
            continue
        try:
            fds = os.listdir(f"{PROC}/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(f"{PROC}/{pid}/fd/{fd}") in wanted:
                    holders.add(pid)
                    break
            except OSError:
                continue
    return holders


def kill_all(leader: int, inodes: Iterable[int], orphans_since: set[int] | None) -> set[int]:
    """SIGKILL the process group of ``leader`` and, on Linux, every process of the
    implementation found as described above (in rounds, so that one forked while the
    first round was killed is caught too). ``inodes``: its pipes that may still be held
    (empty when all of them are known to be closed at the far end). ``orphans_since``:
    this process's children before the implementation started, or None if orphans are
    not looked for. Returns the pids killed (the leader's group aside)."""
    if not linux_proc():
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(leader, signal.SIGKILL)
        return set()
    inodes = tuple(inodes)
    me = os.getpid()
    mine = _session(me)
    killed: set[int] = set()
    for round_ in range(5):
        # Found before anything is killed: once a parent dies, its children are no longer its descendants.
        table = _table()
        targets = descendants([leader], table) | (pipe_holders(inodes) if inodes else set())
        if orphans_since is not None:
            # An implementation runs in a session of its own, and nothing it starts can join this process's
            # session: a new child in this session was started by other code here, and is left alone.
            new = {p for p in children_of(me, table) - orphans_since if table[p][1] != mine}
            targets |= descendants(new, table)
        if round_ == 0:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(leader, signal.SIGKILL)
        targets -= killed | {me}
        if not targets:
            break
        for pid in targets:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        killed |= targets
    _reap(killed - {leader}, leader)
    return killed


def _reap(pids: set[int], leader: int) -> None:
    """Collect the exit status of those that became this process's children (orphans
    reparented to it as subreaper), so that they do not linger as zombies. One whose
    parent is still dying becomes this process's child a moment later."""
    dying = pids | {leader}
    deadline = time.monotonic() + 2.0
    waiting = set(pids)
    while waiting and time.monotonic() < deadline:
        for pid in list(waiting):
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                parent = _parent(pid)
                if parent is None or parent not in dying:  # gone, or another process's to reap
                    waiting.discard(pid)
                continue
            if done:
                waiting.discard(pid)
        if waiting:
            time.sleep(0.005)


def alive(pid: int) -> bool:
    """Whether a process exists and is not a zombie."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    fields = _stat(pid)
    return not fields or fields[0] != b"Z"  # no /proc: os.kill said it exists
