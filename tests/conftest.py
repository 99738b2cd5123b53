"""Shared test setup: the Discord emulator fixtures, seeded randomness, no timing.

Tables get their deal seed from ``secrets.token_hex``. In tests it is derived
from the test's id, so every deal is the same on every run and in any order
(pytest-randomly reseeds ``random`` and Hypothesis per test the same way). A
test that needs one particular deal patches ``secrets.token_hex`` itself.

Hypothesis never times examples (no deadline, no "too slow" health check): on
a loaded machine those fail at random without saying anything about the code.
Its examples are derandomized (drawn from a seed derived from each test) and no
example database is kept, so every run, here or in CI, tries the same examples.
"""

from __future__ import annotations

import hashlib
import random
import secrets

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("tests", deadline=None, suppress_health_check=[HealthCheck.too_slow],
                          derandomize=True, database=None)
settings.load_profile("tests")

pytest_plugins = ["tests.emulator.fixtures", "tests.postgres"]


@pytest.fixture(autouse=True)
def seeded_token_hex(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """``secrets.token_hex`` from a generator seeded by the test's node id."""
    digest = hashlib.sha256(request.node.nodeid.encode()).digest()
    rng = random.Random(digest)

    def token_hex(nbytes: int | None = None) -> str:
        return rng.randbytes(32 if nbytes is None else nbytes).hex()

    monkeypatch.setattr(secrets, "token_hex", token_hex)
