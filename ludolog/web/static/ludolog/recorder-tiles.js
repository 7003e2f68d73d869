/* The table recorder for tile games (Hunters and Gatherers, Carcassonne, any tile game whose
 * adapter gives the same options).
 *
 * The tile in hand is shown as a picture: the one Ludolog drew (a seeded record) or the one the
 * scorekeeper picks from the pile (an unseeded record: every tile left, with how many, filtered
 * by what is on it). The board highlights where it fits; tapping a spot lays it in its first
 * legal rotation, "Rotate" cycles through the legal rotations only, and the tile's features
 * become targets for the figures the engine allows there. Where it fits, and with which
 * figures, comes from the engine (the options API); while moves wait to be sent (no
 * connection) the next ones are worked out here from the tiles' edges alone and marked as not
 * checked: the engine checks them when they are sent.
 */
(function () {
  "use strict";
  var R = window.LudologRecorder;
  if (!R || !R.data.tiles) return;
  var data = R.data, words = R.words, el = R.el, fill = R.fill;
  var tiles = data.tiles;
  var SVG = "http://www.w3.org/2000/svg";
  var CELL = 60;
  var SIDES = 4;
  // Sizes in screen pixels: a square stays tappable down to SPOT_PX (24 px, WCAG 2.2's minimum
  // target size: a mis-tap only shows the tile on the wrong square, and another tap moves it),
  // which frames nearly every position on a phone; a figure target is TARGET_PX
  // across (at least 44 px); a tile taking figures is drawn at least FIGURE_MIN_TILE_PX wide and at
  // most FIGURE_MAX_SHARE of the frame, so that its neighbours stay in sight.
  var SPOT_PX = 24, FRAME_MAX_PX = 110, MAX_TILE_PX = 320, WHOLE_BOARD_MIN_PX = 6;
  var TARGET_PX = 46, FIGURE_MIN_TILE_PX = 112, FIGURE_MAX_SHARE = 0.62;
  var FRAME_MARGIN = 0.4;  // of a square, around what is framed
  var FRAME_MIN_HEIGHT_PX = 240;
  var ARROWS = { left: "←", up: "↑", down: "↓", right: "→" };

  var selection = { tile: null, spot: null, rotation: 0, figure: null, island: null, asking: null, featureAsked: null };
  var hand = null;  // the tile in hand as last drawn: Ludolog's draw or the one picked
  var optionsCache = {};
  var viewport = document.getElementById("board-viewport");
  var tray = document.getElementById("tray");
  var buttons = {
    rotate: document.getElementById("rotate"), noFigure: document.getElementById("no-figure"),
    discard: document.getElementById("discard"), confirm: document.getElementById("confirm")
  };
  // A closed record's page has no action bar: stand-ins keep the code below from failing on it.
  Object.keys(buttons).forEach(function (name) {
    if (!buttons[name]) buttons[name] = document.createElement("button");
  });
  var tilePx = null;
  var zoomBefore = null;
  var framedFor = null;  // the position and tile the board was last framed for
  var currentOptions = null;

  function svg(tag, attrs) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (name) { node.setAttribute(name, attrs[name]); });
    return node;
  }

  function picture(tile, rotation, size, extraClass) {
    var box = svg("svg", { viewBox: "0 0 60 60", width: size, height: size, "class": "tile-picture " + (extraClass || ""),
      "aria-hidden": "true" });
    var use = svg("use", { href: "#tile-" + tile });
    if (rotation) use.setAttribute("transform", "rotate(" + rotation + " 30 30)");
    box.appendChild(use);
    return box;
  }

  // -- the position as this phone knows it: the server's, plus the moves waiting to be sent ----

  function model() {
    var table = R.table, options = table.options || {};
    var cells = {};
    (table.placed || []).forEach(function (p) { cells[p.x + "," + p.y] = { tile: p.tile, rotation: p.rotation }; });
    var pile = {};
    (options.pile || []).forEach(function (entry) { pile[entry.tile] = entry.left; });
    var supply = JSON.parse(JSON.stringify(options.supply || []));
    var seat = options.seat;
    var known = true;
    var players = (table.seats || []).length;
    R.queue.forEach(function (item) {
      if (item.type === "undo") { known = false; return; }
      var payload = item.payload;
      if (pile[payload.tile]) pile[payload.tile] -= 1;
      if (item.type === "place_tile") {
        cells[payload.x + "," + payload.y] = { tile: payload.tile, rotation: payload.rotation, pending: true };
        var kind = payload.figure || figureInPayload(payload);
        var pool = kind && data.figure_pools[kind];
        if (pool && supply[seat] && supply[seat][pool] > 0) supply[seat][pool] -= 1;
        // Not known here: a bonus tile earned (Hunters and Gatherers); the engine will say.
        seat = (seat + 1) % players;
      }
    });
    var exact = R.queue.length === 0;
    return {
      cells: cells, pile: pile, supply: supply, seat: seat, known: known && !options.over, exact: exact,
      drawn: exact ? options.drawn : null, seeded: data.seeded, phase: exact ? options.phase : null
    };
  }

  // The figure kind a payload names by its own field (Carcassonne's meeple: 2, big: 2…).
  function figureInPayload(payload) {
    var fields = data.figure_fields || {};
    for (var kind in fields) { if (payload[fields[kind]] !== undefined) return kind; }
    return null;
  }

  function edge(tile, side, rotation) {
    return tiles[tile].edges[((side - rotation / 90) % SIDES + SIDES) % SIDES];
  }

  var OFFSETS = [[0, -1], [1, 0], [0, 1], [-1, 0]];

  /* Where ``tile`` fits from the edges alone (the engine's rule for laying a tile), with the
   * figures its terrains take; used only while moves wait to be sent. */
  function provisionalOptions(state, tile) {
    var frontier = {};
    Object.keys(state.cells).forEach(function (key) {
      var xy = key.split(",").map(Number);
      OFFSETS.forEach(function (d) {
        var cell = (xy[0] + d[0]) + "," + (xy[1] + d[1]);
        if (!state.cells[cell]) frontier[cell] = true;
      });
    });
    var figures = [];
    var supply = state.supply[state.seat] || {};
    Object.keys(tiles[tile].terrains).forEach(function (feature) {
      (data.figures_by_terrain[tiles[tile].terrains[feature]] || []).forEach(function (kind) {
        if ((supply[data.figure_pools[kind]] || 0) > 0) figures.push({ feature: Number(feature), kind: kind });
      });
    });
    var spots = [];
    Object.keys(frontier).sort().forEach(function (key) {
      var xy = key.split(",").map(Number);
      var rotations = [];
      for (var rotation = 0; rotation < 360; rotation += 90) {
        var fits = OFFSETS.every(function (d, side) {
          var other = state.cells[(xy[0] + d[0]) + "," + (xy[1] + d[1])];
          return !other || edge(tile, side, rotation) === edge(other.tile, (side + 2) % SIDES, other.rotation);
        });
        if (fits) rotations.push({ rotation: rotation, figures: figures });
      }
      if (rotations.length) spots.push({ x: xy[0], y: xy[1], rotations: rotations });
    });
    return { tile: tile, spots: spots, discard: spots.length === 0, provisional: true };
  }

  /* The options for the tile in hand, or null while they are being fetched. */
  function optionsFor(state, tile) {
    var options = R.table.options || {};
    var island = selection.island;
    if (!state.exact) return provisionalOptions(state, tile);
    if (!island && options.tile === tile) return options;
    var key = R.table.seq + ":" + tile + (island ? ":" + island.colour + "/" + island.stack : "");
    if (optionsCache[key]) return optionsCache[key];
    if (!R.online) return provisionalOptions(state, tile);
    optionsCache[key] = null;
    // Carcassonne Maps: where an island's face-up tile fits, once a chip is to pay for it.
    var query = island ? "?island=" + encodeURIComponent(island.colour) + "&stack=" + island.stack
      : "?tile=" + encodeURIComponent(tile);
    fetch(data.urls.options + query, { credentials: "same-origin",
      headers: { Accept: "application/json" } })
      .then(function (response) { if (!response.ok) throw new Error("options " + response.status); return response.json(); })
      .then(function (options) {
        if (options.seq !== R.table.seq) return;
        optionsCache[key] = options;
        R.render();
      }).catch(function () { delete optionsCache[key]; R.render(); });
    return null;
  }

  // -- the board: zoom, pan, spots, the tile being laid ---------------------------------------
  //
  // When a tile is in hand the board frames every square it may go to, shrinking the tiles as
  // far as a square stays tappable (SPOT_PX); squares too spread for that are framed by their
  // densest cluster, and the strip above the board says how many more lie off screen and in which
  // direction (a tap pans there). Once a square is chosen the board zooms only as much as the
  // figure targets need (one 46 px target a feature, never overlapping), so the neighbours stay
  // in sight. The zoom controls and the markers sit in that strip, never over the board.

  function boardSvg() { return document.querySelector("#board svg"); }

  function fitTilePx(svgNode) {
    // "Whole board": the whole board, however small its tiles get.
    var box = svgNode.viewBox.baseVal;
    var across = Math.max(1, box.width / CELL), down = Math.max(1, box.height / CELL);
    var fit = Math.min(viewport.clientWidth / across, viewport.clientHeight / down);
    return Math.max(WHOLE_BOARD_MIN_PX, Math.min(FRAME_MAX_PX, Math.floor(fit)));
  }

  function applyZoom(svgNode) {
    var box = svgNode.viewBox.baseVal;
    svgNode.setAttribute("width", String(Math.round(box.width / CELL * tilePx)));
    svgNode.setAttribute("height", String(Math.round(box.height / CELL * tilePx)));
  }

  /* Keep a board point at the same place on the screen while zooming. */
  function zoomTo(px, focus) {
    var svgNode = boardSvg();
    if (!svgNode) return;
    px = Math.max(WHOLE_BOARD_MIN_PX, Math.min(MAX_TILE_PX, px));
    var rect = svgNode.getBoundingClientRect(), frame = viewport.getBoundingClientRect();
    focus = focus || { x: frame.left + frame.width / 2, y: frame.top + frame.height / 2 };
    var ratio = px / tilePx;
    var offsetX = focus.x - rect.left, offsetY = focus.y - rect.top;
    tilePx = px;
    applyZoom(svgNode);
    viewport.scrollLeft += offsetX * ratio - offsetX;
    viewport.scrollTop += offsetY * ratio - offsetY;
    drawBoard(model(), currentOptions);
  }

  function origins(svgNode) {
    return { x: Number(svgNode.dataset.originX || 0), y: Number(svgNode.dataset.originY || 0) };
  }

  /* Where a board square lies in the viewport's scrolled content, in pixels (its top left). */
  function squareBox(svgNode, x, y) {
    var box = svgNode.viewBox.baseVal, origin = origins(svgNode);
    // The board is centred in its frame when narrower than it.
    var inset = Math.max(0, (viewport.clientWidth - box.width / CELL * tilePx) / 2);
    return {
      left: inset + ((x - origin.x) * CELL - box.x) / CELL * tilePx,
      top: ((y - origin.y) * CELL - box.y) / CELL * tilePx,
      size: tilePx
    };
  }

  /* Scroll so that the board rectangle of squares [x0, x1] × [y0, y1] is in the middle. */
  function centreOnSquares(x0, y0, x1, y1) {
    var svgNode = boardSvg();
    if (!svgNode) return;
    var a = squareBox(svgNode, x0, y0), b = squareBox(svgNode, x1, y1);
    viewport.scrollLeft = (a.left + b.left + b.size) / 2 - viewport.clientWidth / 2;
    viewport.scrollTop = (a.top + b.top + b.size) / 2 - heightInSight() / 2;
  }

  function centreOn(x, y) { centreOnSquares(x, y, x, y); }

  /* How much of the frame's height is in sight: the action bar, at the bottom of the screen, may
   * cover its lower part (it grows a row when a square is chosen). */
  function heightInSight() {
    var bar = document.getElementById("action-bar");
    if (!bar || bar.hidden) return viewport.clientHeight;
    var frame = viewport.getBoundingClientRect();
    return Math.max(0, Math.min(viewport.clientHeight, bar.getBoundingClientRect().top - frame.top));
  }

  /* Whether a square is wholly inside the board's frame, and in sight, as it is scrolled now. */
  function inView(svgNode, x, y) {
    var box = squareBox(svgNode, x, y), slack = 1;
    return box.left >= viewport.scrollLeft - slack && box.top >= viewport.scrollTop - slack &&
      box.left + box.size <= viewport.scrollLeft + viewport.clientWidth + slack &&
      box.top + box.size <= viewport.scrollTop + heightInSight() + slack;
  }

  function spanOf(spots) {
    var xs = spots.map(function (s) { return s.x; }), ys = spots.map(function (s) { return s.y; });
    return { x0: Math.min.apply(null, xs), x1: Math.max.apply(null, xs),
      y0: Math.min.apply(null, ys), y1: Math.max.apply(null, ys) };
  }

  /* The largest tile size at which the squares of ``span`` all fit in the frame. */
  function sizeToFit(span) {
    var across = span.x1 - span.x0 + 1 + FRAME_MARGIN, down = span.y1 - span.y0 + 1 + FRAME_MARGIN;
    return Math.floor(Math.min(viewport.clientWidth / across, heightInSight() / down));
  }

  /* The spots to frame: all of them when they fit at a tappable size, else the densest cluster
   * that does (nearest the tile laid last among equals). */
  function clusterToFrame(spots, near) {
    if (sizeToFit(spanOf(spots)) >= SPOT_PX) return spots;
    var across = Math.max(1, Math.floor(viewport.clientWidth / SPOT_PX - FRAME_MARGIN));
    var down = Math.max(1, Math.floor(heightInSight() / SPOT_PX - FRAME_MARGIN));
    var best = null;
    spots.forEach(function (corner) {
      // Every window of across × down squares whose left or top edge is a spot's.
      [[corner.x, corner.y], [corner.x - across + 1, corner.y], [corner.x, corner.y - down + 1],
        [corner.x - across + 1, corner.y - down + 1]].forEach(function (origin) {
        var inside = spots.filter(function (s) {
          return s.x >= origin[0] && s.x < origin[0] + across && s.y >= origin[1] && s.y < origin[1] + down;
        });
        var span = spanOf(inside);
        var distance = near ? Math.abs((span.x0 + span.x1) / 2 - near[0]) + Math.abs((span.y0 + span.y1) / 2 - near[1]) : 0;
        if (!best || inside.length > best.inside.length ||
            (inside.length === best.inside.length && distance < best.distance)) {
          best = { inside: inside, distance: distance };
        }
      });
    });
    return best.inside;
  }

  /* Frame the squares the tile in hand may go to (a new position or a new tile in hand). */
  function frameSpots(svgNode, spots, near) {
    sizeFrame();
    var bar = document.getElementById("action-bar");
    if (bar && viewport.getBoundingClientRect().bottom > bar.getBoundingClientRect().top + 2) showTray();
    var shown = clusterToFrame(spots, near);
    var span = spanOf(shown);
    tilePx = Math.max(WHOLE_BOARD_MIN_PX, Math.min(FRAME_MAX_PX, sizeToFit(span)));
    applyZoom(svgNode);
    // A board now wider or taller than its frame brings scrollbars, which take from the frame's
    // room: fit again in what is left.
    var again = sizeToFit(span);
    if (again < tilePx) {
      tilePx = Math.max(WHOLE_BOARD_MIN_PX, again);
      applyZoom(svgNode);
    }
    centreOnSquares(span.x0, span.y0, span.x1, span.y1);
  }

  /* The strip above the board: for the squares out of the frame, how many lie on each side; a
   * tap pans to the nearest cluster there. */
  function renderMarkers() {
    var strip = document.getElementById("offscreen-markers");
    var svgNode = boardSvg();
    if (!strip) return;
    strip.textContent = "";
    var spots = currentOptions && !selection.spot ? currentOptions.spots : [];
    if (!svgNode || !spots.length) return;
    var sides = { left: [], up: [], down: [], right: [] };
    var midX = viewport.scrollLeft + viewport.clientWidth / 2, midY = viewport.scrollTop + viewport.clientHeight / 2;
    spots.forEach(function (spot) {
      if (inView(svgNode, spot.x, spot.y)) return;
      var box = squareBox(svgNode, spot.x, spot.y);
      var dx = (box.left + box.size / 2 - midX) / viewport.clientWidth;
      var dy = (box.top + box.size / 2 - midY) / viewport.clientHeight;
      sides[Math.abs(dx) >= Math.abs(dy) ? (dx < 0 ? "left" : "right") : (dy < 0 ? "up" : "down")].push(spot);
    });
    Object.keys(sides).forEach(function (side) {
      var off = sides[side];
      if (!off.length) return;
      strip.appendChild(el("button", { type: "button", "class": "offscreen", "data-testid": "offscreen", "data-side": side,
        "aria-label": fill(words["offscreen_" + side], { count: off.length }),
        title: fill(words["offscreen_" + side], { count: off.length }),
        onclick: function () {
          var shown = clusterToFrame(off, null), span = spanOf(shown);
          if (sizeToFit(span) < tilePx) { tilePx = Math.max(SPOT_PX, sizeToFit(span)); applyZoom(svgNode); }
          centreOnSquares(span.x0, span.y0, span.x1, span.y1);
          renderMarkers();
        } }, [el("span", { "aria-hidden": "true", text: ARROWS[side] + " " + off.length })]));
    });
  }

  /* Pinch with two fingers, ctrl+wheel (a trackpad's pinch) or the buttons; one finger pans
   * (the viewport scrolls). */
  (function zooming() {
    var pointers = {};
    var start = null;
    viewport.addEventListener("pointerdown", function (event) {
      pointers[event.pointerId] = { x: event.clientX, y: event.clientY };
      var ids = Object.keys(pointers);
      if (ids.length === 2) {
        var a = pointers[ids[0]], b = pointers[ids[1]];
        start = { distance: Math.hypot(a.x - b.x, a.y - b.y), px: tilePx };
      }
    });
    viewport.addEventListener("pointermove", function (event) {
      if (!pointers[event.pointerId]) return;
      pointers[event.pointerId] = { x: event.clientX, y: event.clientY };
      var ids = Object.keys(pointers);
      if (ids.length === 2 && start && start.distance > 0) {
        var a = pointers[ids[0]], b = pointers[ids[1]];
        var distance = Math.hypot(a.x - b.x, a.y - b.y);
        zoomTo(start.px * distance / start.distance, { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
        event.preventDefault();
      }
    });
    function end(event) { delete pointers[event.pointerId]; if (Object.keys(pointers).length < 2) start = null; }
    viewport.addEventListener("pointerup", end);
    viewport.addEventListener("pointercancel", end);
    viewport.addEventListener("wheel", function (event) {
      if (!event.ctrlKey) return;
      event.preventDefault();
      zoomTo(tilePx * (event.deltaY < 0 ? 1.15 : 1 / 1.15), { x: event.clientX, y: event.clientY });
    }, { passive: false });
    var pending = false;
    viewport.addEventListener("scroll", function () {
      if (pending) return;
      pending = true;
      window.requestAnimationFrame(function () { pending = false; renderMarkers(); });
    }, { passive: true });
    document.querySelectorAll("[data-zoom]").forEach(function (button) {
      button.addEventListener("click", function () {
        var how = button.dataset.zoom;
        if (how === "in") zoomTo(tilePx * 1.4);
        else if (how === "out") zoomTo(tilePx / 1.4);
        else {
          var svgNode = boardSvg();
          if (!svgNode) return;
          tilePx = fitTilePx(svgNode);
          applyZoom(svgNode);
          drawBoard(model(), currentOptions);
          viewport.scrollLeft = (viewport.scrollWidth - viewport.clientWidth) / 2;
          viewport.scrollTop = (viewport.scrollHeight - viewport.clientHeight) / 2;
          renderMarkers();
        }
      });
    });
  })();

  function widen(svgNode, cellsUsed) {
    // Moves waiting to be sent may reach past the board the server drew: grow its frame.
    var origin = origins(svgNode);
    var box = svgNode.viewBox.baseVal;
    var minX = box.x, minY = box.y, maxX = box.x + box.width, maxY = box.y + box.height;
    cellsUsed.forEach(function (xy) {
      var left = (xy[0] - origin.x - 1) * CELL, top = (xy[1] - origin.y - 1) * CELL;
      minX = Math.min(minX, left); minY = Math.min(minY, top);
      maxX = Math.max(maxX, left + 3 * CELL); maxY = Math.max(maxY, top + 3 * CELL);
    });
    svgNode.setAttribute("viewBox", [minX, minY, maxX - minX, maxY - minY].join(" "));
  }

  function drawBoard(state, options) {
    var svgNode = boardSvg();
    if (!svgNode) return;
    var old = svgNode.querySelector("g.recorder-overlay");
    if (old) old.remove();
    var overlay = svg("g", { "class": "recorder-overlay" });
    var origin = origins(svgNode);
    var used = [];
    function at(x, y) { return "translate(" + (x - origin.x) * CELL + " " + (y - origin.y) * CELL + ")"; }
    Object.keys(state.cells).forEach(function (key) {
      var cell = state.cells[key];
      if (!cell.pending) return;
      var xy = key.split(",").map(Number);
      used.push(xy);
      var group = svg("g", { "class": "pending-tile", transform: at(xy[0], xy[1]) });
      var use = svg("use", { href: "#tile-" + cell.tile, width: CELL, height: CELL });
      if (cell.rotation) use.setAttribute("transform", "rotate(" + cell.rotation + " 30 30)");
      group.appendChild(use);
      group.appendChild(svg("rect", { x: 2, y: 2, width: CELL - 4, height: CELL - 4, "class": "pending-outline" }));
      overlay.appendChild(group);
    });
    (options ? options.spots : []).forEach(function (spot) {
      used.push([spot.x, spot.y]);
      var chosen = selection.spot && selection.spot.x === spot.x && selection.spot.y === spot.y;
      var group = svg("g", { "class": "spot" + (chosen ? " chosen" : ""), "data-testid": "spot", "data-x": spot.x,
        "data-y": spot.y, transform: at(spot.x, spot.y), role: "button", tabindex: "0",
        "aria-label": "(" + spot.x + ", " + spot.y + ")" });
      // The whole square takes the tap; the outline is drawn a little inside it.
      group.appendChild(svg("rect", { x: 0, y: 0, width: CELL, height: CELL, "class": "spot-hit" }));
      group.appendChild(svg("rect", { x: 1.5, y: 1.5, width: CELL - 3, height: CELL - 3, rx: 3, "class": "spot-edge" }));
      // A legal square is told by its shape too (a dashed edge and a plus), not by its colour alone.
      var mid = CELL / 2, arm = CELL / 8;
      group.appendChild(svg("path", { "class": "spot-mark", "aria-hidden": "true",
        d: "M" + (mid - arm) + " " + mid + "H" + (mid + arm) + "M" + mid + " " + (mid - arm) + "V" + (mid + arm) }));
      group.addEventListener("click", function () { chooseSpot(spot); });
      group.addEventListener("keydown", function (event) {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); chooseSpot(spot); }
      });
      overlay.appendChild(group);
    });
    if (selection.spot) overlay.appendChild(ghost(origin));
    svgNode.appendChild(overlay);
    if (used.length) widen(svgNode, used);
    if (tilePx === null) tilePx = fitTilePx(svgNode);
    applyZoom(svgNode);
    var framing = R.table.seq + ":" + R.queue.length + ":" + (hand || "") + ":" + (options ? options.spots.length : "-");
    if (framedFor !== framing && !selection.spot) {
      // A new position or a new tile in hand: frame where it may go, else show where the last tile went.
      var latest = lastLaid(state);
      if (options && options.spots.length) {
        framedFor = framing;
        frameSpots(svgNode, options.spots, latest);
      } else if (!hand || options) {
        framedFor = framing;
        if (latest) centreOn(latest[0], latest[1]);
      }
    }
  }

  function lastLaid(state) {
    for (var i = R.queue.length - 1; i >= 0; i -= 1) {
      if (R.queue[i].type === "place_tile") return [R.queue[i].payload.x, R.queue[i].payload.y];
    }
    var placed = R.table.placed || [];
    return placed.length ? [placed[placed.length - 1].x, placed[placed.length - 1].y] : null;
  }

  /* The features of the tile being laid that take a figure, each with the kinds allowed there. */
  function featuresOffered(rotation) {
    var byFeature = {}, order = [];
    rotation.figures.forEach(function (figure) {
      if (!byFeature[figure.feature]) { byFeature[figure.feature] = []; order.push(figure.feature); }
      byFeature[figure.feature].push(figure.kind);
    });
    return order.map(function (feature) { return { feature: feature, kinds: byFeature[feature] }; });
  }

  /* Where each feature's target goes on a tile drawn ``size`` px wide: on the feature, pushed
   * apart just enough that no two targets overlap; null when they cannot all fit. */
  function layTargets(anchors, size) {
    var radius = TARGET_PX / 2, gap = TARGET_PX + 2;
    var points = anchors.map(function (a) { return [a[0] * size, a[1] * size]; });
    function clamp(p) {
      p[0] = Math.max(radius, Math.min(size - radius, p[0]));
      p[1] = Math.max(radius, Math.min(size - radius, p[1]));
    }
    points.forEach(clamp);
    for (var round = 0; round < 80; round += 1) {
      var moved = false;
      for (var i = 0; i < points.length; i += 1) {
        for (var j = i + 1; j < points.length; j += 1) {
          var dx = points[j][0] - points[i][0], dy = points[j][1] - points[i][1];
          var d = Math.hypot(dx, dy);
          if (d >= gap) continue;
          if (d < 0.01) {  // the same spot: part them along a direction fixed by their order
            var angle = (j * 2.399963) % (2 * Math.PI);
            dx = Math.cos(angle); dy = Math.sin(angle); d = 1;
            points[j][0] += dx; points[j][1] += dy;
            dx = points[j][0] - points[i][0]; dy = points[j][1] - points[i][1]; d = Math.hypot(dx, dy);
          }
          var push = (gap - d) / 2 + 0.5;
          points[i][0] -= dx / d * push; points[i][1] -= dy / d * push;
          points[j][0] += dx / d * push; points[j][1] += dy / d * push;
          clamp(points[i]); clamp(points[j]);
          moved = true;
        }
      }
      if (!moved) return points;
    }
    return null;
  }

  /* The smallest tile size (from the one shown, within what leaves the neighbours in sight) at
   * which the targets fit on the tile, with their places. */
  function targetLayout(anchors) {
    var most = Math.max(FIGURE_MIN_TILE_PX, Math.floor(Math.min(viewport.clientWidth, viewport.clientHeight) * FIGURE_MAX_SHARE));
    // The targets take at most half the tile, so that the tile itself stays readable under them.
    var roomy = Math.ceil(TARGET_PX * Math.sqrt(2 * anchors.length));
    var size = Math.max(tilePx, anchors.length ? Math.min(most, Math.max(FIGURE_MIN_TILE_PX, roomy)) : tilePx);
    for (;;) {
      var points = layTargets(anchors, size);
      if (points || size >= most) return { size: size, points: points || layTargets(anchors, most) || anchors.map(function (a) { return [a[0] * size, a[1] * size]; }) };
      size = Math.min(most, Math.ceil(size * 1.12));
    }
  }

  /* The tile being laid, turned as chosen, with one target on each feature that may take a figure. */
  function ghost(origin) {
    var spot = selection.spot;
    var rotation = spot.rotations[selection.rotation];
    var group = svg("g", { "class": "ghost", "data-tile": hand, "data-x": spot.x, "data-y": spot.y,
      "data-rotation": rotation.rotation, transform: "translate(" + (spot.x - origin.x) * CELL + " " + (spot.y - origin.y) * CELL + ")" });
    var use = svg("use", { href: "#tile-" + hand, width: CELL, height: CELL });
    if (rotation.rotation) use.setAttribute("transform", "rotate(" + rotation.rotation + " 30 30)");
    group.appendChild(use);
    group.appendChild(svg("rect", { x: 1, y: 1, width: CELL - 2, height: CELL - 2, "class": "ghost-outline" }));
    // The chosen square: a solid double edge (orange and white), unlike the legal squares' dashes
    // and the last tile's corner mark.
    group.appendChild(svg("rect", { x: 4, y: 4, width: CELL - 8, height: CELL - 8, "class": "ghost-inner" }));
    var features = featuresOffered(rotation);
    if (!features.length) return group;
    var anchors = features.map(function (f) { return turn(tiles[hand].anchors[f.feature] || [0.5, 0.5], rotation.rotation); });
    var layout = targetLayout(anchors);
    var unit = CELL / tilePx;  // SVG units per screen pixel at the zoom shown
    var radius = TARGET_PX / 2 * unit;
    var colour = R.seatColour(model().seat);
    features.forEach(function (offered, index) {
      var x = layout.points[index][0] / layout.size * CELL, y = layout.points[index][1] / layout.size * CELL;
      var ax = anchors[index][0] * CELL, ay = anchors[index][1] * CELL;
      var terrain = tiles[hand].terrains[offered.feature];
      var chosen = selection.figure && selection.figure.feature === offered.feature;
      var asking = selection.featureAsked === offered.feature;
      if (Math.hypot(x - ax, y - ay) > radius * 0.6) {
        // Pushed off its feature to keep clear of another target: a line leads back to it.
        group.appendChild(svg("line", { x1: ax, y1: ay, x2: x, y2: y, "class": "target-leader" }));
        group.appendChild(svg("circle", { cx: ax, cy: ay, r: 1.2 * unit * 2, "class": "target-anchor" }));
      }
      var kinds = offered.kinds;
      var shownKind = chosen ? selection.figure.kind : kinds[0];
      var target = svg("g", { "class": "figure-target" + (chosen ? " chosen" : "") + (asking ? " asking" : ""),
        "data-testid": "figure", "data-feature": offered.feature, "data-kinds": kinds.join(" "),
        transform: "translate(" + x + " " + y + ")", role: "button", tabindex: "0",
        "aria-pressed": chosen ? "true" : "false",
        "aria-label": kinds.length === 1 ? figureLabel(kinds[0], terrain) : fill(words.figure_choices, {
          terrain: words["terrain:" + terrain] || terrain,
          kinds: kinds.map(function (k) { return figureName(k, terrain); }).join(" · ") }) });
      if (kinds.length === 1) target.setAttribute("data-kind", kinds[0]);
      target.appendChild(svg("circle", { r: radius, "class": "target-ring" }));
      var glyph = svg("g", { "class": "target-glyph", transform: "scale(" + (0.42 * radius / 5.8) + ")", style: "color:" + colour });
      glyph.innerHTML = data.glyphs[shownKind + ":" + terrain] || data.glyphs[shownKind] || "";
      target.appendChild(glyph);
      if (kinds.length > 1 && !chosen) {
        var badge = svg("text", { x: radius * 0.55, y: radius * 0.95, "class": "target-more", "font-size": radius * 0.7 });
        badge.textContent = "+" + (kinds.length - 1);
        target.appendChild(badge);
      }
      target.addEventListener("click", function (event) {
        event.stopPropagation();
        if (chosen) { selection.figure = null; selection.featureAsked = null; }
        else if (kinds.length === 1) { selection.figure = { feature: offered.feature, kind: kinds[0] }; selection.featureAsked = null; }
        else { selection.featureAsked = asking ? null : offered.feature; }
        R.render();
      });
      target.addEventListener("keydown", function (event) {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); target.dispatchEvent(new MouseEvent("click")); }
      });
      group.appendChild(target);
    });
    return group;
  }

  /* A feature taking more than one kind of figure ("river: fisher · hut"): the kinds, as
   * buttons in the strip above the board, once its target is tapped. */
  function renderKindChoice() {
    var strip = document.getElementById("figure-kinds");
    if (!strip) return;
    strip.textContent = "";
    var spot = selection.spot;
    var feature = selection.featureAsked;
    if (!spot || feature === null || feature === undefined) { strip.hidden = true; return; }
    var offered = featuresOffered(spot.rotations[selection.rotation]).filter(function (f) { return f.feature === feature; })[0];
    if (!offered) { selection.featureAsked = null; strip.hidden = true; return; }
    var terrain = tiles[hand].terrains[feature];
    strip.hidden = false;
    strip.appendChild(el("span", { "class": "kinds-label", text: fill(words.figure_kind_on, { terrain: words["terrain:" + terrain] || terrain }) }));
    offered.kinds.forEach(function (kind) {
      strip.appendChild(el("button", { type: "button", "class": "secondary figure-kind", "data-testid": "figure-kind",
        "data-kind": kind, onclick: function () {
          selection.figure = { feature: feature, kind: kind };
          selection.featureAsked = null;
          R.render();
        }, text: figureName(kind, terrain) }));
    });
  }

  function turn(point, rotation) {
    var u = point[0], v = point[1];
    for (var step = 0; step < rotation / 90; step += 1) { var t = u; u = 1 - v; v = t; }
    return [u, v];
  }

  function figureName(kind, terrain) {
    // A meeple is named by its role (a knight in a city); the expansions' figures by their own name.
    return (kind === "meeple" && words["role:" + terrain]) || words["figure:" + kind] || kind;
  }

  function figureLabel(kind, terrain) {
    return fill(words.figure_on, { figure: figureName(kind, terrain), terrain: words["terrain:" + terrain] || terrain });
  }

  /* Tapping a square lays the tile there; the board zooms only as much as the figure targets
   * need, and scrolls only if the square is not wholly in sight. */
  function chooseSpot(spot) {
    var same = selection.spot && selection.spot.x === spot.x && selection.spot.y === spot.y;
    selection.spot = spot;
    selection.rotation = same ? selection.rotation : 0;
    selection.figure = null;
    selection.featureAsked = null;
    var most = 0;
    spot.rotations.forEach(function (r) {
      var features = featuresOffered(r);
      if (!features.length) return;
      var anchors = features.map(function (f) { return turn(tiles[hand].anchors[f.feature] || [0.5, 0.5], r.rotation); });
      most = Math.max(most, targetLayout(anchors).size);
    });
    if (most > tilePx) {
      zoomBefore = zoomBefore || tilePx;
      tilePx = most;
    }
    R.render();
    var svgNode = boardSvg();
    if (svgNode && (most > (zoomBefore || 0) || !inView(svgNode, spot.x, spot.y))) {
      // The tile and a ring of its neighbours in sight.
      centreOn(spot.x, spot.y);
    }
    renderMarkers();
  }

  function forget() {
    selection.spot = null;
    selection.rotation = 0;
    selection.figure = null;
    selection.featureAsked = null;
    if (zoomBefore !== null) { tilePx = zoomBefore; zoomBefore = null; }
  }

  // -- the tray: the tile in hand, or the pile to pick it from --------------------------------

  function renderTray(state, options) {
    if (!tray) return;  // a closed record's page: its end screen stands where the choices were
    tray.textContent = "";
    if (selection.asking) { tray.appendChild(asked(state)); return; }
    if (!state.known) { tray.appendChild(el("p", { "class": "hint", text: words.waiting })); return; }
    var inHand = state.drawn || selection.tile;
    var pileSize = Object.keys(state.pile).reduce(function (sum, t) { return sum + state.pile[t]; }, 0);
    if (state.seeded && !state.exact) {
      tray.appendChild(el("p", { "class": "hint", text: R.online ? words.sending : words.waiting_draw }));
      return;
    }
    if (selection.island) inHand = selection.island.tile;
    if (inHand) {
      var hand = el("div", { "class": "hand" }, [
        picture(inHand, selection.spot ? selection.spot.rotations[selection.rotation].rotation : 0, 72, "in-hand"),
        el("div", { "class": "hand-text" }, [
          el("strong", { text: (selection.island ? fill(words.island_tile, { chip: words["chip:" + selection.island.colour] })
            : state.drawn ? words.tile_drawn : words.tile_in_hand) + " · " + inHand, "data-testid": "tile-in-hand" }),
          el("span", { "class": "hint", text: state.seeded ? fill(words.tiles_left, { count: R.table.options.tiles_left })
            : fill(words.tiles_left, { count: pileSize }) }),
          el("span", { "class": "hint instruction", text: !options ? words.sending
            : options.spots.length === 0 ? words.no_spot
            : selection.spot ? words.tap_figure : words.tap_spot }),
          options && options.provisional ? el("span", { "class": "hint unchecked", text: words.unchecked }) : null
        ])
      ]);
      if (selection.island) {
        hand.appendChild(el("button", { type: "button", "class": "secondary other-tile", "data-testid": "draw-instead",
          onclick: function () { selection.island = null; forget(); if (mustDraw(state)) drawFaceDown(); else R.render(); },
          text: words.draw_instead }));
      } else if (!state.drawn) {
        hand.appendChild(el("button", { type: "button", "class": "secondary other-tile", "data-testid": "other-tile",
          onclick: function () { selection.tile = null; forget(); R.render(); }, text: words.other_tile }));
      }
      tray.appendChild(hand);
      if (!selection.island && !selection.spot) tray.appendChild(islandChoices(state));
      return;
    }
    if (mustDraw(state)) {  // the draw first, then "Or pay a chip for an island's face-up tile"
      tray.appendChild(el("button", { type: "button", "class": "draw-face-down", "data-testid": "draw-face-down",
        onclick: drawFaceDown, text: words.draw_face_down }));
      tray.appendChild(islandChoices(state));
      return;
    }
    tray.appendChild(islandChoices(state));
    tray.appendChild(picker(state));
  }

  /* Carcassonne Maps, seeded: while a chip could pay for an island tile the drawn tile stays
   * face down; drawing it is a move of its own (draw_tile), after which no island is offered. */
  function mustDraw(state) {
    return state.seeded && state.exact && !!(R.table.options || {}).choosing;
  }

  function drawFaceDown() {
    selection.island = null;
    forget();
    R.record("draw_tile", {}, words.draws_face_down);
  }

  /* Carcassonne Maps: the islands whose face-up tile a chip the player holds may pay for, as
   * buttons (before a tile is drawn face down; the engine says which may be paid now). */
  function islandChoices(state) {
    var box = el("div", { "class": "islands" });
    var offered = state.exact ? (R.table.options.islands || []).filter(function (i) { return i.payable; }) : [];
    if (!offered.length) return box;
    box.appendChild(el("p", { "class": "hint", text: words.islands }));
    offered.forEach(function (island) {
      var button = el("button", { type: "button", "class": "island-choice", "data-testid": "island",
        "data-colour": island.colour, "data-stack": String(island.stack), "data-tile": island.tile,
        onclick: function () {
          selection.island = { colour: island.colour, stack: island.stack, tile: island.tile, left: island.left };
          forget();
          R.render();
        } }, [picture(island.tile, 0, 44),
        el("span", { text: fill(words.island_choice, { colour: words["colour:" + island.colour], stack: island.stack,
          tile: island.tile }) })]);
      button.classList.add("island-" + island.colour);
      box.appendChild(button);
    });
    return box;
  }

  /* The pile to pick the tile drawn at the table from: its own module (recorder-picker.js). */
  function picker(state) {
    return window.LudologTilePicker.render(state, {
      picture: picture,
      fitsNowhere: function (tile) {
        return state.exact ? (R.table.options.fits_nowhere || []).indexOf(tile) >= 0
          : provisionalOptions(state, tile).discard;
      },
      pick: function (tile) { selection.tile = tile; forget(); R.render(); showTray(); }
    });
  }

  // -- the action bar -------------------------------------------------------------------------

  function payload(tile) {
    var spot = selection.spot, rotation = spot.rotations[selection.rotation].rotation;
    var body = { tile: tile, x: spot.x, y: spot.y, rotation: rotation };
    if (selection.island) { body.island = selection.island.colour; body.stack = selection.island.stack; }
    if (selection.figure) {
      var field = (data.figure_fields || {})[selection.figure.kind];
      if (field) body[field] = selection.figure.feature;
      else { body.figure = selection.figure.kind; body.feature = selection.figure.feature; }
    }
    return body;
  }

  function label(body) {
    var text = fill(words.lays, { tile: body.tile, x: body.x, y: body.y, rotation: body.rotation });
    if (body.island) text = fill(words.island_paid, { action: text, chip: words["chip:" + body.island] });
    if (selection.figure) {
      var terrain = tiles[body.tile].terrains[selection.figure.feature];
      var kind = selection.figure.kind;
      text = fill(words.with_figure, { action: text,
        figure: (kind === "meeple" && words["role:" + terrain]) || words["figure:" + kind] || kind,
        terrain: words["terrain:" + terrain] || terrain });
    }
    return text;
  }

  buttons.rotate.addEventListener("click", function () {
    if (!selection.spot) return;
    selection.rotation = (selection.rotation + 1) % selection.spot.rotations.length;
    selection.figure = null;
    selection.featureAsked = null;
    R.render();
  });
  buttons.noFigure.addEventListener("click", function () { selection.figure = null; selection.featureAsked = null; R.render(); });
  buttons.confirm.addEventListener("click", function () {
    var state = model();
    var tile = selection.island ? selection.island.tile : state.drawn || selection.tile;
    if (!selection.spot || !tile) return;
    var body = payload(tile);
    var island = selection.island;
    var before = { tile: selection.tile, spot: selection.spot, rotation: selection.rotation, figure: selection.figure,
      island: island };
    selection.tile = null;
    selection.island = null;
    forget();
    selection.asking = { body: body, left: island ? island.left : 0, before: before };
    ask();
  });

  /* Carcassonne Maps at a table without a seed: what only the table sees is asked before the move
   * is recorded: what a chip under the tile shows, then which tile the island's stack turns up. */
  function ask() {
    var asking = selection.asking, body = asking.body;
    var table = (R.table.options || {}).table_chips;
    if (table && body.chip === undefined &&
        table.squares.some(function (xy) { return xy[0] === body.x && xy[1] === body.y; })) {
      asking.what = "chip";
      R.render();
      return;
    }
    if (table && body.island && body.reveal === undefined && asking.left > 1) {
      asking.what = "reveal";
      R.render();
      return;
    }
    selection.asking = null;
    R.record("place_tile", body, label(body));
    showTray();
  }

  function asked(state) {
    var asking = selection.asking, table = R.table.options.table_chips;
    var box = el("div", { "class": "asking" });
    if (asking.what === "chip") {
      box.appendChild(el("p", { "class": "picker-title", text: words.which_chip }));
      var row = el("div", { "class": "chip-faces" });
      table.faces.forEach(function (face) {
        var parts = face.split(":");
        row.appendChild(el("button", { type: "button", "class": "chip-face island-choice island-" + parts[0],
          "data-testid": "chip", "data-chip": face, onclick: function () { asking.body.chip = face; ask(); },
          text: fill(words.chip_face, { colour: words["colour:" + parts[0]], points: parts[1] }) }));
      });
      box.appendChild(row);
    } else {
      box.appendChild(el("p", { "class": "picker-title", text: words.which_reveal }));
      var grid = el("div", { "class": "tile-grid" });
      Object.keys(state.pile).filter(function (t) { return state.pile[t] > 0; }).sort().forEach(function (tile) {
        grid.appendChild(el("button", { type: "button", "class": "tile-choice", "data-testid": "reveal", "data-tile": tile,
          onclick: function () { asking.body.reveal = tile; ask(); } }, [picture(tile, 0, 56)]));
      });
      box.appendChild(grid);
    }
    box.appendChild(el("button", { type: "button", "class": "secondary", "data-testid": "cancel-ask",
      onclick: function () {  // back to the move as it was before "Confirm"
        var before = selection.asking.before;
        selection.asking = null;
        selection.tile = before.tile; selection.spot = before.spot; selection.rotation = before.rotation;
        selection.figure = before.figure; selection.island = before.island;
        R.render();
      }, text: words.cancel }));
    return box;
  }
  buttons.discard.addEventListener("click", function () {
    var state = model();
    var tile = state.drawn || selection.tile;
    if (!tile) return;
    selection.tile = null;
    selection.island = null;
    forget();
    R.record("discard_tile", { tile: tile }, fill(words.discards, { tile: tile }));
  });

  /* After a tile is picked or a move confirmed, what comes next (who plays, the tile in hand, the
   * board) starts at the top of the screen. */
  function showTray() {
    var top = tableTop().getBoundingClientRect().top + window.scrollY - 4;
    if (Math.abs(window.scrollY - top) > 4) window.scrollTo({ top: top });
  }

  /* Where the table starts on the page: who is to play, above the tile in hand. */
  function tableTop() { return document.querySelector(".recorder-status") || tray || viewport; }

  /* The board's frame takes the height the screen has left below who plays, the tile in hand and
   * the strip, above the action bar, when the page is scrolled to the table (as it is after each
   * move): on a phone every square framed is then on the screen, none under the bar. */
  function sizeFrame() {
    var bar = document.getElementById("action-bar");
    var barHeight = bar && !bar.hidden ? bar.offsetHeight : 0;
    var above = viewport.getBoundingClientRect().top - tableTop().getBoundingClientRect().top;
    var height = Math.round(Math.max(FRAME_MIN_HEIGHT_PX,
      Math.min(window.innerHeight * 0.85, window.innerHeight - barHeight - above - 12)));
    if (Math.abs(viewport.clientHeight - height) > 8) viewport.style.height = height + "px";
  }

  function renderButtons(state, options) {
    var open = !R.table.over && R.table.status === "in_progress" && state.known && !selection.asking;
    var spot = selection.spot;
    buttons.rotate.hidden = !(open && spot && spot.rotations.length > 1);
    if (spot) buttons.rotate.querySelector(".step").textContent = (selection.rotation + 1) + "/" + spot.rotations.length;
    var figures = spot ? spot.rotations[selection.rotation].figures.length : 0;
    buttons.noFigure.hidden = !(open && spot && figures);
    buttons.noFigure.setAttribute("aria-pressed", selection.figure ? "false" : "true");
    buttons.discard.hidden = !(open && options && options.discard);
    buttons.confirm.hidden = !open || (options && options.discard);
    buttons.confirm.disabled = !(open && spot);
  }

  function render() {
    var state = model();
    if (selection.tile && !(state.pile[selection.tile] > 0)) { selection.tile = null; forget(); }
    if (selection.island && !state.exact) selection.island = null;
    var inHand = selection.island ? selection.island.tile : state.drawn || selection.tile;
    hand = inHand;
    var options = state.known && inHand ? optionsFor(state, inHand) : null;
    if (selection.spot && options) {
      // Keep the chosen spot only while it is still one of the options.
      var still = options.spots.filter(function (s) { return s.x === selection.spot.x && s.y === selection.spot.y; })[0];
      if (still) selection.spot = still; else forget();
    }
    if (options && selection.spot && selection.rotation >= selection.spot.rotations.length) selection.rotation = 0;
    currentOptions = options;
    // The tray and the action bar first: the board's frame takes the height they leave.
    renderTray(state, options);
    renderButtons(state, options);
    drawBoard(state, options);
    renderKindChoice();
    renderMarkers();
  }

  R.use({
    render: render,
    reset: function () { optionsCache = {}; selection.tile = null; selection.island = null; selection.asking = null; forget(); },
    seatToPlay: function () { return model().seat; }
  });
})();
