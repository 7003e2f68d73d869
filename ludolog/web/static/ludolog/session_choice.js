// “Played during”: only the sessions held on the date played are offered (each option says its
// days in data-days); a session of another day chosen before the date changed is unchosen, and
// the field hides on a day without sessions. Without this script every session of the week shows,
// and the server refuses one of another day.
(function () {
  "use strict";
  const select = document.querySelector("select.session-choice");
  const day = document.querySelector('input[name="played_on"]');
  if (!select || !day) return;
  const field = select.closest(".session-field");

  function offerTheDays() {
    let offered = 0;
    Array.from(select.options).forEach((option) => {
      if (!option.value) return;
      const fits = (option.dataset.days || "").split(" ").includes(day.value);
      option.hidden = !fits;
      option.disabled = !fits;
      if (fits) offered += 1;
      else if (option.selected) select.value = "";
    });
    if (field && !field.querySelector(".error")) field.hidden = offered === 0;
  }

  day.addEventListener("change", offerTheDays);
  day.addEventListener("input", offerTheDays);
  offerTheDays();
})();
