/* The table recorder of a game whose turn is a choice among a few actions: the engine lists
 * them (the options' "choices", each with its event type, payload and notation), the game's web
 * module names them (its words "choice:<notation>"). Each is a button; the one tapped is
 * chosen, and Confirm records it. A game with a recorder of its own (tiles, Stone Age) does not
 * load this module.
 */
(function () {
  "use strict";
  var R = window.LudologRecorder;
  if (!R) return;
  var words = R.words, el = R.el;
  var tray = document.getElementById("tray");
  var confirm = document.getElementById("confirm");
  var chosen = null;

  function choices() {
    var options = R.table.options || {};
    return options.choices || [];
  }

  function label(choice) {
    return words["choice:" + choice.notation] || choice.notation;
  }

  function render() {
    if (!tray || !confirm) return;
    tray.textContent = "";
    if (R.isOver()) { confirm.disabled = true; return; }
    if (R.queue.length) {
      // The next choices come with the table once what waits has been recorded.
      tray.appendChild(el("p", { "class": "hint", text: R.online ? words.sending : words.waiting }));
      confirm.disabled = true;
      return;
    }
    var list = el("div", { "class": "choices", role: "group" });
    choices().forEach(function (choice, index) {
      list.appendChild(el("button", {
        type: "button", "class": "choice" + (chosen === index ? " chosen" : ""), "data-testid": "choice",
        "aria-pressed": chosen === index ? "true" : "false", text: label(choice),
        onclick: function () { chosen = index; render(); }
      }));
    });
    tray.appendChild(list);
    confirm.disabled = chosen === null || !choices()[chosen];
  }

  if (confirm) {
    confirm.addEventListener("click", function () {
      var choice = choices()[chosen];
      if (choice) R.record(choice.type, choice.payload, label(choice));
    });
  }

  R.use({ render: render, reset: function () { chosen = null; } });
})();
