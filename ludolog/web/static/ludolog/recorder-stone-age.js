/* The table recorder for Stone Age.
 *
 * Placement: tap a place (on the list or on the village board), then how many people (only the
 * counts the engine allows). Resolving: tap the place, then enter the dice actually rolled on a
 * number pad (a seeded record may let Ludolog roll), the tools to add, and the card or building
 * choices as buttons with their cost. Feeding offers exactly the engine's options; without a
 * seed, the cards and buildings turned up are picked from lists of what is left. Every choice
 * comes from the options the engine gives (the options API); nothing else is offered.
 */
(function () {
  "use strict";
  var R = window.LudologRecorder;
  if (!R || R.data.game !== "stone-age") return;
  var data = R.data, words = R.words, el = R.el, fill = R.fill;
  var catalogue = data.catalogue;
  var RESOURCES = ["wood", "clay", "stone", "gold"];
  var tray = document.getElementById("tray");
  // A closed record's page has no action bar: a stand-in keeps the code below from failing on it.
  var confirmButton = document.getElementById("confirm") || document.createElement("button");
  var sel = fresh();

  function fresh() {
    return { place: null, count: null, dice: [], roll: false, tools: [], oneTime: [], pay: null, decline: false,
      steps: { wood: 0, clay: 0, stone: 0, gold: 0 }, choose: null, picks: [], drawn: null, starve: false,
      cards: [], stacks: {}, cardFilter: null };
  }

  function word(key, fallback) { return words[key] || fallback || key; }
  function placeName(place) { return word("place:" + place, place); }
  function amounts(pay) {
    return RESOURCES.filter(function (r) { return pay[r]; }).map(function (r) {
      return pay[r] + " " + word("resource:" + r, r);
    }).join(", ");
  }
  function payKey(pay) {
    return "pay=" + RESOURCES.filter(function (r) { return pay[r]; }).map(function (r) { return r + ":" + pay[r]; }).join(",");
  }
  function cardWords(card) {
    var entry = catalogue.cards[card] || {};
    return card + " · " + (entry.top || "") + " · " + (entry.bottom || "");
  }

  function choiceButton(key, label, sub, pressed, onclick) {
    return el("button", { type: "button", "data-testid": "choice", "data-choice": key, "aria-pressed": pressed ? "true" : "false",
      onclick: onclick }, [label, sub ? el("span", { "class": "sub", text: sub }) : null]);
  }

  function options() { return R.table.options || {}; }

  // -- the pieces of a choice -----------------------------------------------------------------

  function dicePad(count, canRoll) {
    var box = el("div", { "class": "dice-entry", "data-testid": "dice", "data-count": count });
    box.appendChild(el("p", { "class": "panel-title", text: sel.roll ? words.rolled_by_ludolog : fill(words.dice_needed, { count: count }) }));
    var entered = el("div", { "class": "dice-entered", "aria-live": "polite" });
    sel.dice.forEach(function (face, index) {
      entered.appendChild(el("button", { type: "button", "class": "die", "data-entered": face, "aria-label": String(face),
        onclick: function () { sel.dice.splice(index, 1); R.render(); }, text: String(face) }));
    });
    for (var missing = sel.dice.length; missing < count && !sel.roll; missing += 1) {
      entered.appendChild(el("span", { "class": "die empty", "aria-hidden": "true", text: "·" }));
    }
    box.appendChild(entered);
    if (!sel.roll) {
      var pad = el("div", { "class": "dice-pad" });
      [1, 2, 3, 4, 5, 6].forEach(function (face) {
        pad.appendChild(el("button", { type: "button", "data-die": face, disabled: sel.dice.length >= count,
          onclick: function () { if (sel.dice.length < count) { sel.dice.push(face); R.render(); } }, text: String(face) }));
      });
      box.appendChild(pad);
    }
    var row = el("div", { "class": "choices" });
    if (sel.dice.length) {
      row.appendChild(el("button", { type: "button", "data-clear": "dice", onclick: function () { sel.dice = []; R.render(); },
        text: words.clear_dice }));
    }
    if (canRoll) {
      row.appendChild(choiceButton("roll", words.roll_for_me, null, sel.roll, function () {
        sel.roll = !sel.roll; sel.dice = []; R.render();
      }));
    }
    if (row.childNodes.length) box.appendChild(row);
    return box;
  }

  function toolToggles(entry) {
    if (!(entry.tools || []).length && !(entry.one_time || []).length) return null;
    var row = el("div", { "class": "choices tools" });
    (entry.tools || []).forEach(function (tool) {
      var on = sel.tools.indexOf(tool.slot) >= 0;
      row.appendChild(el("button", { type: "button", "data-testid": "tool", "data-slot": tool.slot, "aria-pressed": on ? "true" : "false",
        onclick: function () {
          sel.tools = on ? sel.tools.filter(function (s) { return s !== tool.slot; }) : sel.tools.concat([tool.slot]);
          R.render();
        }, text: fill(words.tool, { value: tool.value }) }));
    });
    (entry.one_time || []).forEach(function (value, index) {
      var on = sel.oneTime.indexOf(index) >= 0;
      row.appendChild(el("button", { type: "button", "data-testid": "tool", "data-one-time": value, "aria-pressed": on ? "true" : "false",
        onclick: function () {
          sel.oneTime = on ? sel.oneTime.filter(function (i) { return i !== index; }) : sel.oneTime.concat([index]);
          R.render();
        }, text: fill(words.one_time_tool, { value: value }) }));
    });
    return el("div", {}, [el("p", { "class": "panel-title", text: words.tools }), row]);
  }

  function toolBonus(entry) {
    var bonus = 0;
    (entry.tools || []).forEach(function (tool) { if (sel.tools.indexOf(tool.slot) >= 0) bonus += tool.value; });
    (entry.one_time || []).forEach(function (value, index) { if (sel.oneTime.indexOf(index) >= 0) bonus += value; });
    return bonus;
  }

  function gainPreview(entry) {
    if (sel.roll || sel.dice.length !== entry.dice) return null;
    var total = sel.dice.reduce(function (a, b) { return a + b; }, 0) + toolBonus(entry);
    return el("p", { "class": "hint gain", text: fill(words.gain, { total: total, value: entry.value,
      gained: Math.floor(total / entry.value), resource: word("resource:" + entry.resource) }) });
  }

  function ruleText(rule) {
    if (rule.fixed) return fill(words.pay_rule_fixed, { what: amounts(rule.fixed) });
    if (rule.kinds) return fill(words.pay_rule_kinds, { count: rule.count, kinds: rule.kinds });
    if (rule.min !== undefined) return fill(words.pay_rule_range, { min: rule.min, max: rule.max });
    return fill(words.pay_rule_count, { count: rule.count });
  }

  function stepsFit(rule) {
    var total = 0, kinds = 0;
    RESOURCES.forEach(function (r) { total += sel.steps[r]; if (sel.steps[r]) kinds += 1; });
    if (rule.fixed) return RESOURCES.every(function (r) { return (rule.fixed[r] || 0) === sel.steps[r]; });
    if (rule.kinds) return total === rule.count && kinds === rule.kinds;
    if (rule.min !== undefined) return total >= rule.min && total <= rule.max;
    return total === rule.count;
  }

  /* The ways to pay: buttons when the engine lists them, else a counter per resource. */
  function paymentChoices(payment, declineKey) {
    var box = el("div", {});
    var row = el("div", { "class": "choices payments" });
    if (declineKey) {
      row.appendChild(choiceButton(declineKey, declineKey === "starve" ? words.starve : words.decline, null,
        sel.decline || sel.starve, function () {
          if (declineKey === "starve") sel.starve = !sel.starve; else sel.decline = !sel.decline;
          sel.pay = null; R.render();
        }));
    }
    if (payment.choices) {
      payment.choices.forEach(function (choice) {
        var on = sel.pay && payKey(sel.pay) === choice.choice;
        row.appendChild(choiceButton(choice.choice, fill(words.pay, { what: amounts(choice.pay) }), null, on, function () {
          sel.pay = on ? null : choice.pay; sel.decline = false; sel.starve = false; R.render();
        }));
      });
      box.appendChild(row);
      if (!payment.possible) box.appendChild(el("p", { "class": "hint", text: words.cannot_pay }));
      return box;
    }
    box.appendChild(row);
    box.appendChild(el("p", { "class": "hint", text: ruleText(payment.rule) + " " + fill(words.you_have, { what: amounts(payment.have) || "0" }) }));
    RESOURCES.forEach(function (resource) {
      if (!payment.have[resource]) return;
      box.appendChild(el("div", { "class": "stepper", "data-testid": "pay", "data-resource": resource }, [
        el("span", { "class": "name", text: word("resource:" + resource) }),
        el("button", { type: "button", "data-step": "-1", "aria-label": "− " + word("resource:" + resource),
          disabled: sel.steps[resource] <= 0, onclick: function () { sel.steps[resource] -= 1; sel.decline = false; sel.starve = false; R.render(); }, text: "−" }),
        el("span", { "class": "amount", text: String(sel.steps[resource]) }),
        el("button", { type: "button", "data-step": "+1", "aria-label": "+ " + word("resource:" + resource),
          disabled: sel.steps[resource] >= payment.have[resource], onclick: function () { sel.steps[resource] += 1; sel.decline = false; sel.starve = false; R.render(); }, text: "+" })
      ]));
    });
    return box;
  }

  function chosenPay(payment) {
    if (payment.choices) return sel.pay;
    return stepsFit(payment.rule) ? sel.steps : null;
  }

  function combinations(count) {
    // Every way to take ``count`` resources (any kinds), cheapest first.
    var found = [];
    (function walk(index, left, chosen) {
      if (index === RESOURCES.length) { if (left === 0) found.push(Object.assign({}, chosen)); return; }
      for (var n = left; n >= 0; n -= 1) { chosen[RESOURCES[index]] = n; walk(index + 1, left - n, chosen); }
      delete chosen[RESOURCES[index]];
    })(0, count, {});
    return found.map(function (c) { var out = {}; RESOURCES.forEach(function (r) { if (c[r]) out[r] = c[r]; }); return out; });
  }

  function cardList(cards, onPick, isChosen) {
    var box = el("div", {});
    var kinds = [];
    cards.forEach(function (c) { var kind = (catalogue.cards[c.card] || {}).kind; if (kinds.indexOf(kind) < 0) kinds.push(kind); });
    var chips = el("div", { "class": "filters-row" });
    chips.appendChild(el("button", { type: "button", "class": "chip", "aria-pressed": sel.cardFilter ? "false" : "true",
      onclick: function () { sel.cardFilter = null; R.render(); }, text: words.all_cards }));
    kinds.forEach(function (kind) {
      chips.appendChild(el("button", { type: "button", "class": "chip", "aria-pressed": sel.cardFilter === kind ? "true" : "false",
        onclick: function () { sel.cardFilter = sel.cardFilter === kind ? null : kind; R.render(); },
        text: catalogue.card_kinds[kind] || kind }));
    });
    box.appendChild(chips);
    var row = el("div", { "class": "choices cards" });
    cards.forEach(function (c) {
      if (sel.cardFilter && (catalogue.cards[c.card] || {}).kind !== sel.cardFilter) return;
      row.appendChild(choiceButton(onPick.key(c.card), c.card, (catalogue.cards[c.card] || {}).top + " · " +
        (catalogue.cards[c.card] || {}).bottom, isChosen(c.card), function () { onPick(c.card); }));
    });
    box.appendChild(row);
    return box;
  }

  // -- each phase -----------------------------------------------------------------------------

  function placement(opts) {
    var seat = opts.seat;
    tray.appendChild(el("p", { "class": "panel-title", text: fill(words.place_people, { player: R.seatName(seat) }) }));
    var places = el("div", { "class": "choices places" });
    opts.places.forEach(function (entry) {
      places.appendChild(el("button", { type: "button", "data-testid": "place", "data-place": entry.place,
        "aria-pressed": sel.place === entry.place ? "true" : "false",
        onclick: function () { choosePlace(entry.place); } }, [placeName(entry.place), el("span", { "class": "sub", text: placeHint(entry.place) })]));
    });
    tray.appendChild(places);
    var chosen = opts.places.filter(function (e) { return e.place === sel.place; })[0];
    if (chosen) {
      if (chosen.counts.length === 1) sel.count = chosen.counts[0];
      tray.appendChild(el("p", { "class": "panel-title", text: words.how_many }));
      var counts = el("div", { "class": "choices counts" });
      chosen.counts.forEach(function (n) {
        counts.appendChild(el("button", { type: "button", "data-testid": "count", "data-count": n,
          "aria-pressed": sel.count === n ? "true" : "false", onclick: function () { sel.count = n; R.render(); }, text: String(n) }));
      });
      tray.appendChild(counts);
    }
    return chosen && sel.count ? { type: "place", payload: { location: sel.place, people: sel.count },
      label: placeName(sel.place) + ": " + fill(words.people, { count: sel.count }) } : null;
  }

  function placeHint(place) {
    if (place.indexOf("card") === 0) {
      var card = (R.table.cards || {})[place];
      return card ? cardWords(card) : "";
    }
    if (place.indexOf("building") === 0) {
      var building = (R.table.buildings || {})[place];
      return building ? building + " · " + ((catalogue.buildings[building] || {}).cost || "") : "";
    }
    return "";
  }

  function resolving(opts) {
    var seat = opts.seat;
    tray.appendChild(el("p", { "class": "panel-title", text: fill(words.resolve, { player: R.seatName(seat) }) }));
    var places = el("div", { "class": "choices places" });
    opts.resolve.forEach(function (entry) {
      places.appendChild(el("button", { type: "button", "data-testid": "place", "data-place": entry.place,
        "aria-pressed": sel.place === entry.place ? "true" : "false", onclick: function () { choosePlace(entry.place); } },
        [placeName(entry.place), el("span", { "class": "sub", text: fill(words.people, { count: entry.people }) +
          (entry.card ? " · " + cardWords(entry.card) : entry.building ? " · " + entry.building + " · " +
            ((catalogue.buildings[entry.building] || {}).cost || "") : "") })]));
    });
    tray.appendChild(places);
    var entry = opts.resolve.filter(function (e) { return e.place === sel.place; })[0];
    if (!entry) return null;
    var payload = { location: entry.place };
    var label = placeName(entry.place);
    var ready = true;
    function rolling(count, canRoll) {
      tray.appendChild(dicePad(count, canRoll));
      var toggles = toolToggles(entry);
      if (toggles) tray.appendChild(toggles);
      if (entry.value) { var preview = gainPreview(entry); if (preview) tray.appendChild(preview); }
      if (sel.roll) return true;
      if (sel.dice.length !== count) return false;
      payload.dice = sel.dice.slice();
      label += " · " + sel.dice.join(", ");
      return true;
    }
    function withTools() {
      var slots = (entry.tools || []).filter(function (t) { return sel.tools.indexOf(t.slot) >= 0; }).map(function (t) { return t.slot; });
      var once = (entry.one_time || []).filter(function (v, i) { return sel.oneTime.indexOf(i) >= 0; });
      if (slots.length) payload.tools = slots;
      if (once.length) payload.one_time = once;
    }
    if (entry.kind === "gather") {
      ready = rolling(entry.dice, opts.seeded);
      withTools();
    } else if (entry.kind === "card" || entry.kind === "building") {
      tray.appendChild(paymentChoices(entry.payment, "decline"));
      var pay = chosenPay(entry.payment);
      if (sel.decline) {
        payload.decline = true;
        label += " · " + words.decline;
      } else if (!pay) {
        ready = false;
      } else {
        payload.pay = pay;
        label += " · " + amounts(pay);
        if (entry.kind === "card" && entry.top.type === "resource_dice") {
          ready = rolling(entry.dice, opts.seeded);
          withTools();
        } else if (entry.dice) {
          // Dice for everyone: the dice rolled, then each player's pick from the buyer on.
          ready = rolling(entry.dice, false);
          if (ready) ready = picking(entry, payload);
        } else if (entry.choose) {
          ready = choosing(entry.choose, payload);
        } else if (entry.draw) {
          tray.appendChild(el("p", { "class": "panel-title", text: words.drawn }));
          var pick = function (card) { sel.drawn = sel.drawn === card ? null : card; R.render(); };
          pick.key = function (card) { return "drawn=" + card; };
          tray.appendChild(cardList(entry.draw, pick, function (card) { return sel.drawn === card; }));
          if (sel.drawn) payload.drawn = sel.drawn; else ready = false;
        }
      }
    }
    return ready ? { type: "resolve", payload: payload, label: label } : null;
  }

  function picking(entry, payload) {
    var left = sel.dice.slice();
    sel.picks.forEach(function (face) { left.splice(left.indexOf(face), 1); });
    if (sel.picks.length < entry.picks.length) {
      var seat = entry.picks[sel.picks.length];
      tray.appendChild(el("p", { "class": "panel-title", text: fill(words.picks, { player: R.seatName(seat) }) }));
      var row = el("div", { "class": "choices picks" });
      left.filter(function (face, index) { return left.indexOf(face) === index; }).forEach(function (face) {
        var reward = (entry.faces || {})[face];
        row.appendChild(choiceButton("pick=" + face, String(face), word("resource:" + reward, word("face:" + reward, reward)), false,
          function () { sel.picks.push(face); R.render(); }));
      });
      tray.appendChild(row);
    }
    if (sel.picks.length) {
      tray.appendChild(el("p", { "class": "hint" }, [entry.picks.slice(0, sel.picks.length).map(function (seat, i) {
        return R.seatName(seat) + " " + sel.picks[i];
      }).join(" · "), " ", el("button", { type: "button", "class": "again", onclick: function () { sel.picks = []; R.render(); },
        text: "↺ " + words.picks_again })]));
    }
    if (sel.picks.length !== entry.picks.length) return false;
    payload.picks = sel.picks.slice();
    return true;
  }

  function choosing(count, payload) {
    tray.appendChild(el("p", { "class": "panel-title", text: fill(words.choose, { count: count }) }));
    var row = el("div", { "class": "choices" });
    combinations(count).forEach(function (combo) {
      var key = "choose=" + RESOURCES.filter(function (r) { return combo[r]; }).map(function (r) { return r + ":" + combo[r]; }).join(",");
      var on = sel.choose === key;
      row.appendChild(choiceButton(key, amounts(combo), null, on, function () { sel.choose = on ? null : key; sel.chooseValue = combo; R.render(); }));
    });
    tray.appendChild(row);
    if (!sel.choose) return false;
    payload.choose = sel.chooseValue;
    return true;
  }

  function feeding(opts) {
    var feed = opts.feed;
    tray.appendChild(el("p", { "class": "panel-title", text: fill(words.lacks_food, { player: R.seatName(opts.seat), count: feed.shortfall }) }));
    tray.appendChild(paymentChoices(feed.payment, "starve"));
    if (sel.starve) return { type: "feed", payload: { starve: true }, label: words.starve };
    var pay = chosenPay(feed.payment);
    return pay ? { type: "feed", payload: { pay: pay }, label: fill(words.pay, { what: amounts(pay) }) } : null;
  }

  function revealing(opts) {
    var reveal = opts.reveal;
    if (sel.cards.length < reveal.cards) {
      tray.appendChild(el("p", { "class": "panel-title", text: fill(words.reveal_cards, { done: sel.cards.length, count: reveal.cards }) }));
      var pick = function (card) {
        var at = sel.cards.indexOf(card);
        if (at >= 0) sel.cards.splice(at, 1); else if (sel.cards.length < reveal.cards) sel.cards.push(card);
        R.render();
      };
      pick.key = function (card) { return "card=" + card; };
      var left = reveal.cards_left;
      tray.appendChild(cardList(left, pick, function (card) { return sel.cards.indexOf(card) >= 0; }));
    }
    if (sel.cards.length) {
      tray.appendChild(el("div", { "class": "choices chosen-cards" }, sel.cards.map(function (card) {
        return el("button", { type: "button", "data-remove": card, onclick: function () { sel.cards.splice(sel.cards.indexOf(card), 1); R.render(); },
          text: "✕ " + card });
      })));
    }
    if (sel.cards.length === reveal.cards) {
      reveal.stacks.forEach(function (stack) {
        tray.appendChild(el("p", { "class": "panel-title", text: fill(words.reveal_stack, { stack: stack.replace("building", "") }) }));
        var row = el("div", { "class": "choices buildings" });
        var taken = Object.keys(sel.stacks).filter(function (s) { return s !== stack; }).map(function (s) { return sel.stacks[s]; });
        reveal.buildings_left.forEach(function (b) {
          if (taken.indexOf(b.building) >= 0) return;
          var on = sel.stacks[stack] === b.building;
          row.appendChild(choiceButton(stack + "=" + b.building, b.building, (catalogue.buildings[b.building] || {}).cost, on,
            function () { if (on) delete sel.stacks[stack]; else sel.stacks[stack] = b.building; R.render(); }));
        });
        tray.appendChild(row);
      });
    }
    var done = sel.cards.length === reveal.cards && reveal.stacks.every(function (s) { return sel.stacks[s]; });
    if (!done) return null;
    var payload = {};
    if (sel.cards.length) payload.cards = sel.cards.slice();
    if (reveal.stacks.length) payload.buildings = Object.assign({}, sel.stacks);
    return { type: "reveal", payload: payload, label: sel.cards.concat(Object.keys(sel.stacks).map(function (s) { return sel.stacks[s]; })).join(", ") };
  }

  // -- choosing a place on the village board too ---------------------------------------------

  function choosePlace(place) {
    if (sel.place === place) return;
    var keep = fresh();
    keep.place = place;
    sel = keep;
    R.render();
  }

  document.getElementById("board").addEventListener("click", function (event) {
    var target = event.target.closest && event.target.closest("[data-location]");
    if (!target) return;
    var place = target.dataset.location;
    var opts = options();
    var open = (opts.places || opts.resolve || []).some(function (e) { return e.place === place; });
    if (open) choosePlace(place);
  });

  var pendingAction = null;
  confirmButton.addEventListener("click", function () {
    if (!pendingAction) return;
    var action = pendingAction;
    sel = fresh();
    R.record(action.type, action.payload, action.label);
  });

  function renderTribes() {
    var body = document.querySelector("#tribes tbody");
    if (!body) return;
    body.textContent = "";
    (R.table.tribes || []).forEach(function (tribe) {
      var cells = [
        el("th", { scope: "row" }, [el("span", { "class": "swatch", style: "background:" + R.seatColour(tribe.seat), "aria-hidden": "true" }),
          R.seatName(tribe.seat)]),
        el("td", { "class": "number", text: tribe.people + (tribe.unplaced !== tribe.people ? " (" + tribe.unplaced + ")" : "") })
      ];
      ["food", "wood", "clay", "stone", "gold", "agriculture"].forEach(function (key) {
        cells.push(el("td", { "class": "number", text: String(tribe[key]) }));
      });
      var tools = tribe.tools.join("/") + (tribe.one_time_tools.length ? " + " + tribe.one_time_tools.join(", ") : "");
      cells.push(el("td", { text: tools }));
      body.appendChild(el("tr", { "data-seat": tribe.seat, "class": tribe.seat === R.table.to_play ? "to-play" : null }, cells));
    });
  }

  function render() {
    renderTribes();
    if (!tray) return;  // a closed record's page: its end screen stands where the choices were
    tray.textContent = "";
    pendingAction = null;
    var opts = options();
    var open = !R.table.over && R.table.status === "in_progress";
    if (open && R.queue.length) {
      tray.appendChild(el("p", { "class": "hint", text: R.online ? words.sending : words.waiting }));
    } else if (open) {
      if (opts.phase === "placement") pendingAction = placement(opts);
      else if (opts.phase === "actions") pendingAction = resolving(opts);
      else if (opts.phase === "feeding") pendingAction = feeding(opts);
      else if (opts.phase === "reveal") pendingAction = revealing(opts);
    }
    confirmButton.hidden = !open;
    confirmButton.disabled = !pendingAction;
    document.querySelectorAll("#board [data-location]").forEach(function (node) {
      var place = node.dataset.location;
      node.classList.toggle("open", (opts.places || opts.resolve || []).some(function (e) { return e.place === place; }));
      node.classList.toggle("chosen", place === sel.place);
    });
  }

  R.use({ render: render, reset: function () { sel = fresh(); } });
})();
