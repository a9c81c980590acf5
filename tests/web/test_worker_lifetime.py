"""The server's worker process does not outlive the serving process."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import textwrap

import pytest

SERVING = textwrap.dedent(
    """
    import os, sys
    from yacht.web.service.workers import workers

    print(workers().submit(os.getpid).result(), flush=True)
    sys.stdin.read()  # serve until the test kills this process
    """
)


def gone_within(pid: int, seconds: float) -> bool:
    """Whether process ``pid`` ends within ``seconds`` (waited on, not polled)."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        ready, _, _ = select.select([fd], [], [], seconds)
        return bool(ready)
    finally:
        os.close(fd)


@pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="pidfd_open is Linux-only")
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["kill", "term"])
def test_a_worker_exits_when_its_serving_process_ends(how: signal.Signals) -> None:
    serving = subprocess.Popen(
        [sys.executable, "-c", SERVING], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert serving.stdout is not None
        worker = int(serving.stdout.readline())
        assert worker != serving.pid
        assert not gone_within(worker, 0)  # alive while the server is
        serving.send_signal(how)
        serving.wait(timeout=30)
        assert gone_within(worker, 30), f"worker {worker} outlived its server ({how.name})"
    finally:
        serving.kill()
        serving.wait()
