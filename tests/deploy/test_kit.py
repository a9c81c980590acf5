"""The kit's systemd unit and environment file, checked without running systemd: the unit passes
``systemd-analyze verify`` (with the virtualenv's ``yacht`` as its command), systemd waits longer
than the server's own shutdown bound, and the environment file names only settings the server
reads."""

from __future__ import annotations

import configparser
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from yacht.strategy.cache import ENV_VAR as CACHE_DIR
from yacht.web.edge.serving import CLEANUP
from yacht.web.settings import SECRET_FILES, Settings

from .nginx import ROOT

UNIT = ROOT / "deploy" / "yacht@.service"
ENV = ROOT / "deploy" / "yacht.env.example"
YACHT = Path(sys.executable).with_name("yacht")


def unit() -> configparser.RawConfigParser:
    parser = configparser.RawConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(UNIT.read_text())
    return parser


def example() -> dict[str, str]:
    lines = [line for line in ENV.read_text().splitlines() if line and not line.startswith("#")]
    return dict(line.split("=", 1) for line in lines)


def test_the_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze not found: the Debian package systemd")
    text = UNIT.read_text()
    assert text.count("/opt/yacht/bin/yacht ") == 1
    instance = tmp_path / "yacht@8001.service"  # an instance, as systemctl would start it
    instance.write_text(text.replace("/opt/yacht/bin/yacht ", f"{YACHT} "))
    r = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", str(instance)], capture_output=True, text=True
    )
    assert r.returncode == 0 and r.stderr.strip() == "", r.stderr


def test_systemd_waits_longer_than_the_server_takes_to_stop() -> None:
    service = unit()["Service"]
    seconds = float(re.fullmatch(r"(\d+)s?", service["TimeoutStopSec"])[1])  # type: ignore[index]
    grace = float(example()["YACHT_SHUTDOWN_GRACE"])
    assert grace == Settings().shutdown_grace
    assert seconds > grace + CLEANUP  # the server's own bound: the grace, then its clean-up


def test_the_environment_file_names_only_what_the_server_reads() -> None:
    fields = {f"YACHT_{name.upper()}" for name in Settings.model_fields}
    known = fields | {CACHE_DIR, "FORWARDED_ALLOW_IPS", "YACHT_DATABASE_URL", "YACHT_REDIS_URL"}
    assert set(example()) - known == set()
    Settings.model_validate({k[6:].lower(): v for k, v in example().items() if k in fields})


def test_secrets_come_from_files_never_the_command_line() -> None:
    service = unit()["Service"]
    assert "--database" not in service["ExecStart"] and "--redis" not in service["ExecStart"]
    files = {k for k in example() if k.endswith("_FILE")}
    assert files == set()  # the file names come from the unit's credentials, not the example
    text = UNIT.read_text()
    for name in SECRET_FILES.values():
        assert re.search(rf"^Environment={name}=%d/", text, re.M), name
    assert not re.search(r"(postgres|redis)\w*://[^\s:]*:[^\s@]+@", ENV.read_text())


def test_the_unit_is_hardened() -> None:
    service = unit()["Service"]
    for option, value in {
        "NoNewPrivileges": "yes",
        "ProtectSystem": "strict",
        "ProtectHome": "yes",
        "PrivateTmp": "yes",
        "CapabilityBoundingSet": "",
        "Restart": "on-failure",
    }.items():
        assert service[option] == value, option
