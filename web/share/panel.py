"""The app's share and keep commands: the Share dialog (link, QR code, embed code, static
exports), Storage and backup (persistent storage, Export all, Import all), and the prompt
when a new version of the app is ready.

The app calls :func:`register` when it is made and :func:`after_start` once it is ready; this
module never imports the app (it reaches it as a :class:`Host`).
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

import js  # type: ignore[import-not-found]

from hexcombat import Encounter, HexcombatError
from hexcombat.document import from_document, read_json
from hexcombat.share import LINK_LIMIT, fingerprint, share_fragment
from web.commands import Commands, plain
from web.library import storage
from web.library.pictures import PagePictures, PictureRefusedError, usage_words
from web.library.roster import Rosters
from web.share import PANEL_COMMANDS, backup, exports, links
from web.ui.dom import byid, listen, present, proxy
from web.ui.files import download_text
from web.ui.html import el
from web.ui.words import counted, problems_text

REMIND_KEY = "hexcombat.backup-reminded"
"""localStorage key: when the page last reminded to export a backup (ms since 1970)."""
REMIND_EVERY_MS = 14 * 24 * 3600 * 1000
FIRST_REMINDER_MS = 2 * 24 * 3600 * 1000

_tasks: set[asyncio.Future[None]] = set()
_kept: list[Any] = []
"""Proxies that live as long as the page (event listeners on the service worker)."""


class Host(Protocol):
    """What these commands use of the app."""

    commands: Commands
    library: storage.Library
    pictures: PagePictures
    view: dict[str, Any]

    @property
    def encounter(self) -> Encounter: ...

    def dialog(self, title: str, body_html: str) -> Any: ...

    def close_dialog(self) -> None: ...

    def toast(self, message: str, *, bad: bool = False, undo: bool = False) -> None: ...

    def hint(self, message: str, button: str, cmd: str) -> None: ...


def spawn(work: Any) -> None:
    """Run a coroutine in the background, kept referenced until it is done."""
    task = asyncio.ensure_future(work)
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)


def register(host: Host) -> None:
    """Register the share, export, storage and update commands in the app's registry."""

    def bad(message: str) -> None:
        host.toast(message, bad=True)

    def board_file(kind: str) -> None:
        spawn(exports.export_board(host.encounter, host.pictures, kind, bad))

    simple: dict[str, Any] = {
        "share": lambda: share_dialog(host),
        "share-copy": lambda: spawn(copy_from(host, "link")),
        "embed-copy": lambda: spawn(copy_from(host, "embed")),
        "export-svg": lambda: board_file("svg"),
        "export-png": lambda: board_file("png"),
        "export-md": lambda: exports.export_markdown(host.encounter),
        "storage": lambda: storage_dialog(host),
        "persist": lambda: spawn(ask_persist(host, show=True)),
        "export-all": lambda: spawn(export_all(host)),
        "import-all": lambda: choose_backup(host),
        "update-reload": update_now,
        "update-later": lambda: byid("update-banner").remove(),
    }
    assert set(simple) == set(PANEL_COMMANDS), set(simple) ^ set(PANEL_COMMANDS)
    for name, fn in simple.items():
        # replace: the app's stand-in that imported this module on the first of them
        host.commands.register(name, plain(fn), replace=True)


# ---- share ------------------------------------------------------------------------------------
def share_dialog(host: Host) -> None:
    """The Share dialog: the link (or why there is none), its QR code, embed code, exports."""
    enc = host.encounter
    href = str(js.location.href)
    fragment = share_fragment(enc)
    link = links.share_url(href, fragment)
    embed = links.embed_code(href, fragment, enc.setup.name)
    fits = len(link) <= LINK_LIMIT
    qr = exports.qr_markup(link) if fits else ""
    embed_part = (
        '<details class="share-embed"><summary>Embed in a wiki</summary>'
        + el(
            "label",
            "Embed code (an iframe with this encounter)",
            el("textarea", embed, readonly=True, rows=3, data_share="embed"),
            class_="share-field",
        )
        + '<button type="button" data-cmd="embed-copy">Copy embed code</button></details>'
        if fits
        else ""
    )
    picture = host.view.get("picture")
    left_out = (
        el("p", picture["share_words"], class_="hint", data_share="no-picture") if picture else ""
    )
    host.dialog(
        "Share",
        '<div class="share" data-share="dialog">'
        + exports.link_markup(link)
        + left_out
        + qr
        + '<p class="muted">Whoever opens the link sees this encounter read-only and can import '
        "a copy. To play by post: they play their step and share their link back; you see "
        "the new log entries before importing.</p>" + embed_part + "<h3>Pictures and text</h3>"
        '<div class="row wrap"><button type="button" data-cmd="export-svg">Board as SVG</button>'
        '<button type="button" data-cmd="export-png">Board as PNG</button>'
        '<button type="button" data-cmd="export-md">Log as Markdown</button></div></div>',
    )


async def copy_from(host: Host, what: str) -> None:
    """Copy the dialog's link or embed code (selected for Ctrl+C when copying is refused)."""
    area = byid("dialog").querySelector(f'[data-share="{what}"]')
    if not present(area):
        return
    if await exports.copy_text(str(area.value)):
        host.toast("Copied.")
    else:
        area.select()
        host.toast("The browser does not allow copying here: press Ctrl+C (⌘C).")


# ---- storage and backup -----------------------------------------------------------------------
def storage_state() -> str:
    """``persistent``, ``best-effort`` or ``unknown`` (as last found, on ``<html>``; not yet
    found in the first moments after start, when the attribute is absent)."""
    return str(getattr(js.document.documentElement.dataset, "storage", None) or "unknown")


def storage_dialog(host: Host) -> None:
    """Where the encounters are kept, whether the browser promised to keep them, backups."""
    state = storage_state()
    count = len(host.library.entries()) if host.library.persistent else 0
    if not host.library.persistent:
        status = (
            '<p class="bad" data-storage-status="none">This browser keeps nothing for this page '
            "(storage is blocked): encounters are lost when the page closes. Export them.</p>"
        )
    elif state == "persistent":
        status = (
            '<p data-storage-status="persistent">✓ The browser keeps your encounters: it '
            "promised not to clear them to free space.</p>"
        )
    else:
        status = (
            '<p data-storage-status="best-effort">The browser may clear saved encounters '
            "when space runs low (Safari also after weeks without a visit). Keep a backup: "
            "Export all now and then.</p>"
            '<button type="button" data-cmd="persist">Ask the browser to keep them</button>'
        )
    host.dialog(
        "Storage and backup",
        '<div class="storage" data-storage-dialog>'
        + status
        + el("p", f"{count} encounter{'s' if count != 1 else ''} in this browser's library.")
        + '<p data-picture-usage="loading" class="muted">Counting the map pictures…</p>'
        '<div class="row wrap"><button type="button" class="primary" data-cmd="export-all">'
        "Export all</button>"
        '<button type="button" data-cmd="import-all">Import all…</button></div>'
        '<input type="file" accept=".json,application/json" data-backup-file hidden>'
        '<p class="muted">Import all adds the encounters of a backup file as new entries; it '
        "never replaces one, and skips those already in the library. Its roster characters "
        "join the rosters the same way.</p></div>",
    )
    spawn(show_picture_usage(host))


async def show_picture_usage(host: Host) -> None:
    """The Storage dialog's line on the map pictures, with the browser's quota."""
    usage = await (await host.pictures.store()).usage()
    line = byid("dialog").querySelector("[data-picture-usage]")
    if present(line):
        line.textContent = usage_words(usage)
        line.dataset.pictureUsage = str(usage.pictures)


async def check_persist(host: Host) -> None:
    """Find out whether storage is persistent; ask once; remind to back up when it is not."""
    manager = getattr(js.navigator, "storage", None)
    if manager is None or not hasattr(manager, "persisted"):
        return
    try:
        kept = bool(await manager.persisted())
        if not kept:
            kept = bool(await manager.persist())
    except Exception:
        return
    js.document.documentElement.dataset.storage = "persistent" if kept else "best-effort"
    if kept or not host.library.persistent or not host.library.entries():
        return
    try:
        now = float(js.Date.now())
        noted = js.localStorage.getItem(REMIND_KEY)
        if not isinstance(noted, str):  # a first visit: the first reminder comes in two days
            js.localStorage.setItem(REMIND_KEY, str(int(now - REMIND_EVERY_MS + FIRST_REMINDER_MS)))
            return
        if now - float(noted or 0) < REMIND_EVERY_MS:
            return
        js.localStorage.setItem(REMIND_KEY, str(int(now)))
    except Exception:
        return
    host.hint(
        "This browser may clear saved encounters when space runs low. Keep a backup file.",
        "Back up",
        "storage",
    )


async def ask_persist(host: Host, *, show: bool) -> None:
    """The user asked to keep the encounters: ask the browser, and say what it answered."""
    try:
        kept = bool(await js.navigator.storage.persist())
    except Exception:
        kept = False
    js.document.documentElement.dataset.storage = "persistent" if kept else "best-effort"
    if show:
        storage_dialog(host)
        host.toast(
            "The browser will keep them."
            if kept
            else "The browser did not promise to keep them (it decides by how the site is used; "
            "installing the app usually helps). Keep a backup file."
        )


async def export_all(host: Host) -> None:
    """Download every encounter of the library and every map picture as one backup file."""
    documents = []
    for entry in host.library.entries():
        try:
            documents.append(read_json(host.library.export(entry.id)[1]))
        except (storage.LibraryError, HexcombatError):
            continue  # a damaged entry stays in the library, untouched
    pictures = await (await host.pictures.store()).every()
    stamp = str(js.Date.new().toISOString())[:10]
    rosters = Rosters(host.library.store).documents()
    text = backup.bundle(documents, stamp, pictures, rosters)
    download_text(f"hexcombat-library-{stamp}.json", text)
    also = f" and {len(pictures)} map {counted(len(pictures), 'pictures')}" if pictures else ""
    if rosters:
        also += f" and {len(rosters)} {counted(len(rosters), 'rosters')}"
    host.toast(f"Exported {len(documents)} {counted(len(documents), 'encounters')}{also}.")


def choose_backup(host: Host) -> None:
    """Pick a backup file for Import all."""
    chooser = byid("dialog").querySelector("[data-backup-file]")
    if not present(chooser):
        return

    def chosen(ev: Any) -> None:
        files = ev.target.files
        if files and files.length:
            spawn(import_all(host, files.item(0)))

    listen(chooser, "change", chosen)
    chooser.click()


async def import_all(host: Host, file: Any) -> None:
    """Add the encounters of a backup file (never over an entry; known ones skipped) and the
    characters of its rosters (never over a character)."""
    text = str(await file.text())
    try:
        found = backup.unbundle(text)
    except HexcombatError as exc:
        host.toast(f"{file.name}: {problems_text(exc)}", bad=True)
        return
    documents = found.encounters
    pictures, picture_problems = await keep_pictures(host, found)
    characters, bad_rosters = Rosters(host.library.store).import_documents(found.rosters)
    known = set()
    for entry in host.library.entries():
        try:
            known.add(fingerprint(read_json(host.library.export(entry.id)[1])))
        except (storage.LibraryError, HexcombatError):
            continue
    fresh, skipped = backup.new_ones(documents, known)
    added, refused = 0, 0
    for doc in fresh:
        try:
            host.library.add(from_document(doc))
            added += 1
        except (HexcombatError, storage.LibraryError):
            refused += 1
    words = f"Imported {added} encounter{'s' if added != 1 else ''}"
    if skipped:
        words += f"; {skipped} already in the library"
    if refused:
        words += f"; {refused} could not be read"
    if pictures:
        words += f"; {pictures} map {counted(pictures, 'pictures')} kept"
    if characters:
        words += f"; {characters} roster {counted(characters, 'characters')}"
    if picture_problems:
        words += ". Pictures left out: " + "; ".join(picture_problems)
    if bad_rosters:
        words += ". Rosters refused, nothing of them changed: " + "; ".join(bad_rosters)
    host.toast(words + ".", bad=(refused > 0 or bool(bad_rosters)) and added == 0)
    storage_dialog(host)


async def keep_pictures(host: Host, found: backup.Backup) -> tuple[int, list[str]]:
    """Put a backup's pictures in the store: (how many are kept, why each other one is not)."""
    store = await host.pictures.store()
    kept, problems = 0, list(found.refused_pictures)
    for picture in found.pictures:
        try:
            await store.put(picture.data, picture.type)
            kept += 1
        except PictureRefusedError as exc:
            problems.append(f"{picture.digest[:12]}…: {exc}")
    return kept, problems


# ---- updates ------------------------------------------------------------------------------------
async def watch_updates() -> None:
    """When a new build's service worker is installed and waiting, ask before reloading."""
    container = getattr(js.navigator, "serviceWorker", None)
    if container is None:
        return
    try:
        registration = await container.ready
    except Exception:
        return

    def offer(*_: Any) -> None:
        if registration.waiting and container.controller:
            show_update_banner()

    def track(worker: Any) -> None:
        if not worker:
            return
        changed = proxy(lambda *_: offer() if str(worker.state) == "installed" else None)
        _kept.append(changed)
        worker.addEventListener("statechange", changed)

    found = proxy(lambda *_: track(registration.installing))
    _kept.append(found)
    registration.addEventListener("updatefound", found)
    track(registration.installing)
    offer()


def show_update_banner() -> None:
    """ "A new version is ready": reload now, or later (never without asking)."""
    if present(js.document.getElementById("update-banner")):
        return
    banner = js.document.createElement("div")
    banner.id = "update-banner"
    banner.setAttribute("role", "status")
    banner.innerHTML = (
        "<span>A new version of Hex Combat is ready. Your encounters are saved.</span>"
        '<button type="button" class="primary" data-cmd="update-reload">Reload now</button>'
        '<button type="button" data-cmd="update-later">Later</button>'
    )
    byid("app-root").append(banner)


def update_now() -> None:
    """The user agreed: let the waiting worker take over, then reload once it has."""
    container = js.navigator.serviceWorker

    def reload(*_: Any) -> None:
        js.location.reload()

    done = proxy(reload)
    _kept.append(done)
    container.addEventListener("controllerchange", done)

    async def skip() -> None:
        registration = await container.getRegistration()
        if registration and registration.waiting:
            registration.waiting.postMessage("skip-waiting")
        else:
            js.location.reload()

    spawn(skip())


# ---- after start --------------------------------------------------------------------------------
def after_start(host: Host) -> None:
    """Once the app is ready: a share link pasted into this tab opens it; storage; updates."""

    def hash_changed(*_: Any) -> None:
        if links.page_kind(str(js.location.search), str(js.location.hash)) != "app":
            js.location.reload()

    listen(js.window, "hashchange", hash_changed)
    spawn(check_persist(host))
    spawn(watch_updates())
