// Logging a result with a thumb: the club's members as chips that fill the next empty player row,
// one empty row shown below the filled ones, a typed title clearing the recent game chosen (and
// the reverse). Without this script every row shows and the form works the same.
(function () {
  "use strict";
  const form = document.getElementById("result-form");
  if (!form) return;
  const rows = Array.from(form.querySelectorAll(".result-row"));
  const nameOf = (row) => row.querySelector("input.result-name");
  // One player whatever the case and accents (names.js, loaded before this script).
  const key = window.Ludolog.nameKey;
  const chipBox = document.getElementById("member-chips");
  const chips = chipBox ? Array.from(chipBox.querySelectorAll("button.chip")) : [];

  function showRows() {
    let lastFilled = -1;
    rows.forEach((row, index) => { if (nameOf(row).value.trim()) lastFilled = index; });
    rows.forEach((row, index) => {
      const keep = index <= Math.max(lastFilled + 1, 1) || row.querySelector(".error, .new-player");
      row.hidden = !keep;
    });
    chips.forEach((chip) => {
      const taken = rows.some((row) => key(nameOf(row).value) === key(chip.dataset.name));
      chip.setAttribute("aria-pressed", String(taken));
    });
  }

  chips.forEach((chip) => {
    chip.addEventListener("click", () => {
      const holding = rows.find((row) => key(nameOf(row).value) === key(chip.dataset.name));
      if (holding) {
        nameOf(holding).value = "";
      } else {
        const free = rows.find((row) => !nameOf(row).value.trim());
        if (free) {
          nameOf(free).value = chip.dataset.name;
          // The score is what to type next.
          free.querySelector("input.result-score").focus({ preventScroll: true });
        }
      }
      showRows();
    });
  });
  rows.forEach((row) => nameOf(row).addEventListener("input", showRows));

  const title = document.getElementById("id_title");
  const recent = Array.from(form.querySelectorAll('input[name="recent"]'));
  if (title) {
    title.addEventListener("input", () => { if (title.value.trim()) recent.forEach((r) => { r.checked = false; }); });
    // The records told apart below a title several share are that title's: another title, another choice.
    const sameTitle = form.querySelector('[data-testid="same-title"]');
    if (sameTitle) title.addEventListener("input", () => { sameTitle.hidden = true; sameTitle.querySelectorAll("input").forEach((r) => { r.checked = false; }); });
  }
  recent.forEach((radio) => radio.addEventListener("change", () => { if (radio.checked && title) title.value = ""; }));

  if (chipBox) chipBox.hidden = false;
  showRows();
})();
