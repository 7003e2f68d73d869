// The start form with a thumb: the club's members as chips that take the next empty seat, a
// button that empties a seat, and only the chosen game's copies. Without this script every
// part of the form still works as plain fields.
(function () {
  "use strict";

  const form = document.getElementById("start-form");
  if (!form) return;
  const seatInputs = Array.from(form.querySelectorAll("input.seat-name"));
  const chipBox = document.getElementById("member-chips");
  const chips = chipBox ? Array.from(chipBox.querySelectorAll("button.chip")) : [];

  // One player whatever the case and accents (names.js, loaded before this script).
  const nameKey = window.Ludolog.nameKey;

  function seatHolding(name) {
    const key = nameKey(name);
    return seatInputs.find((input) => input.value.trim() !== "" && nameKey(input.value) === key);
  }

  function seatOf(input) {
    return input.closest("li.seat");
  }

  // What the server said about a seat (an error, "add … as a new player") is about the name it
  // was sent; once the name changes it no longer applies.
  function showSeatNotes(input) {
    const seat = seatOf(input);
    const error = seat.querySelector(".seat-error");
    if (error) error.hidden = input.value !== input.defaultValue;
    const newPlayer = seat.querySelector(".new-player");
    if (newPlayer) {
      const same = nameKey(input.value) === nameKey(newPlayer.dataset.name);
      newPlayer.hidden = !same;
      if (!same) newPlayer.querySelector("input").checked = false;
    }
    seat.querySelector(".clear-seat").hidden = input.value === "";
  }

  function refresh() {
    seatInputs.forEach(showSeatNotes);
    showColours();
    const seatFree = seatInputs.some((input) => input.value.trim() === "");
    chips.forEach((chip) => {
      const seated = seatHolding(chip.dataset.name) !== undefined;
      chip.setAttribute("aria-pressed", String(seated));
      chip.disabled = !seated && !seatFree;
    });
  }

  chips.forEach((chip) => {
    chip.addEventListener("click", () => {
      const holding = seatHolding(chip.dataset.name);
      if (holding) {
        holding.value = "";
      } else {
        const free = seatInputs.find((input) => input.value.trim() === "");
        if (free) free.value = chip.dataset.name;
      }
      refresh();
    });
  });

  seatInputs.forEach((input) => {
    input.addEventListener("input", refresh);
    const clear = seatOf(input).querySelector(".clear-seat");
    clear.addEventListener("click", () => {
      input.value = "";
      refresh();
    });
  });

  const copySelect = form.querySelector("select[name=copy]");
  const copyField = document.getElementById("copy-field");

  function offerCopiesOf(game) {
    if (!copySelect) return;
    let offered = 0;
    Array.from(copySelect.options).forEach((option) => {
      if (option.value === "") return;
      const ofGame = option.dataset.game === game;
      option.hidden = !ofGame;
      option.disabled = !ofGame;
      if (ofGame) offered += 1;
      else if (option.selected) copySelect.value = "";
    });
    copyField.hidden = offered === 0;
  }

  // Each game's set-up questions (expansions, a map…) only when that game is chosen.
  const setups = Array.from(form.querySelectorAll("fieldset.setup-choices"));

  function askSetupOf(game) {
    setups.forEach((fieldset) => { fieldset.hidden = fieldset.dataset.game !== game; });
  }

  // Each seat's colour among the chosen game's own; a seat left to the default shows the
  // colour it will get (the game's first colour nobody chose), as the server gives it.
  const colourSelects = Array.from(form.querySelectorAll("select.seat-colour"));
  const coloursNode = document.getElementById("game-colours");
  const gameColours = coloursNode ? JSON.parse(coloursNode.textContent) : {};
  let chosenGame = null;

  function hexOf(select, colour) {
    const option = Array.from(select.options).find((o) => o.value === colour);
    return option ? option.dataset.hex : "transparent";
  }

  function showColours() {
    const colours = gameColours[chosenGame] || [];
    const taken = colourSelects.map((select) => select.value).filter((value) => value !== "");
    const free = colours.filter((colour) => !taken.includes(colour));
    colourSelects.forEach((select, index) => {
      const seated = seatInputs[index] && seatInputs[index].value.trim() !== "";
      const colour = select.value || (seated ? free.shift() : "");
      const swatch = select.parentElement.querySelector(".seat-colour-swatch");
      if (swatch) swatch.style.background = colour ? hexOf(select, colour) : "transparent";
      // The default names the colour it gives, so that nobody needs the swatch to know it.
      const automatic = select.options[0];
      if (automatic && automatic.value === "") {
        if (!automatic.dataset.label) automatic.dataset.label = automatic.text;
        const named = Array.from(select.options).find((o) => o.value === colour && o.value !== "");
        automatic.text = !select.value && named ? named.text : automatic.dataset.label;
      }
    });
  }

  function offerColoursOf(game) {
    chosenGame = game;
    colourSelects.forEach((select) => {
      Array.from(select.options).forEach((option) => {
        if (option.value === "") return;
        const ofGame = (option.dataset.games || "").split(" ").includes(game);
        option.hidden = !ofGame;
        option.disabled = !ofGame;
        if (!ofGame && option.selected) select.value = "";
      });
      select.hidden = (gameColours[game] || []).length === 0;
    });
    showColours();
  }

  colourSelects.forEach((select) => select.addEventListener("change", showColours));

  function choose(game) {
    offerCopiesOf(game);
    askSetupOf(game);
    offerColoursOf(game);
  }

  // "Ludolog draws and rolls": the seed (picked by the server, editable) only while it is on.
  // Off, the seed is not sent (a seed sent seeds the record); on, the one the server picked.
  const draws = form.querySelector("input[name=ludolog_draws]");
  const seedField = document.getElementById("seed-field");
  const seed = form.querySelector("input[name=seed]");
  function showSeed() {
    if (!draws || !seedField || !seed) return;
    if (!draws.checked && seed.value !== "" && seed.defaultValue !== "") draws.checked = true;  // refused, shown again
    seedField.hidden = !draws.checked;
    seed.disabled = !draws.checked;
    if (draws.checked && seed.value === "") seed.value = seed.dataset.picked || "";
  }
  if (draws) draws.addEventListener("change", showSeed);
  showSeed();

  // A random first player before the start: the filled seats (names and colours) shuffled in place.
  const shuffleNow = document.getElementById("shuffle-now");
  if (shuffleNow) {
    shuffleNow.hidden = false;
    shuffleNow.addEventListener("click", () => {
      const filled = seatInputs.map((input, index) => index).filter((index) => seatInputs[index].value.trim() !== "");
      const pairs = filled.map((index) => [seatInputs[index].value, colourSelects[index] ? colourSelects[index].value : ""]);
      for (let i = pairs.length - 1; i > 0; i -= 1) {
        const j = Math.floor(Math.random() * (i + 1));
        [pairs[i], pairs[j]] = [pairs[j], pairs[i]];
      }
      filled.forEach((index, k) => {
        seatInputs[index].value = pairs[k][0];
        if (colourSelects[index]) colourSelects[index].value = pairs[k][1];
      });
      refresh();
    });
  }

  form.querySelectorAll("input[name=game]").forEach((radio) => {
    radio.addEventListener("change", () => choose(radio.value));
  });
  const chosen = form.querySelector("input[name=game]:checked");
  if (chosen) choose(chosen.value);
  else askSetupOf(null);

  if (chipBox) chipBox.hidden = false;
  refresh();

  // After a refusal the page opens at the top; the seat to fix may be a phone's height below.
  const firstError = form.querySelector(".error");
  if (firstError) firstError.scrollIntoView({ block: "center" });
})();
