"""HTML built by construction (``web/ui/html.py``): text and attribute values are escaped,
whatever a player typed; only markup made by the helper (or marked as the page's own)
passes as it is; the panels that build their markup with it show a typed name as text."""

from __future__ import annotations

from hexcombat import Encounter, Hex
from hexcombat.errors import Problem
from hexcombat.roster import new_roster, saved
from web.library.panel import entry_markup, rename_form, trash_markup
from web.library.roster import Kept
from web.library.roster_list import roster_markup
from web.library.storage import Entry
from web.ui.html import Markup, el, joined

TYPED = '"><img src=x onerror=alert(1)> & <b>Bo</b>'


def test_typed_text_is_escaped_as_content_and_as_attribute_values() -> None:
    html = el("button", TYPED, type="button", data_side=TYPED, title=TYPED)
    assert "<img" not in html and "<b>" not in html
    assert html == (
        '<button type="button" data-side="&quot;&gt;&lt;img src=x onerror=alert(1)&gt; &amp; '
        '&lt;b&gt;Bo&lt;/b&gt;" title="&quot;&gt;&lt;img src=x onerror=alert(1)&gt; &amp; '
        '&lt;b&gt;Bo&lt;/b&gt;">&quot;&gt;&lt;img src=x onerror=alert(1)&gt; &amp; '
        "&lt;b&gt;Bo&lt;/b&gt;</button>"
    )


def test_markup_made_by_the_helper_nests_unescaped_and_plain_text_never_does() -> None:
    inner = el("strong", "Suggestion:")
    assert el("p", inner, " ", "a < b") == "<p><strong>Suggestion:</strong> a &lt; b</p>"
    assert el("p", "<strong>x</strong>") == "<p>&lt;strong&gt;x&lt;/strong&gt;</p>"
    assert el("p", Markup("<em>ours</em>")) == "<p><em>ours</em></p>"


def test_attribute_names_and_flags() -> None:
    assert el("div", class_="row", data_cmd="suggest", aria_busy="true") == (
        '<div class="row" data-cmd="suggest" aria-busy="true"></div>'
    )
    assert el("input", type="checkbox", checked=True, disabled=False, title=None) == (
        '<input type="checkbox" checked>'
    )


def test_joined_leaves_out_nothing_but_none() -> None:
    assert joined([el("li", "a"), None, "&", el("li", "")]) == "<li>a</li>&amp;<li></li>"
    assert isinstance(joined([]), Markup)


HOSTILE = "<img src=x onerror=alert(1)>"
SHOWN = "&lt;img src=x onerror=alert(1)&gt;"


def test_names_a_player_typed_stay_text_in_the_library_panel() -> None:
    enc = Encounter.new("skirmish", 8, 6, name=HOSTILE)
    enc = enc.with_figure(enc.ruleset.new_figure("ash", HOSTILE, HOSTILE, Hex(2, 2), 1))
    roster, _ = saved(new_roster("skirmish"), enc.setup_figure("ash"))
    entry = Entry(id="e1", name=HOSTILE, ruleset="skirmish", changed="", revision=1)
    damaged = Entry(id="e2", name=HOSTILE, ruleset="skirmish", changed="", revision=1,
                    problems=(Problem("name", HOSTILE),))  # fmt: skip
    shown = {
        "entry": entry_markup(entry, "Skirmish", "today", current=True),
        "damaged entry": entry_markup(damaged, "Skirmish", "today", current=False),
        "trash": trash_markup(entry, "today"),
        "rename": rename_form(entry.name),
        "roster": roster_markup(Kept("skirmish", 1, roster), "Skirmish"),
    }
    for where, html in shown.items():
        assert "<img" not in html, where
        assert SHOWN in html, where
    assert f'value="{SHOWN}"' in shown["rename"]
    assert f'aria-label="Remove {SHOWN} from the roster"' in shown["roster"]


def test_a_refused_files_name_and_problems_show_as_text_on_the_import_page() -> None:
    from web.library.importing import refused_markup

    problem = Problem(f"log[0].{TYPED}", f"has {TYPED}")
    for refused in ([(TYPED, [problem])], [(TYPED, [problem]), ("b.json", [Problem("", TYPED)])]):
        html = refused_markup(refused)
        assert isinstance(html, Markup)
        assert "<img" not in html and "<b>" not in html
        assert "&lt;img src=x onerror=alert(1)&gt;" in html
    single = refused_markup([(TYPED, [problem])])
    assert single.startswith("<h3>“&quot;&gt;&lt;img") and "cannot be imported</h3>" in single
    assert '<ul class="hc-import-problems"><li><code>log[0].&quot;&gt;&lt;img' in single
    two = refused_markup([(TYPED, [problem]), ("b.json", [Problem("", "not a file")])])
    assert "<h3>2 files cannot be imported</h3>" in two and "<h4>b.json</h4>" in two
    assert "<li>not a file</li>" in two and "They have these problems" in two


def test_an_action_cards_label_and_kind_show_as_text() -> None:
    from web.play.cards import cards_html

    enc = Encounter.new("skirmish", 4, 4)
    spec = {"kind": TYPED, "label": TYPED, "figure": None, "params": [], "help": TYPED}
    gm = {**spec, "group": "gm"}
    html = cards_html([spec, gm], TYPED, {}, enc)
    assert isinstance(html, Markup)
    assert "<img" not in html and "<b>" not in html
    assert 'data-action="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;' in html
    assert '<details class="gm-tools" data-gm open><summary>GM tools</summary>' in html
    assert html.count('data-expanded="true"') == 2 and 'id="action-form"' in html
