/* The replay viewer: step through a recorded game without reloading the page.
 *
 * The page works without this script (the controls are links and a GET form). With it, a step
 * fetches the position from the state API (scores, whose turn) and the board SVG drawn by the
 * server (one drawing code path), swaps them in, says the step in words from its line of the
 * event list (fetching the list around the step when the page does not list it), and keeps ?at=N
 * in the URL: each step the reader takes is a history entry, so Back steps back through the game.
 * Positions never change once recorded, so every step fetched is kept, and the next is prefetched.
 * At the last step, picking a line of the final scoring outlines its feature on the board.
 */
(function () {
  "use strict";
  var root = document.getElementById("replay");
  if (!root || !window.fetch) return;

  var last = parseInt(root.dataset.last, 10);
  var at = parseInt(root.dataset.at, 10);
  var wanted = at;
  var cache = new Map();
  var windows = new Map();  // step → the event list around it, for steps the page does not list
  var board = document.getElementById("board");
  var slider = document.getElementById("step-slider");
  var output = document.getElementById("step-output");
  var table = document.getElementById("score-table");
  var chart = document.getElementById("score-chart");
  var goButton = document.getElementById("step-go");
  var events = document.getElementById("replay-events");
  var finalScoring = document.getElementById("final-scoring");
  var status = {
    count: document.getElementById("step-count"), said: document.getElementById("step-said"),
    next: document.getElementById("step-next-player"), notation: document.getElementById("step-notation")
  };
  var links = {
    first: document.getElementById("step-first"), prev: document.getElementById("step-prev"),
    next: document.getElementById("step-next"), last: document.getElementById("step-last")
  };
  var players = {};
  var shown = null;  // the target of the final scoring line picked (award-3, tribe-0)
  var sliding = false;
  if (goButton) goButton.hidden = true;

  function fill(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_, key) { return values[key] === undefined ? "" : values[key]; });
  }

  function lineOf(n) {
    return events.querySelector('#event-list li[data-seq="' + n + '"]');
  }

  function getText(url, what) {
    return fetch(url, { credentials: "same-origin" })
      .then(function (r) { if (!r.ok) throw new Error(what + " " + r.status); return r.text(); });
  }

  function load(n) {
    if (cache.has(n)) return cache.get(n);
    var promise = Promise.all([
      fetch(root.dataset.stateUrl + "?at=" + n, { headers: { Accept: "application/json" }, credentials: "same-origin" })
        .then(function (r) { if (!r.ok) throw new Error("state " + r.status); return r.json(); }),
      getText(root.dataset.boardUrl + "?at=" + n, "board")
    ]).then(function (got) { return { state: got[0], svg: got[1] }; });
    promise.catch(function () { cache.delete(n); });
    cache.set(n, promise);
    return promise;
  }

  function eventsAround(n) {
    // A step the list does not show (a long record): the list around it, with its words.
    if (n === 0 || lineOf(n)) return Promise.resolve(undefined);
    if (windows.has(n)) return windows.get(n);
    var promise = getText(root.dataset.pageUrl + "?part=events&at=" + n + "&last=" + last, "events");
    promise.catch(function () { windows.delete(n); });
    windows.set(n, promise);
    return promise;
  }

  function setLink(link, n, disabled) {
    link.href = "?at=" + n;
    link.dataset.step = n;
    if (disabled) link.setAttribute("aria-disabled", "true"); else link.removeAttribute("aria-disabled");
  }

  function reveal(item) {
    // Scroll the event list itself (not the page) so that the current event is in view.
    var list = item.parentElement;
    var top = item.offsetTop, bottom = top + item.offsetHeight;
    if (top < list.scrollTop || bottom > list.scrollTop + list.clientHeight)
      list.scrollTop = Math.max(0, top - (list.clientHeight - item.offsetHeight) / 2);
  }

  function say(n, state) {
    var line = n > 0 ? lineOf(n) : null;
    status.count.textContent = line ? fill(root.dataset.textStep, { at: n, last: last }) : "";
    status.notation.textContent = line ? line.dataset.notation : "";
    if (line) {
      var said = line.querySelector(".said").cloneNode(true);
      var gains = line.querySelector(".gains");
      status.said.replaceChildren.apply(status.said, Array.prototype.slice.call(said.childNodes));
      if (gains) gains.querySelectorAll(".gain").forEach(function (gain) {
        status.said.append(" ", gain.cloneNode(true));
      });
    } else {
      status.said.textContent = root.dataset.textStart;
    }
    var position = state.position;
    status.next.replaceChildren();
    if (state.is_over) {
      status.next.textContent = root.dataset.textOver;
    } else if (position.current_player !== null && position.current_player !== undefined) {
      // The name with its colour, as the score table shows it.
      var row = table.querySelector('tbody tr[data-seat="' + position.current_player + '"] th');
      var who = document.createElement("span");
      who.className = "who";
      if (row && row.querySelector(".swatch")) who.append(row.querySelector(".swatch").cloneNode(true));
      who.append(players[position.current_player] || "");
      var parts = fill(root.dataset.textNext, { player: "\u0000" }).split("\u0000");
      status.next.append(parts[0], who, parts[1] || "");
    }
  }

  function highlight(target) {
    shown = target;
    board.querySelectorAll(".final-feature").forEach(function (g) {
      g.setAttribute("display", g.dataset.target === target ? "inline" : "none");
    });
    if (!finalScoring) return;
    finalScoring.querySelectorAll("a[data-show]").forEach(function (a) {
      if (a.dataset.show === target) a.setAttribute("aria-current", "true"); else a.removeAttribute("aria-current");
    });
  }

  function render(n, data, list, history) {
    var state = data.state, position = state.position;
    board.innerHTML = data.svg;
    if (list !== undefined) events.innerHTML = list;
    at = n;
    root.dataset.at = n;
    slider.value = n;
    output.textContent = n + " / " + last;
    setLink(links.first, 0, n === 0);
    setLink(links.prev, Math.max(0, n - 1), n === 0);
    setLink(links.next, Math.min(last, n + 1), n === last);
    setLink(links.last, last, n === last);

    state.seats.forEach(function (seat) { players[seat.seat] = seat.player; });
    var sources = Array.prototype.map.call(table.querySelectorAll("thead th[data-source]"), function (th) {
      return th.dataset.source;
    });
    position.scores.forEach(function (score) {
      var row = table.querySelector('tbody tr[data-seat="' + score.seat + '"]');
      if (!row) return;
      var cells = row.querySelectorAll("td[data-source]");
      sources.forEach(function (source, i) { if (cells[i]) cells[i].textContent = score.breakdown[source] || 0; });
      row.querySelector("td.total").textContent = score.total;
      row.classList.toggle("to-play", !state.is_over && position.current_player === score.seat);
    });
    say(n, state);

    events.querySelectorAll("#event-list li.current").forEach(function (li) {
      li.classList.remove("current"); li.removeAttribute("aria-current");
    });
    var current = lineOf(n);
    if (current) {
      current.classList.add("current"); current.setAttribute("aria-current", "step");
      reveal(current);
    } else {
      var list = document.getElementById("event-list");
      if (list && n === 0) list.scrollTop = 0;
    }
    if (finalScoring) finalScoring.hidden = n !== last;
    if (n === last && shown) highlight(shown);
    if (chart && window.LudologCharts) window.LudologCharts.setMarker(chart, n);
    if (history !== "none") {
      var url = new URL(window.location.href);
      url.searchParams.set("at", n);
      url.searchParams.delete("show");
      url.hash = "";
      if (history === "push") window.history.pushState({ at: n }, "", url);
      else window.history.replaceState({ at: n }, "", url);
    }
  }

  // history: "push" (a step the reader took: Back comes back here), "replace" (dragging the
  // slider on), "none" (Back or Forward brought us here).
  function go(n, history) {
    n = Math.max(0, Math.min(last, n));
    wanted = n;
    if (n === at) return Promise.resolve();
    board.setAttribute("aria-busy", "true");
    return Promise.all([load(n), eventsAround(n)]).then(function (got) {
      if (wanted !== n) return;  // a later step was asked for meanwhile
      render(n, got[0], got[1], history || "push");
      board.setAttribute("aria-busy", "false");
      if (n < last) load(n + 1);
    }).catch(function () {
      board.setAttribute("aria-busy", "false");
      status.said.textContent = root.dataset.textError;
    });
  }

  Object.keys(links).forEach(function (key) {
    links[key].addEventListener("click", function (event) {
      event.preventDefault();
      go(parseInt(links[key].dataset.step, 10));
    });
  });
  events.addEventListener("click", function (event) {
    var link = event.target.closest("a[data-step]");
    if (!link) return;
    event.preventDefault();
    go(parseInt(link.dataset.step, 10));
  });
  if (finalScoring) finalScoring.addEventListener("click", function (event) {
    var link = event.target.closest("a[data-show]");
    if (!link) return;
    event.preventDefault();
    var target = shown === link.dataset.show ? null : link.dataset.show;
    Promise.resolve(go(last)).then(function () {
      highlight(target);
      var box = board.getBoundingClientRect();
      if (target && (box.bottom < 0 || box.top > window.innerHeight)) board.scrollIntoView({ block: "center" });
    });
  });
  slider.addEventListener("input", function () {
    // The first move of a drag is a step of its own; the rest of the drag refines it.
    go(parseInt(slider.value, 10), sliding ? "replace" : "push");
    sliding = true;
  });
  slider.addEventListener("change", function () { sliding = false; });
  document.getElementById("step-form").addEventListener("submit", function (event) {
    event.preventDefault();
    go(parseInt(slider.value, 10));
  });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target;
    if (target.closest && target.closest("input, select, textarea, [contenteditable]")) return;
    var moves = { ArrowRight: wanted + 1, ArrowLeft: wanted - 1, Home: 0, End: last };
    if (!(event.key in moves)) return;
    event.preventDefault();
    go(moves[event.key]);
  });
  window.addEventListener("popstate", function (event) {
    var n = event.state && typeof event.state.at === "number" ? event.state.at
      : parseInt(new URL(window.location.href).searchParams.get("at") || "0", 10);
    if (!isNaN(n)) go(n, "none");
  });

  window.history.replaceState({ at: at }, "", window.location.href);
  var initialShow = new URL(window.location.href).searchParams.get("show");
  if (initialShow && at === last) shown = initialShow;
  var initial = lineOf(at);
  if (initial) reveal(initial);
  if (at < last) load(at + 1);
})();
