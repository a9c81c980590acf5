// Replay a finished game move by move.
import { api, esc, $ } from "./api.js";
import { dieSvg, smallDice } from "./dice.js";
import { showVerdict } from "./fair.js";
import { checkGame } from "./fairness-seed.js";
import { number, setupLanguages, t } from "./i18n.js";
import { eventHtml } from "./moves.js";
import { sheetHtml } from "./sheet.js";
import { errorText, playerName } from "./labels.js";
import { reasonText } from "./coach.js";
import { lossText, lostDecision, optionText, winnersHtml } from "./results.js";
import { nameHtml, tHtml } from "./markup.js";

const id = Number(location.pathname.split("/").filter(Boolean).pop());
let replay = null;
let step = 0;
let playing = null;
let review = null; // every decision rated, when the game has its review
let decided = []; // per step: the key of the decision about the dice then shown ("seat:turn:roll")
const firstStep = new Map(); // decision key -> the step of the roll it is about

// Which decision each step shows: from a roll until the hold, roll or score that answers it.
function decisionSteps(frames) {
  const turns = {};
  const rolls = {};
  let key = null;
  decided = frames.map((frame, at) => {
    const e = frame.event;
    if (!e) return null;
    if (e.action === "roll") {
      rolls[e.seat] = (rolls[e.seat] || 0) + 1;
      key = `${e.seat}:${(turns[e.seat] || 0) + 1}:${rolls[e.seat]}`;
      if (!firstStep.has(key)) firstStep.set(key, at);
    }
    const shown = key;
    if (e.action.startsWith("score")) {
      turns[e.seat] = (turns[e.seat] || 0) + 1;
      rolls[e.seat] = 0;
      key = null;
    }
    return shown;
  });
}

// The dice a step shows: a score's own frame has none left on the table, so the dice it
// scored are shown (those of the step before).
function diceAt(at) {
  for (let i = at; i > 0; i -= 1) {
    const frame = replay.frames[i];
    if (frame.dice) return { dice: frame.dice, held: frame.held };
    if (!frame.event?.action.startsWith("score")) break;
  }
  return { dice: null, held: [] };
}

function decisionsInOrder() {
  const rows = [];
  for (const player of review.players) {
    for (const d of player.decisions) {
      const key = `${player.seat}:${d.turn}:${d.roll}`;
      rows.push({ key, seat: player.seat, d, step: firstStep.get(key) ?? 0 });
    }
  }
  return rows.sort((a, b) => a.step - b.step);
}

function renderReview() {
  const box = $("#review");
  if (!review) return;
  const names = replay.players.map(playerName);
  const rows = decisionsInOrder();
  const current = decided[step];
  const now = rows.find((r) => r.key === current);
  let line = esc(t("Step to a roll to see its decision rated."));
  if (now) {
    const lost = lostDecision(now.d);
    const taken = tHtml("{name} took: {option}", { name: nameHtml(names[now.seat]), option: optionText(now.d.taken) });
    const best = lost
      ? `<span class="best">${esc(t("Best: {option}", { option: optionText(now.d.best) }))}</span> · <span class="lost">${esc(t("Lost: {loss}", { loss: lossText(now.d) }))}</span>`
      : `<span class="best">${esc(t("The best play."))}</span>`;
    line = `${taken}<br>${best}`;
    const why = now.d.why ? [...now.d.why.best, ...now.d.why.taken] : [];
    if (why.length) line += `<span class="why">${why.map((r) => `<span>${esc(reasonText(r))}</span>`).join(" ")}</span>`;
  }
  const body = rows
    .map(
      (r) =>
        `<tr class="${lostDecision(r.d) ? "lost" : ""}${r.key === current ? " current" : ""}" data-step="${r.step}"` +
        `${r.key === current ? ' aria-current="step"' : ""}><td>${nameHtml(names[r.seat])}</td><td>${r.d.turn}.${r.d.roll}</td>` +
        `<td>${smallDice(r.d.dice)}</td><td>${esc(optionText(r.d.taken))}</td><td>${esc(optionText(r.d.best))}</td>` +
        `<td class="num">${lossText(r.d)}</td></tr>`,
    )
    .join("");
  const totals = review.players
    .map((p) => `${nameHtml(names[p.seat])}: ${esc(t("Points lost: {loss}", { loss: number(p.loss, 1) }))}`)
    .join(" · ");
  box.innerHTML =
    `<h2>${esc(t("Review"))}</h2><p class="now" role="status">${line}</p><p class="muted">${totals}</p>` +
    `<div class="review-scroll" tabindex="0" role="region" aria-label="${esc(t("Every decision"))}"><table>` +
    `<thead><tr><th>${esc(t("Player"))}</th><th>${esc(t("Turn"))}</th><th>${esc(t("Dice"))}</th><th>${esc(t("Taken"))}</th>` +
    `<th>${esc(t("Best"))}</th><th>${esc(t("Lost"))}</th></tr></thead><tbody>${body}</tbody></table></div>`;
  const row = box.querySelector("tr.current");
  const scroller = box.querySelector(".review-scroll");
  if (row) scroller.scrollTop = row.offsetTop - scroller.clientHeight / 2;
}

function render() {
  if (!replay) return;
  const frame = replay.frames[step];
  const last = replay.frames.length - 1;
  const title = t("Table {code}, game {number}", { code: replay.table, number: replay.number });
  $("#title").textContent = title;
  document.title = `${t("Yacht")} · ${t("Replay")} · ${title}`;
  $("#step-text").innerHTML = String(
    step === last
      ? winnersHtml(replay.players.map(playerName), frame.totals, replay.winners)
      : frame.event
        ? eventHtml(frame.event, replay.players.map(playerName), frame.dice)
        : esc(t("Before the first roll")),
  );
  $("#step-label").textContent = t("Move {n} of {total}", { n: step, total: last });
  $("#step").max = String(last);
  $("#step").value = String(step);
  const shown = diceAt(step);
  $("#dice").innerHTML = [0, 1, 2, 3, 4]
    .map((i) => {
      const held = shown.held.includes(i + 1);
      return `<span class="die${held ? " held" : ""}">${dieSvg(shown.dice ? shown.dice[i] : null)}<span class="held-tag">${esc(t("Held"))}</span></span>`;
    })
    .join("");
  $("#dice").classList.toggle("unrolled", shown.dice === null);
  $("#sheet").innerHTML = sheetHtml({
    rules: replay.rules,
    names: replay.players.map(playerName),
    sheets: frame.sheets,
    totals: frame.totals,
    current: frame.current,
    winners: step === last ? replay.winners : [],
  });
  $("#play").textContent = playing ? t("Pause") : t("Play");
  renderReview();
}

function go(to) {
  step = Math.max(0, Math.min(replay.frames.length - 1, to));
  if (step === replay.frames.length - 1) stop();
  render();
}

function stop() {
  clearInterval(playing);
  playing = null;
}

async function main() {
  await setupLanguages($("#lang"), render);
  document.title = `${t("Yacht")} · ${t("Replay")}`;
  replay = await api(`api/games/${id}/replay`).catch((error) => {
    $("#title").textContent = errorText(error, { not_found: () => t("There is no finished game with this number.") });
    document.querySelector("main").classList.add("missing"); // nothing to play or check
    return null;
  });
  if (!replay) return;
  decisionSteps(replay.frames);
  if (replay.reviewed) // not reviewed yet: the replay alone (asking would only be told 404)
    api(`api/games/${id}/review`)
      .then((found) => {
        review = found;
        $("#review").hidden = false;
        document.querySelector("main").classList.add("with-review");
        render();
      })
      .catch(() => {});
  $("#review").addEventListener("click", (event) => {
    const row = event.target.closest("tr[data-step]");
    if (row) go(Number(row.dataset.step));
  });
  $("#first").onclick = () => go(0);
  $("#back").onclick = () => go(step - 1);
  $("#next").onclick = () => go(step + 1);
  $("#last").onclick = () => go(replay.frames.length - 1);
  $("#step").oninput = (event) => go(Number(event.target.value));
  $("#play").onclick = () => {
    if (playing) stop();
    else playing = setInterval(() => go(step + 1), 600);
    render();
  };
  $("#verify").onclick = async () => {
    $("#verdict").textContent = t("Checking…");
    const data = await api(`api/games/${id}`); // the full check: seed, rule, key against the seeds, every die
    showVerdict($("#verdict"), await checkGame(data, data.table?.code));
  };
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, select")) return;
    if (event.key === "ArrowRight") go(step + 1);
    if (event.key === "ArrowLeft") go(step - 1);
  });
  render();
}

main();
