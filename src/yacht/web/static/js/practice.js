// Practice (/practice): the costliest decision not yet solved (a signed-in player's own games
// first), answered by tapping the dice to keep and rolling, or by scoring a category; then the
// exact verdict. A guest's solved positions are kept in this browser and left out (an account's
// are left out by the server); the next position is never one already shown on this visit.
import { api, esc, signedIn, $ } from "./api.js";
import { reasonText } from "./coach.js";
import { dieSvg } from "./dice.js";
import { categoryLabel, number, setupLanguages, t, tn } from "./i18n.js";
import { errorText } from "./labels.js";
import { nameHtml, tHtml } from "./markup.js";
import { optionText } from "./results.js";

const SOLVED = "yacht:practice-solved";
const KEEP_SOLVED = 200;

let me = null;
let position = null;
let held = [];
let verdict = null;
let busy = false;
const seen = []; // the positions shown on this visit: "next" moves on, solved or not

function solvedHere() {
  try {
    const keys = JSON.parse(localStorage.getItem(SOLVED) || "[]");
    return Array.isArray(keys) ? keys.filter((k) => typeof k === "string").slice(-KEEP_SOLVED) : [];
  } catch {
    return [];
  }
}

function remember(key) {
  const keys = solvedHere().filter((k) => k !== key);
  keys.push(key);
  localStorage.setItem(SOLVED, JSON.stringify(keys.slice(-KEEP_SOLVED)));
}

function ratingText(r) {
  return `${Number(r.shown)}${r.provisional ? "?" : ""}`;
}

function status(text) {
  $("#status").textContent = text;
}

function rollsText(n) {
  return n === 0 ? t("No roll left: score a category.") : tn("{n} roll left", "{n} rolls left", n, { n });
}

function whereHtml(p) {
  const round = p.ref.turn;
  if (p.ref.source === "bot") return esc(t("From a game of the easy bot, round {round}", { round }));
  if (p.own) return esc(t("From your own game, round {round}", { round }));
  return tHtml("From a game of {name}, round {round}", { name: nameHtml(p.name), round }).html;
}

function renderPosition() {
  const box = $("#position");
  box.hidden = !position;
  if (!position) return;
  const p = position;
  $("#where").innerHTML = whereHtml(p);
  $("#situation").textContent = t("Round {round}: {rolls}", { round: p.ref.turn, rolls: rollsText(p.rolls_left) });
  const filled = Object.entries(p.sheet).map(([c, points]) => `${categoryLabel(c)} ${points}`);
  $("#filled").textContent = filled.length ? t("Filled: {categories}", { categories: filled.join(", ") }) : t("Nothing filled yet.");
  const answered = verdict !== null;
  $("#dice").setAttribute("aria-label", t("Dice"));
  $("#dice").innerHTML = p.dice
    .map((face, i) => {
      const on = held.includes(i);
      const label = t("Die {n}: {face}", { n: i + 1, face }) + (on ? `, ${t("held")}` : "");
      return (
        `<button type="button" class="die${on ? " held" : ""}" data-pos="${i}" aria-pressed="${on}" aria-label="${esc(label)}"` +
        `${p.rolls_left === 0 || answered ? " disabled" : ""}>${dieSvg(face)}<span class="held-tag" aria-hidden="true">${esc(t("Held"))}</span></button>`
      );
    })
    .join("");
  const keep = $("#keep");
  const kept = held.map((i) => p.dice[i]).sort((a, b) => a - b);
  keep.hidden = p.rolls_left === 0;
  keep.disabled = answered || busy || kept.length === 5;
  keep.textContent = kept.length ? t("Keep {dice} and roll", { dice: kept.join(" ") }) : t("Roll all five again");
  $("#scores").setAttribute("aria-label", t("Score a category"));
  $("#scores").innerHTML = Object.entries(p.scores)
    .map(
      ([c, points]) =>
        `<button type="button" data-category="${esc(c)}"${answered || busy ? " disabled" : ""}>` +
        `${esc(categoryLabel(c))} <span class="pts">${Number(points)}</span></button>`,
    )
    .join("");
}

function renderVerdict() {
  const box = $("#verdict");
  box.hidden = !verdict;
  if (!verdict) return;
  const v = verdict;
  $("#verdict-title").textContent = v.solved ? t("Your answer is the best.") : t("Best: {option}", { option: optionText(v.best) });
  $("#verdict-loss").textContent = v.solved
    ? t("Best: {option}", { option: optionText(v.best) })
    : t("Your answer, {option}, gives up {points} points.", { option: optionText(v.taken), points: number(v.loss, 2) });
  $("#verdict-loss").className = v.solved ? "good" : "";
  const same = (a, b) => a.action === b.action && a.category === b.category && JSON.stringify(a.keep) === JSON.stringify(b.keep);
  $("#options").innerHTML = v.options
    .map((o) => {
      const cls = [same(o, v.best) ? "best" : "", same(o, v.taken) ? "taken" : ""].join(" ").trim();
      return `<tr${cls ? ` class="${cls}"` : ""}><td>${esc(optionText(o))}</td><td class="num">${esc(number(o.expected, 2))}</td><td class="num">${esc(number(o.loss, 2))}</td></tr>`;
    })
    .join("");
  $("#why").innerHTML = v.why.map((r) => `<li>${esc(reasonText(r))}</li>`).join("");
  $("#why-box").hidden = v.why.length === 0;
  let change = "";
  if (v.after && v.rated) change = t("Practice rating: {before} → {after}", { before: ratingText(v.before), after: ratingText(v.after) });
  else if (v.after) change = t("You answered this position before: your rating stays {rating}.", { rating: ratingText(v.after) });
  else change = t("Sign in to have a practice rating.");
  $("#rating-change").textContent = change;
}

function renderRating() {
  const r = (verdict && verdict.after) || (position && position.rating);
  $("#rating").textContent = r ? t("Practice rating: {rating}", { rating: ratingText(r) }) : me ? "" : t("Sign in to have a practice rating.");
}

function render() {
  document.title = `${t("Yacht")} · ${t("Practice")}`;
  renderRating();
  renderPosition();
  renderVerdict();
}

async function next() {
  busy = true;
  status(t("Finding a position…"));
  try {
    const skip = [...new Set([...(me ? [] : solvedHere()), ...seen])].slice(-KEEP_SOLVED);
    position = await api("api/practice/next", { method: "POST", body: { skip } });
    seen.push(position.key);
    held = [];
    verdict = null;
    status("");
  } catch (error) {
    position = null;
    status(error.code === "not_found" ? t("No position is left to practise: you have solved them all.") : errorText(error));
  } finally {
    busy = false;
  }
  render();
  const first = document.querySelector("#dice .die:not([disabled]), #scores button");
  if (first) first.focus();
}

async function answer(body) {
  if (!position || verdict || busy) return;
  busy = true;
  render();
  try {
    verdict = await api("api/practice/answer", { method: "POST", body: { ref: position.ref, ...body } });
    if (verdict.solved && !me) remember(verdict.key);
    status("");
  } catch (error) {
    status(errorText(error));
  } finally {
    busy = false;
  }
  render();
  if (verdict) $("#next").focus();
}

function wire() {
  $("#dice").addEventListener("click", (event) => {
    const die = event.target.closest(".die");
    if (!die || die.disabled) return;
    const i = Number(die.dataset.pos);
    held = held.includes(i) ? held.filter((x) => x !== i) : [...held, i];
    renderPosition();
    const again = document.querySelector(`#dice .die[data-pos="${i}"]`);
    if (again) again.focus();
  });
  $("#keep").addEventListener("click", () => answer({ keep: held.map((i) => position.dice[i]) }));
  $("#scores").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-category]");
    if (button && !button.disabled) answer({ category: button.dataset.category });
  });
  $("#next").addEventListener("click", next);
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, select, textarea") || event.altKey || event.ctrlKey || event.metaKey) return;
    const n = Number(event.key);
    if (n >= 1 && n <= 5) {
      const die = document.querySelector(`#dice .die[data-pos="${n - 1}"]`);
      if (die && !die.disabled) die.click();
    }
  });
}

async function main() {
  await setupLanguages($("#lang"), render);
  wire();
  me = await signedIn();
  render();
  await next();
}

main();
