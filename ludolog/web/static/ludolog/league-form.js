// The league form's helpers; the form works without them. A filter box hides the entries of its
// list whose name does not hold what is typed (both compared by their name key, names.js); a
// points preset fills the rows of points by table size, and typing in a row chooses "my own".
(function () {
  "use strict";

  function key(text) {
    return window.Ludolog && window.Ludolog.nameKey ? window.Ludolog.nameKey(text) : text.toLowerCase().trim();
  }

  document.querySelectorAll("input.list-filter").forEach((box) => {
    const list = document.getElementById(box.dataset.filters);
    if (!list) return;
    box.addEventListener("input", () => {
      const typed = key(box.value);
      list.querySelectorAll("li[data-key]").forEach((entry) => {
        const ticked = entry.querySelector("input:checked");
        entry.hidden = typed !== "" && !ticked && !entry.dataset.key.includes(typed);
      });
    });
  });

  // Ticking a game chooses "only the games ticked".
  document.querySelectorAll("#game-options input[type=checkbox]").forEach((box) => {
    box.addEventListener("change", () => {
      const chosen = document.querySelector(".games-choice input[type=radio][value=chosen]");
      if (box.checked && chosen) chosen.checked = true;
    });
  });

  const points = document.querySelector(".points-choice");
  if (!points) return;
  const presets = JSON.parse(points.dataset.presets || "{}");
  const cells = (size) => points.querySelectorAll(`[data-size="${size}"] input.points`);
  points.querySelectorAll("input[type=radio][name=points_preset]").forEach((radio) => {
    radio.addEventListener("change", () => {
      const table = presets[radio.value];
      if (!radio.checked || !table) return;
      points.querySelectorAll(".points-line[data-size]").forEach((row) => {
        const values = table[row.dataset.size] || [];
        cells(row.dataset.size).forEach((cell, place) => { cell.value = place < values.length ? values[place] : ""; });
      });
    });
  });
  points.querySelectorAll("input.points").forEach((cell) => {
    cell.addEventListener("input", () => {
      const own = points.querySelector("input[type=radio][name=points_preset][value=custom]");
      if (own) own.checked = true;
    });
  });
})();
