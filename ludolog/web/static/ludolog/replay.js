/* The replay viewer: step through a recorded game without reloading the page.
 *
 * The page works without this script (the controls are links and a GET form). With it, a step
 * fetches the position from the state API (scores, whose turn) and the board SVG drawn by the
 * server (one drawing code path), swaps them in, and keeps ?at=N in the URL so it can be shared.
 * Positions never change once recorded, so every step fetched is kept, and the next is prefetched.
 */
(function () {
  "use strict";
  var root = document.getElementById("replay");
  if (!root || !window.fetch) return;

  var last = parseInt(root.dataset.last, 10);
  var at = parseInt(root.dataset.at, 10);
  var wanted = at;
  var cache = new Map();
  var board = document.getElementById("board");
  var slider = document.getElementById("step-slider");
  var output = document.getElementById("step-output");
  var status = document.getElementById("step-status");
  var table = document.getElementById("score-table");
  var chart = document.getElementById("score-chart");
  var goButton = document.getElementById("step-go");
  var links = {
    first: document.getElementById("step-first"), prev: document.getElementById("step-prev"),
    next: document.getElementById("step-next"), last: document.getElementById("step-last")
  };
  var notations = {};
  document.querySelectorAll("#event-list li[data-seq]").forEach(function (li) {
    var code = li.querySelector("code");
    notations[li.dataset.seq] = code ? code.textContent : "";
  });
  var players = {};
  if (goButton) goButton.hidden = true;

  function fill(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_, key) { return values[key] === undefined ? "" : values[key]; });
  }

  function load(n) {
    if (cache.has(n)) return cache.get(n);
    var promise = Promise.all([
      fetch(root.dataset.stateUrl + "?at=" + n, { headers: { Accept: "application/json" }, credentials: "same-origin" })
        .then(function (r) { if (!r.ok) throw new Error("state " + r.status); return r.json(); }),
      fetch(root.dataset.boardUrl + "?at=" + n, { credentials: "same-origin" })
        .then(function (r) { if (!r.ok) throw new Error("board " + r.status); return r.text(); })
    ]).then(function (parts) { return { state: parts[0], svg: parts[1] }; });
    promise.catch(function () { cache.delete(n); });
    cache.set(n, promise);
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
    if (item.offsetTop < list.scrollTop || item.offsetTop > list.scrollTop + list.clientHeight - item.offsetHeight)
      list.scrollTop = item.offsetTop - list.clientHeight / 2;
  }

  function render(n, data) {
    var state = data.state, position = state.position;
    board.innerHTML = data.svg;
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

    var text = n === 0 ? root.dataset.textStart
      : fill(root.dataset.textStep, { at: n, last: last, notation: notations[n] || "" });
    if (state.is_over) text += " " + root.dataset.textOver;
    else if (position.current_player !== null && position.current_player !== undefined)
      text += " " + fill(root.dataset.textNext, { player: players[position.current_player] || "" });
    status.textContent = text;

    document.querySelectorAll("#event-list li.current").forEach(function (li) {
      li.classList.remove("current"); li.removeAttribute("aria-current");
    });
    var current = document.querySelector('#event-list li[data-seq="' + n + '"]');
    if (current) {
      current.classList.add("current"); current.setAttribute("aria-current", "step");
      reveal(current);
    }
    if (chart && window.LudologCharts) window.LudologCharts.setMarker(chart, n);
    var url = new URL(window.location.href);
    url.searchParams.set("at", n);
    window.history.replaceState({ at: n }, "", url);
  }

  function go(n) {
    n = Math.max(0, Math.min(last, n));
    wanted = n;
    if (n === at) return;
    board.setAttribute("aria-busy", "true");
    load(n).then(function (data) {
      if (wanted !== n) return;  // a later step was asked for meanwhile
      render(n, data);
      board.setAttribute("aria-busy", "false");
      if (n < last) load(n + 1);
    }).catch(function () {
      board.setAttribute("aria-busy", "false");
      status.textContent = root.dataset.textError;
    });
  }

  Object.keys(links).forEach(function (key) {
    links[key].addEventListener("click", function (event) {
      event.preventDefault();
      go(parseInt(links[key].dataset.step, 10));
    });
  });
  document.getElementById("event-list").addEventListener("click", function (event) {
    var link = event.target.closest("a[data-step]");
    if (!link) return;
    event.preventDefault();
    go(parseInt(link.dataset.step, 10));
  });
  slider.addEventListener("input", function () { go(parseInt(slider.value, 10)); });
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
  var initial = document.querySelector("#event-list li.current");
  if (initial) reveal(initial);
  if (at < last) load(at + 1);
})();
