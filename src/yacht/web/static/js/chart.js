// The review's chart: a player's expected final total after each decision, from the preset's
// expected score at the start to the total reached, with a grid, labelled axes, a legend and
// (once every decision is known) the points where the most was lost.
import { esc } from "./api.js";
import { number, t } from "./i18n.js";

const W = 340;
const H = 170;
const PAD = { left: 36, right: 12, top: 12, bottom: 30 };

// A coordinate of the drawing, to a tenth of a unit (not shown as a number).
export const at = (v) => Math.round(v * 10) / 10;

export function niceStep(span) {
  const raw = span / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw);
  return step || raw;
}

// decisions: the player's decisions in order (series[i + 1] follows decisions[i]), or null
// while they are not loaded; the x axis is then numbered by decision.
export function chartSvg(series, final, expected, label, decisions = null) {
  const values = [...series, final, expected];
  let low = Math.min(...values);
  let high = Math.max(...values);
  if (high - low < 20) {
    low -= 10;
    high += 10;
  }
  const step = niceStep(high - low);
  low = Math.floor(low / step) * step;
  high = Math.ceil(high / step) * step;
  const n = Math.max(series.length - 1, 1);
  const x = (i) => PAD.left + (i / n) * (W - PAD.left - PAD.right);
  const y = (v) => PAD.top + (1 - (v - low) / (high - low)) * (H - PAD.top - PAD.bottom);
  const bottom = H - PAD.bottom;
  const parts = [];
  for (let v = low; v <= high + 1e-9; v += step) {
    parts.push(
      `<line class="grid" x1="${PAD.left}" y1="${y(v)}" x2="${W - PAD.right}" y2="${y(v)}"/>` +
        `<text class="tick" x="${PAD.left - 4}" y="${y(v) + 3.5}" text-anchor="end">${number(v)}</text>`,
    );
  }
  // x ticks: the first decision of some turns when known, else every few decisions
  const ticks = [];
  if (decisions) {
    decisions.forEach((d, i) => {
      if (d.roll === 1 && [1, 4, 7, 10, 12].includes(d.turn)) ticks.push([i + 1, String(d.turn)]);
    });
  } else {
    for (let i = 0; i <= n; i += Math.max(1, Math.ceil(n / 6))) ticks.push([i, String(i)]);
  }
  for (const [i, text] of ticks) {
    parts.push(
      `<line class="axis" x1="${x(i)}" y1="${bottom}" x2="${x(i)}" y2="${bottom + 4}"/>` +
        `<text class="tick" x="${x(i)}" y="${bottom + 14}" text-anchor="middle">${esc(text)}</text>`,
    );
  }
  const axisName = decisions ? t("Turn") : t("decisions");
  const points = series.map((v, i) => `${at(x(i))},${at(y(v))}`).join(" ");
  const losses = decisions ? biggestLosses(decisions) : [];
  const marks = losses
    .map(
      (i) =>
        `<circle class="loss" cx="${at(x(i + 1))}" cy="${at(y(series[i + 1]))}" r="4.5"><title>${esc(
          t("Turn {turn}: lost {loss}", { turn: decisions[i].turn, loss: number(decisions[i].loss, 1) }),
        )}</title></circle>`,
    )
    .join("") + lossLabels(losses.map((i) => [x(i + 1), y(series[i + 1]), `−${number(decisions[i].loss, 1)}`]));
  return (
    `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(label)}">` +
    parts.join("") +
    `<line class="axis" x1="${PAD.left}" y1="${bottom}" x2="${W - PAD.right}" y2="${bottom}"/>` +
    `<line class="axis" x1="${PAD.left}" y1="${PAD.top}" x2="${PAD.left}" y2="${bottom}"/>` +
    `<text class="tick" x="${(W + PAD.left) / 2}" y="${H - 3}" text-anchor="middle">${esc(axisName)}</text>` +
    `<line class="par" x1="${PAD.left}" y1="${y(expected)}" x2="${W - PAD.right}" y2="${y(expected)}"/>` +
    `<polyline class="line" points="${points}"/>${marks}` +
    `<circle class="end" cx="${x(series.length - 1)}" cy="${y(final)}" r="4.5"/></svg>` +
    legendHtml(losses.length > 0)
  );
}

// The losses' labels, each above its point or below it, or further off, wherever it overlaps no
// other label and stays inside the plot (near neighbours would otherwise print "−4,4−5,7", and a
// label at the first decisions ran over the axis).
const LABEL = { height: 9, char: 6.2, gap: 2 }; // a 9 px bold figure is at most 6.2 units wide

function lossLabels(points) {
  const placed = [];
  const top = 0;
  const bottom = H - PAD.bottom;
  const html = [];
  for (const [px, py, text] of [...points].sort((a, b) => a[0] - b[0])) {
    const width = text.length * LABEL.char;
    const cx = Math.min(Math.max(px, PAD.left + width / 2 + LABEL.gap), W - PAD.right - width / 2);
    const offsets = [-8, 15, -19, 26, -30, 37];
    let spot = null;
    for (const dy of offsets) {
      const baseline = py + dy;
      const box = { left: cx - width / 2, right: cx + width / 2, top: baseline - LABEL.height, bottom: baseline + 2 };
      if (box.top < top || box.bottom > bottom) continue;
      const clash = placed.some(
        (o) => box.left < o.right + LABEL.gap && o.left < box.right + LABEL.gap && box.top < o.bottom && o.top < box.bottom,
      );
      if (!clash) {
        spot = box;
        break;
      }
    }
    if (!spot) continue; // no room left near the point: its circle and title still tell it
    placed.push(spot);
    html.push(`<text class="loss-text" x="${at(cx)}" y="${at(spot.bottom - 2)}" text-anchor="middle">${esc(text)}</text>`);
  }
  return html.join("");
}

// The three decisions that lost the most (at least half a point each), by index.
export function biggestLosses(decisions) {
  return decisions
    .map((d, i) => [d.loss, i])
    .filter(([loss]) => loss >= 0.5)
    .sort((a, b) => b[0] - a[0])
    .slice(0, 3)
    .map(([, i]) => i);
}

function legendHtml(withLosses) {
  const item = (cls, text) => `<li><span class="swatch ${cls}" aria-hidden="true"></span>${esc(text)}</li>`;
  return (
    `<ul class="legend">${item("line", t("expected final total"))}${item("par", t("expected at the start"))}` +
    `${item("end", t("final total"))}${withLosses ? item("loss", t("biggest losses")) : ""}</ul>`
  );
}
