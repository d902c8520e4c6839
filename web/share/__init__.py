"""Sharing and keeping: share links and their QR code, the read-only and embed viewer, static
exports, the library backup, persistent storage and the update prompt."""
