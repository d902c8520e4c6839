"""Shared page widgets: DOM helpers (``dom``), the one toast, the one dialog, and forms."""
