"""What the page needs only after its first draw: ``later.tar.bz2`` (see web/build.py).

It holds the rulesets a first start does not open, the CLI, and the set-up, library and
share panels. Once the page is ready the start-up controller fetches it
(``hexcombatBoot.later``), a worker decompresses it (``hexcombatBoot.bunzip2``, off the
main thread) and :func:`load` unpacks it beside the start's files (with ``python-start.mjs``'s
reader of tars, ``hexcombatBoot.untar``, which writes the files in slices the page answers
between: importing Python's ``tarfile`` and extracting with it took about 0.2 s of the main
thread just after the page was ready). While the page starts, what it opens is checked
first (:func:`load_for` with the rulesets the library lists; the share viewer loads it in
any case): an asynchronous request, which the service worker answers offline. An import
that needs it before it is unpacked all the same (a tap on Set up in the first moment)
fetches it at once (:class:`LaterFinder`: a synchronous request, which the service worker
does not see). Either way it is unpacked once.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import io
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import js  # type: ignore[import-not-found]

from hexcombat.rulesets import ruleset_entries

URL = "./later.tar.bz2"
PACKAGES = ("hexcombat.", "web.")
# A synchronous request returns bytes as text in the "x-user-defined" charset: bytes
# 0x80-0xFF come as U+F780-U+F7FF.
_BYTES = {0xF780 + i: 0x80 + i for i in range(128)}
_unpacked = False


def unpack(data: bytes) -> None:
    """Unpack the archive (``data``: bzip2 as fetched, or its tar) into the home folder (on
    ``sys.path``), once, with Python's ``tarfile``."""
    if _unpacked:
        return
    import tarfile  # (here: a start imports nothing else of it, and it takes long to import)

    with tarfile.open(fileobj=io.BytesIO(data), mode="r:*") as archive:
        archive.extractall(os.getcwd(), filter="data")
    _unpacked_now()


def _unpacked_now() -> None:
    """Note that the archive's files are there, and let imports see them: each path entry's
    finder forgets the folder it listed, as ``importlib.invalidate_caches()`` does, without
    the import of ``importlib.metadata`` that makes (0.5 s of a slow tablet's main thread)."""
    global _unpacked
    for name, finder in list(sys.path_importer_cache.items()):
        if finder is None or not os.path.isabs(name):
            del sys.path_importer_cache[name]
        elif hasattr(finder, "invalidate_caches"):
            finder.invalidate_caches()
    _unpacked = True


async def load() -> None:
    """Fetch (through the offline copy), decompress in a worker and unpack the archive: the
    controller's request once the page is ready, else a request of its own."""
    if _unpacked:
        return
    fetched = getattr(js.hexcombatBoot, "later", None)
    if fetched is None:
        response = await js.fetch(URL)
        if not response.ok:
            raise ImportError(f"{URL} could not be loaded (HTTP {response.status})")
        fetched = js.hexcombatBoot.later = response.arrayBuffer()  # the controller's too
    data = await fetched
    tar = await js.hexcombatBoot.bunzip2(data)  # None if the worker could not: Python's bz2
    untar = getattr(js.hexcombatBoot, "untar", None)  # python-start.mjs's, when it started Python
    # <html data-later-unpacked>: "worker" when decompressed in a worker and written out by
    # python-start.mjs's reader of tars, "python" when Python's bz2 or tarfile had to
    html = js.document.documentElement
    if tar is not None and untar is not None and not _unpacked:
        await untar(tar)  # in slices: the page answers meanwhile
        _unpacked_now()
        html.dataset.laterUnpacked = "worker"
    else:
        unpack(data.to_bytes() if tar is None else tar.to_bytes())
        html.dataset.laterUnpacked = "python"


def needed_for(ruleset_id: str) -> bool:
    """True when the ruleset's module is neither imported (the start-up snapshot has them
    all) nor unpacked yet: opening an encounter of it needs ``later.tar.bz2`` first."""
    entry = next((e for e in ruleset_entries() if e.id == ruleset_id), None)
    if entry is None or _unpacked or entry.module in sys.modules:
        return False
    package = importlib.import_module(entry.module.rpartition(".")[0])
    return importlib.machinery.PathFinder.find_spec(entry.module, package.__path__) is None


async def load_for(*ruleset_ids: str) -> None:
    """Before opening encounters of ``ruleset_ids`` while the page starts: make sure their
    modules are there (an asynchronous request, served offline by the service worker)."""
    if any(needed_for(ruleset_id) for ruleset_id in ruleset_ids):
        await load()


def load_now() -> None:
    """Fetch and unpack ``later.tar.bz2`` now (a synchronous request; Python's bz2)."""
    request = js.XMLHttpRequest.new()
    request.open("GET", URL, False)
    request.overrideMimeType("text/plain; charset=x-user-defined")
    request.send()
    if request.status != 200:
        raise ImportError(f"{URL} could not be loaded (HTTP {request.status})")
    unpack(str(request.responseText).translate(_BYTES).encode("latin-1"))


class LaterFinder(importlib.abc.MetaPathFinder):
    """Before ``later.tar.bz2`` is unpacked, a module of ours that is not found is looked for
    again after unpacking it."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> Any:
        if _unpacked or not fullname.startswith(PACKAGES):
            return None
        load_now()
        return importlib.machinery.PathFinder.find_spec(fullname, path)


def install() -> None:
    """Put the finder last on ``sys.meta_path`` (after the usual ones have not found)."""
    if not any(isinstance(f, LaterFinder) for f in sys.meta_path):
        sys.meta_path.append(LaterFinder())
