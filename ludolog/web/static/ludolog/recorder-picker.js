/* The tile picker of the table recorder: which tile came out of the bag at the table.
 *
 * Every tile still in the pile, as a picture with its number (the one the rulebook gives it) and
 * how many are left. The scorekeeper narrows it with a sketch of a tile whose four sides are
 * tapped to say what the tile in hand shows there, whichever way the tile lies (a river, a
 * forest, a meadow; a city, a road, a field: the kinds the tiles' own sides have; a tap skips a
 * kind no tile left has there), and with chips for what is printed on it, each with the count it
 * leaves. Tiles the engine says fit nowhere are set apart at the end: drawn at the table, such a
 * tile is discarded (picked, "Fits nowhere" is offered).
 *
 * recorder-tiles.js calls LudologTilePicker.render(state, context) where it shows the pile;
 * context: picture(tile, rotation, size, class) draws a tile, fitsNowhere(tile) says whether the
 * engine (or, offline, the edges) finds no place for it, pick(tile) takes it in hand. The
 * filters last while the same draw is being looked for ("Wrong tile" comes back to them) and
 * start again for the next draw.
 */
(function () {
  "use strict";
  var SIDES = 4;
  var kept = { draw: null, edges: [null, null, null, null], tags: [], scroll: 0 };

  function edgeKinds(data) {
    return data.edge_kinds || [];
  }

  /* Whether a tile shows the sides wanted (null: any) in some rotation. */
  function sidesMatch(tile, wanted) {
    for (var turn = 0; turn < SIDES; turn += 1) {
      var fits = true;
      for (var side = 0; side < SIDES && fits; side += 1) {
        if (wanted[side] && tile.edges[(side + turn) % SIDES] !== wanted[side]) fits = false;
      }
      if (fits) return true;
    }
    return false;
  }

  function hasTags(tile, wanted) {
    return wanted.every(function (tag) { return tile.tags.indexOf(tag) >= 0; });
  }

  /* Dark text on a light side, light text on a dark one. */
  function inkOn(colour) {
    var hex = /^#([0-9a-f]{6})$/i.exec(colour || "");
    if (!hex) return "#1a1a1a";
    var n = parseInt(hex[1], 16);
    var light = 0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255);
    return light > 150 ? "#1a1a1a" : "#ffffff";
  }

  function render(state, context) {
    var R = window.LudologRecorder;
    var data = R.data, words = R.words, el = R.el, fill = R.fill, tiles = data.tiles;
    // One draw is looked for until a move is recorded or taken back.
    var draw = String(R.table.seq + R.queue.length);
    if (kept.draw !== draw) kept = { draw: draw, edges: [null, null, null, null], tags: [], scroll: 0 };
    var kinds = edgeKinds(data);

    var left = Object.keys(state.pile).filter(function (t) { return state.pile[t] > 0 && tiles[t]; }).sort();
    function matching(edges, tags) {
      return left.filter(function (t) { return sidesMatch(tiles[t], edges) && hasTags(tiles[t], tags); });
    }
    var shown = matching(kept.edges, kept.tags);
    var filtered = kept.tags.length > 0 || kept.edges.some(Boolean);

    var box = el("div", { "class": "picker", "data-testid": "picker" });
    box.appendChild(el("p", { "class": "picker-title", text: state.phase === "bonus" ? words.pick_bonus : words.pick_tile }));

    // The sketch: four sides around the count of tiles that match.
    var sketch = el("div", { "class": "edge-sketch", role: "group", "aria-label": words.edge_filter });
    ["n", "e", "s", "w"].forEach(function (name, side) {
      var wanted = kept.edges[side];
      var kind = kinds.filter(function (k) { return k.kind === wanted; })[0];
      var label = wanted ? (words["terrain:" + wanted] || wanted) : "?";
      var button = el("button", {
        type: "button", "class": "edge edge-" + name + (wanted ? " set" : ""), "data-testid": "edge",
        "data-side": String(side), "data-kind": wanted || "",
        "aria-label": fill(words.edge_side, { side: words["side:" + side], kind: wanted ? label : words.edge_any }),
        onclick: function () {
          // The next kind that leaves a tile to pick (none left: back to any).
          var order = kinds.map(function (k) { return k.kind; });
          var next = null;
          for (var at = order.indexOf(wanted) + 1; at < order.length && next === null; at += 1) {
            var edges = kept.edges.slice();
            edges[side] = order[at];
            if (matching(edges, kept.tags).length) next = order[at];
          }
          kept.edges = kept.edges.slice();
          kept.edges[side] = next;
          kept.scroll = 0;
          R.render();
        }
      }, [el("span", { text: label })]);
      if (kind) {
        button.style.background = kind.colour;
        button.style.color = inkOn(kind.colour);
      }
      sketch.appendChild(button);
    });
    sketch.appendChild(el("div", { "class": "edge-centre", "aria-hidden": "true" }, [
      el("span", { "class": "edge-count", "data-testid": "match-count", text: String(shown.length) })
    ]));

    var summary = el("div", { "class": "picker-summary" }, [
      el("p", { "class": "hint", text: words.edge_hint }),
      el("p", { "class": "match-line", role: "status", "data-testid": "match-line",
        text: fill(words.matching, { count: shown.length, total: left.length }) }),
      el("button", { type: "button", "class": "secondary reset-filters", "data-testid": "reset-filters",
        disabled: !filtered, onclick: function () {
          kept.edges = [null, null, null, null];
          kept.tags = [];
          kept.scroll = 0;
          R.render();
        }, text: "↺ " + words.reset_filters })
    ]);
    box.appendChild(el("div", { "class": "picker-filters" }, [sketch, summary]));

    // What is printed on the tile, each chip with the count it would leave.
    var present = data.tags.filter(function (tag) {
      return left.some(function (t) { return tiles[t].tags.indexOf(tag) >= 0; });
    });
    var chips = el("div", { "class": "filters-row", role: "group", "aria-label": words.filter });
    present.forEach(function (tag) {
      var on = kept.tags.indexOf(tag) >= 0;
      var count = matching(kept.edges, on ? kept.tags : kept.tags.concat([tag])).length;
      chips.appendChild(el("button", { type: "button", "class": "chip", "data-filter": tag, "aria-pressed": on ? "true" : "false",
        disabled: !on && count === 0, onclick: function () {
          kept.tags = on ? kept.tags.filter(function (f) { return f !== tag; }) : kept.tags.concat([tag]);
          kept.scroll = 0;
          R.render();
        } }, [words["tag:" + tag] || tag, el("span", { "class": "count", text: " " + count })]));
    });
    box.appendChild(chips);

    // The pictures: those that fit somewhere, then those that fit nowhere.
    var fitting = [], nowhere = [];
    shown.forEach(function (t) { (context.fitsNowhere(t) ? nowhere : fitting).push(t); });
    function choice(tile, fits) {
      var number = el("span", { "class": "tile-number", text: tile });
      var name = tile + " (" + fill(words.left, { count: state.pile[tile] }) + ")" + (fits ? "" : " — " + words.fits_nowhere_one);
      return el("button", { type: "button", "class": "tile-choice" + (fits ? "" : " nowhere"), "data-testid": "tile-choice",
        "data-tile": tile, "data-fits": fits ? "somewhere" : "nowhere", "aria-label": name,
        onclick: function () { context.pick(tile); } },
        [el("span", { "class": "tile-face" }, [context.picture(tile, 0, 56)]),
          el("span", { "class": "tile-label" }, [number,
            state.pile[tile] > 1 ? el("span", { "class": "badge", text: "×" + state.pile[tile] }) : null])]);
    }
    var tilesBox = el("div", { "class": "picker-tiles" });
    var grid = el("div", { "class": "tile-grid" });
    fitting.forEach(function (tile) { grid.appendChild(choice(tile, true)); });
    if (fitting.length) tilesBox.appendChild(grid);
    if (nowhere.length) {
      tilesBox.appendChild(el("p", { "class": "nowhere-title", "data-testid": "fits-nowhere",
        text: fill(words.fits_nowhere_group, { count: nowhere.length }) }));
      var apart = el("div", { "class": "tile-grid nowhere" });
      nowhere.forEach(function (tile) { apart.appendChild(choice(tile, false)); });
      tilesBox.appendChild(apart);
    }
    if (!shown.length) tilesBox.appendChild(el("p", { "class": "hint", text: words.no_match }));
    box.appendChild(tilesBox);
    // The page is drawn again on other news (a connection back, another phone): the pictures
    // stay where the scorekeeper scrolled them, until a filter changes what they are.
    tilesBox.addEventListener("scroll", function () {
      if (tilesBox.isConnected) kept.scroll = tilesBox.scrollTop;  // not the reset of a box drawn over
    });
    if (kept.scroll) window.requestAnimationFrame(function () { tilesBox.scrollTop = kept.scroll; });
    return box;
  }

  window.LudologTilePicker = { render: render, sidesMatch: sidesMatch };
})();
