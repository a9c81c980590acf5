"""Schemathesis against the OpenAPI document of a real ``yacht serve`` (PostgreSQL + Redis):
no generated request, valid or not, makes a server error. Bounded: a few dozen examples per
operation."""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from .conftest import Cluster


@pytest.fixture(scope="module")
def api(cluster: Cluster) -> object:
    return schemathesis.openapi.from_url(f"{cluster.b.url}/openapi.json")


schema = schemathesis.pytest.from_fixture("api")


@schema.parametrize()
@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_request_makes_a_server_error(case: Any) -> None:
    case.call_and_validate(checks=[not_a_server_error])


def test_and_the_server_logged_no_error(cluster: Cluster) -> None:
    assert cluster.b.errors() == []
