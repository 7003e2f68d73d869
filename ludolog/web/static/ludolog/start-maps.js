// Carcassonne Maps – Benelux on the start form, for a table that sets its own game up ("Ludolog
// draws and rolls" off): the chips laid face down tapped on the map, the island stacks' face-up
// tiles and the other start square's tile picked from the tiles' pictures. Without this script
// the same questions are plain fields (squares typed as x,y pairs, tiles chosen by their ids).
(function () {
  "use strict";

  var form = document.getElementById("start-form");
  var scroll = form && form.querySelector(".maps-table-scroll");
  if (!scroll) return;
  var NS = "http://www.w3.org/2000/svg";
  var svg = scroll.querySelector("svg.maps-table-map");
  var cell = Number(svg.dataset.cell);
  var layer = svg.querySelector("g.chips-laid");
  var input = form.querySelector("input[data-chip-squares]");
  var counter = form.querySelector(".chip-count");
  var fieldset = scroll.closest("fieldset");
  var allowedByStarts = JSON.parse(scroll.dataset.allowed);
  var starts = JSON.parse(scroll.dataset.starts);  // [name, x, y] in the map's order
  var draws = form.querySelector("input[name=ludolog_draws]");
  var startBoxes = Array.from(fieldset.querySelectorAll("input[type=checkbox]"))
    .filter(function (box) { return box.name.slice(-"start_squares".length) === "start_squares"; });

  function el(tag, attrs) {
    var node = document.createElementNS(NS, tag);
    Object.keys(attrs || {}).forEach(function (name) { node.setAttribute(name, attrs[name]); });
    return node;
  }

  // -- only when the table sets the game up ------------------------------------------------------

  function showTable() {
    var atTable = !draws || !draws.checked;
    form.querySelectorAll("[data-table-setup]").forEach(function (node) {
      var field = node.closest(".field");
      if (field) field.hidden = !atTable;
    });
  }
  if (draws) draws.addEventListener("change", showTable);
  showTable();

  // -- the chips, tapped on the map -------------------------------------------------------------

  function key(x, y) { return x + "," + y; }

  function read() {
    return input.value.split(/[\s;]+/).filter(function (word) { return /^\d+,\d+$/.test(word); });
  }

  function usedStarts() {
    var ticked = startBoxes.filter(function (box) { return box.checked; }).map(function (box) { return box.value; });
    return starts.filter(function (start) { return ticked.indexOf(start[0]) >= 0; });
  }

  // The squares a chip may lie on with the start squares ticked (any of the three pairs' while
  // two are not ticked yet), less those beside a chip already laid.
  function allowedSquares(chips) {
    var used = usedStarts();
    var lists = used.length === 2 ? [allowedByStarts[used[0][0] + "," + used[1][0]]]
      : Object.keys(allowedByStarts).map(function (pair) { return allowedByStarts[pair]; });
    var allowed = {};
    lists.forEach(function (list) { list.forEach(function (xy) { allowed[key(xy[0], xy[1])] = true; }); });
    chips.forEach(function (chip) {
      var xy = chip.split(",").map(Number);
      [[1, 0], [-1, 0], [0, 1], [0, -1]].forEach(function (d) { delete allowed[key(xy[0] + d[0], xy[1] + d[1])]; });
    });
    return allowed;
  }

  function draw() {
    var chips = read();
    var allowed = allowedSquares(chips);
    layer.textContent = "";
    chips.forEach(function (chip) {
      var xy = chip.split(",").map(Number);
      layer.appendChild(el("circle", { "class": "chip-laid", cx: xy[0] * cell + cell / 2, cy: xy[1] * cell + cell / 2,
        r: cell / 5 }));
    });
    svg.querySelectorAll("rect.square").forEach(function (rect) {
      var here = key(rect.dataset.x, rect.dataset.y);
      var laid = chips.indexOf(here) >= 0;
      var may = laid || !!allowed[here];
      rect.classList.toggle("may-chip", may);
      rect.classList.toggle("has-chip", laid);
      rect.setAttribute("data-testid", may ? "chip-square" : "square");
      if (may) { rect.setAttribute("role", "button"); rect.setAttribute("tabindex", "0"); }
      else { rect.removeAttribute("role"); rect.removeAttribute("tabindex"); }
      rect.setAttribute("aria-pressed", String(laid));
    });
    var used = usedStarts().map(function (start) { return key(start[1], start[2]); });
    svg.querySelectorAll("rect.square.start").forEach(function (rect) {
      rect.classList.toggle("used-start", used.indexOf(key(rect.dataset.x, rect.dataset.y)) >= 0);
    });
    counter.textContent = counter.dataset.words.replace("%(count)s", String(chips.length));
    counter.classList.toggle("complete", chips.length === Number(counter.dataset.of));
    drawTiles();
  }

  function toggle(rect) {
    if (!rect.classList.contains("may-chip")) return;
    var here = key(rect.dataset.x, rect.dataset.y);
    var chips = read();
    var at = chips.indexOf(here);
    if (at >= 0) chips.splice(at, 1); else chips.push(here);
    input.value = chips.join(" ");
    draw();
  }

  svg.addEventListener("click", function (event) {
    var rect = event.target.closest && event.target.closest("rect.square");
    if (rect) toggle(rect);
  });
  svg.addEventListener("keydown", function (event) {
    if ((event.key === "Enter" || event.key === " ") && event.target.matches("rect.square")) {
      event.preventDefault();
      toggle(event.target);
    }
  });
  input.addEventListener("input", draw);
  startBoxes.forEach(function (box) { box.addEventListener("change", draw); });

  // -- the tiles face up, picked from their pictures ----------------------------------------------

  function picture(tile, size) {
    var node = el("svg", { viewBox: "0 0 60 60", width: size, height: size, "aria-hidden": "true" });
    node.appendChild(el("use", { href: "#tile-" + tile }));
    return node;
  }

  var picks = Array.from(form.querySelectorAll("select[data-tile-pick]"));
  var openGrid = null;

  function closeGrid() {
    if (openGrid) { openGrid.remove(); openGrid = null; }
  }

  function showChoice(select, button) {
    button.textContent = "";
    if (select.value) button.appendChild(picture(select.value, 44));
    var words = document.createElement("span");
    words.textContent = select.value ? select.value : select.options[0].text;
    button.appendChild(words);
  }

  picks.forEach(function (select) {
    select.hidden = true;  // still sent with the form; the button below picks its value
    var button = document.createElement("button");
    button.type = "button";
    button.className = "tile-pick";
    button.setAttribute("data-testid", "setup-tile");
    button.setAttribute("aria-expanded", "false");
    if (select.dataset.colour) {
      button.setAttribute("data-colour", select.dataset.colour);
      button.setAttribute("data-stack", select.dataset.stack);
    } else {
      button.setAttribute("data-start-tile", "");
    }
    var label = form.querySelector('label[for="' + select.id + '"]');
    if (label) button.setAttribute("aria-label", label.textContent.trim());
    select.insertAdjacentElement("afterend", button);
    showChoice(select, button);
    button.addEventListener("click", function () {
      var wasOpen = openGrid && openGrid.previousElementSibling === button;
      closeGrid();
      picks.forEach(function (other) { other.nextElementSibling.setAttribute("aria-expanded", "false"); });
      if (wasOpen) return;
      var grid = document.createElement("div");
      grid.className = "tile-pick-grid";
      Array.from(select.options).forEach(function (option) {
        if (!option.value) return;
        var choice = document.createElement("button");
        choice.type = "button";
        choice.className = "tile-pick-choice";
        choice.setAttribute("data-testid", "setup-tile-choice");
        choice.setAttribute("data-tile", option.value);
        choice.setAttribute("aria-pressed", String(option.value === select.value));
        choice.appendChild(picture(option.value, 48));
        var name = document.createElement("span");
        name.textContent = option.value;
        choice.appendChild(name);
        choice.addEventListener("click", function () {
          select.value = option.value;
          showChoice(select, button);
          closeGrid();
          button.setAttribute("aria-expanded", "false");
          drawTiles();
          button.focus();
        });
        grid.appendChild(choice);
      });
      button.insertAdjacentElement("afterend", grid);
      button.setAttribute("aria-expanded", "true");
      openGrid = grid;
    });
  });

  // The island stacks' tiles and the other start square's tile, shown on the map as picked.
  function drawTiles() {
    svg.querySelectorAll(".picked-tile").forEach(function (node) { node.remove(); });
    picks.forEach(function (select) {
      if (!select.value) return;
      var x, y;
      if (select.dataset.colour) {
        var stack = svg.querySelector('g.island-stack[data-colour="' + select.dataset.colour + '"][data-stack="' +
          select.dataset.stack + '"]');
        if (!stack) return;
        x = Number(stack.dataset.x); y = Number(stack.dataset.y);
      } else {
        var used = usedStarts();
        if (used.length !== 2) return;
        x = used[1][1]; y = used[1][2];
      }
      var node = el("svg", { "class": "picked-tile", x: x * cell + 8, y: y * cell + 8, width: cell - 16,
        height: cell - 16, viewBox: "0 0 60 60" });
      node.appendChild(el("use", { href: "#tile-" + select.value }));
      svg.appendChild(node);
    });
  }

  draw();
})();
