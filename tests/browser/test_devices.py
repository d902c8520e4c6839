"""A table of devices in the browser: two Chromium contexts pair over a loopback
data channel by the text fallback (host candidates only, no STUN or TURN), a player declares
a hidden choice on their own device, the host's page never shows it before the reveal, and
both logs end identical. The embed view never offers a table."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from factories import skirmish_duel
from playwright.sync_api import Browser, expect

from hexcombat import Action, Encounter, LogEntry, from_document
from hexcombat.map_picture import digest_of
from hexcombat.table import is_hidden_choice
from hexcombat.table.seats import sealing_figures
from hexcombat.view import encounter_view

from .appdriver import (
    SETTLED,
    figure,
    import_encounter,
    log_texts,
    menu,
    next_step,
    press,
    select,
    set_mode,
    start_app,
    stored_document,
)
from .conftest import ARTIFACTS, READY_TIMEOUT_MS, ROOT, VIEWPORTS, App, new_app
from .test_demo_playthrough import DEMOS, carry_out
from .test_map_picture import load_map, map_file
from .test_play import percentile_duel
from .test_portraits import choose_portrait, portrait_file

pytestmark = pytest.mark.browser


@pytest.fixture
def pair(browser: Browser, base_url: str) -> Iterator[tuple[App, App]]:
    """The GM's tablet hosting and a player's phone, each in its own context, started and
    watched."""
    apps = [start_app(browser, base_url, size) for size in ("tablet-touch", "phone")]
    yield apps[0], apps[1]
    for app in apps:
        errors = [line for line in app.console if line.startswith("pageerror")]
        app.page.context.close()
        assert app.blocked == [], f"the page made non-local requests: {app.blocked}"
        assert errors == [], "\n".join(errors)


def connect(host: App, guest: App, name: str, device: str = "d1", shown: str | None = None) -> None:
    """Pair by the text fallback: the host's offer code to the guest, its answer back (the
    first time, the host starts hosting; a guest that left joins again in its place). The
    host lists the device as ``shown`` (its name unless another device has it)."""
    if not host.page.locator("#table-dialog").is_visible():
        menu(host, "table")
    if host.page.evaluate("document.documentElement.dataset.table") != "host":
        press(host, '[data-cmd="table-host"]')
        expect(host.page.locator("html")).to_have_attribute("data-table", "host")
    press(host, '[data-cmd="table-offer"]')
    offer = host.page.locator("#table-offer-out")
    expect(offer).to_have_value(re.compile(r"^HXO1\."))
    expect(host.page.locator("#table-code svg")).to_have_count(1)  # and as a QR code
    if not guest.page.locator("#table-dialog").is_visible():
        menu(guest, "table")
    if guest.page.locator("#table-name").count():
        guest.page.fill("#table-name", name)
    guest.page.fill("#table-offer-in", offer.input_value())
    press(guest, '[data-cmd="table-join"]')
    answer = guest.page.locator("#table-answer-out")
    expect(answer).to_have_value(re.compile(r"^HXA1\."))
    host.page.fill("#table-answer-in", answer.input_value())
    press(host, '[data-cmd="table-accept"]')
    expect(host.page.locator("#table-answer-in")).to_have_count(0)  # the answer was taken
    with told_on_failure(host, guest):
        expect(guest.page.locator("#enc-name")).to_have_text(
            host.page.locator("#enc-name").inner_text(), timeout=20_000
        )
        expect(host.page.locator(f'.table-devices [data-device="{device}"]')).to_have_text(
            f"{shown or name} · connected", timeout=20_000
        )


@contextmanager
def told_on_failure(*apps: App) -> Iterator[None]:
    """A failed check says what each page's table connection did (its console lines)."""
    try:
        yield
    except AssertionError as exc:
        told = [f"{a.viewport}: {line}" for a in apps for line in a.console if "table:" in line]
        raise AssertionError(f"{exc}\n" + "\n".join(told)) from exc


def pick(app: App, fid: str) -> None:
    """Select ``fid``: by its chip in the turn tracker, or on a phone (no chips) on the board."""
    if app.page.locator(f'#turn-tracker [data-pick="{fid}"]').is_visible():
        select(app, fid)
    else:
        press(app, figure(app, fid))
        expect(figure(app, fid)).to_have_class(re.compile(r"\bselected\b"))


def declare_walk(app: App, fid: str) -> None:
    """Declare a walk for ``fid`` in the declarations form."""
    pick(app, fid)
    card = app.page.locator('#panel-body [data-action="declare"]')
    if card.get_attribute("data-expanded") != "true":
        press(app, card.locator(".action-head"))
    mode = app.page.locator('#action-form [data-field="mode"] select')
    labels = mode.locator("option").all_text_contents()
    mode.select_option(str(next(i for i, t in enumerate(labels) if t.startswith("Walk")) - 1))
    press(app, '[data-commit-bar] [data-cmd="commit"]')


def test_two_devices_pair_by_text_play_a_hidden_step_and_end_with_the_same_log(
    pair: tuple[App, App],
) -> None:
    host, guest = pair
    import_encounter(host, percentile_duel())
    connect(host, guest, "Kim")
    host.page.select_option("#table-seat-pick", "d1|Red")  # Kim plays Bob
    press(host, '[data-cmd="table-seat"]')
    press(host, '[data-cmd="close-dialog"]')
    press(guest, '[data-cmd="close-dialog"]')
    expect(guest.page.locator("[data-table-turn]")).to_contain_text("Bob · Kim")
    expect(host.page.locator("[data-table-turn]")).to_contain_text("Alice · GM")

    # Kim's device offers nothing for Alice and no Next: those are the GM's
    pick(guest, "alice")
    expect(guest.page.locator('#panel-body [data-action="declare"]')).to_have_count(0)
    expect(guest.page.locator('#turn-tracker [data-action="next_step"]')).to_have_count(0)

    declare_walk(guest, "bob")  # sealed on Kim's device
    expect(host.page.locator("[data-table-turn]")).to_contain_text("1 sealed")
    host_html = host.page.content()
    assert "Bob walks" not in host_html and "Bob has declared" not in host_html
    assert log_texts(host) == log_texts(guest) == []

    declare_walk(host, "alice")  # the last one in: every sealed choice is revealed
    expect(guest.page.locator("#log")).to_contain_text("Bob walks")
    expect(host.page.locator("#log")).to_contain_text("Bob walks")
    next_step(host, "Finish: Declarations")
    expect(guest.page.locator("#turn-tracker")).to_contain_text("Movement")
    assert log_texts(host) == log_texts(guest)
    host.screenshot("devices-host")
    guest.screenshot("devices-guest")


def test_a_device_named_like_markup_is_shown_as_its_text_on_every_device(
    pair: tuple[App, App],
) -> None:
    host, guest = pair
    hostile = "<img src=x onerror=window.pwned=1>"
    import_encounter(host, percentile_duel())
    connect(host, guest, hostile)
    host.page.select_option("#table-seat-pick", "d1|Red")
    press(host, '[data-cmd="table-seat"]')
    expect(host.page.locator("#table-rename-pick option").last).to_have_text(hostile)
    press(host, '[data-cmd="close-dialog"]')
    press(guest, '[data-cmd="close-dialog"]')
    for app in (host, guest):
        expect(app.page.locator("[data-table-turn]")).to_contain_text(f"Bob · {hostile}")
        assert app.page.locator('img[src="x"]').count() == 0
        assert app.page.evaluate("window.pwned") is None


def test_three_devices_a_player_drops_holding_a_sealed_choice_and_joins_again(
    browser: Browser, base_url: str
) -> None:
    apps = [start_app(browser, base_url, "desktop") for _ in range(3)]
    host, kim, lee = apps
    try:
        import_encounter(host, percentile_duel())
        connect(host, kim, "Kim", "d1")
        connect(host, lee, "Lee", "d2")
        for pick in ("d1|Red", "d2|Blue"):  # Kim plays Bob, Lee plays Alice
            host.page.select_option("#table-seat-pick", pick)
            press(host, '[data-cmd="table-seat"]')
        press(host, '[data-cmd="close-dialog"]')
        for app in (kim, lee):
            press(app, '[data-cmd="close-dialog"]')
        expect(lee.page.locator("[data-table-turn]")).to_contain_text("Bob · Kim")

        declare_walk(kim, "bob")
        expect(host.page.locator("[data-table-turn]")).to_contain_text("1 sealed")
        menu(kim, "table")
        press(kim, '[data-cmd="table-leave"]')  # Kim drops, the sealed choice still on Kim's device
        expect(kim.page.locator("[data-table-state]")).to_have_attribute(
            "data-table-state", "closed"
        )
        # who was at the table stays in view on Kim's device, and its copy is kept
        expect(kim.page.locator("[data-table-devices]")).to_have_text("At the table: GM, Kim, Lee")
        press(kim, '[data-cmd="close-dialog"]')
        declare_walk(lee, "alice")  # every choice is sealed: the reveal waits for Kim
        expect(host.page.locator("[data-table-turn]")).to_contain_text("2 sealed")
        assert "Bob walks" not in host.page.content()

        connect(host, kim, "Kim", "d1")  # a new pairing, the same place: Kim reveals
        for app in apps:
            expect(app.page.locator("#log")).to_contain_text("Bob walks", timeout=20_000)
        assert log_texts(host) == log_texts(kim) == log_texts(lee)
        assert "Alice walks (up to 1 hex)" in log_texts(kim)
    finally:
        for app in apps:
            errors = [line for line in app.console if line.startswith("pageerror")]
            app.page.context.close()
            assert app.blocked == [] and errors == [], "\n".join(errors)


def scan(app: App, source: App, target: str) -> None:
    """``app`` takes a photo of ``source``'s QR code (a screenshot of it) for ``target``."""
    picture = source.page.locator("#table-code .qr svg").screenshot(
        animations="disabled", path=str(ARTIFACTS / f"devices-qr-{target}.png")
    )
    app.page.set_input_files(
        f'[data-scan="{target}"]',
        files=[{"name": "photo.png", "mimeType": "image/png", "buffer": picture}],
    )


def test_the_map_picture_goes_to_a_device_that_joins_and_is_drawn_under_its_board(
    pair: tuple[App, App],
) -> None:
    """The guest's browser has no copy of the GM's map nor of Ann's portrait: it asks the
    host, which sends each a window of chunks at a time; kept whole and checked, the map is
    drawn under the guest's board and the portrait on Ann's token."""
    host, guest = pair
    import_encounter(host, skirmish_duel().renamed("Over my map"))
    set_mode(host, "edit")
    load_map(host.page)
    press(host, '[data-cmd="tool"][data-tool="select"]')
    press(host, figure(host, "ann"))
    choose_portrait(host, portrait_file())
    expect(figure(host, "ann").locator("image.portrait")).to_have_attribute(
        "data-portrait", "shown"
    )
    set_mode(host, "play")
    connect(host, guest, "Kim")
    digest = digest_of(map_file())
    expect(guest.page.locator("#board-picture")).to_have_attribute(
        "data-picture", digest, timeout=30_000
    )
    expect(figure(guest, "ann").locator("image.portrait")).to_have_attribute(
        "data-portrait", "shown", timeout=30_000
    )
    expect(guest.page.locator("#toast")).to_contain_text("The map picture came from the host")
    held = guest.page.evaluate(
        """async (digest) => new Promise((done) => {
            const open = indexedDB.open("hexcombat-pictures");
            open.onsuccess = () => {
                const shelf = open.result.transaction("pictures").objectStore("pictures");
                const read = shelf.get(digest);
                read.onsuccess = () => done(read.result ? read.result.size : 0);
            };
        })""",
        digest,
    )
    assert held == len(map_file())
    guest.screenshot("devices-guest-map")


def test_two_devices_pair_by_decoding_each_others_qr_code(pair: tuple[App, App]) -> None:
    host, guest = pair
    menu(host, "table")
    press(host, '[data-cmd="table-host"]')
    press(host, '[data-cmd="table-offer"]')
    offer = host.page.locator("#table-offer-out").input_value()
    menu(guest, "table")
    assert not any(p.endswith("jsQR.js.gz") for p in guest.paths_requested())
    scan(guest, host, "table-offer-in")
    expect(guest.page.locator("#table-offer-in")).to_have_value(offer, timeout=20_000)
    # Chromium on Linux has no BarcodeDetector: the vendored decoder, loaded only now
    assert "/vendor/jsqr/jsQR.js.gz" in guest.paths_requested()
    assert not any(p.endswith("jsQR.js.gz") for p in host.paths_requested())
    press(guest, '[data-cmd="table-join"]')
    answer = guest.page.locator("#table-answer-out")
    expect(answer).to_have_value(re.compile(r"^HXA1\."))
    guest.page.locator("#table-code .qr").scroll_into_view_if_needed()
    guest.page.screenshot(path=str(ARTIFACTS / "devices-guest-answer-phone.png"))
    scan(host, guest, "table-answer-in")
    expect(host.page.locator("#table-answer-in")).to_have_value(answer.input_value())
    press(host, '[data-cmd="table-accept"]')
    expect(host.page.locator('.table-devices [data-device="d1"]')).to_have_text(
        "Player · connected", timeout=20_000
    )
    expect(guest.page.locator("#enc-name")).to_have_text(
        host.page.locator("#enc-name").inner_text()
    )
    host.screenshot("devices-host-qr")


def test_the_embed_view_never_offers_a_table(browser: Browser, base_url: str) -> None:
    app = new_app(browser, base_url, "desktop", VIEWPORTS["desktop"])  # started as embed only
    try:
        app.open(base_url + "?embed")
        app.wait_ready()
        assert app.page.locator('[data-cmd^="table"]').count() == 0
        assert app.page.evaluate("document.documentElement.dataset.table") is None
    finally:
        app.page.context.close()


# ---- a round of each ruleset on two devices ------------------------------------------------


def _round_number(enc: Encounter) -> int:
    return int(encounter_view(enc)["time"]["units"][0]["number"])


def first_round(document: dict[str, Any]) -> list[LogEntry]:
    """The demo's entries up to the end of its first round (or phase); a demo with no logged
    fight (skirmish's open board): each figure turns once, then the steps end the round."""
    enc = from_document({**document, "log": [], "cursor": 0})
    start = _round_number(enc)
    logged = list(from_document(document).log)
    turned: set[str] = set()
    while _round_number(enc) == start:
        if logged:
            entry = logged.pop(0)
            enc.perform(entry.action, [d.value for r in entry.rolls for d in r.dice] or None)
            continue
        waiting = enc.ruleset.who_acts(enc.state).waiting
        fid = next((f for f in waiting if f not in turned and _offers(enc, f, "face")), None)
        if fid is None:
            enc.perform(Action("next_step"))
        else:
            turned.add(fid)
            enc.perform(Action("face", fid, {"facing": (enc.state.figures[fid].facing + 1) % 6}))
    return list(enc.log)


def _offers(enc: Encounter, fid: str, kind: str) -> bool:
    return any(spec.kind == kind for spec in enc.legal_actions(fid))


def _still_to_seal(enc: Encounter) -> bool:
    """The step still waits for a sealed choice (once none is left, the host reveals them)."""
    return bool(sealing_figures(enc))


def shared(app: App, cursor: int) -> dict[str, Any]:
    """The document ``app`` keeps once it holds ``cursor`` entries (saving may lag)."""
    for _ in range(200):
        doc = stored_document(app)
        if doc.get("cursor") == cursor:
            return doc
        app.page.wait_for_timeout(100)
    raise AssertionError(f"{app.viewport} never kept the fight at {cursor} entries")


def leave(guest: App, host: App) -> None:
    """The player leaves and forgets the table, then the GM stops hosting (each keeps its
    copy of the fight): the next pairing starts afresh."""
    for app in (guest, host):
        if app.page.evaluate("document.documentElement.dataset.table") is None:
            continue
        menu(app, "table")
        if app is guest and guest.page.locator('[data-table-state="open"]').count():
            press(guest, '[data-cmd="table-leave"]')
            state = guest.page.locator("[data-table-state]")
            expect(state).to_have_attribute("data-table-state", "closed")
        press(app, '[data-cmd="table-leave"]')
        expect(app.page.locator("html")).not_to_have_attribute("data-table", re.compile(""))
        press(app, '[data-cmd="close-dialog"]')


@pytest.fixture(scope="module")
def table(browser: Browser, base_url: str) -> Iterator[tuple[App, App]]:
    """A GM's tablet and a player's phone for every ruleset's round (paired anew for each)."""
    apps = [start_app(browser, base_url, size) for size in ("tablet-touch", "phone")]
    yield apps[0], apps[1]
    for app in apps:
        errors = [line for line in app.console if line.startswith("pageerror")]
        app.page.context.close()
        assert app.blocked == [], f"the page made non-local requests: {app.blocked}"
        assert errors == [], "\n".join(errors)


TYPED = "Dice typed on Kim's device"


@pytest.mark.parametrize("demo", DEMOS, ids=[d["ruleset"] for d in DEMOS])
def test_a_round_of_each_ruleset_on_two_devices_with_hidden_choices_kept_on_each(
    table: tuple[App, App], demo: dict[str, Any]
) -> None:
    host, guest = table
    leave(guest, host)  # the last ruleset's table ends: each device keeps its copy
    document = json.loads((ROOT / "static" / "demos" / demo["file"]).read_text("utf-8"))
    enc = from_document({**document, "log": [], "cursor": 0})
    entries = first_round(document)
    import_encounter(host, enc)
    connect(host, guest, "Kim")
    first = next(e.action.figure for e in entries if e.action.figure)
    side = enc.state.figures[first].side  # Kim plays the side that acts first
    host.page.select_option("#table-seat-pick", f"d1|{side}")
    press(host, '[data-cmd="table-seat"]')
    press(host, '[data-cmd="table-rolls"]')  # Kim types the demo's dice, marked in the log
    expect(host.page.locator("[data-table-rolls]")).to_have_attribute("data-table-rolls", "players")
    for app in (host, guest):
        press(app, '[data-cmd="close-dialog"]')
    waiting = enc.ruleset.who_acts(enc.state).waiting
    if any(enc.state.figures[f].side == side for f in waiting):  # the seat has come
        expect(guest.page.locator("[data-table-turn]")).to_contain_text("· Kim")

    sealed, cursor, typed_by_kim = 0, 0, []
    for entry in entries:
        action = entry.action
        mover = enc.state.figures.get(action.figure or "")
        app = guest if mover is not None and mover.side == side else host
        hidden = is_hidden_choice(enc, action)
        carry_out(app, enc, entry)
        expect(app.page.locator("#action-error")).to_have_count(0)
        faces = [d.value for r in entry.rolls for d in r.dice]
        if action.kind == "next_step" and faces:  # the step button rolls the page's own dice
            rolls = shared(host, cursor + 1)["log"][cursor]["rolls"]
            faces = [f for r in rolls for f in r["faces"]]
        enc.perform(action, faces or None)
        sealed += hidden
        if app is guest and faces and not hidden:
            typed_by_kim.append(cursor + sealed)
        if hidden and _still_to_seal(enc):  # sealed: the host holds a digest, not the choice
            expect(host.page.locator("[data-table-turn]")).to_contain_text(f"{sealed} sealed")
            assert shared(host, cursor)["cursor"] == cursor
            continue
        cursor += sealed + (not hidden)
        sealed = 0
        for each in (host, guest):
            shared(each, cursor)
    assert cursor == len(entries)
    kept = [shared(app, cursor) for app in (host, guest)]
    assert kept[0]["log"] == kept[1]["log"]
    typed = [i for i, e in enumerate(kept[0]["log"]) if e.get("note") == TYPED]
    assert typed == typed_by_kim
    label = encounter_view(enc)["time"]["label"]
    for app in (host, guest):
        expect(app.page.locator("#turn-line .turn-text")).to_contain_text(label)


# ---- a hostile guest and a closing browser ---------------------------------------------------

WATCH_CHANNELS = """() => {
  // the test's eyes on this page's data channels: each one, and every frame it got, with the
  // time its handler (the page's) was done with it
  const Base = window.RTCPeerConnection;
  window.seen = [];
  const watch = (c) => {
    window.seen.push({channel: c, frames: [], spent: 0});
    const kept = window.seen.at(-1);
    let began = 0;
    c.addEventListener("message", () => { began = performance.now(); });
    setTimeout(() => c.addEventListener("message", (e) => {
      const now = performance.now();
      kept.spent += now - began;
      kept.frames.push([now, String(e.data)]);
    }), 0);
  };
  window.RTCPeerConnection = class extends Base {
    constructor(...a) {
      super(...a);
      this.addEventListener("datachannel", (e) => watch(e.channel));
    }
    createDataChannel(...a) { const c = super.createDataChannel(...a); watch(c); return c; }
  };
}"""
KEPT = """() => {
  const key = Object.keys(localStorage).find((k) => k.startsWith("hexcombat.table."));
  return key ? JSON.parse(localStorage.getItem(key)) : null;
}"""
FLOOD = 1000


ROUND_TRIP = """(h) => {
  // send ``h`` on the last channel and resolve with the milliseconds until the next frame
  const s = window.seen.at(-1), n = s.frames.length, t0 = performance.now();
  s.channel.send(h);
  return new Promise((ok) => {
    const wait = () => (s.frames.length > n ? ok(performance.now() - t0) : setTimeout(wait, 1));
    wait();
  });
}"""


def raw(app: App, frames: list[str], times: int = 1) -> None:
    """``app`` sends ``frames`` as they are on its last data channel (a hostile device)."""
    app.page.evaluate(
        "([fs, n]) => { for (let i = 0; i < n; i++) for (const f of fs)"
        " window.seen.at(-1).channel.send(f); }",
        [frames, times],
    )


def seen(app: App, channel: int, what: str) -> Any:
    """``what`` of the watched ``channel`` of ``app`` (``frames``, ``spent``)."""
    return app.page.evaluate(f"window.seen.at({channel}).{what}")


def request(kind: str, **fields: Any) -> str:
    """A device's request as one frame."""
    return "1/1|" + json.dumps({"type": kind, "v": 1, **fields})


def reopen(browser: Browser, base_url: str, app: App) -> App:
    """The browser closes and opens again: a new page with what this one kept in storage
    (once it has written it: closing runs the page's waiting work, ``storage_state`` not)."""
    app.page.wait_for_function(SETTLED)
    state = app.page.context.storage_state()
    app.page.context.close()
    options = {**VIEWPORTS["desktop"], "storage_state": state}
    again = new_app(browser, base_url, app.viewport, options)
    again.page.set_default_timeout(20_000)
    again.open()
    again.wait_ready(READY_TIMEOUT_MS)
    again.page.evaluate(WATCH_CHANNELS)
    return again


def flood(host: App, lee: App, eve: App, forged: str) -> None:
    """Eve floods the host with forged requests while Lee asks something, three times: every
    forged frame reaches the host, and each of Lee's requests, before and in the flood, is
    answered (how long that takes is a speed figure, not a check here)."""
    hello = request("hello", name="Lee", token=lee.page.evaluate(KEPT)["device"]["token"], have=0)
    frames = len(seen(host, 2, "frames"))
    for _ in range(3):
        assert float(lee.page.evaluate(ROUND_TRIP, hello)) >= 0
        raw(eve, [forged], FLOOD)
        assert float(lee.page.evaluate(ROUND_TRIP, hello)) >= 0
    for _ in range(100):
        if len(seen(host, 2, "frames")) - frames >= 3 * FLOOD:
            break
        host.page.wait_for_timeout(50)
    assert len(seen(host, 2, "frames")) - frames == 3 * FLOOD


def test_a_round_with_a_hostile_guest_and_a_closing_browser_ends_alike_on_the_honest_devices(
    browser: Browser, base_url: str
) -> None:
    apps = [start_app(browser, base_url, "desktop") for _ in range(4)]
    host, kim, lee, eve = apps
    try:
        for app in apps:
            app.page.evaluate(WATCH_CHANNELS)
        import_encounter(host, percentile_duel())
        connect(host, kim, "Kim", "d1")
        connect(host, lee, "Lee", "d2")
        connect(host, eve, "GM", "d3", shown="GM 2")  # the GM's name is taken: numbered
        for seat in ("d1|Red", "d2|Blue"):  # Kim plays Bob, Lee plays Alice; Eve nothing
            host.page.select_option("#table-seat-pick", seat)
            press(host, '[data-cmd="table-seat"]')
        rolls = host.page.locator("[data-table-rolls]")
        expect(rolls).to_have_attribute("data-table-rolls", "host")
        token = eve.page.evaluate(KEPT)["device"]["token"]
        bob = {"kind": "face", "figure": "bob", "params": {"facing": 1}}
        forged = request("action", ref=1, action=bob, faces=[2, 2])  # Kim's, with its dice
        attacks = [
            "1/999999|" + "x" * 16_000,  # an endless message
            "2/999999|" + "x" * 16_000,
            "no header at all",  # broken frames
            "3/2|out of order",
            request("hello", name="Kim", token=token, have=0),  # a new name, its own token
            forged,
        ]
        raw(eve, attacks)
        refused = "window.seen.at(-1).frames.filter(([, f]) => f.includes('\"refused\"')).length"
        for _ in range(100):
            if eve.page.evaluate(refused) >= len(attacks) - 1:
                break
            eve.page.wait_for_timeout(100)
        assert eve.page.evaluate(refused) == len(attacks) - 1  # each, with a reason
        expect(host.page.locator('.table-devices [data-device="d3"]')).to_have_text(
            "GM 2 · connected"
        )
        for app in (host, kim, lee):
            press(app, '[data-cmd="close-dialog"]')
        expect(lee.page.locator("[data-table-turn]")).to_contain_text("Bob · Kim")
        early = next(f for _, f in seen(kim, -1, "frames") if '"entries"' in f)

        # a flood of forged requests: the host reads a few, and Lee's requests are answered
        flood(host, lee, eve, forged)

        # the round: Kim seals, her browser closes and opens again, Lee seals, Kim joins again
        declare_walk(kim, "bob")
        expect(host.page.locator("[data-table-turn]")).to_contain_text("1 sealed")
        kim = apps[1] = reopen(browser, base_url, kim)
        declare_walk(lee, "alice")
        expect(host.page.locator("[data-table-turn]")).to_contain_text("2 sealed")
        assert "Bob walks" not in host.page.content()
        menu(host, "table")  # the GM sees whose seal is missing, and could release it
        expect(host.page.locator('[data-sealed="bob"]')).to_contain_text("sealed on Kim")
        expect(host.page.locator('[data-sealed="alice"]')).to_contain_text("Lee")
        press(host, '[data-cmd="table-release"][data-figure="bob"]')  # the GM asks again
        expect(host.page.locator('[data-sealed="bob"]')).to_have_count(0)
        expect(host.page.locator("[data-table-turn]")).to_contain_text("1 sealed")
        menu(kim, "table")
        expect(kim.page.locator('[data-cmd="table-join"]')).to_have_text("Join again")
        connect(host, kim, "Kim", "d1")  # its kept token, and its kept choice sealed again
        for app in (host, kim, lee):
            expect(app.page.locator("#log")).to_contain_text("Bob walks", timeout=20_000)
        for app in (host, kim):
            press(app, '[data-cmd="close-dialog"]')
        had = log_texts(kim)
        kim.page.evaluate(  # a late entries message, as if from the host: never taken
            "(f) => window.seen.at(-1).channel.dispatchEvent(new MessageEvent('message',"
            " {data: f}))",
            early,
        )
        assert log_texts(kim) == had
        next_step(host, "Finish: Declarations")
        for app in (kim, lee):
            expect(app.page.locator("#turn-tracker")).to_contain_text("Movement")
        assert log_texts(host) == log_texts(kim) == log_texts(lee)
        assert "Alice walks (up to 1 hex)" in log_texts(kim)
        assert not any("typed" in line for line in log_texts(host))
    finally:
        for app in apps:
            errors = [line for line in app.console if line.startswith("pageerror")]
            app.page.context.close()
            assert app.blocked == [] and errors == [], "\n".join(errors)
