"""The exact distribution of the final total under optimal play."""

import numpy as np
import pytest

from yacht.rules import rules_by_name
from yacht.strategy import solve
from yacht.strategy.distribution import PERCENTILES, distribution


@pytest.mark.parametrize("preset", ["traditional", "knizia"])
def test_distribution_sums_to_one_and_its_mean_is_the_expected_score(preset: str) -> None:
    d = distribution(preset)
    assert d.probabilities.sum() == pytest.approx(1.0, abs=1e-12)
    assert d.mean == pytest.approx(solve(preset).expected, abs=1e-9)
    assert (d.probabilities >= 0).all()
    assert d.probabilities.size == rules_by_name(preset).max_total() + 1


def test_percentiles_and_json() -> None:
    d = distribution("traditional")
    data = d.to_json()
    assert list(data["percentiles"]) == [str(q) for q in PERCENTILES]
    cuts = list(data["percentiles"].values())
    assert cuts == sorted(cuts) and cuts[0] < data["mean"] < cuts[-1]
    cdf = np.cumsum(d.probabilities)
    median = data["percentiles"]["50"]
    assert cdf[median] >= 0.5 > cdf[median - 1]
    assert data["stdev"] == pytest.approx(d.stdev) and 30 < d.stdev < 40
    assert sum(data["probabilities"]) == pytest.approx(1.0)
    # Choice always scores at least 5, so no sheet totals less; a perfect sheet can happen.
    assert (d.probabilities[:5] == 0).all() and d.probabilities[297] > 0
