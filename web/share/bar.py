"""The viewer's frame (title bar, board and log, replay bar, menu) as markup: one source for
the viewer (``web/share/viewer.py``) and for the share link's picture, which builds it before
Python runs (``web/share-picture.js``, filled in by ``web/build.py``). Pure: no browser."""

from __future__ import annotations

from web.ui.html import el, joined, leaf

REPLAY = (
    ("replay-first", "First step", "M6 5v14M18 6l-8 6 8 6z"),
    ("replay-prev", "Previous step", "M16 6l-8 6 8 6z"),
    ("replay-play", "Play", "M8 5l11 7-11 7z"),
    ("replay-next", "Next step", "M8 6l8 6-8 6z"),
    ("replay-last", "Last step", "M18 5v14M6 6l8 6-8 6z"),
)
"""Replay buttons: command, accessible name, icon path."""

BAR = """
<header class="viewer-bar">
  <div class="viewer-title"><strong id="viewer-name"></strong>
    <span id="viewer-time" class="muted"></span></div>
  <button type="button" class="primary" data-cmd="import-copy" id="import-button">
    Import a copy</button>
  <button type="button" class="icon" data-cmd="viewer-menu" id="viewer-menu-button"
          aria-label="More" aria-haspopup="menu" aria-expanded="false" aria-controls="viewer-menu">
    <svg viewBox="0 0 24 24" aria-hidden="true"><path d="M5 12h.01M12 12h.01M19 12h.01"/></svg>
  </button>
</header>
<div id="viewer-note" role="status" hidden></div>
<div id="viewer-main"><section id="viewer-log" aria-labelledby="viewer-log-title">
  <h2 id="viewer-log-title" class="sr-only">Combat log</h2><ol id="log" aria-live="polite"></ol>
</section></div>
<nav class="replay-bar" aria-label="Replay">
__REPLAY__
  <span id="replay-pos" aria-live="polite"></span>
  <button type="button" data-cmd="viewer-log" aria-expanded="false" aria-controls="viewer-log"
          id="viewer-log-button">Log</button>
</nav>
<div id="viewer-menu" role="menu" aria-label="More" hidden>
  <button type="button" role="menuitem" data-cmd="export-svg">Board as SVG</button>
  <button type="button" role="menuitem" data-cmd="export-png">Board as PNG</button>
  <button type="button" role="menuitem" data-cmd="export-md">Log as Markdown</button>
  <button type="button" role="menuitem" data-cmd="export-json">Encounter file (.json)</button>
  <button type="button" role="menuitem" data-cmd="share-link">Copy link</button>
  <button type="button" role="menuitem" data-cmd="embed-code">Copy embed code</button>
  <a role="menuitem" id="open-app" target="_blank" rel="noopener">Open in Hex Combat</a>
</div>
""".replace(
    "__REPLAY__",
    joined(
        el(
            "button",
            el("svg", leaf("path", d=path), viewBox="0 0 24 24", aria_hidden="true"),
            type="button",
            class_="icon",
            data_cmd=cmd,
            aria_label=label,
            title=label,
            aria_pressed="false" if cmd == "replay-play" else None,
        )
        for cmd, label, path in REPLAY
    ),
)
