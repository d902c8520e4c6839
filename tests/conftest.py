"""Settings shared by every test run (CPython and Pyodide alike). Keep this small."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from _pytest.nodeid import NodeId
from hypothesis import HealthCheck, settings

# No test is timed (speed targets live in tests/bench): hypothesis's per-example deadline and
# its too-slow health check would only measure how busy the machine is (they failed tests
# at random on a loaded 2-core machine), under CPython and under Pyodide, which runs the same
# tests several times slower. A property test without its own count tries 50 examples (half
# hypothesis's default) in the suite and 500 in the long mode (tests/fuzz: HEXCOMBAT_FUZZ).
settings.register_profile(
    "untimed",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    max_examples=500 if int(os.environ.get("HEXCOMBAT_FUZZ", "0")) else 50,
)
settings.load_profile("untimed")


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> Iterator[None]:
    """Give pytest the ids pytest-xdist's ``--dist loadgroup`` writes: xdist 3.8.0 appends a
    test's ``@group`` to ``item._nodeid``, which pytest 9.2 no longer reads (it keeps the id
    in ``Node._id``), so without this every grouped test was handed out alone and a page or
    game shared by a group's tests was made on both workers."""
    yield
    for item in items:
        written = item.__dict__.get("_nodeid")
        if isinstance(written, str) and written != item.nodeid:
            item._id = NodeId.parse(written)
