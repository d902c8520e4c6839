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

PANEL_IMPORTS = (
    "hexcombat.share",
    "hexcombat.roster",
    "hexcombat.qr",
    "web.library.roster",
    "web.share.links",
    "web.share.backup",
    "web.share.exports",
    "web.share.panel",
)
"""What importing web.share.panel once the page is ready imports that the start has not,
each after what it imports: the page imports them one a task (together they held a slow
tablet's main thread half a second)."""
