// One player's own score card: the twelve boxes in two columns, so that on a phone the dice,
// Roll and every box fit on one screen. A box to score in is a button showing its points.
import { esc } from "./api.js";
import { nameHtml, tHtml } from "./markup.js";
import { categoryLabel, t } from "./i18n.js";

// opts: {rules, seat, name, sheet, total, potentials, canScore, upper}
export function cardHtml(opts) {
  const { rules, seat, name, sheet, total, potentials = {}, canScore = false } = opts;
  const box = (category) => {
    const label = categoryLabel(category);
    const filled = sheet[category];
    if (filled !== undefined) {
      return (
        `<div class="box filled" data-seat="${seat}" data-category="${category}">` +
        `<span class="box-name">${esc(label)}</span><span class="box-points">${filled}</span></div>`
      );
    }
    if (canScore && category in potentials) {
      const points = potentials[category];
      return (
        `<button type="button" class="box score${points ? "" : " zero"}" data-category="${category}" ` +
        `aria-label="${esc(t("Score {points} in {category}", { points, category: label }))}">` +
        `<span class="box-name">${esc(label)}</span><span class="box-points">${points}</span></button>`
      );
    }
    return `<div class="box open"><span class="box-name">${esc(label)}</span><span class="box-points"></span></div>`;
  };
  const upper = rules.categories.slice(0, 6);
  const lower = rules.categories.slice(6);
  const ups = upper.reduce((acc, c) => acc + (sheet[c] || 0), 0);
  const bonus = rules.upper_bonus
    ? `<span>${esc(t("Upper total"))} ${ups}<span class="of"> / ${rules.upper_bonus.threshold}</span></span>`
    : "";
  return (
    `<h2 class="card-title" id="card-title"><span>${tHtml("{name}'s card", { name: nameHtml(name) })}</span>${bonus}` +
    `<span class="card-total" data-seat="${seat}">${esc(t("Total"))} <strong>${total}</strong></span></h2>` +
    `<div class="boxes"><div class="col">${upper.map(box).join("")}</div>` +
    `<div class="col">${lower.map(box).join("")}</div></div>`
  );
}
