// The score sheet: one row per category, one column per seat.
import { categoryLabel, t } from "./i18n.js";
import { esc } from "./api.js";
import { nameHtml } from "./markup.js";

// opts: {rules, names, sheets, totals, current, potentials, canScore, mine: Set, winners}
export function sheetHtml(opts) {
  const { rules, names, sheets, totals, current, potentials = {}, canScore = false } = opts;
  const mine = opts.mine || new Set();
  const winners = new Set(opts.winners || []);
  const upper = rules.categories.slice(0, 6);
  const head = names
    .map((name, seat) => {
      const cls = [seat === current ? "current" : "", winners.has(seat) ? "winner" : ""].join(" ");
      const you = mine.has(seat) ? ` <span class="you">${esc(t("you"))}</span>` : "";
      const turn = seat === current ? ` <span class="sr-only">${esc(t("(playing now)"))}</span>` : "";
      return `<th scope="col" class="${cls}" data-seat="${seat}"><span class="who">${nameHtml(name)}</span>${you}${turn}</th>`;
    })
    .join("");
  const row = (category) => {
    const cells = names
      .map((_, seat) => {
        const filled = sheets[seat][category];
        const cls = seat === current ? "current" : "";
        if (filled !== undefined) return `<td class="${cls} filled" data-seat="${seat}" data-category="${category}">${filled}</td>`;
        if (seat === current && category in potentials) {
          const points = potentials[category];
          const label = categoryLabel(category);
          if (canScore) {
            return (
              `<td class="${cls}"><button type="button" class="score${points ? "" : " zero"}" ` +
              `data-category="${category}" aria-label="${esc(t("Score {points} in {category}", { points, category: label }))}">` +
              `${points}</button></td>`
            );
          }
          // Another player's possible score: a pencilled guess, never mistaken for a score.
          return (
            `<td class="${cls}"><span class="potential" title="${esc(t("possible score"))}">` +
            `<span class="sr-only">${esc(t("possible"))} </span>${points}</span></td>`
          );
        }
        return `<td class="${cls}"></td>`;
      })
      .join("");
    return `<tr><th scope="row">${esc(categoryLabel(category))}</th>${cells}</tr>`;
  };
  const sum = (seat, cats) => cats.reduce((acc, c) => acc + (sheets[seat][c] || 0), 0);
  const line = (label, values, cls) =>
    `<tr class="${cls}"><th scope="row">${esc(label)}</th>${values
      .map((v, seat) => `<td class="${seat === current ? "current" : ""}">${v}</td>`)
      .join("")}</tr>`;
  let body = upper.map(row).join("");
  if (rules.upper_bonus) {
    const ups = names.map((_, s) => sum(s, upper));
    const bonus = names.map((_, s) => totals[s] - sum(s, rules.categories));
    body += line(t("Upper total"), ups.map((u) => `${u}<span class="of"> / ${rules.upper_bonus.threshold}</span>`), "subtotal");
    body += line(t("Bonus"), bonus, "subtotal");
  }
  body += rules.categories.slice(6).map(row).join("");
  body += line(t("Total"), totals, "total");
  return (
    `<table class="sheet"><caption class="sr-only">${esc(t("Score sheet"))}</caption>` +
    `<thead><tr><th scope="col">${esc(t("Category"))}</th>${head}</tr></thead><tbody>${body}</tbody></table>`
  );
}
