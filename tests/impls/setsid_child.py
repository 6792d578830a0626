"""A hostile implementation whose child escapes (tests/test_adapter_hostile.py).
``python setsid_child.py MODE PIDFILE``: at start it forks a child that calls
setsid() (leaving the process group and session) and sleeps for ten minutes; the
child's pid is written to PIDFILE. Then:

- ``holds``: the child keeps stdout and stderr open; the implementation answers every
  case as the reference resolver does and exits when its input ends;
- ``holds-dies``: the child keeps them open; the implementation exits at the first
  case without answering;
- ``daemon``: the child is a double-forked daemon: the middle process exits at once,
  and the grandchild (whose pid is written) closes every pipe; the implementation
  answers every case.
- ``many``: 20 such children, each of which holds the pipes and has a child of its
  own that holds them too; all 40 pids are written, one a line; the implementation
  answers every case.
"""

from __future__ import annotations

import json
import os
import sys
import time

from verifier.adapters.reference import handle as reference

MODE, PIDFILE = sys.argv[1], sys.argv[2]


def swarm() -> None:
    """20 children in sessions of their own, each with a child; every pid to PIDFILE."""
    read_end, write_end = os.pipe()
    for _ in range(20):
        if os.fork() == 0:
            os.setsid()
            os.close(read_end)
            if os.fork() == 0:
                os.write(write_end, f"{os.getpid()}\n".encode())
                time.sleep(600)
                os._exit(0)
            os.write(write_end, f"{os.getpid()}\n".encode())
            time.sleep(600)
            os._exit(0)
    os.close(write_end)
    pids = b""
    while pids.count(b"\n") < 40:
        chunk = os.read(read_end, 4096)
        if not chunk:
            break
        pids += chunk
    with open(PIDFILE, "wb") as file:
        file.write(pids)


def escape() -> None:
    if MODE == "many":
        swarm()
        return
    if os.fork():
        deadline = time.monotonic() + 10
        while not os.path.exists(PIDFILE) and time.monotonic() < deadline:  # the pid is known before hello
            time.sleep(0.01)
        return
    os.setsid()
    if MODE == "daemon":
        if os.fork():
            os._exit(0)
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
    with open(PIDFILE + ".tmp", "w") as file:
        file.write(str(os.getpid()))
    os.rename(PIDFILE + ".tmp", PIDFILE)
    time.sleep(600)
    os._exit(0)


escape()
for line in sys.stdin:
    if not line.strip():
        continue
    message = json.loads(line)
    if message["type"] != "hello" and MODE == "holds-dies":
        os._exit(4)
    sys.stdout.write(json.dumps(reference(message)) + "\n")
    sys.stdout.flush()
