"""The board: an SVG of hexes and figure tokens, pan and zoom, highlights (``view``)."""
