// The outlook on /play (docs/web/offline.md): for the player to move, the distribution of the
// final total under optimal play from the position (a chart, the mean, the standard deviation
// and the percentiles of `yacht distribution`) and, with a target, the best chance of reaching
// it and the options ranked by that chance (as the terminal game's target hints). Worked out on
// this device by outlook-worker.js, only while the panel is open.
import { esc } from "./api.js";
import { niceStep } from "./chart.js";
import { categoryLabel, number, percent, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const W = 340;
const H = 150;
const PAD = { left: 34, right: 10, top: 10, bottom: 28 };
const at = (v) => Math.round(v * 10) / 10;

let worker = null;
let asked = 0; // the newest question's id
let inFlight = false;
let again = null; // a question to ask once the one in flight is answered
let position = () => null; // the page's position of the player to move, or null
const sent = new Set(); // the presets whose tables the worker has

function optionText(option) {
  if (option.action === "keep") return option.keep.length ? t("keep {dice}", { dice: option.keep.join(" ") }) : t("reroll all");
  return t("Score {points} in {category}", { points: option.points, category: categoryLabel(option.category) });
}

/** The distribution as bars, one per total, with the mean and the target marked. */
export function distributionSvg(totals, summary, target) {
  let low = totals.findIndex((p) => p >= 1e-6);
  let high = totals.length - 1;
  while (high > low && totals[high] < 1e-6) high--;
  if (high - low < 20) {
    low = Math.max(0, low - 10);
    high += 10;
  }
  const step = niceStep(high - low);
  low = Math.floor(low / step) * step;
  high = Math.ceil((high + 1) / step) * step;
  let top = 0;
  for (let x = low; x < Math.min(high, totals.length); x++) top = Math.max(top, totals[x]);
  const x = (v) => PAD.left + ((v - low) / (high - low)) * (W - PAD.left - PAD.right);
  const bottom = H - PAD.bottom;
  const y = (p) => bottom - (p / top) * (bottom - PAD.top);
  const width = Math.max(0.6, (W - PAD.left - PAD.right) / (high - low));
  const parts = [];
  for (let v = low; v <= high; v += step) {
    parts.push(
      `<line class="axis" x1="${at(x(v))}" y1="${bottom}" x2="${at(x(v))}" y2="${bottom + 4}"/>` +
        `<text class="tick" x="${at(x(v))}" y="${bottom + 14}" text-anchor="middle">${number(v)}</text>`,
    );
  }
  for (let v = Math.max(low, 0); v < Math.min(high, totals.length); v++) {
    if (totals[v] < 1e-9) continue;
    parts.push(`<rect class="bar" x="${at(x(v))}" y="${at(y(totals[v]))}" width="${at(width)}" height="${at(bottom - y(totals[v]))}"/>`);
  }
  const mark = (v, cls) => `<line class="${cls}" x1="${at(x(v))}" y1="${PAD.top}" x2="${at(x(v))}" y2="${bottom}"/>`;
  parts.push(mark(summary.mean, "mean"));
  if (target !== null && target >= low && target <= high) parts.push(mark(target, "target"));
  const label = t("Final total under optimal play from here");
  const item = (cls, text) => `<li><span class="swatch ${cls}" aria-hidden="true"></span>${esc(text)}</li>`;
  return (
    `<svg class="chart outlook-chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(label)}">${parts.join("")}` +
    `<line class="axis" x1="${PAD.left}" y1="${bottom}" x2="${W - PAD.right}" y2="${bottom}"/>` +
    `<text class="tick" x="${(W + PAD.left) / 2}" y="${H - 2}" text-anchor="middle">${esc(t("final total"))}</text></svg>` +
    `<ul class="legend">${item("mean", t("Mean {mean}", { mean: number(summary.mean, 1) }))}` +
    `${target !== null ? item("target", t("Target: {target}", { target })) : ""}</ul>`
  );
}

function targetValue() {
  const text = $("target").value.trim();
  if (!text) return null;
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 && n <= 400 ? n : NaN;
}

function showDistribution(reply, target) {
  const { summary } = reply;
  const cuts = Object.entries(summary.percentiles)
    .map(([q, v]) => `${percent(Number(q) / 100)}: ${v}`)
    .join(", ");
  $("outlook-chart").innerHTML =
    distributionSvg(reply.totals, summary, target) +
    `<p>${esc(t("Mean {mean}, standard deviation {stdev}", { mean: number(summary.mean, 2), stdev: number(summary.stdev, 2) }))}</p>` +
    `<p class="muted">${esc(t("Percentiles: {cuts}", { cuts }))}</p>`;
}

function show(reply, target) {
  showDistribution(reply, target);
  if (target === null) {
    $("target-chance").hidden = true;
    return;
  }
  const chance = t("Chance to reach {target}: {chance}", { target, chance: percent(reply.chance, 1) });
  const rows = (reply.options ?? [])
    .map((o) => `<li><span>${esc(optionText(o))}</span> <strong>${esc(percent(o.probability, 1))}</strong></li>`)
    .join("");
  const list = rows ? `<h3>${esc(t("Best options (chance to reach {target})", { target }))}</h3><ol class="hint-list">${rows}</ol>` : "";
  $("target-chance").innerHTML = `<p class="chance"><strong>${esc(chance)}</strong></p>${list}`;
  $("target-chance").hidden = false;
}

function status(text) {
  $("outlook-status").textContent = text;
  $("outlook-status").hidden = !text;
}

function ask(question) {
  if (inFlight) {
    again = question;
    return;
  }
  inFlight = true;
  asked += 1;
  const id = asked;
  const slow = setTimeout(() => status(t("Working it out on this device…")), 150);
  worker.onmessage = (event) => {
    const reply = event.data;
    if (reply.partial) {
      // the distribution, while the worker builds a target table
      if (reply.id === id && !again) {
        showDistribution(reply, question.target);
        $("target-chance").hidden = true;
      }
      return;
    }
    clearTimeout(slow);
    inFlight = false;
    if (again) {
      const next = again;
      again = null;
      ask(next);
      return;
    }
    if (reply.id !== id) return;
    if (reply.error) {
      status(reply.error === "too_large"
        ? t("Too much to work out on this device this early in the game: open this again in a later round.")
        : reply.message);
      $("outlook-chart").innerHTML = "";
      $("target-chance").hidden = true;
    } else {
      status("");
      show(reply, question.target);
    }
    $("outlook").dataset.ready = String(id);
  };
  worker.postMessage({ ...question, id });
}

/** Ask again for the position now (the page calls it after every change it draws). */
export function refreshOutlook() {
  const panel = $("outlook");
  if (!panel || !panel.open) return;
  const target = targetValue();
  $("target-error").hidden = !Number.isNaN(target);
  const p = position();
  if (!p || Number.isNaN(target)) return;
  if (!worker) {
    worker = new Worker(new URL("./outlook-worker.js", import.meta.url), { type: "module" });
    worker.onerror = (event) => {
      event.preventDefault();
      console.error(`outlook worker: ${event.message}`);
    };
  }
  const question = { ...p, target };
  if (sent.has(p.preset)) {
    delete question.index;
    delete question.values;
  }
  sent.add(p.preset);
  ask(question);
}

/** Wire the panel: `positionOf()` gives {index, preset, values, used, upper, dice, rollsLeft,
 * banked} for the player to move, or null when there is none (between games). */
export function setupOutlook(positionOf) {
  position = positionOf;
  $("outlook").addEventListener("toggle", refreshOutlook);
  $("target").addEventListener("change", refreshOutlook);
}
