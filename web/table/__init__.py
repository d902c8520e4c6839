"""Playing one fight on several devices with no server: pairing by a short text or a QR code
over a WebRTC data channel (host candidates only), the GM's device hosting, others joining."""

TABLE_COMMANDS = (
    "table",
    "table-host",
    "table-offer",
    "table-accept",
    "table-join",
    "table-answer",
    "table-seat",
    "table-leave",
    "table-rename",
    "table-rolls",
    "table-release",
    "table-void",
)
"""The commands web.table.panel registers (the app routes them to it until it is imported)."""
