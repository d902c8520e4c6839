"""The browser tests' launch switches keep Playwright's own disabled features (a second
``--disable-features`` replaces the first): tests/browser/chromium_flags.py."""

from __future__ import annotations

import pytest

from .chromium_flags import CHROMIUM_ARGS, NOT_NEEDED, playwright_disabled_features

pytestmark = pytest.mark.browser


def test_the_disabled_features_are_playwrights_and_ours() -> None:
    theirs = playwright_disabled_features()
    assert "ThirdPartyStoragePartitioning" in theirs and "PaintHolding" in theirs, theirs
    switches = [a for a in CHROMIUM_ARGS if a.startswith("--disable-features=")]
    assert switches == ["--disable-features=" + ",".join([*theirs, *NOT_NEEDED])]
