/* The door counter: one tap, one arrival, counted even without a connection.
 *
 * As the table recorder does (ludolog/recorder.js), each tap gets its idempotency key when it is
 * made and waits in a queue kept in localStorage until the API has it; the queue is sent in
 * order, one tap at a time. Without a connection (or with a server in trouble) the taps stay
 * queued, the page says so, and they go as soon as it is back: on the browser's "online" event
 * and every few seconds. A tap sent twice (its answer lost) is stored once: the API answers 200
 * with the totals. The totals shown are the server's last ones plus what still waits here. A tap
 * the API refuses (a count below zero, a session closed for counting) is dropped and said.
 */
(function () {
  "use strict";
  var dataNode = document.getElementById("door-data");
  var root = document.getElementById("door");
  if (!dataNode || !root || !window.fetch) return;

  var data = JSON.parse(dataNode.textContent);
  var words = data.words;
  var storeKey = "ludolog:door:" + data.session;
  var RETRY_MS = 4000;
  var totals = data.totals;   // the server's, by public
  var plays = data.plays;     // the server's, by record id
  var queue = loadQueue();
  var sending = false;
  var online = navigator.onLine !== false;
  var statusNode = document.getElementById("door-status");
  var messageNode = document.getElementById("door-message");

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
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
      if (queue.length) window.localStorage.setItem(storeKey, JSON.stringify(queue));
      else window.localStorage.removeItem(storeKey);
    } catch (error) { /* private browsing: the queue lives as long as the page */ }
  }

  function fill(template, values) {
    return String(template).replace(/%\((\w+)\)s/g, function (_, key) { return values[key] === undefined ? "" : values[key]; });
  }

  function waitingFor(kind, what) {
    return queue.reduce(function (sum, item) {
      return sum + (item.kind === kind && String(item.what) === String(what) ? item.delta : 0);
    }, 0);
  }

  function shownTotal(publicName) { return (totals[publicName] || 0) + waitingFor("count", publicName); }
  function shownPlays(record) { return (plays[record] || 0) + waitingFor("play", record); }

  // -- drawing ------------------------------------------------------------------------------------

  function render() {
    Array.prototype.forEach.call(root.querySelectorAll("[data-total]"), function (node) {
      node.textContent = shownTotal(node.getAttribute("data-total"));
    });
    var persons = data.persons.reduce(function (sum, p) { return sum + shownTotal(p); }, 0);
    root.querySelector('[data-testid="door-persons"]').textContent = persons;
    root.querySelector('[data-testid="door-families"]').textContent = shownTotal("family");
    renderPlays();
    renderStatus();
  }

  function playButton(record, label, delta, className) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = className;
    button.textContent = label;
    button.addEventListener("click", function () { tally(record, delta); });
    return button;
  }

  function renderPlays() {
    var top = document.getElementById("play-top");
    var list = document.getElementById("play-list");
    top.textContent = "";
    data.top.forEach(function (record) {
      var title = data.titles[record];
      if (!title) return;
      var button = playButton(String(record), title + " +1", 1, "play-quick");
      button.setAttribute("data-testid", "play-quick");
      top.appendChild(button);
    });
    list.textContent = "";
    Object.keys(data.titles).filter(function (record) { return shownPlays(record) > 0; })
      .sort(function (a, b) { return shownPlays(b) - shownPlays(a) || data.titles[a].localeCompare(data.titles[b]); })
      .forEach(function (record) {
        var item = document.createElement("li");
        item.setAttribute("data-record", record);
        var name = document.createElement("span");
        name.textContent = data.titles[record];
        var count = document.createElement("span");
        count.className = "number";
        count.textContent = shownPlays(record);
        item.appendChild(name);
        item.appendChild(count);
        item.appendChild(playButton(record, "+1", 1, "play-more"));
        item.appendChild(playButton(record, "−1", -1, "play-less secondary"));
        list.appendChild(item);
      });
  }

  function renderStatus() {
    var text = "";
    var kind = "";
    if (!online) { text = words.offline; kind = "offline"; }
    else if (sending || queue.length) { text = words.sending; kind = "sending"; }
    if (queue.length) {
      var forms = words.waiting;
      text += " " + fill(forms[String(Math.min(queue.length, 5))], { count: queue.length });
    }
    statusNode.hidden = !text;
    statusNode.textContent = text;
    statusNode.className = "door-status " + kind;
    statusNode.setAttribute("data-waiting", String(queue.length));
  }

  function say(text) {
    messageNode.hidden = !text;
    messageNode.textContent = text || "";
  }

  // -- tapping ----------------------------------------------------------------------------------------

  function enqueue(kind, what, delta) {
    queue.push({ key: newKey(), kind: kind, what: what, delta: delta, counted_at: new Date().toISOString() });
    saveQueue();
    say("");
    render();
    flush();
  }

  function count(publicName, delta) {
    if (delta < 0 && shownTotal(publicName) <= 0) return;  // nothing to take back
    enqueue("count", publicName, delta);
  }

  function tally(record, delta) {
    if (delta < 0 && shownPlays(record) <= 0) return;
    enqueue("play", String(record), delta);
  }

  root.addEventListener("click", function (event) {
    var tap = event.target.closest("[data-tap]");
    if (tap) { count(tap.getAttribute("data-tap"), 1); return; }
    var undo = event.target.closest("[data-undo]");
    if (undo) count(undo.getAttribute("data-undo"), -1);
  });

  document.getElementById("play-search").addEventListener("submit", function (event) {
    event.preventDefault();
    var input = document.getElementById("play-title");
    var wanted = input.value.trim().toLocaleLowerCase();
    var record = Object.keys(data.titles).filter(function (id) { return data.titles[id].toLocaleLowerCase() === wanted; })[0];
    if (!record) { say(words.no_match); return; }
    input.value = "";
    tally(record, 1);
  });

  // -- sending ---------------------------------------------------------------------------------------------

  function body(item) {
    var sent = { delta: item.delta, key: item.key, counted_at: item.counted_at };
    if (item.kind === "count") sent.public = item.what;
    else sent.record = Number(item.what);
    return JSON.stringify(sent);
  }

  function setOnline(value) {
    online = value;
    renderStatus();
  }

  function flush() {
    if (sending || !queue.length) return;
    sending = true;
    renderStatus();
    var item = queue[0];
    fetch(item.kind === "count" ? data.urls.counts : data.urls.plays, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": data.csrf },
      body: body(item)
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (answer) {
        return { status: response.status, body: answer };
      });
    }).then(function (answer) {
      sending = false;
      if (answer.status >= 500) { setOnline(false); return; }  // the server's trouble: keep the tap
      setOnline(true);
      if (answer.status === 401 || answer.status === 403) { say(words.forbidden); return; }  // kept for after signing in
      if (queue[0] && queue[0].key === item.key) queue.shift();
      if (answer.status === 200 || answer.status === 201) {
        if (item.kind === "count" && answer.body.totals) totals = answer.body.totals;
        if (item.kind === "play") plays[item.what] = answer.body.plays;
      } else {
        say(fill(words.refused, { reason: answer.body.detail || answer.body.reason || answer.status }));
      }
      saveQueue();
      render();
      flush();
    }).catch(function () {
      sending = false;
      setOnline(false);
    });
  }

  window.addEventListener("online", function () { setOnline(true); flush(); });
  window.addEventListener("offline", function () { setOnline(false); });
  window.setInterval(flush, RETRY_MS);
  root.classList.add("scripted");
  render();
  flush();
})();
