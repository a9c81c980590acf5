// The end of a game: winners, reviews with charts, rematch; and the fair-dice panel.
import { api, esc } from "./api.js";
import { biggestLosses, chartSvg } from "./chart.js";
import { reasonText } from "./coach.js";
import { smallDice } from "./dice.js";
import { showVerdict } from "./fair.js";
import { checkGame, seedLines } from "./fairness-seed.js";
import { categoryLabel, language, number, percent, t } from "./i18n.js";
import { playerName } from "./labels.js";
import { nameHtml, namesHtml, tnHtml } from "./markup.js";

// Who won, as markup (the names isolated); "" before the end.
export function winnersHtml(names, totals, winners) {
  if (!winners.length) return "";
  const points = totals[winners[0]];
  if (winners.length === 1) {
    return tnHtml("{name} wins with {n} point!", "{name} wins with {n} points!", points, { name: nameHtml(names[winners[0]]) });
  }
  return tnHtml("Shared win: {names} with {n} point each!", "Shared win: {names} with {n} points each!", points, {
    names: namesHtml(winners.map((w) => names[w]), " & "),
  });
}

export function optionText(option) {
  if (option.action === "keep") {
    return option.keep.length ? t("keep {dice}", { dice: option.keep.join(" ") }) : t("reroll all");
  }
  return `${categoryLabel(option.category)} (${option.points})`;
}

// A decision is rated by the measure the table's hint ranks by (the chance of winning with
// opponents, expected points alone), so following the hint is always accurate.
export function lostDecision(d) {
  return d.accurate === undefined ? d.loss > 0.005 : !d.accurate;
}

export function lossText(d) {
  const points = number(d.loss, 2);
  return d.chance_loss === null || d.chance_loss === undefined ? points : `${percent(d.chance_loss, 1)} (${points})`;
}

function measureLine(review, player) {
  if (review.measure !== "win") return "";
  const chance = player.chance_loss === null || player.chance_loss === undefined ? "" :
    `<span>${esc(t("Chance to win lost: {loss}", { loss: percent(player.chance_loss, 1) }))}</span>`;
  return `<p class="stats"><span>${esc(t("Rated as the hint ranks: by the chance to finish first."))}</span>${chance}</p>`;
}

// Why a costly decision lost (the review explains a player's three costliest): what the best
// option played for, then what the one taken played for and how it compares, in words.
function whyRow(d) {
  const reasons = d.why ? [...d.why.best, ...d.why.taken] : [];
  if (!reasons.length) return "";
  const said = reasons.map((r) => `<span>${esc(reasonText(r))}</span>`).join(" ");
  return `<tr class="why"><td colspan="5"><strong>${esc(t("Why?"))}</strong> ${said}</td></tr>`;
}

function decisionRows(decisions) {
  const worst = new Set(biggestLosses(decisions));
  return decisions
    .map(
      (d, i) =>
        `<tr class="${lostDecision(d) ? "lost" : ""}${worst.has(i) ? " worst" : ""}"><td>${d.turn}.${d.roll}</td><td>${smallDice(d.dice)}</td>` +
        `<td>${esc(optionText(d.taken))}</td><td>${esc(optionText(d.best))}</td><td>${lossText(d)}</td></tr>` +
        whyRow(d),
    )
    .join("");
}

function reviewCard(player, review) {
  const label = t("Expected final total over the game, from {start} to {end}", {
    start: number(review.expected),
    end: number(player.total),
  });
  const accuracy = player.accuracy === null ? "—" : percent(player.accuracy / 100);
  return (
    `<article class="review" data-seat="${player.seat}"><h3>${nameHtml(playerName(player.name))} <span class="muted">${player.total}</span></h3>` +
    `<p class="stats"><span>${esc(t("Points lost: {loss}", { loss: number(player.loss, 1) }))}</span>` +
    `<span>${esc(t("Accuracy: {accuracy}", { accuracy }))}</span></p>` +
    measureLine(review, player) +
    `<div class="chart-box">${chartSvg(player.series, player.total, review.expected, label)}</div>` +
    `<details data-seat="${player.seat}"><summary>${esc(t("Every decision"))}</summary><div class="table-scroll" tabindex="0" role="region" aria-label="${esc(t("Every decision"))}"><table class="decisions">` +
    `<thead><tr><th>${esc(t("Turn"))}</th><th>${esc(t("Dice"))}</th><th>${esc(t("Taken"))}</th>` +
    `<th>${esc(t("Best"))}</th><th>${esc(t("Lost"))}</th></tr></thead><tbody></tbody></table></div></details></article>`
  );
}

// Every decision is fetched once: the charts then mark the biggest losses, and a player's
// list is filled the first time it is opened.
function wireDecisions(box, gameId, summary) {
  const full = summary ? api(`api/games/${gameId}/review`) : null;
  full?.then((review) => {
    for (const player of review.players) {
      const chart = box.querySelector(`.review[data-seat="${player.seat}"] .chart-box`);
      const label = chart?.querySelector("svg")?.getAttribute("aria-label") || "";
      if (chart) chart.innerHTML = chartSvg(player.series, player.total, review.expected, label, player.decisions);
    }
  }).catch(() => {});
  for (const details of box.querySelectorAll("details[data-seat]")) {
    details.addEventListener("toggle", async () => {
      const body = details.querySelector("tbody");
      if (!details.open || body.childElementCount || !full) return;
      const review = await full;
      const player = review.players.find((p) => p.seat === Number(details.dataset.seat));
      body.innerHTML = decisionRows(player ? player.decisions : []);
    });
  }
}

export function renderResults(box, table, names, mine) {
  const g = table.game;
  const key = JSON.stringify([g.id, !!g.review, language(), mine.size > 0, names]);
  if (box.dataset.key === key) return; // keep open lists and focus as they are
  box.dataset.key = key;
  const order = names.map((_, i) => i).sort((a, b) => g.totals[b] - g.totals[a]);
  const ranking = order
    .map((i) => `<li class="${g.winners.includes(i) ? "winner" : ""}"><span>${nameHtml(names[i])}</span><strong>${g.totals[i]}</strong></li>`)
    .join("");
  const reviews = g.review ? g.review.players.map((p) => reviewCard(p, g.review)).join("") : "";
  const rematch = mine.size ? '<div class="rematch-box" id="rematch-box"></div>' : ""; // together.js
  box.innerHTML =
    `<h2 id="results-title">${winnersHtml(names, g.totals, g.winners)}</h2>` +
    `<ol class="ranking">${ranking}</ol><div class="actions">${rematch}` +
    `<a class="button secondary" href="games/${g.id}">${esc(t("Replay"))}</a></div>` +
    `<h2>${esc(t("Review"))}</h2>` +
    (g.review ? `<div class="reviews">${reviews}</div>` : `<p class="muted" id="review-wait">${esc(t("Reviewing the game…"))}</p>`);
  box.setAttribute("aria-busy", g.review ? "false" : "true");
  wireDecisions(box, g.id, g.review);
}

export function renderFair(box, table) {
  const g = table.game;
  const finished = g.status === "finished";
  const client = table.client_seed ? `<p>${esc(t("Client seed"))}: <code>${esc(table.client_seed)}</code></p>` : "";
  let body =
    `<p>${esc(t("Commitment (SHA-256 of the secret seed)"))}:</p><p><code class="hash">${g.commitment}</code></p>` + client +
    seedLines(table, esc, t);
  if (finished) {
    body +=
      `<p>${esc(t("Revealed seed"))}:</p><p><code class="hash">${esc(g.server_seed)}</code></p>` +
      `<div class="actions"><button type="button" class="secondary" id="verify">${esc(t("Check every roll"))}</button>` +
      `<a class="button link" href="api/games/${g.id}" download="yacht-${table.code}-${g.number}.json">${esc(t("Download the game"))}</a></div>` +
      `<p class="verdict" id="verdict" role="status" aria-live="polite"></p>` +
      `<p class="muted">${esc(t("Or run: yacht verify GAME.json"))}</p>`;
  } else {
    body += `<p class="muted">${esc(t("The seed is revealed when the game ends; then anyone can re-derive every roll."))}</p>`;
  }
  const key = `${g.id}:${finished}:${language()}:${g.fair?.contributions.length}`;
  if (box.dataset.key === key) return; // keep a verdict already shown
  box.dataset.key = key;
  box.innerHTML = body;
  box.querySelector("#verify")?.addEventListener("click", async () => {
    const verdict = box.querySelector("#verdict");
    verdict.textContent = t("Checking…");
    const data = await api(`api/games/${g.id}`);
    showVerdict(verdict, await checkGame(data, table.code));
  });
}
