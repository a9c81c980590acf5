// A small line chart of a figure over games (a profile's skill figure and rating): the games as
// points, a line through them (or through a running mean), dashed level lines with labels (the
// bots' marks), a grid and labelled axes. Every text that goes in is escaped here.
import { esc } from "./api.js";
import { at, niceStep } from "./chart.js";
import { number } from "./i18n.js";

const W = 340;
const H = 180;
const PAD = { left: 40, right: 10, top: 10, bottom: 30 };

// points: the figure per game, oldest first; line: the values the line joins (default points);
// levels: [{value, label}] drawn as dashed lines; label: what the chart shows (for a screen
// reader); xLabel: the x axis' name; format: how the y axis writes a value.
export function trendSvg({ points, line = points, levels = [], label, xLabel, format = (v) => number(v) }) {
  const values = [...points, ...line, ...levels.map((l) => l.value)];
  let low = Math.min(...values);
  let high = Math.max(...values);
  if (high - low < 10) {
    low -= 5;
    high += 5;
  }
  const step = niceStep(high - low);
  low = Math.floor(low / step) * step;
  high = Math.ceil(high / step) * step;
  const right = W - (levels.length ? 78 : PAD.right); // room for the levels' labels
  const n = Math.max(points.length - 1, 1);
  const x = (i) => (points.length === 1 ? (PAD.left + right) / 2 : PAD.left + (i / n) * (right - PAD.left));
  const y = (v) => PAD.top + (1 - (v - low) / (high - low)) * (H - PAD.top - PAD.bottom);
  const bottom = H - PAD.bottom;
  const parts = [];
  for (let v = low; v <= high + 1e-9; v += step) {
    parts.push(
      `<line class="grid" x1="${PAD.left}" y1="${at(y(v))}" x2="${right}" y2="${at(y(v))}"/>` +
        `<text class="tick" x="${PAD.left - 4}" y="${at(y(v) + 3.5)}" text-anchor="end">${esc(format(v))}</text>`,
    );
  }
  for (let i = 0; i < points.length; i += Math.max(1, Math.ceil(points.length / 6))) {
    parts.push(
      `<line class="axis" x1="${at(x(i))}" y1="${bottom}" x2="${at(x(i))}" y2="${bottom + 4}"/>` +
        `<text class="tick" x="${at(x(i))}" y="${bottom + 14}" text-anchor="middle">${i + 1}</text>`,
    );
  }
  // each level's label right of the plot at its line's height, pushed down when it would touch
  // the one above it (the bots' figures can lie a few points apart)
  let room = -Infinity;
  for (const level of [...levels].sort((a, b) => b.value - a.value)) {
    const ly = at(y(level.value));
    const baseline = Math.max(ly + 3, room + 10);
    room = baseline;
    parts.push(
      `<line class="level" x1="${PAD.left}" y1="${ly}" x2="${right}" y2="${ly}"/>` +
        `<text class="level-text" x="${right + 4}" y="${at(baseline)}">${esc(level.label)}</text>`,
    );
  }
  const joined = line.map((v, i) => `${at(x(i))},${at(y(v))}`).join(" ");
  const dots = points.map((v, i) => `<circle class="dot" cx="${at(x(i))}" cy="${at(y(v))}" r="2.6"/>`).join("");
  return (
    `<svg class="chart trend" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(label)}">` +
    parts.join("") +
    `<line class="axis" x1="${PAD.left}" y1="${bottom}" x2="${right}" y2="${bottom}"/>` +
    `<line class="axis" x1="${PAD.left}" y1="${PAD.top}" x2="${PAD.left}" y2="${bottom}"/>` +
    `<text class="tick" x="${(right + PAD.left) / 2}" y="${H - 3}" text-anchor="middle">${esc(xLabel)}</text>` +
    (line.length > 1 ? `<polyline class="line" points="${joined}"/>` : "") +
    dots +
    `</svg>`
  );
}

// The running mean of the last `window` values at each point.
export function runningMean(values, window) {
  return values.map((_, i) => {
    const last = values.slice(Math.max(0, i + 1 - window), i + 1);
    return last.reduce((a, b) => a + b, 0) / last.length;
  });
}
