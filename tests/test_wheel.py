"""The package works outside the checkout: built with ``python -m build``, installed from its wheel
into a new virtualenv, run from a folder that is not the checkout.

The install takes the dependencies from the package index (pip's own cache makes a second run
quick); the checkout's ``src`` is never on the path there, so a file missing from the wheel
(static pages, migrations, compiled catalogs) shows up as a failing command.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
import venv
from pathlib import Path

import pytest

import yacht

ROOT = Path(__file__).resolve().parents[1]

# One worker builds and installs the wheel once for the three tests (under --dist loadgroup
# the module's tests could otherwise go to both workers and each build its own).
pytestmark = pytest.mark.xdist_group("wheel")


def run(*args: str | Path, cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [str(a) for a in args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, f"{args} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the new virtualenv's bin folder, a working folder outside the checkout)."""
    base = tmp_path_factory.mktemp("wheel")
    dist = base / "dist"
    run(sys.executable, "-m", "build", "--outdir", dist, ROOT, cwd=base)
    wheels = sorted(dist.glob("yacht-*.whl"))
    sdists = sorted(dist.glob("yacht-*.tar.gz"))
    assert [w.name for w in wheels] == [f"yacht-{yacht.__version__}-py3-none-any.whl"]
    assert [s.name for s in sdists] == [f"yacht-{yacht.__version__}.tar.gz"]
    env_dir = base / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)  # pip into it would take 8 s: this one's
    bin_dir = env_dir / "bin"
    # The wheel with its [web] dependencies, into the new environment by this environment's
    # pip; the bytecode is compiled as the commands import the modules, not all of it now.
    install: list[str | Path] = [sys.executable, "-m", "pip", "--python", bin_dir / "python"]
    run(*install, "install", "--quiet", "--no-compile", f"{wheels[0]}[web]", cwd=base)
    work = base / "elsewhere"
    work.mkdir()
    return bin_dir, work


def clean_env(work: Path) -> dict[str, str]:
    """The environment without the checkout on PYTHONPATH, data and cache in the work folder."""
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV"}}
    env["YACHT_DATA_DIR"] = str(work / "data")
    env["YACHT_CACHE_DIR"] = str(work / "cache")
    return env


def test_the_installed_command_reports_its_version_and_scores(installed: tuple[Path, Path]) -> None:
    bin_dir, work = installed
    env = clean_env(work)
    assert run(bin_dir / "yacht", "--version", cwd=work, env=env).strip() == (
        f"yacht {yacht.__version__}"
    )
    out = run(bin_dir / "yacht", "score", "5", "5", "5", "2", "1", "-c", "fives", cwd=work, env=env)
    assert out.strip() == "15"
    out = run(bin_dir / "yacht", "score", "6", "6", "6", "6", "6", "-c", "yacht", cwd=work, env=env)
    assert out.strip() == "50"
    where = run(bin_dir / "python", "-c", "import yacht; print(yacht.__file__)", cwd=work, env=env)
    assert Path(where.strip()).is_relative_to(bin_dir.parent), "ran the checkout, not the wheel"


def test_the_installed_hint_and_catalogs_work(installed: tuple[Path, Path]) -> None:
    bin_dir, work = installed
    env = clean_env(work)
    out = run(
        bin_dir / "yacht", "hint", "--dice", "5", "5", "5", "2", "1", "--rolls-left", "2",
        "--used", "ones,twos", cwd=work, env=env,
    )  # fmt: skip
    assert "* keep 5 5 5" in out
    finnish = run(bin_dir / "yacht", "rules", cwd=work, env={**env, "YACHT_LANG": "fi"})
    english = run(bin_dir / "yacht", "rules", cwd=work, env={**env, "YACHT_LANG": "en"})
    assert finnish != english, "the compiled Finnish catalog is not in the wheel"


def test_the_installed_server_serves_pages_and_migrates(installed: tuple[Path, Path]) -> None:
    bin_dir, work = installed
    env = clean_env(work)
    with socket_port() as port:
        server = subprocess.Popen(
            [bin_dir / "yacht", "serve", "--port", str(port)],
            cwd=work,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
    try:
        health = wait_for(f"http://127.0.0.1:{port}/health", server)
        assert "ok" in health
        lobby = wait_for(f"http://127.0.0.1:{port}/", server)
        assert "<html" in lobby.lower()
        assert (work / "data").exists(), "the database was not created in YACHT_DATA_DIR"
    finally:
        server.terminate()
        server.wait(timeout=30)


class socket_port:
    """A free port on 127.0.0.1, released when the block ends so the server can take it."""

    def __enter__(self) -> int:
        import socket

        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        port: int = self.sock.getsockname()[1]
        return port

    def __exit__(self, *exc: object) -> None:
        self.sock.close()


def wait_for(url: str, server: subprocess.Popen[str], seconds: float = 60) -> str:
    deadline = time.monotonic() + seconds
    while True:
        if server.poll() is not None:
            _, err = server.communicate()
            raise AssertionError(f"yacht serve exited {server.returncode}:\n{err}")
        try:
            with urllib.request.urlopen(url, timeout=5) as answer:
                body: str = answer.read().decode()
                return body
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
