// The outlook's worker (play-outlook.js asks, docs/web/offline.md): it builds the tables of
// outlook.js off the page's thread, keeps the newest of each per preset, and answers a position
// with its final-total distribution and, given a target, the chance of reaching it and every
// option ranked by that chance.
import * as o from "./outlook.js";
import * as tg from "./outlook-target.js";
import { makeSolver, state } from "./solver.js";

const solvers = new Map();
// Per seat of the game (a hot-seat game's people each have their own position), the newest
// table of points to come and target table, for the two seats asked last (clubhouse's may be
// 48 MB each); those of another preset are let go.
const remaining = new Map();
const targets = new Map();
let preset = null;

function keep(tables, seat, table) {
  tables.delete(seat);
  tables.set(seat, table);
  while (tables.size > 2) tables.delete(tables.keys().next().value);
}

function answer(q) {
  if (!solvers.has(q.preset)) solvers.set(q.preset, makeSolver(q.index, q.preset, q.values));
  const solver = solvers.get(q.preset);
  if (preset !== q.preset) {
    remaining.clear();
    targets.clear();
    preset = q.preset;
  }
  const [mask, up] = state(solver, q.used, q.upper);
  const out = { id: q.id };
  let rem = remaining.get(q.seat) ?? null;
  if (!o.covers(rem, mask)) {
    remaining.delete(q.seat); // free the old one first: a phone may not hold both
    rem = o.remainingTable(solver, mask);
    keep(remaining, q.seat, rem);
  }
  const toCome = o.pointsToCome(rem, mask, up, q.dice, q.rollsLeft);
  out.totals = o.finalTotals(toCome, q.banked);
  out.summary = o.summary(out.totals);
  if (q.target !== null) {
    const needed = Math.max(0, q.target - q.banked);
    let tt = targets.get(q.seat) ?? null;
    if (!tg.answers(tt, mask, needed, up)) {
      self.postMessage({ ...out, partial: true }); // the distribution first: a target table takes seconds
      targets.delete(q.seat);
      tt = tg.targetTable(solver, needed, mask, true); // banded: this game's positions
      keep(targets, q.seat, tt);
    }
    if (q.dice === null) {
      out.chance = tg.targetChance(tt, mask, up, q.target, q.banked);
    } else {
      const h = tg.targetHint(tt, mask, q.dice, q.rollsLeft, up, q.target, q.banked);
      out.chance = h.best.probability;
      out.options = h.options.slice(0, 3);
    }
  }
  return out;
}

self.onmessage = (event) => {
  const q = event.data;
  try {
    self.postMessage(answer(q));
  } catch (error) {
    self.postMessage({ id: q.id, error: error.code ?? "error", message: String(error.message ?? error) });
  }
};
