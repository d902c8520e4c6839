"""Sharing and keeping: share links and their QR code, the read-only and embed viewer, static
exports, the library backup, persistent storage and the update prompt."""

PANEL_COMMANDS = (
    "share",
    "share-copy",
    "embed-copy",
    "export-svg",
    "export-png",
    "export-md",
    "storage",
    "persist",
    "export-all",
    "import-all",
    "update-reload",
    "update-later",
)
"""The commands web.share.panel registers (the app routes them to it until it is imported)."""
