"""HTML built by construction (``web/ui/html.py``): text and attribute values are escaped,
whatever a player typed; only markup made by the helper (or marked as the page's own)
passes as it is."""

from __future__ import annotations

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
