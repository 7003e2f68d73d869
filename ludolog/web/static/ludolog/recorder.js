/* The table recorder's core: what every game shares.
 *
 * A move is recorded by appending an event through the records API, never by posting a form:
 * each action gets an idempotency key when it is made and keeps it until the server has it, so
 * a retry after a lost answer stores nothing twice. Actions wait in a queue kept in
 * localStorage and are sent one after the other, in order; without a connection they stay
 * queued (shown as pending) and go as soon as it returns. A refusal (another phone recorded
 * meanwhile: 409; the engine refuses: 422) stores nothing: the queue is dropped, the position
 * reloaded, and the page says what happened. Every few seconds the page asks whether another
 * phone recorded, and shows the new position if so.
 *
 * The game modules (recorder-tiles.js, recorder-stone-age.js) register with
 * LudologRecorder.use({render, reset}) and draw the board's overlays and the choices; they
 * record with LudologRecorder.record(type, payload, label).
 */
(function () {
  "use strict";
  var dataNode = document.getElementById("recorder-data");
  var root = document.getElementById("recorder");
  if (!dataNode || !root || !window.fetch) return;
  root.classList.add("scripted");

  var data = JSON.parse(dataNode.textContent);
  var words = data.words;
  var storeKey = "ludolog:queue:" + data.record;
  var POLL_MS = 3000;

  var R = window.LudologRecorder = {
    data: data,
    words: words,
    table: data.table,
    queue: loadQueue(),
    sending: false,
    online: navigator.onLine !== false,
    game: null,
    paintedSeq: null
  };

  /* A counted phrase comes as its forms ({by: "count", "0": …, "1": …, other: …}, made by
     words.counted on the server): the form for the number it counts is filled in. */
  function fill(template, values) {
    if (template && typeof template === "object") {
      var n = String(values[template.by]);
      template = template[n] !== undefined ? template[n] : template.other;
    }
    return String(template).replace(/%\((\w+)\)s/g, function (_, key) {
      return values[key] === undefined ? "" : values[key];
    });
  }
  R.fill = fill;

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      var value = attrs[name];
      if (value === undefined || value === null || value === false) return;
      if (name === "text") node.textContent = value;
      else if (name === "onclick") node.addEventListener("click", value);
      else node.setAttribute(name, value === true ? "" : value);
    });
    (children || []).forEach(function (child) {
      if (child !== null && child !== undefined) node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }
  R.el = el;

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var bytes = new Uint8Array(16);
    (window.crypto || window.msCrypto).getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }

  function loadQueue() {
    try {
      var stored = JSON.parse(window.localStorage.getItem(storeKey) || "[]");
      return Array.isArray(stored) ? stored : [];
    } catch (error) { return []; }
  }

  function saveQueue() {
    try {
      if (R.queue.length) window.localStorage.setItem(storeKey, JSON.stringify(R.queue));
      else window.localStorage.removeItem(storeKey);
    } catch (error) { /* private browsing: the queue lives as long as the page */ }
  }

  R.seatName = function (seat) {
    var found = (R.table.seats || []).filter(function (s) { return s.seat === seat; })[0];
    return found ? found.player : "";
  };
  R.seatColour = function (seat) {
    var found = (R.table.seats || []).filter(function (s) { return s.seat === seat; })[0];
    return found ? found.colour : "#888";
  };

  // -- recording ------------------------------------------------------------------------------

  R.record = function (type, payload, label) {
    var last = R.queue[R.queue.length - 1];
    R.queue.push({
      key: newKey(), expected_seq: last ? last.expected_seq + 1 : R.table.seq,
      type: type, payload: payload, label: label
    });
    saveQueue();
    if (window.performance && performance.mark) performance.mark("ludolog:confirm");
    if (R.game) R.game.reset();
    render();
    flush();
  };

  /* Take back the last action: one still waiting here is simply dropped (it never reached
   * the server); otherwise an undo event is recorded. */
  R.takeBack = function () {
    var unsent = R.queue.length - (R.sending ? 1 : 0);
    if (unsent > 0) {
      R.queue.pop();
      saveQueue();
      if (R.game) R.game.reset();
      render();
      return;
    }
    R.record("undo", {}, words.undo_label);
  };

  function flush() {
    if (R.sending || !R.queue.length) return;
    R.sending = true;
    renderStatus();
    var item = R.queue[0];
    fetch(data.urls.events, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": data.csrf },
      body: JSON.stringify({
        expected_seq: item.expected_seq, type: item.type, payload: item.payload, idempotency_key: item.key
      })
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (body) {
        return { status: response.status, body: body };
      });
    }).then(function (answer) {
      R.sending = false;
      if (answer.status === 201 || answer.status === 200) {
        setOnline(true);
        if (R.queue[0] && R.queue[0].key === item.key) R.queue.shift();
        saveQueue();
        if (R.queue.length) flush();
        else if (answer.body && answer.body.table) { R.table = answer.body.table; render(); }  // the table came with it
        else refresh();
        return;
      }
      if (answer.status >= 500 || answer.status === 0) {
        // The server is in trouble, not the action: keep it and try again.
        setOnline(false);
        return;
      }
      setOnline(true);
      refused(item, answer);
    }).catch(function () {
      R.sending = false;
      setOnline(false);
    });
  }
  R.flush = flush;

  function refused(item, answer) {
    var dropped = R.queue.splice(0, R.queue.length);
    saveQueue();
    var body = answer.body || {};
    var text;
    if (answer.status === 409 && body.reason === "seq_conflict") {
      text = fill(words.conflict, { action: item.label });
    } else if (answer.status === 409) {
      text = words.closed;
    } else if (answer.status === 403 || answer.status === 401) {
      text = words.forbidden;
    } else {
      text = fill(words.refused, { action: item.label, reason: body.detail || body.reason || answer.status });
    }
    if (dropped.length > 1) text += " " + fill(words.conflict_more, { count: dropped.length - 1 });
    say(text, "error");
    refresh(true);
  }

  /* The table's state from the server, then the page drawn again from it. After this phone's
   * own moves went through, a choice already begun for the next one is kept (the game module
   * drops it if the new position no longer allows it); after a refusal it is dropped. */
  function refresh(afterRefusal) {
    return fetch(data.urls.table, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) {
        if (!response.ok) throw new Error("table " + response.status);
        return response.json();
      }).then(function (table) {
        setOnline(true);
        R.table = table;
        if (afterRefusal && R.game) R.game.reset();
        render();
      }).catch(function () { setOnline(false); });
  }
  R.refresh = refresh;

  function poll() {
    if (R.sending || R.queue.length || document.visibilityState === "hidden") return;
    fetch(data.urls.table + "?known=" + R.table.seq, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) {
        if (response.status === 204) { setOnline(true); return null; }
        if (!response.ok) throw new Error("table " + response.status);
        return response.json();
      }).then(function (table) {
        if (!table || R.sending || R.queue.length || table.seq === R.table.seq) return;
        var latest = table.lines && table.lines[table.lines.length - 1];
        R.table = table;
        if (R.game) R.game.reset();
        render();
        if (latest) say(fill(words.other_phone, { text: latest.text }), "info");
      }).catch(function () { setOnline(false); });
  }

  function setOnline(online) {
    if (R.online === online) return;
    R.online = online;
    renderStatus();
    if (R.game) render();
  }

  window.addEventListener("online", function () { setOnline(true); flush(); });
  window.addEventListener("offline", function () { setOnline(false); });
  // Every few seconds: send what waits (the connection may be back without an "online" event),
  // or ask whether another phone recorded.
  window.setInterval(function () {
    if (R.queue.length && !R.sending) flush(); else poll();
  }, POLL_MS);

  // -- drawing --------------------------------------------------------------------------------

  var message = document.getElementById("recorder-message");
  function say(text, kind) {
    if (!message) return;
    message.textContent = text;
    message.className = "recorder-message " + (kind || "info");
    message.hidden = !text;
    message.setAttribute("role", kind === "error" ? "alert" : "status");
  }
  R.say = say;

  function renderStatus() {
    var toPlay = document.getElementById("to-play");
    var pending = document.getElementById("pending");
    var connection = document.getElementById("connection");
    var table = R.table;
    if (toPlay) {
      toPlay.textContent = "";
      var seat = R.game && R.game.seatToPlay ? R.game.seatToPlay() : table.to_play;
      if (table.status !== "in_progress") {
        // The end screen says how the game ended, once.
      } else if (table.over) {
        toPlay.textContent = words.awaiting_end;
      } else if (seat !== null && seat !== undefined) {
        toPlay.appendChild(el("span", { "class": "swatch", style: "background:" + R.seatColour(seat), "aria-hidden": "true" }));
        toPlay.appendChild(document.createTextNode(fill(words.to_play, { player: R.seatName(seat) })));
      } else {
        toPlay.textContent = words.table_turn;
      }
    }
    if (pending) {
      var count = R.queue.length;
      pending.dataset.count = String(count);
      pending.textContent = count === 1 ? words.pending_one : fill(words.pending, { count: count });
      pending.hidden = count === 0;
    }
    if (connection) {
      connection.hidden = R.online && !R.sending;
      connection.textContent = R.online ? words.sending : words.offline;
      connection.className = "connection " + (R.online ? "sending" : "offline");
    }
  }

  function pointsChips(points) {
    var list = el("span", { "class": "points" });
    Object.keys(points || {}).forEach(function (seat) {
      var value = points[seat];
      list.appendChild(el("span", { "class": "point-chip", style: "border-color:" + R.seatColour(Number(seat)) }, [
        el("span", { "class": "swatch", style: "background:" + R.seatColour(Number(seat)), "aria-hidden": "true" }),
        fill(words.points, { player: R.seatName(Number(seat)), points: (value > 0 ? "+" : "−") + Math.abs(value) })
      ]));
    });
    return list;
  }

  function renderLines() {
    var list = document.getElementById("lines");
    if (!list) return;
    list.textContent = "";
    var lines = (R.table.lines || []).slice().reverse();
    R.queue.slice().reverse().forEach(function (item) {
      list.appendChild(el("li", { "class": "line pending" }, [fill(words.pending_line, { text: item.label })]));
    });
    if (!lines.length && !R.queue.length) list.appendChild(el("li", { "class": "line empty", text: words.nothing_yet }));
    lines.forEach(function (line, index) {
      var item = el("li", { "class": "line" + (index === 0 && !R.queue.length ? " latest" : "") + (line.retracted ? " retracted" : ""),
        "data-seq": line.seq }, []);
      if (line.seat !== null && line.seat !== undefined) {
        item.appendChild(el("span", { "class": "swatch", style: "background:" + R.seatColour(line.seat), "aria-hidden": "true" }));
      }
      var text = el(line.retracted ? "del" : "span", { "class": "line-text", title: line.notation, text: line.text });
      item.appendChild(text);
      (line.scoring || []).forEach(function (scoring) { item.appendChild(el("span", { "class": "scoring", text: scoring })); });
      if (line.points && Object.keys(line.points).length) item.appendChild(pointsChips(line.points));
      list.appendChild(item);
    });
  }

  function renderScores() {
    var body = document.querySelector("#recorder-scores tbody");
    if (!body) return;
    body.textContent = "";
    (R.table.seats || []).forEach(function (seat) {
      body.appendChild(el("tr", { "class": seat.seat === R.table.to_play ? "to-play" : null, "data-seat": seat.seat }, [
        el("th", { scope: "row" }, [el("span", { "class": "swatch", style: "background:" + seat.colour, "aria-hidden": "true" }), seat.player]),
        el("td", { "class": "number total", text: String(seat.total) })
      ]));
    });
  }

  function renderBoard() {
    var board = document.getElementById("board");
    if (board && R.paintedSeq !== R.table.seq) {
      board.innerHTML = R.table.board;
      R.paintedSeq = R.table.seq;
    }
  }

  R.isOver = function () { return Boolean(R.table.over || R.table.status !== "in_progress"); };

  /* The rules ended the game with the last move: ask, where the choices were, whether to end
   * the game and score it; until then the move can be taken back. */
  function renderEnd() {
    var tray = document.getElementById("tray");
    if (!tray) return;
    tray.textContent = "";
    tray.appendChild(el("p", { "class": "panel-title", text: words.end_question }));
    tray.appendChild(el("p", { "class": "hint", text: words.end_hint }));
    tray.appendChild(el("div", { "class": "end-buttons" }, [
      el("button", { type: "button", "class": "secondary", "data-testid": "end-take-back", text: "↶ " + words.undo_yes,
        onclick: function () { R.takeBack(); } }),
      el("button", { type: "button", "class": "primary", "data-testid": "end-confirm", text: "✓ " + words.end_confirm,
        onclick: function () { R.record("end_game", { reason: "complete" }, words.end_label); } })
    ]));
  }

  /* The record was closed (here or on another phone): the page shows its end screen. */
  var reloading = false;
  function showEndScreen() {
    if (reloading) return;
    reloading = true;
    window.location.reload();
  }

  function render() {
    renderBoard();
    renderStatus();
    renderLines();
    renderScores();
    var over = R.isOver();
    var closed = R.table.status !== "in_progress";
    root.classList.toggle("over", over);
    var bar = document.getElementById("action-bar");
    if (bar) bar.hidden = closed && !R.queue.length;
    var confirmButton = document.getElementById("confirm");
    if (confirmButton) confirmButton.hidden = over && !R.queue.length;
    var early = document.getElementById("end-early");
    if (early) early.hidden = over && !R.queue.length;
    // While the end question shows, its own "take it back" is the undo: one button, not two.
    var undoButton = document.getElementById("undo");
    if (undoButton) undoButton.hidden = over && !closed && !R.queue.length;
    var missing = document.getElementById("end-missing-choice");
    if (missing) missing.hidden = !R.table.can_end_early;
    if (R.game) R.game.render();
    if (over && !closed && !R.queue.length) renderEnd();
    if (closed && !R.queue.length && document.getElementById("tray")) showEndScreen();
    if (window.performance && performance.mark && window.requestAnimationFrame) {
      var seq = R.table.seq;
      requestAnimationFrame(function () {
        requestAnimationFrame(function () { performance.mark("ludolog:painted:" + seq); });
      });
    }
  }
  R.render = render;

  /* The tap targets in sight whose middle another element covers (a tap there would reach that
   * element instead): the board's targets inside its frame (squares, figure spots, places), the
   * buttons of the strip above the board, of the tray and of the action bar. Empty when every target can be tapped where it is drawn. */
  /* The part of a scrolling box its content shows in: its border and scrollbars left out. */
  function clientArea(box) {
    var rect = box.getBoundingClientRect();
    var left = rect.left + box.clientLeft, top = rect.top + box.clientTop;
    return { left: left, top: top, right: left + box.clientWidth, bottom: top + box.clientHeight };
  }

  /* Whether the point (x, y) of ``node`` lies outside a box around it that clips what overflows:
   * the node is scrolled out of sight there, not covered. */
  function clippedAway(node, x, y) {
    for (var box = node.parentElement; box && box !== document.body; box = box.parentElement) {
      var style = window.getComputedStyle(box);
      if (style.overflowX === "visible" && style.overflowY === "visible") continue;
      var rect = clientArea(box);
      if (x < rect.left || x >= rect.right || y < rect.top || y >= rect.bottom) return true;
    }
    return false;
  }

  R.coveredTargets = function () {
    var viewport = document.getElementById("board-viewport");
    var frame = viewport ? clientArea(viewport) : null;
    var found = [];
    // The action bar stays at the bottom of the screen: what scrolls under it is out of sight there.
    var bar = document.getElementById("action-bar");
    var barTop = bar && !bar.hidden ? bar.getBoundingClientRect().top : window.innerHeight;
    var targets = document.querySelectorAll('#board [role="button"], #board button, .board-strip button, #action-bar button, #tray button');
    Array.prototype.forEach.call(targets, function (target) {
      var box = target.getBoundingClientRect();
      if (!box.width || !box.height) return;  // hidden
      var x = box.left + box.width / 2, y = box.top + box.height / 2;
      if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) return;  // out of sight
      if (y >= barTop - 1 && !(bar && bar.contains(target))) return;  // under the bar, or on its edge
      if (clippedAway(target, x, y)) return;  // scrolled out of its box (a row of chips, a list)
      var onBoard = Boolean(target.closest("#board"));
      // A target whose middle is on the frame's edge or past it is (half) out of sight, not covered.
      if (onBoard && frame && (x < frame.left || x >= frame.right || y < frame.top || y >= frame.bottom)) return;
      var hit = document.elementFromPoint(x, y);
      if (hit && (hit === target || target.contains(hit))) return;
      // A chosen square is under the tile being laid there, as it should be.
      if (onBoard && target.matches('[data-testid="spot"]') && hit && hit.closest("g.ghost")) return;
      found.push({ testid: target.getAttribute("data-testid") || target.id || target.className.baseVal || target.className,
        x: Math.round(x), y: Math.round(y), by: hit ? (hit.getAttribute("data-testid") || hit.id || hit.tagName) : null,
        box: [Math.round(box.left), Math.round(box.top), Math.round(box.width), Math.round(box.height)],
        frame: frame ? [Math.round(frame.left), Math.round(frame.top), Math.round(frame.right), Math.round(frame.bottom)] : null });
    });
    return found;
  };

  R.use = function (game) {
    R.game = game;
    render();
    if (R.queue.length) flush();
  };

  // -- undo, with a confirmation --------------------------------------------------------------

  var undoButton = document.getElementById("undo");
  var dialog = document.getElementById("undo-dialog");
  if (undoButton && dialog) {
    undoButton.addEventListener("click", function () {
      var last = R.queue.length ? R.queue[R.queue.length - 1].label
        : ((R.table.lines || []).filter(function (l) { return !l.retracted && l.notation !== "undo"; }).slice(-1)[0] || {}).text;
      document.getElementById("undo-what").textContent = last || "";
      if (dialog.showModal) dialog.showModal(); else dialog.setAttribute("open", "");
    });
    dialog.addEventListener("close", function () {
      if (dialog.returnValue === "undo") R.takeBack();
    });
  }
  // -- ending early or abandoning, with a reason ------------------------------------------------

  var endForm = document.getElementById("end-early-form");
  if (endForm) {
    endForm.addEventListener("submit", function (event) {
      event.preventDefault();
      var chosen = endForm.querySelector('input[name="end"]:checked');
      var reason = document.getElementById("abandon-reason");
      if (!chosen) { say(words.end_choose, "error"); return; }
      if (chosen.value === "missing_tile") {
        R.record("end_game", { reason: "missing_tile" }, words.end_missing_label);
      } else {
        var why = (reason.value || "").trim();
        if (!why) { say(words.abandon_reason_needed, "error"); reason.focus(); return; }
        R.record("abandon", { reason: why }, fill(words.abandon_label, { reason: why }));
      }
      endForm.closest("details").open = false;
    });
  }

  var expert = document.querySelector("details.expert");
  if (expert) {
    expert.addEventListener("toggle", function () {
      var seq = expert.querySelector('input[name="expected_seq"]');
      if (seq) seq.value = String(R.table.seq);
    });
  }
})();
