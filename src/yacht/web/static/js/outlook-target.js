// The best chance of reaching a target, computed in the browser from the solver's values
// (yacht.strategy.target): a table over the states after a base mask and the points still
// needed, each cell a turn solved for that chance; and every option's chance (the hint with a
// target). docs/web/offline.md says what it costs.
import { FIRST_ROLL, KEEPS, KEEP_START, ROLLS, SolverError, compareOptions, hint, keepValues, roundDecimal, rollValues, state } from "./solver.js";
import { DROP, bestOf, checkSize, counts, inBase, local, mostTable, rollIndex, statesAfter } from "./outlook.js";

function targetLayout(solver, limit, base) {
  const { most, upperRoom } = mostTable(solver);
  const offsets = new Int32Array((solver.full + 1) * solver.uppers).fill(-1);
  const own = [];
  let size = 0;
  for (const [mask, up] of statesAfter(solver, base).reverse()) {
    const s = mask * solver.uppers + up;
    const hopeless = up + upperRoom[mask] < solver.cap;
    if (hopeless && up > 0) continue; // the subtotal no longer matters: it shares subtotal 0's
    offsets[s] = size;
    size += Math.min(most[s], limit) + 2;
    own.push([mask, up]);
  }
  for (const [mask, up] of statesAfter(solver, base)) {
    const s = mask * solver.uppers + up;
    if (offsets[s] < 0) offsets[s] = offsets[mask * solver.uppers];
  }
  return { offsets, most, own: own.reverse(), size };
}

function targetValues(tt, mask, up, needed) {
  // per category (null if used), per roll: the best chance after scoring it there
  const { solver, offsets, most, cells, limit } = tt;
  const n = solver.categories.length;
  const out = [];
  for (let c = 0; c < n; c++) {
    const bit = 1 << c;
    if (mask & bit) {
      out.push(null);
      continue;
    }
    const v = new Float64Array(ROLLS.length);
    for (let r = 0; r < ROLLS.length; r++) {
      const pts = solver.points[r * n + c];
      let raised = up;
      let rest = needed - pts;
      if (counts(solver, c)) {
        raised = Math.min(solver.cap, up + pts);
        if (up < solver.cap && up + pts >= solver.cap) rest -= solver.bonus;
      }
      const s = (mask | bit) * solver.uppers + raised;
      const top = Math.min(most[s], limit) + 1;
      v[r] = cells[offsets[s] + Math.min(Math.max(rest, 0), top)];
    }
    out.push(v);
  }
  return out;
}

function stopOf(byCategory) {
  let out = null;
  for (const v of byCategory) {
    if (v === null) continue;
    if (out === null) out = Float64Array.from(v);
    else for (let r = 0; r < out.length; r++) if (v[r] > out[r]) out[r] = v[r];
  }
  return out;
}

// A turn for many columns at once (the points needed 1..C of one state): arrays [row * C + col],
// the same operations in the same order as solver.js's keepValues and rollValues per column.
const ADD = [0, 1, 2, 3, 4].map((n) =>
  KEEPS.slice(KEEP_START[n], KEEP_START[n + 1]).flatMap((k) =>
    [1, 2, 3, 4, 5, 6].map((f) => local([...k, f].sort((a, b) => a - b))),
  ),
);
const SIXTH = 1.0 / 6.0;

function keepColumns(after, C) {
  const out = [];
  let above = after;
  for (let n = 4; n >= 0; n--) {
    const idx = ADD[n];
    const count = KEEP_START[n + 1] - KEEP_START[n];
    const acc = new Float64Array(count * C);
    for (let i = 0; i < count; i++) {
      const a0 = idx[6 * i] * C;
      const a1 = idx[6 * i + 1] * C;
      const a2 = idx[6 * i + 2] * C;
      const a3 = idx[6 * i + 3] * C;
      const a4 = idx[6 * i + 4] * C;
      const a5 = idx[6 * i + 5] * C;
      const o = i * C;
      for (let j = 0; j < C; j++) {
        let v = above[a0 + j];
        v += above[a1 + j];
        v += above[a2 + j];
        v += above[a3 + j];
        v += above[a4 + j];
        v += above[a5 + j];
        acc[o + j] = v * SIXTH;
      }
    }
    out[n] = acc;
    above = acc;
  }
  return out;
}

function rollColumns(stop, keeps, C) {
  let best = keeps[0];
  for (let n = 1; n <= 5; n++) {
    const cur = (n === 5 ? stop : keeps[n]).slice();
    const drop = DROP[n];
    for (let i = 0; i < drop.length; i++) {
      const o = i * C;
      for (const child of drop[i]) {
        const b = child * C;
        for (let j = 0; j < C; j++) if (best[b + j] > cur[o + j]) cur[o + j] = best[b + j];
      }
    }
    best = cur;
  }
  return best;
}

function stopColumns(tt, mask, up, C, skip) {
  // stop[r * C + j]: the best chance after scoring roll r, needing skip + j + 1 points
  const { solver, offsets, most, cells, limit } = tt;
  const n = solver.categories.length;
  const stop = new Float64Array(ROLLS.length * C).fill(-Infinity);
  for (let c = 0; c < n; c++) {
    const bit = 1 << c;
    if (mask & bit) continue;
    for (let r = 0; r < ROLLS.length; r++) {
      const pts = solver.points[r * n + c];
      let raised = up;
      let gain = pts - skip;
      if (counts(solver, c)) {
        raised = Math.min(solver.cap, up + pts);
        if (up < solver.cap && up + pts >= solver.cap) gain += solver.bonus;
      }
      const s = (mask | bit) * solver.uppers + raised;
      const top = Math.min(most[s], limit) + 1;
      const at = offsets[s];
      // needing j + 1 points: rest = j + 1 - gain more after this, read at its cell (clipped
      // to 0: certain, and to top: out of reach), in three runs without a test per cell
      const o = r * C;
      const first = Math.min(C, Math.max(0, gain));
      const last = Math.min(C, Math.max(0, gain + top));
      const certain = cells[at];
      for (let j = 0; j < first; j++) if (certain > stop[o + j]) stop[o + j] = certain;
      const from = at + 1 - gain;
      for (let j = first; j < last; j++) {
        const v = cells[from + j];
        if (v > stop[o + j]) stop[o + j] = v;
      }
      const beyond = cells[at + top];
      for (let j = last; j < C; j++) if (beyond > stop[o + j]) stop[o + j] = beyond;
    }
  }
  return stop;
}

// A game that needs `limit` points at the base's turn has scored at most the best of every
// category used since (and the bonus, if its subtotal has reached it: below, the bonus is still
// to come) when it reaches a later state, so it needs at least limit minus that there. A banded
// table computes only those cells, and what they read are cells of the band too (a third
// fewer cells from a new game with 200 points needed, two thirds fewer with 250).
function lowest(solver, best, limit, base, mask, up) {
  let most = 0;
  for (let c = 0; c < best.length; c++) if (mask & ~base & (1 << c)) most += best[c];
  if (solver.hasBonus && up >= solver.cap) most += solver.bonus;
  return Math.max(1, limit - most);
}

/** A target table with only its certain cells (needing 0 points) filled, and its own states
 * (those with cells of their own) fullest first: what fillState fills, layer by layer.
 * `banded`: only the cells a game needing `limit` points at the base can reach (answers()
 * says which positions it answers). */
export function emptyTargetTable(solver, limit, base = 0, banded = false) {
  const layout = targetLayout(solver, limit, base);
  checkSize(layout.size);
  const cells = new Float64Array(layout.size);
  const best = bestOf(solver);
  const low = banded ? (mask, up) => lowest(solver, best, limit, base, mask, up) : () => 1;
  const tt = { solver, limit, base, offsets: layout.offsets, most: layout.most, cells, low };
  for (const [mask, up] of layout.own) cells[layout.offsets[mask * solver.uppers + up]] = 1;
  return { tt, own: layout.own };
}

/** The cells of state [mask, up] (needing 1 to min(most, limit) points) from the cells of the
 * states after it; returns how many it wrote. */
export function fillState(tt, mask, up) {
  const { solver, limit, cells } = tt;
  const s = mask * solver.uppers + up;
  const skip = tt.low(mask, up) - 1;
  const C = Math.min(tt.most[s], limit) - skip;
  if (mask === solver.full || C <= 0) return 0;
  const stop = stopColumns(tt, mask, up, C, skip);
  const second = rollColumns(stop, keepColumns(rollColumns(stop, keepColumns(stop, C), C), C), C);
  // the sum over the first roll, in roll order for every column at once (row by row)
  const sums = new Float64Array(C);
  for (let r = 0; r < ROLLS.length; r++) {
    const f = FIRST_ROLL[r];
    const o = r * C;
    for (let j = 0; j < C; j++) sums[j] += f * second[o + j];
  }
  cells.set(sums, tt.offsets[s] + 1 + skip);
  return C;
}

/** The best chance of scoring at least n more points, for every state after `base` and every
 * n up to `limit` (yacht.strategy.target.target_table(rules, limit, base=base)); `banded`:
 * only for the positions of a game needing `limit` points at the base (see emptyTargetTable). */
export function targetTable(solver, limit, base = 0, banded = false) {
  const { tt, own } = emptyTargetTable(solver, limit, base, banded);
  for (const [mask, up] of own) fillState(tt, mask, up);
  return tt;
}

/** The size of the target table targetTable(solver, limit, base) would build, in cells. */
export const targetCells = (solver, limit, base = 0) => targetLayout(solver, limit, base).size;
/** Whether target table `tt` answers a turn-start state [mask, up] needing `needed` points. */
export function answers(tt, mask, needed, up = 0) {
  if (tt === null || !inBase(mask, tt.base)) return false;
  const most = tt.most[mask * tt.solver.uppers + up];
  return Math.min(needed, most) <= tt.limit && (needed <= 0 || needed > most || needed >= tt.low(mask, up));
}

/** The best chance of a final total of at least `target` from a turn's start with `banked`
 * points on the sheet (yacht.strategy.target.target_probability). */
export function targetChance(tt, used, upper, target, banked) {
  const [mask, up] = state(tt.solver, used, upper);
  const needed = target - banked;
  if (needed <= 0) return 1;
  const s = mask * tt.solver.uppers + up;
  if (needed > tt.most[s]) return 0;
  if (!answers(tt, mask, needed, up)) throw new SolverError("needed_limit", `the table answers up to ${tt.limit} points`);
  return tt.cells[tt.offsets[s] + needed];
}

/** The hint ranked by the chance of reaching `target` (yacht.strategy.hint with a target):
 * every option of solver.hint with its `probability`, ordered by it rounded to 12 decimals,
 * then as the hint orders them. */
export function targetHint(tt, used, dice, rollsLeft, upper, target, banked) {
  const { solver } = tt;
  const base = hint(solver, used, dice, rollsLeft, upper);
  const [mask, up] = state(solver, used, upper);
  const s = mask * solver.uppers + up;
  let needed = Math.max(0, target - banked);
  if (!answers(tt, mask, needed, up)) throw new SolverError("needed_limit", `the table answers up to ${tt.limit} points`);
  needed = Math.min(needed, tt.most[s] + 1);
  const byCategory = targetValues(tt, mask, up, needed);
  const stop = stopOf(byCategory);
  const keeps1 = keepValues(stop);
  const keeps2 = keepValues(rollValues(stop, keeps1));
  const r = rollIndex(dice);
  const options = base.options.map((o) => {
    let probability;
    if (o.action === "keep") probability = (rollsLeft === 1 ? keeps1 : keeps2)[o.keep.length][local(o.keep)];
    else probability = byCategory[solver.categories.indexOf(o.category)][r];
    const index = o.action === "score" ? solver.categories.indexOf(o.category) : undefined;
    return { ...o, probability, index, chance: roundDecimal(probability, 12) };
  });
  options.sort((a, b) => (a.chance !== b.chance ? b.chance - a.chance : compareOptions(a, b)));
  const clean = options.map(({ index, chance, ...o }) => o);
  return { best: clean[0], options: clean };
}

