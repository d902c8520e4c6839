// The share link's board before Python: a tiny reader of the link's share code (URL-safe
// base64 of zlib-compressed JSON, hexcombat/document.py's to_share_code) draws the shared
// encounter's board as an inert picture where the viewer will draw the live one. The
// start-up controller in index.html requests this file at once (high priority), only for a
// share link or the embed view (a file of the site: the page's Content-Security-Policy
// allows no other inline script).
//
// Where it can: the board (its hexes and terrain, as hexcombat.render draws them for the
// built-in rulesets, filled in by web/build.py) is known from the link alone; the figures are
// not (where they stand at the shown step comes from replaying the log in Python), so they
// appear with the live board. No picture for a document of another format or version, a
// ruleset the build does not know, a board with features, a dark theme, a touch screen whose
// live board would zoom in on the figures, or (in the app's viewer) a browser whose library
// holds encounters (the viewer may then add a note above the board).
(function () {
  "use strict";
  var BAR = __VIEWER_BAR__;  // web/share/bar.py
  var LOOKS = __TERRAIN__;  // per ruleset: default terrain, fills, pattern definitions
  var FORMAT = "__FORMAT__", VERSION = __VERSION__, MAX_BOARD = __MAX_BOARD__;
  // web/board/view.py: hex size and margin (board units), zoom limits, fingers' token size
  var HEX = 30, MARGIN = 16, APOTHEM = HEX * Math.sqrt(3) / 2;
  var MIN_ZOOM = 0.08, MAX_ZOOM = 6, TOKEN_PX = 2 * HEX * 0.52;
  var TOUCH_FIT_PX = __TOUCH_FIT_PX__;  // web/board/units.py, by web/build.py
  function $(id) { return document.getElementById(id); }

  function code() {
    var found = /^#(?:.*&)?e=([^&]+)/.exec(location.hash);
    return found && found[1];
  }

  // The share code's JSON document (DecompressionStream reads zlib as "deflate").
  function documentOf(text) {
    var b64 = text.replace(/-/g, "+").replace(/_/g, "/");
    var binary = atob(b64 + "===".slice((b64.length + 3) % 4));
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
    return new Response(stream).text().then(JSON.parse);
  }

  function num(value) { return String(Math.round(value * 100) / 100); }
  function own(table, key) { return Object.prototype.hasOwnProperty.call(table, key) ? table[key] : null; }
  function side(n) { return typeof n === "number" && n % 1 === 0 && n >= 1 && n <= MAX_BOARD; }

  // The board as hexcombat.render draws it (web/board_picture.py's look), in board units.
  function boardSvg(doc, look) {
    var board = doc.board, width = board.width, height = board.height;
    var terrain = board.terrain || {};
    var bw = 1.5 * HEX * (width - 1) + 2 * HEX + 2 * MARGIN;
    var bh = 2 * APOTHEM * height + (width > 1 ? APOTHEM : 0) + 2 * MARGIN;
    var corners = [];
    for (var i = 0; i < 6; i++) corners.push([HEX * Math.cos(Math.PI / 3 * i), HEX * Math.sin(Math.PI / 3 * i)]);
    var hexes = [];
    for (var row = 0; row < height; row++) {
      for (var col = 0; col < width; col++) {
        var q = col, r = row - (col - (col & 1)) / 2, key = q + "," + r;
        var fill = own(look.fill, own(terrain, key) || look["default"]);
        if (!fill) return null;
        var x = MARGIN + HEX + 1.5 * HEX * col, y = MARGIN + APOTHEM + 2 * APOTHEM * row + (col & 1) * APOTHEM;
        var points = corners.map(function (c) { return num(x + c[0]) + "," + num(y + c[1]); }).join(" ");
        hexes.push('<polygon data-hex="' + key + '" fill="' + fill + '" points="' + points + '"/>');
      }
    }
    var markup = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ' + num(bw) + " " + num(bh) + '">' +
      '<rect x="0" y="0" width="' + num(bw) + '" height="' + num(bh) + '" rx="10" ' +
      'style="fill: var(--board-bg); stroke: var(--board-edge); stroke-width: 2"/>' +
      "<defs>" + look.defs + '</defs><g class="hexes" stroke="#555555" stroke-width="1">' +
      hexes.join("") + "</g></svg>";
    var svg = new DOMParser().parseFromString(markup, "image/svg+xml").documentElement;
    return svg.localName === "svg" ? { svg: document.importNode(svg, true), w: bw, h: bh } : null;
  }

  // The viewer's frame, as web/share/viewer.py builds it (it keeps this one), with one line
  // of words in its title so that the board's box is the one the viewer will measure.
  function frame(kind) {
    var root = $("app-root"), wrap = $("board-wrap"), dialog = $("dialog");
    var viewer = document.createElement("div");
    viewer.id = "viewer";
    viewer.dataset.viewer = kind;
    viewer.innerHTML = BAR;
    root.hidden = false;  // laid out, invisible while loading (static/app.css), as the viewer does
    root.replaceChildren(viewer);
    viewer.querySelector("#viewer-main").prepend(wrap);
    viewer.append(dialog);
    $("viewer-name").textContent = $("viewer-time").textContent = "\u00a0";
    var log = !matchMedia("(max-width: 899px), (max-height: 419px)").matches;  // viewer.set_log
    viewer.dataset.log = log ? "open" : "closed";
    $("viewer-log").hidden = !log;
  }

  // Where web/board/view.py's fit() puts the board (no insets in the viewer), or null where
  // it would not show the whole board centred (a board with figures fitted for fingers).
  function place(picture, figures) {
    var rect = $("board").getBoundingClientRect();
    var k = Math.min(rect.width / picture.w, rect.height / picture.h);
    if (figures && matchMedia("(pointer: coarse)").matches && TOKEN_PX * k < TOUCH_FIT_PX) return null;
    if (!(k >= MIN_ZOOM)) return null;
    k = Math.min(MAX_ZOOM, k);
    var tx = (rect.width - picture.w * k) / 2, ty = (rect.height - picture.h * k) / 2;
    picture.svg.setAttribute("viewBox", [-tx / k, -ty / k, rect.width / k, rect.height / k].join(" "));
    picture.svg.setAttribute("width", rect.width);
    picture.svg.setAttribute("height", rect.height);
    return [rect.left, rect.top, rect.width, rect.height];
  }

  // The page's style sheets (the viewer's, which index.html adds at once for a share link,
  // among them) have loaded: the frame is measured as the viewer will measure it.
  function styled() {
    var links = document.querySelectorAll('link[rel="stylesheet"]');
    return Promise.all(Array.prototype.map.call(links, function (link) {
      if (link.sheet) return null;
      return new Promise(function (resolve) {
        link.addEventListener("load", resolve);
        link.addEventListener("error", resolve);
      });
    }));
  }

  function paint() {
    var kind = /[?&]embed(?:[=&]|$)/.test(location.search) ? "embed" : "view";
    var text = code();
    if (!text || !window.DecompressionStream || matchMedia("(prefers-color-scheme: dark)").matches) return;
    if (kind === "view" && localStorage.getItem("hexcombat:index") !== null) return;
    Promise.all([documentOf(text), parsed().then(styled)]).then(function (got) {
      var doc = got[0], board = doc && doc.board;
      if (!doc || doc.format !== FORMAT || doc.version !== VERSION || !board) return;
      if (!side(board.width) || !side(board.height) || typeof (board.terrain || {}) !== "object") return;
      if (board.features && Object.keys(board.features).length) return;
      var look = own(LOOKS, doc.ruleset && doc.ruleset.id);
      if (!look || document.documentElement.dataset.appState !== "loading" || $("viewer")) return;
      var picture = boardSvg(doc, look);
      if (!picture) return;
      frame(kind);
      var rect = place(picture, (doc.figures || []).length > 0);
      if (rect) window.hexcombatBoot.showPicture(picture.svg, rect, "share");
    }).catch(function () { /* no picture: the viewer says what is wrong with the link */ });
  }

  // Once the page is parsed, in a frame (so with the page's render-blocking style sheet, which
  // this script, requested first, may beat), not at DOMContentLoaded, which waits for
  // PyScript's modules; the link's code is read meanwhile.
  function parsed() {
    return new Promise(function (resolve) {
      (function check() {
        requestAnimationFrame(function () {
          if ($("first-board") || document.readyState !== "loading") resolve();
          else check();
        });
      })();
    });
  }

  try { paint(); } catch (e) { /* no picture */ }
})();
