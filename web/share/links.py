"""Pure helpers of share links (tested under CPython): which page a URL asks for, the links
and the embed snippet, and the links already imported into this browser's library."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from hexcombat.document import read_json
from hexcombat.errors import HexcombatError
from hexcombat.share import code_from_fragment
from web.ui.html import el

IMPORTED_KEY = "hexcombat.shared"
"""localStorage key: JSON {link fingerprint: library entry id} of imported share links."""
EMBED_SIZE = (700, 500)


def page_kind(search: str, fragment: str) -> str:
    """``embed`` (``?embed`` in the query), ``view`` (a share code in the fragment) or ``app``.

    The query's names are read as index.html's start-up script reads them (not unquoted):
    ``urllib.parse`` would cost every start its imports."""
    if "embed" in {part.split("=", 1)[0] for part in search.lstrip("?").split("&")}:
        return "embed"
    return "view" if code_from_fragment(fragment) else "app"


def base_url(href: str) -> str:
    """The page's address without query and fragment (``https://x.org/hex/``)."""
    return href.split("#", 1)[0].split("?", 1)[0]


def share_url(href: str, fragment: str) -> str:
    """The link that opens the read-only view of an encounter."""
    return base_url(href) + fragment


def embed_url(href: str, fragment: str) -> str:
    """The address of the embed view of an encounter."""
    return base_url(href) + "?embed" + fragment


def embed_code(href: str, fragment: str, title: str, size: tuple[int, int] = EMBED_SIZE) -> str:
    """The ``<iframe>`` snippet for a wiki page."""
    width, height = size
    snippet = el(
        "iframe",
        src=embed_url(href, fragment),
        width=width,
        height=height,
        title=f"{title} (Hex Combat)",
        style="border:0;max-width:100%",
        loading="lazy",
        allow="clipboard-write",
    )
    return str(snippet)  # text to copy: shown escaped wherever the page puts it


class Imported:
    """Which share links were imported, and as which library entry (a second import of the
    same link is recognised). Reads and writes through ``get``/``set`` of one key's text."""

    def __init__(self, get: Callable[[str], Any], set_: Callable[[str, str], None]) -> None:
        self._get = get
        self._set = set_

    def _all(self) -> dict[str, str]:
        try:
            data = read_json(self._get(IMPORTED_KEY) or "{}")
        except HexcombatError:  # damaged or hostile: forget the notes, keep the page usable
            return {}
        if not isinstance(data, dict):
            return {}
        return {str(k): str(v) for k, v in data.items() if isinstance(v, str)}

    def entry_of(self, link_id: str) -> str | None:
        """The library entry the link ``link_id`` was imported as, if any."""
        return self._all().get(link_id)

    def note(self, link_id: str, entry_id: str) -> None:
        """Remember that link ``link_id`` became entry ``entry_id``."""
        data = self._all()
        data[link_id] = entry_id
        self._set(IMPORTED_KEY, json.dumps(data, separators=(",", ":")))
