// The desk's "Take the membership" form: choosing another tariff puts its amount and dates in the
// fields (worked out by the server for each tariff, as it offers them: nothing is computed here).
document.querySelectorAll("form[data-membership-form]").forEach((form) => {
  const tariff = form.querySelector("select[name=tariff]");
  tariff.addEventListener("change", () => {
    const chosen = tariff.selectedOptions[0];
    form.querySelector("input[name=amount]").value = chosen.dataset.amount;
    form.querySelector("input[name=starts]").value = chosen.dataset.starts;
    form.querySelector("input[name=ends]").value = chosen.dataset.ends;
  });
});
