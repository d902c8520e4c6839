"""The encounter library panel in the browser: demos, create, reload, rename, duplicate,
delete/undo, export/import, invalid imports, damaged entries and a full storage.

The panel is mounted by a small test start-up script (``LIBRARY_MAIN``) in a copy of the
built site, so these tests depend only on the library's own modules and callbacks.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from hexcombat import loads, to_document
from hexcombat.schema import Choice, FieldSpec
from hexcombat.view import rulesets_view
from web.library.storage import Library, LibraryError, MemoryStore

from .conftest import ARTIFACTS, VIEWPORTS, App, new_app

pytestmark = pytest.mark.browser

DEMO = Path(__file__).resolve().parents[2] / "static" / "demos" / "skirmish.json"
DEMO_NAME = "Skirmish at the ford"

LIBRARY_MAIN = '''
"""Test start-up: the library panel alone, with callbacks that report into the page.

window.remountLibrary(clear) closes the panel, empties localStorage when asked, and opens
a new panel: tests share one started page instead of starting Python for each.
window.buildTestForm / readTestForm / showTestProblems drive web/ui/forms.py (JSON text in/out).
"""
import json
import traceback

import js
from pyodide.ffi import create_proxy


async def start():
    from web import boot, later

    later.install()  # the library panel comes in later.tar.bz2, as in the app
    boot.set_stage("engine")
    from web.library import panel as library_panel
    from web.library import storage

    root = js.document.getElementById("app-root")
    host = js.document.createElement("div")
    host.id = "library-host"
    host.style.cssText = "padding: 12px;"
    root.style.overflowY = "auto"
    report = js.document.createElement("p")
    report.id = "opened"
    form_host = js.document.createElement("div")
    form_host.id = "form-host"
    form_host.style.cssText = "padding: 12px; max-width: 40rem;"
    root.replaceChildren(host, report, form_host)
    panels = []
    forms_state = {}

    def on_open(entry_id, enc):
        report.dataset.entry = entry_id
        report.textContent = f"opened {enc.setup.name} ({enc.ruleset.id})"

    def on_change(entry_id, entry):
        report.dataset.changed = f"{entry_id}:{entry.name if entry else 'trash'}"

    def remount(clear):
        while panels:
            panels.pop().close()
        if clear:
            js.localStorage.clear()
        report.textContent = ""
        report.removeAttribute("data-entry")
        report.removeAttribute("data-changed")
        library = storage.browser_library()
        panels.append(library_panel.open(host, library, on_open=on_open, on_change=on_change))

    def build_test_form(fields, values, prefix):
        from web.ui import forms

        if forms_state:
            forms_state["form"].destroy()
        changes = []
        forms_state["changes"] = changes
        forms_state["form"] = forms.build_form(
            form_host,
            json.loads(fields),
            json.loads(values),
            on_change=lambda form, name: changes.append(name),
            path_prefix=prefix,
        )

    def read_test_form():
        values, problems = forms_state["form"].read()
        found = [str(p) for p in problems]
        return json.dumps({"values": values, "problems": found, "changes": forms_state["changes"]})

    def show_test_problems(problems):
        rest = forms_state["form"].show_problems([tuple(p) for p in json.loads(problems)])
        return json.dumps([str(p) for p in rest])

    remount(False)
    js.window.remountLibrary = create_proxy(remount)
    js.window.buildTestForm = create_proxy(build_test_form)
    js.window.readTestForm = create_proxy(read_test_form)
    js.window.showTestProblems = create_proxy(show_test_problems)
    boot.set_stage("board")
    boot.mark_ready()


try:
    await start()
except Exception:
    js.hexcombatBoot.fail("The library test page failed.", traceback.format_exc())
'''


@pytest.fixture(scope="session")
def library_url(
    site: Path, tmp_path_factory: pytest.TempPathFactory, serve_folder: Callable[[Path], str]
) -> str:
    """A copy of the built site whose start-up script mounts only the library panel."""
    copy = tmp_path_factory.mktemp("library") / "site"
    shutil.copytree(site, copy)
    (copy / "web" / "main.py").write_text(LIBRARY_MAIN, encoding="utf-8")
    return serve_folder(copy)


@pytest.fixture(scope="module", params=["desktop", "tablet-portrait"])
def library_page(
    request: pytest.FixtureRequest, browser: Browser, library_url: str
) -> Iterator[App]:
    """One started library page per viewport for the whole module (non-local requests fail)."""
    viewport = str(request.param)
    app = new_app(browser, library_url, viewport, VIEWPORTS[viewport])
    app.open(library_url)
    app.wait_ready()
    yield app
    app.page.context.close()
    assert app.blocked == [], f"the page made non-local requests: {app.blocked}"


@pytest.fixture
def lib(library_page: App) -> App:
    """The library page with an empty localStorage and a fresh panel."""
    remount(library_page.page, clear=True)
    return library_page


def remount(page: Page, *, clear: bool = False) -> None:
    """Close the panel and open a new one (after emptying localStorage when ``clear``)."""
    page.evaluate("(clear) => window.remountLibrary(clear)", clear)
    expect(page.locator("[data-library]")).to_have_count(1)
    expect(page.locator("[data-library]")).to_be_visible()


def storage_items(page: Page) -> dict[str, str]:
    """Every localStorage item of the page."""
    return dict(page.evaluate("Object.fromEntries(Object.entries(localStorage))"))


def stored_library(page: Page) -> Library:
    """The page's library as stored, read by the same code under CPython."""
    return Library(MemoryStore(storage_items(page)))


def documents(page: Page) -> dict[str, dict[str, Any]]:
    """Stored encounter documents by name (those whose saved data is whole), trash included."""
    library = stored_library(page)
    found = {}
    for entry in library.entries() + library.trash():
        try:
            doc = json.loads(library.export(entry.id)[1])
        except (LibraryError, ValueError):
            continue
        found[doc["name"]] = doc
    return found


def row(page: Page, name: str) -> Locator:
    """The library row of the encounter called ``name`` (exact)."""
    return page.locator(".hc-lib-list [data-entry]").filter(
        has=page.get_by_role("button", name=f"Open {name}", exact=True)
    )


def names(page: Page) -> list[str]:
    """Names in the library list, in order."""
    return [t.strip() for t in page.locator(".hc-lib-list .hc-lib-open").all_inner_texts()]


def open_demo(page: Page) -> None:
    """Open the skirmish demo from the list of demos."""
    page.locator('[data-demo="skirmish.json"] [data-lib="demo"]').first.click()
    expect(page.locator("#opened")).to_have_text(f"opened {DEMO_NAME} (skirmish)")


def choose_files(page: Page, files: list[Path]) -> None:
    """Import files through the Import button's file chooser."""
    with page.expect_file_chooser() as chooser:
        page.locator('.hc-lib-tools [data-lib="import"]').click()
    chooser.value.set_files([str(f) for f in files])


# ---- first start and demos --------------------------------------------------------------
@pytest.mark.parametrize("library_page", ["desktop", "tablet-portrait"], indirect=True)
def test_first_start_shows_new_encounter_and_the_demos(lib: App) -> None:
    page = lib.page
    start = page.locator('[data-slot="start"]')
    expect(start).to_be_visible()
    expect(start).to_contain_text("No saved encounters yet")
    expect(start.get_by_role("button", name="New encounter")).to_be_visible()
    demo = start.locator('[data-demo="skirmish.json"]')
    expect(demo.get_by_role("button")).to_have_text(DEMO_NAME)
    expect(demo).to_contain_text("Three wardens hold a stream crossing")
    lib.screenshot("library-empty")

    open_demo(page)
    expect(start).to_be_hidden()
    assert names(page) == [DEMO_NAME]
    expect(row(page, DEMO_NAME)).to_have_attribute("data-current", "")
    stored = documents(page)[DEMO_NAME]
    assert to_document(loads(json.dumps(stored))) == to_document(loads(DEMO.read_text()))
    expect(page.locator('[data-slot="demos"]')).to_be_visible()
    lib.screenshot("library-one-entry")


# ---- create, reload, rename, duplicate, delete and undo ---------------------------------
@pytest.mark.parametrize("library_page", ["desktop"], indirect=True)
def test_create_reload_rename_duplicate_delete_and_undo(lib: App) -> None:
    page = lib.page
    page.get_by_role("button", name="New encounter").first.click()
    form = page.locator('[data-slot="new"]')
    expect(form).to_be_visible()
    form.get_by_label("Name").fill("Ambush")
    form.get_by_label("Rules").select_option(label="Skirmish (engine demo)")
    expect(form.locator('[data-field="ruleset"] .hc-help')).to_contain_text("d20 melee attack")
    form.get_by_label("Board width (hexes)").fill("10")
    form.get_by_label("Board height (hexes)").fill("8")
    form.locator("[data-options] summary").click()  # the rule options, closed at first
    form.get_by_label("Figures per hex").fill("2")
    lib.screenshot("library-new-form")
    form.get_by_role("button", name="Create").click()
    expect(page.locator("#opened")).to_have_text("opened Ambush (skirmish)")
    expect(form).to_be_hidden()
    doc = documents(page)["Ambush"]
    assert (doc["board"]["width"], doc["board"]["height"]) == (10, 8)
    assert doc["ruleset"]["options"]["skirmish.stacking"] == 2

    page.reload()
    lib.wait_ready()
    expect(row(page, "Ambush")).to_be_visible()
    expect(row(page, "Ambush")).to_contain_text("Skirmish (engine demo) · changed")

    row(page, "Ambush").get_by_role("button", name="Rename Ambush").click()
    dialog = page.locator('dialog[data-dialog="rename"]')
    expect(dialog).to_be_visible()
    dialog.get_by_label("New name").fill("Ambush at dusk")
    dialog.get_by_label("New name").press("Enter")
    expect(dialog).to_be_hidden()
    expect(row(page, "Ambush at dusk")).to_be_visible()
    assert "Ambush" not in documents(page)
    entry_id = row(page, "Ambush at dusk").get_attribute("data-entry")
    expect(page.locator("#opened")).to_have_attribute("data-changed", f"{entry_id}:Ambush at dusk")

    row(page, "Ambush at dusk").get_by_role("button", name="Duplicate").click()
    expect(row(page, "Ambush at dusk (2)")).to_be_visible()
    copy, original = documents(page)["Ambush at dusk (2)"], documents(page)["Ambush at dusk"]
    assert {**copy, "name": ""} == {**original, "name": ""}

    before = storage_items(page)
    row(page, "Ambush at dusk (2)").get_by_role("button", name="Delete").click()
    expect(row(page, "Ambush at dusk (2)")).to_have_count(0)
    toast = page.locator('[data-slot="toast"]')
    expect(toast).to_contain_text("Deleted “Ambush at dusk (2)”.")
    expect(page.locator('[data-slot="trash"]')).to_contain_text("Recently deleted (1)")
    lib.screenshot("library-deleted-toast")
    toast.get_by_role("button", name="Undo").click()
    expect(row(page, "Ambush at dusk (2)")).to_be_visible()
    expect(page.locator('[data-slot="trash"]')).to_be_hidden()
    after = storage_items(page)
    index_keys = {"hexcombat:index"}
    assert {k: v for k, v in after.items() if k not in index_keys} == {
        k: v for k, v in before.items() if k not in index_keys
    }


@pytest.mark.parametrize("library_page", ["desktop"], indirect=True)
def test_new_encounter_form_shows_problems_next_to_fields(lib: App) -> None:
    page = lib.page
    page.get_by_role("button", name="New encounter").first.click()
    form = page.locator('[data-slot="new"]')
    form.get_by_label("Name").fill("   ")
    form.get_by_label("Board width (hexes)").fill("0")
    form.get_by_role("button", name="Create").click()
    width_problem = form.locator('[data-field="width"] .hc-problem')
    expect(width_problem).to_have_text("must be a whole number from 1 to 200, got 0")
    expect(form.get_by_label("Board width (hexes)")).to_have_attribute("aria-invalid", "true")
    form.get_by_label("Board width (hexes)").fill("6")
    form.get_by_role("button", name="Create").click()
    expect(form.locator('[data-field="name"] .hc-problem')).to_have_text("must be 1-120 characters")
    expect(width_problem).to_be_hidden()
    lib.screenshot("library-new-form-problems")
    assert documents(page) == {}
    form.get_by_role("button", name="Cancel").click()
    expect(form).to_be_hidden()


# ---- export and import ------------------------------------------------------------------
@pytest.mark.parametrize("library_page", ["desktop"], indirect=True)
def test_export_then_import_gives_an_equal_encounter_under_a_new_name(
    lib: App, tmp_path: Path
) -> None:
    page = lib.page
    open_demo(page)
    with page.expect_download() as download:
        row(page, DEMO_NAME).get_by_role("button", name="Export").click()
    assert download.value.suggested_filename == f"{DEMO_NAME}.json"
    exported = tmp_path / download.value.suggested_filename
    download.value.save_as(exported)
    assert to_document(loads(exported.read_text())) == to_document(loads(DEMO.read_text()))

    choose_files(page, [exported])
    expect(row(page, f"{DEMO_NAME} (2)")).to_be_visible()
    expect(page.locator('[data-slot="toast"]')).to_contain_text(f"Imported “{DEMO_NAME} (2)”.")
    docs = documents(page)
    assert {**docs[f"{DEMO_NAME} (2)"], "name": ""} == {**docs[DEMO_NAME], "name": ""}


@pytest.mark.parametrize("library_page", ["desktop", "tablet-portrait"], indirect=True)
def test_invalid_imports_show_the_engine_messages_and_change_nothing(
    lib: App, tmp_path: Path
) -> None:
    page = lib.page
    open_demo(page)
    before = storage_items(page)
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "hexcombat-encounter", "name": ', encoding="utf-8")
    doc = json.loads(DEMO.read_text())
    doc["figures"][1]["facing"] = 9
    facing = tmp_path / "facing.json"
    facing.write_text(json.dumps(doc), encoding="utf-8")

    choose_files(page, [broken])
    dialog = page.locator('dialog[data-dialog="import-problems"]')
    expect(dialog).to_be_visible()
    expect(dialog.locator("h3")).to_have_text("“broken.json” cannot be imported")
    expect(dialog).to_contain_text("Nothing was changed")
    expect(dialog.locator("li")).to_contain_text(["not valid JSON"])
    dialog.get_by_role("button", name="OK").click()
    expect(dialog).to_be_hidden()

    choose_files(page, [facing])
    expect(dialog).to_be_visible()
    expect(dialog.locator("li")).to_have_text(
        ["figures[1].facing: must be a whole number 0-5, got 9"]
    )
    lib.screenshot("library-import-problems")
    dialog.get_by_role("button", name="OK").click()
    assert storage_items(page) == before
    assert names(page) == [DEMO_NAME]


@pytest.mark.parametrize("library_page", ["desktop"], indirect=True)
def test_dropping_a_file_on_the_panel_imports_it(lib: App) -> None:
    page = lib.page
    page.evaluate(
        """(text) => {
            const transfer = new DataTransfer();
            transfer.items.add(new File([text], "dropped.json", {type: "application/json"}));
            const panel = document.querySelector("[data-library]");
            for (const type of ["dragenter", "dragover", "drop"]) {
                panel.dispatchEvent(new DragEvent(type, {dataTransfer: transfer, bubbles: true,
                                                          cancelable: true}));
            }
        }""",
        DEMO.read_text(),
    )
    expect(row(page, DEMO_NAME)).to_be_visible()
    expect(page.locator('[data-slot="toast"]')).to_contain_text(f"Imported “{DEMO_NAME}”.")


# ---- damaged entries and a full storage -------------------------------------------------
@pytest.mark.parametrize("library_page", ["desktop", "tablet-portrait"], indirect=True)
def test_corrupt_entry_is_listed_as_unreadable_and_left_untouched(lib: App) -> None:
    page = lib.page
    open_demo(page)
    page.evaluate(
        """() => {
            localStorage.setItem("hexcombat:enc:broken1:r3", '{"name": "Half written", "form');
        }"""
    )
    remount(page)
    damaged = page.locator('[data-entry="broken1"]')
    expect(damaged).to_have_attribute("data-unreadable", "")
    expect(damaged).to_contain_text("Cannot be opened: not valid JSON")
    expect(damaged.locator(".hc-lib-open")).to_be_disabled()
    expect(damaged.get_by_role("button", name="Rename")).to_have_count(0)
    expect(damaged.locator('[data-lib="export"]')).to_have_text("Export as is")
    lib.screenshot("library-unreadable")

    row(page, DEMO_NAME).get_by_role("button", name="Duplicate").click()
    expect(row(page, f"{DEMO_NAME} (2)")).to_be_visible()
    assert storage_items(page)["hexcombat:enc:broken1:r3"] == '{"name": "Half written", "form'


@pytest.mark.parametrize("library_page", ["desktop"], indirect=True)
def test_full_storage_is_reported_in_plain_words_and_keeps_the_previous_version(
    lib: App,
) -> None:
    page = lib.page
    open_demo(page)
    before = storage_items(page)
    page.evaluate(
        """() => {
            const original = Storage.prototype.setItem;
            window.restoreSetItem = () => { Storage.prototype.setItem = original; };
            Storage.prototype.setItem = function (key, value) {
                if (key.startsWith("hexcombat:enc:")) {
                    throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
                }
                return original.call(this, key, value);
            };
        }"""
    )
    try:
        row(page, DEMO_NAME).get_by_role("button", name=f"Rename {DEMO_NAME}").click()
        dialog = page.locator('dialog[data-dialog="rename"]')
        dialog.get_by_label("New name").fill("Renamed")
        dialog.get_by_role("button", name="Rename").click()
        problem = dialog.locator("#hc-rename-problem")
        expect(problem).to_contain_text(
            f"“{DEMO_NAME}” could not be saved: the browser's storage for this site is full"
        )
        expect(problem).to_contain_text("The previous version is still saved")
        lib.screenshot("library-storage-full")
        assert storage_items(page) == before
    finally:
        page.evaluate("window.restoreSetItem()")


# ---- forms built from the engine's descriptions -----------------------------------------
def form_fields() -> list[dict[str, Any]]:
    """Figure fields of two rulesets, an option with a rule id and action parameters."""
    views = {v["id"]: v for v in rulesets_view()}
    skirmish = views["skirmish"]["figure_fields"]
    house = [f for f in views["fig-percentile"]["figure_fields"] if f.get("house_default")][:1]
    option = {**views["fig-percentile"]["options"][0], "name": "hit_rule"}
    dodge = {"name": "dodge", "label": "Dodge rolls", "type": "bool", "default": True}
    params = [
        FieldSpec("facing", "Facing", "facing").to_json(),
        FieldSpec(
            "to",
            "Destination",
            "hex",
            choices=(Choice("3,1", "3,1 (3 MP)"), Choice("4,0", "4,0 (4 MP)")),
        ).to_json(),
        FieldSpec(
            "target", "Target", "figure", choices=(Choice("bo", "Bo Brute"),), required=False
        ).to_json(),
        FieldSpec("path", "Path", "path", required=False).to_json(),
    ]
    return [*skirmish, *house, option, dodge, *params]


@pytest.mark.parametrize("library_page", ["desktop", "tablet-portrait"], indirect=True)
def test_form_from_engine_descriptions_reads_typed_values_and_shows_problems(lib: App) -> None:
    page = lib.page
    fields = form_fields()
    page.evaluate(
        "([f, v, p]) => buildTestForm(f, v, p)",
        [json.dumps(fields), json.dumps({"facing": 1}), "stats."],
    )
    form = page.locator("#form-host .hc-form")
    expect(form.locator("[data-field]")).to_have_count(len(fields))
    house = fields[5]
    expect(form.locator(f'[data-field="{house["name"]}"] .hc-house')).to_have_text("house default")
    expect(form.locator('[data-field="hit_rule"] .hc-rule')).to_have_text("G-1")
    expect(form.locator(".hc-house")).to_have_count(1)

    def read() -> dict[str, Any]:
        return dict(json.loads(page.evaluate("readTestForm()")))

    first = read()
    assert first["problems"] == ["stats.to: is required"]
    assert first["values"]["move"] == 4 and first["values"]["damage"] == "d6"
    assert first["values"]["facing"] == 1 and first["values"]["dodge"] is True
    assert "target" not in first["values"] and "path" not in first["values"]

    form.get_by_label("Move").fill("25")
    form.get_by_role("radio", name="SE").check()
    form.get_by_label("Dodge rolls").uncheck()
    form.get_by_label("Destination").select_option(label="4,0 (4 MP)")
    form.get_by_label("Target").select_option(label="Bo Brute")
    form.get_by_label("Path").fill("1,0 2,-1")
    after = read()
    assert after["problems"] == ["stats.move: must be a whole number from 0 to 20, got 25"]
    assert {k: after["values"][k] for k in ("facing", "dodge", "to", "target", "path")} == {
        "facing": 2,
        "dodge": False,
        "to": "4,0",
        "target": "bo",
        "path": ["1,0", "2,-1"],
    }
    assert after["changes"].count("facing") == 1 and after["changes"].count("move") >= 1

    rest = page.evaluate(
        "(p) => showTestProblems(p)",
        json.dumps([["figures[0].stats.hp", "must be at least 1, got 0"], ["cursor", "bad"]]),
    )
    assert json.loads(rest) == ["cursor: bad"]
    expect(form.locator('[data-field="hp"] .hc-problem')).to_have_text("must be at least 1, got 0")
    expect(form.get_by_label("Hit points", exact=True)).to_have_attribute("aria-invalid", "true")
    expect(form.locator(".hc-form-problems li")).to_have_text(["cursor: bad"])
    for control in form.locator("input:not([type=radio]):not([type=checkbox]), select").all():
        assert control.bounding_box()["height"] >= 44  # type: ignore[index]
    for target in form.locator(".hc-segment span, .hc-check").all():
        box = target.bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#form-host").screenshot(path=str(ARTIFACTS / f"forms-{lib.viewport}.png"))


def hostile_documents() -> dict[str, str]:
    """Stored texts that once stopped the app or the library, by entry id."""
    listed = json.loads(DEMO.read_text())
    move = {"kind": "move", "figure": "warden-ash", "params": {"to": ["3,1"]}}
    listed["log"] = [{"action": move}]
    memory = json.loads(DEMO.read_text())
    memory["figures"][0]["memory"] = {"m": json.loads("[" * 60 + "]" * 60)}
    return {
        "deep": "[" * 100_000 + "]" * 100_000,
        "listed": json.dumps(listed),
        "digits": json.dumps(json.loads(DEMO.read_text())).replace(
            '"seed": 20250501', '"seed": ' + "9" * 5000
        ),
        "memory": json.dumps(memory),
    }


@pytest.mark.parametrize("library_page", ["desktop"], indirect=True)
def test_hostile_stored_entries_are_listed_as_damaged_and_the_library_still_opens(
    lib: App,
) -> None:
    page = lib.page
    open_demo(page)
    page.evaluate(
        """(docs) => {
            for (const [id, text] of Object.entries(docs)) {
                localStorage.setItem(`hexcombat:enc:${id}:r1`, text);
            }
            localStorage.setItem("hexcombat:last", "deep");
        }""",
        hostile_documents(),
    )
    remount(page)
    for entry_id, words in {
        "deep": "nested 100000 deep",
        "listed": "must be a hex",
        "digits": "value JSON documents may not",
        "memory": "nests too deep",
    }.items():
        damaged = page.locator(f'[data-entry="{entry_id}"]')
        expect(damaged).to_have_attribute("data-unreadable", "")
        expect(damaged).to_contain_text(words)
    row(page, DEMO_NAME).locator(".hc-lib-open").click()
    expect(page.locator("#opened")).to_have_text(f"opened {DEMO_NAME} (skirmish)")
    assert [e for e in lib.console if "pageerror" in e] == []


@pytest.mark.parametrize("library_page", ["desktop"], indirect=True)
def test_hostile_imports_show_the_refusal_and_change_nothing(lib: App, tmp_path: Path) -> None:
    page = lib.page
    open_demo(page)
    before = storage_items(page)
    dialog = page.locator('dialog[data-dialog="import-problems"]')
    for name, text in hostile_documents().items():
        path = tmp_path / f"{name}.json"
        path.write_text(text, encoding="utf-8")
        choose_files(page, [path])
        expect(dialog).to_be_visible()
        expect(dialog.locator("h3")).to_have_text(f"“{name}.json” cannot be imported")
        dialog.get_by_role("button", name="OK").click()
        expect(dialog).to_be_hidden()
    assert storage_items(page) == before
    assert [e for e in lib.console if "pageerror" in e or "fatal" in e.lower()] == []


# ---- two tabs on one encounter, and the open encounter in the library ---------------------
def _index(page: Page) -> dict[str, Any]:
    """The library index as stored (entries by id)."""
    data = json.loads(page.evaluate("localStorage.getItem('hexcombat:index')"))
    return dict(data["entries"])


def _log_lengths(page: Page) -> dict[str, int]:
    """Name -> action log length of every live entry, read from localStorage."""
    found = {}
    for entry_id, meta in _index(page).items():
        if meta.get("deleted"):
            continue
        text = stored_library(page).export(entry_id)[1]
        found[meta["name"]] = len(json.loads(text).get("log", []))
    return found


def _duel_document() -> Any:
    """The skirmish demo, its log emptied, named 'Duel'."""
    doc = json.loads(DEMO.read_text(encoding="utf-8"))
    doc["name"] = "Duel"
    doc["log"] = []
    return doc


def test_two_tabs_on_one_encounter_keep_both_sides_actions(browser: Browser, base_url: str) -> None:
    """Tab A acts and saves; tab B, on the old revision, is told at once (storage event), its
    own action is not saved over A's, and 'keep mine as a copy' keeps both; A is told too."""
    from .appdriver import import_encounter, start_app

    a = start_app(browser, base_url, "desktop")
    try:
        import_encounter(a, loads(json.dumps(_duel_document())))
        expect(a.page.locator("#enc-name")).to_have_text("Duel")
        b_page = a.page.context.new_page()
        b_page.goto(base_url, wait_until="domcontentloaded")
        b_page.wait_for_selector("html[data-app-state=ready]", timeout=60_000)
        expect(b_page.locator("#enc-name")).to_have_text("Duel")

        a.page.locator('[data-cmd="next-step"]').first.click()  # A's action, saved as r2
        conflict = b_page.locator("[data-conflict]")
        expect(conflict).to_have_attribute("data-conflict", "changed")
        expect(b_page.locator("#enc-name")).to_contain_text("changed in another tab")
        b_page.keyboard.press("Escape")
        b_page.locator('[data-cmd="next-step"]').first.click()  # B's own action: not saved over
        expect(conflict).to_be_visible()
        assert _log_lengths(b_page) == {"Duel": 1, **_others(b_page)}
        expect(a.page.locator("#toast")).to_contain_text("conflict with this one")

        b_page.locator('[data-cmd="conflict-copy"]').click()
        expect(b_page.locator("#enc-name")).to_have_text("Duel (2)")
        lengths = _log_lengths(b_page)
        assert lengths["Duel"] == 1 and lengths["Duel (2)"] == 1, lengths
        b_page.locator('[data-cmd="next-step"]').first.click()  # B goes on, on its copy
        expect(b_page.locator("[data-conflict]")).to_be_hidden()
        assert _log_lengths(b_page)["Duel (2)"] == 2
        a.screenshot("two-tabs-a")
    finally:
        a.page.context.close()


def _others(page: Page) -> dict[str, int]:
    return {k: v for k, v in _log_lengths(page).items() if k != "Duel"}


def test_the_open_encounter_follows_renames_and_deletes_in_any_tab(
    browser: Browser, base_url: str
) -> None:
    """A rename in another tab reaches this tab's top bar; deleting the open encounter marks
    it, an edit then asks before anything is written (never re-created), and a reload opens
    another encounter without making '... (2)'."""
    from .appdriver import import_encounter, menu, start_app

    a = start_app(browser, base_url, "desktop")
    try:
        import_encounter(a, loads(json.dumps(_duel_document())))
        b_page = a.page.context.new_page()
        b_page.goto(base_url, wait_until="domcontentloaded")
        b_page.wait_for_selector("html[data-app-state=ready]", timeout=60_000)

        # B renames it in its library: A's top bar follows, and A's next save is no conflict
        b_page.click("#menu-button")
        b_page.click('#menu [data-cmd="library"]')
        row(b_page, "Duel").get_by_role("button", name="Rename Duel").click()
        dialog = b_page.locator('dialog[data-dialog="rename"]')
        dialog.get_by_label("New name").fill("Ford")
        dialog.get_by_role("button", name="Rename").click()
        expect(b_page.locator("#enc-name")).to_have_text("Ford")
        expect(a.page.locator("#enc-name")).to_have_text("Ford")
        a.page.locator('[data-cmd="next-step"]').first.click()
        expect(a.page.locator("[data-conflict]")).to_be_hidden()
        b_page.close()

        # A deletes the open encounter in its own library
        menu(a, "library")
        row(a.page, "Ford").get_by_role("button", name="Delete Ford").click()
        a.page.keyboard.press("Escape")
        expect(a.page.locator("#enc-name")).to_have_text("Ford (in the trash)")
        a.page.locator('[data-cmd="next-step"]').first.click()
        expect(a.page.locator("[data-conflict]")).to_have_attribute("data-conflict", "trashed")
        assert "Ford" not in _log_lengths(a.page)
        a.page.locator('[data-cmd="conflict-close"]').click()
        expect(a.page.locator("#enc-name")).not_to_contain_text("Ford")

        names = [m["name"] for m in _index(a.page).values()]
        a.page.reload(wait_until="domcontentloaded")
        a.wait_ready()
        assert sorted(m["name"] for m in _index(a.page).values()) == sorted(names)
        assert not any(n.endswith("(2)") for n in names), names
    finally:
        a.page.context.close()
