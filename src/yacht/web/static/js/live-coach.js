// The live coach: before a roll or a score that loses more than the player's threshold, a dialog
// says what it loses and what the best move was; "Take it back" sends nothing, "Go on" makes the
// move. Off by default and remembered per device; the server marks the seat in the game (its
// file says so, and a coached game is never rated).
import { $, esc, show } from "./api.js";
import { reasonText } from "./coach.js";
import { categoryLabel, number, percent, t } from "./i18n.js";
import { S, controlling, seatsMine } from "./state.js";

const KEY = "yacht:coach";
// Points alone at the table (as the terminal's --coach), with opponents percentage points of the
// chance of winning: the measure the table's hint ranks by, so the best move is the hint's first.
export const RANGE = { points: [0.1, 5, 1], win: [0.1, 10, 1] }; // least, most, default

function saved() {
  try {
    const s = JSON.parse(localStorage.getItem(KEY) || "{}");
    return { on: s.on === true, points: s.points ?? RANGE.points[2], win: s.win ?? RANGE.win[2] };
  } catch {
    return { on: false, points: RANGE.points[2], win: RANGE.win[2] };
  }
}

function save(settings) {
  localStorage.setItem(KEY, JSON.stringify(settings));
}

const unitOf = (table) => (table.seats.length > 1 ? "win" : "points");
const allowed = (table) => table.hints && !table.rated;

function threshold(table) {
  const unit = unitOf(table);
  return { unit, value: Number(saved()[unit]) };
}

// Whether the coach weighs this page's moves now.
export function coaching() {
  return Boolean(S.table && saved().on && allowed(S.table) && seatsMine().size);
}

let asked = 0;
let pending = null; // {ref, go} of the move being weighed
let marked = ""; // the game and threshold the server was last told of

// The server marks the seat in the game once the coach is on for it (again after a new game or a
// new threshold); called with every state.
export function syncCoach() {
  if (!coaching()) return;
  const g = S.table.game;
  if (g.status !== "playing") return;
  const th = threshold(S.table);
  for (const seat of seatsMine()) {
    if (S.table.seats[seat]?.kind === "bot" || S.elsewhere.has(seat)) continue;
    const mark = (g.coach || []).find((m) => m.seat === seat);
    const key = `${g.number}:${seat}:${th.unit}:${th.value}`;
    if ((mark && mark.unit === th.unit && mark.value === th.value) || marked.includes(`|${key}|`)) continue;
    marked += `|${key}|`;
    S.send({ type: "coach", seat, token: S.mine[seat], game: g.number, threshold: th });
  }
}

// Make `action` ({kind: "roll"} or a score), asking the coach first when it is on: `go()` at once
// when the move loses no more than the threshold, else after the player says "Go on".
export function coached(action, go) {
  const seat = controlling();
  const g = S.table?.game;
  if (!coaching() || seat === null || !g.dice) return go();
  if (action.kind === "roll" && (g.rolls_left === 0 || g.held.length === 5)) return go();
  if (pending && Date.now() - pending.at > 30_000) pending = null; // its answer is lost
  if (pending || $("#coach-warning").open) return; // one question at a time
  const ref = `coach-${++asked}`;
  const message = {
    type: "coach", seat, token: S.mine[seat], game: g.number, version: g.version,
    threshold: threshold(S.table), action, ref,
  };
  if (S.send(message)) pending = { ref, go, version: g.version, number: g.number, at: Date.now() };
}

// The server's answer (a `coach` message) or refusal (an `error` with our ref): true when it was
// ours.
export function coachAnswered(message, toast, errorText) {
  if (!pending || message.ref !== pending.ref) return false;
  const { go, version, number } = pending;
  pending = null;
  const g = S.table?.game;
  if (message.type === "error") {
    toast(errorText(message));
    return true;
  }
  if (!g || g.version !== version || g.number !== number) return true; // moved on meanwhile
  if (!message.warn) go();
  else warn(message, go);
  return true;
}

export function coachForgets() {
  pending = null;
  marked = "";
}

function optionText(option) {
  if (option.action === "keep") {
    return option.keep.length ? t("Keep {dice} and roll", { dice: option.keep.join(" ") }) : t("Roll all five again");
  }
  return t("Score {points} in {category}", { points: option.points, category: categoryLabel(option.category) });
}

let goOn = null;

function warn(word, go) {
  goOn = go;
  const { best, taken } = word;
  const loss = word.measure === "win"
    ? t("This move lowers your chance of winning from {best} to {taken}.", {
      best: percent(best.win_probability, 1), taken: percent(taken.win_probability, 1),
    })
    : t("This move gives up {loss} points of your expected total: {taken} instead of {best}.", {
      loss: number(word.loss, 1), taken: number(taken.expected_total, 1), best: number(best.expected_total, 1),
    });
  $("#coach-loss").textContent = loss;
  $("#coach-move").textContent = t("Your move: {move}.", { move: optionText(taken) });
  $("#coach-best").textContent = t("The best move: {move}.", { move: optionText(best) });
  const reasons = [...best.reasons, ...taken.reasons].map((r) => `<li>${esc(reasonText(r))}</li>`).join("");
  $("#coach-why").innerHTML = reasons;
  show($("#coach-why"), Boolean(reasons));
  $("#coach-warning").showModal();
  $("#coach-back").focus();
}

// "Go on" makes the move; "Take it back" (or Esc) sends nothing.
export function closeWarning(confirmed, toast) {
  const go = goOn;
  goOn = null;
  if ($("#coach-warning").open) $("#coach-warning").close();
  if (confirmed && go) go();
  else if (go) toast(t("Taken back: the move was not made."));
}

// The setting, in the side column: on or off, and the threshold in the table's unit.
export function renderCoachSetting() {
  const box = $("#coach");
  if (!S.table || !seatsMine().size || S.table.game.status === "finished") {
    show(box, false);
    return;
  }
  show(box, true);
  const ok = allowed(S.table);
  const settings = saved();
  const unit = unitOf(S.table);
  show($("#coach-form"), ok);
  show($("#coach-off"), !ok);
  const input = $("#coach-threshold");
  const [least, most] = RANGE[unit];
  $("#coach-on").checked = settings.on;
  Object.assign(input, { min: least, max: most, step: 0.1, disabled: !settings.on });
  if (document.activeElement !== input) input.value = settings[unit];
  $("#coach-unit").textContent = unit === "win"
    ? t("percentage points of your chance of winning")
    : t("points of your expected total");
  $("#coach-range").textContent = t("From {least} to {most}.", { least: number(least, 1), most: number(most, 1) });
}

export function setupCoachSetting(onChange) {
  $("#coach-on").addEventListener("change", (event) => {
    save({ ...saved(), on: event.target.checked });
    onChange();
  });
  $("#coach-threshold").addEventListener("change", (event) => {
    const unit = unitOf(S.table);
    const [least, most] = RANGE[unit];
    const value = Math.round(Number(event.target.value) * 10) / 10;
    const valid = Number.isFinite(value) && value >= least && value <= most;
    event.target.setAttribute("aria-invalid", String(!valid));
    if (!valid) return;
    save({ ...saved(), [unit]: value });
    onChange();
  });
}
