"""Browser end-to-end tests (Playwright + headless Chromium)."""
