"""The strategy tables the browser reads (static/tables/): exactly what
``python -m yacht.strategy.browser`` writes from the shipped solver values, every preset's
rules as data that rebuild its scorers, and small enough to download."""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

import yacht.scorers
from yacht.rules import CATEGORIES, Rules, preset_names, rules_by_name
from yacht.scorers import FaceSum
from yacht.strategy import browser, cache, solve
from yacht.strategy.shipping import shipped_keys


def values_of(name: str) -> np.ndarray:
    index = json.loads((browser.TABLES / "index.json").read_text())
    (entry,) = [p for p in index["presets"] if p["name"] == name]
    raw = (browser.TABLES / entry["values"]["file"]).read_bytes()
    return np.frombuffer(raw, dtype="<f8").reshape(entry["values"]["masks"], -1)


def test_the_files_are_what_the_generator_writes() -> None:
    made = browser.browser_files()
    on_disk = {p.name for p in browser.TABLES.iterdir()}
    assert on_disk == set(made), "run python -m yacht.strategy.browser"
    stale = [
        name for name, content in made.items() if (browser.TABLES / name).read_bytes() != content
    ]
    assert stale == [], "run python -m yacht.strategy.browser"


def test_every_preset_has_its_rules_and_the_shipped_values_to_the_bit() -> None:
    index = json.loads((browser.TABLES / "index.json").read_text())
    assert index["format"] == browser.FORMAT
    assert index["categories"] == [c.value for c in CATEGORIES]
    assert [p["name"] for p in index["presets"]] == preset_names()
    for entry in index["presets"]:
        rules = rules_by_name(entry["name"])
        rebuilt = [
            getattr(yacht.scorers, s["kind"])(
                **{k: tuple(v) if isinstance(v, list) else v for k, v in s.items() if k != "kind"}
            )
            for s in entry["scorers"]
        ]
        assert rebuilt == [rules.scorers[c] for c in CATEGORIES]
        bonus = rules.upper_bonus
        assert entry["upper_bonus"] == (
            bonus and {"threshold": bonus.threshold, "points": bonus.points}
        )
        assert entry["fingerprint"] == rules.fingerprint()
        key = shipped_keys()[entry["name"]]
        with np.load(cache.SHIPPED / f"{key}.npz") as data:
            shipped = data["array"]
        raw = (browser.TABLES / entry["values"]["file"]).read_bytes()
        assert entry["values"]["sha256"] == hashlib.sha256(raw).hexdigest()
        assert entry["values"]["uppers"] == shipped.shape[1]
        assert values_of(entry["name"]).tobytes() == shipped.astype("<f8").tobytes()
        assert entry["expected"] == shipped[0, 0]


@pytest.mark.parametrize("name", ["traditional", "all-dice-four", "knizia"])
def test_the_values_are_the_ones_the_solver_builds_now(name: str) -> None:
    # To 1e-9 points, not to the bit: another numpy may add in another order (test_shipped.py).
    built = solve(name, use_cache=False).values()
    np.testing.assert_allclose(values_of(name), built, rtol=0, atol=1e-9)


def test_the_tables_are_small_enough_to_download() -> None:
    index = json.loads((browser.TABLES / "index.json").read_text())
    sizes = {}
    for entry in index["presets"]:
        raw = (browser.TABLES / entry["values"]["file"]).read_bytes()
        assert len(raw) == entry["values"]["bytes"] == 8 * 4096 * entry["values"]["uppers"]
        sizes[entry["name"]] = len(gzip.compress(raw, compresslevel=6, mtime=0))
    assert sizes["traditional"] < 64 * 1024  # the bar, as a server's gzip sends it


def test_a_scorer_the_browser_cannot_score_is_refused_and_nothing_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Doubles(FaceSum):
        pass

    odd = Rules("odd", {**rules_by_name("traditional").scorers, CATEGORIES[0]: Doubles(1)})
    with pytest.raises(
        ValueError, match=r"solver.js cannot score a Doubles \(.*Doubles\(face=1\)\)"
    ):
        browser.rules_data(odd)
    monkeypatch.setattr(
        browser, "rules_by_name", lambda name: odd if name == "knizia" else rules_by_name(name)
    )
    (tmp_path / "values-gone-v1.bin").write_bytes(b"old")
    with pytest.raises(ValueError, match="Doubles"):
        browser.write(tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["values-gone-v1.bin"]


def test_writing_replaces_a_stale_file_and_removes_one_no_preset_uses(tmp_path: Path) -> None:
    (tmp_path / "values-gone-v1.bin").write_bytes(b"old")
    (tmp_path / "index.json").write_text("{}")
    made = browser.write(tmp_path)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == made
