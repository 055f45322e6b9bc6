"""The one-time build of the Stan program announces itself, and so does waiting on it."""

from __future__ import annotations

import fcntl
import logging
import threading
import time
from pathlib import Path

import pytest

from cvcompare.hierarchical import cache, native, runners


@pytest.fixture
def fake_native(tmp_path, monkeypatch):
    """A native runner whose compiler steps only write their output file (no real build)."""
    pytest.importorskip("httpstan")
    monkeypatch.setenv("CVCOMPARE_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(native, "_compiler", lambda: "g++")
    monkeypatch.setattr(native, "_host_cpu_flags", lambda compiler: ((), "test-cpu"))
    monkeypatch.setattr(native, "_inlining_flags", lambda compiler: ())

    def fake_call(command, what):
        flag = "--o" if "--o" in command else "-o"
        Path(command[command.index(flag) + 1]).write_text("built")

    monkeypatch.setattr(native, "run_checked", fake_call)
    return runners.NativeRunner()


def test_first_build_is_announced_with_its_duration_then_silent(fake_native, caplog):
    with caplog.at_level(logging.WARNING, logger="cvcompare.hierarchical"):
        exe = fake_native.executable()
        assert f"one-time build of {cache.BUILD_DURATION}" in caplog.text
        assert "about 2 minutes" in caplog.text and str(exe.parent) in caplog.text
        caplog.clear()
        assert fake_native.executable() == exe  # reused: nothing to announce
        assert caplog.text == ""


def test_waiting_on_another_process_build_is_announced(fake_native, caplog):
    exe = fake_native.executable()
    lock = exe.parent.with_suffix(".lock")
    with caplog.at_level(logging.WARNING, logger="cvcompare.hierarchical"):
        with open(lock, "a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)  # another open file: blocks the runner
            worker = threading.Thread(target=fake_native.executable)
            worker.start()
            deadline = time.monotonic() + 10
            while "waiting for another process" not in caplog.text:
                assert time.monotonic() < deadline, "no waiting message within 10 s"
                time.sleep(0.01)
            assert worker.is_alive()  # still waiting for the lock
            fcntl.flock(handle, fcntl.LOCK_UN)
        worker.join(timeout=10)
        assert not worker.is_alive()
