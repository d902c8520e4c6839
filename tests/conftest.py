"""Settings shared by every test run (CPython and Pyodide alike). Keep this small."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

# No test is timed (speed targets live in tests/bench): hypothesis's per-example deadline and
# its too-slow health check would only measure how busy the machine is (they failed tests
# at random on a loaded 2-core machine), under CPython and under Pyodide, which runs the same
# tests several times slower.
settings.register_profile("untimed", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("untimed")
