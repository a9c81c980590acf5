// The outlook of a position, computed in the browser from the solver's values (no other
// table): the distribution of the final total under optimal play (yacht.strategy.remaining,
// a table over every state that can follow); outlook-target.js adds the best chance of
// reaching a target. docs/web/offline.md says what each costs.
//
// A pure module: no DOM. Both tables are built for the states whose used categories include
// a base mask (the position's), so a table built at a turn answers every later position of
// the game. The optimal policy is the engine's (Solution.turn_policies): the best keep by
// exact value, stopping on a tie, then the larger keep, then the first keep in the engine's
// order; the best category the first in sheet order on a tie.
import { FIRST_ROLL, KEEPS, KEEP_START, ROLLS, ROLL_INDEX, SolverError, outcomeProbability, state, turn } from "./solver.js";

/** The percentiles the engine gives (yacht.strategy.distribution.PERCENTILES). */
export const PERCENTILES = Object.freeze([1, 5, 25, 50, 75, 95, 99]);
/** The most cells a table may have here (8 bytes each): beyond it the page says it is too
 * early in the game for this device (clubhouse before its last turns). */
export const MAX_CELLS = 6_000_000;

export const local = (k) => KEEPS.findIndex((x) => x.length === k.length && x.every((f, i) => f === k[i])) - KEEP_START[k.length];

// DROP[n][i]: the distinct keeps of n - 1 dice inside keep i of n dice, ascending (as
// yacht.strategy.tables.DROP_DIE, whose order breaks ties between equal keeps).
export const DROP = [null, 1, 2, 3, 4, 5].map((n) => {
  if (n === null) return null;
  return KEEPS.slice(KEEP_START[n], KEEP_START[n + 1]).map((k) => {
    const children = new Set(k.map((_, i) => local([...k.slice(0, i), ...k.slice(i + 1)])));
    return Int32Array.from([...children].sort((a, b) => a - b));
  });
});

// MOVES[k]: the rolls keep k can reach and their chances (TRANSITION's row k, sparse).
const MOVES = KEEPS.map((k) => {
  const rolls = [];
  const chances = [];
  ROLLS.forEach((roll, r) => {
    const p = outcomeProbability(k, roll);
    if (p) {
      rolls.push(r);
      chances.push(p);
    }
  });
  return { rolls: Int32Array.from(rolls), chances: Float64Array.from(chances) };
});

function bestKeeps(stop, keeps) {
  // yacht.strategy.turn.best_keeps for one column: KEEPS index per roll
  let bestValue = keeps[0];
  let best = new Int32Array(1);
  for (let n = 1; n <= 5; n++) {
    const own = n === 5 ? stop : keeps[n];
    const value = Float64Array.from(own);
    const index = Int32Array.from(own, (_, i) => KEEP_START[n] + i);
    const drop = DROP[n];
    for (let i = 0; i < value.length; i++) {
      for (const child of drop[i]) {
        if (bestValue[child] > value[i]) {
          value[i] = bestValue[child];
          index[i] = best[child];
        }
      }
    }
    bestValue = value;
    best = index;
  }
  return best;
}

function bestCategories(byCategory) {
  const out = new Int32Array(ROLLS.length).fill(-1);
  const value = new Float64Array(ROLLS.length);
  byCategory.forEach((v, c) => {
    if (v === null) return;
    for (let r = 0; r < ROLLS.length; r++) {
      if (out[r] < 0 || v[r] > value[r]) {
        out[r] = c;
        value[r] = v[r];
      }
    }
  });
  return out;
}

/** The optimal policy of one turn from state [mask, up] (Solution.turn_policy): per roll the
 * KEEPS index to keep with 2 and 1 rolls left (ROLL_KEEP + r: stop) and the category. */
export function turnPolicy(solver, mask, up) {
  const t = turn(solver, mask, up);
  return { keep2: bestKeeps(t.stop, t.keeps2), keep1: bestKeeps(t.stop, t.keeps1), category: bestCategories(t.byCategory) };
}

// --- the layout of a table over the states after a base -------------------------------------
const UPPER_SUMS = new Map();
function reachableUppers(solver, mask) {
  // the tracked subtotals a game can have with these upper categories used
  const low = mask & 63;
  const key = `${low}/${solver.cap}`;
  if (!UPPER_SUMS.has(key)) {
    let sums = new Set([0]);
    for (let face = 1; face <= 6; face++) {
      if (!(low & (1 << (face - 1)))) continue;
      const next = new Set();
      for (const s of sums) for (let n = 0; n <= 5; n++) next.add(s + face * n);
      sums = next;
    }
    UPPER_SUMS.set(key, Int32Array.from(new Set([...sums].map((s) => Math.min(s, solver.cap)))).sort());
  }
  return UPPER_SUMS.get(key);
}

/** Each category's best score (sheet order). */
export function bestOf(solver) {
  const n = solver.categories.length;
  return Array.from({ length: n }, (_, c) => {
    let most = 0;
    for (let r = 0; r < ROLLS.length; r++) most = Math.max(most, solver.points[r * n + c]);
    return most;
  });
}

export function counts(solver, c) {
  return solver.hasBonus && c < 6;
}

/** [mask * uppers + up]: the most points a state can still score (a bonus in reach included). */
export function mostTable(solver) {
  const best = bestOf(solver);
  const n = best.length;
  const out = new Int32Array((solver.full + 1) * solver.uppers);
  const room = new Int32Array(solver.full + 1);
  for (let mask = 0; mask <= solver.full; mask++) {
    let all = 0;
    let upper = 0;
    for (let c = 0; c < n; c++) {
      if (mask & (1 << c)) continue;
      all += best[c];
      if (counts(solver, c)) upper += best[c];
    }
    room[mask] = upper;
    for (let up = 0; up < solver.uppers; up++) {
      const bonus = solver.hasBonus && up < solver.cap && up + upper >= solver.cap ? solver.bonus : 0;
      out[mask * solver.uppers + up] = all + bonus;
    }
  }
  return { most: out, upperRoom: room };
}

export const inBase = (mask, base) => (mask & base) === base;
const popcount = (m) => {
  let n = 0;
  for (let x = m; x; x &= x - 1) n++;
  return n;
};

export function statesAfter(solver, base) {
  // [mask, up] of every reachable state whose used categories include base, fullest first
  const byLayer = Array.from({ length: solver.categories.length + 1 }, () => []);
  for (let mask = 0; mask <= solver.full; mask++) {
    if (!inBase(mask, base)) continue;
    for (const up of reachableUppers(solver, mask)) byLayer[popcount(mask)].push([mask, up]);
  }
  return byLayer.reverse().flat();
}

export function checkSize(size) {
  if (size > MAX_CELLS) {
    throw new SolverError("too_large", `${size} cells: more than this device is asked to hold (${MAX_CELLS})`);
  }
}

// --- the distribution of the points to come --------------------------------------------------
function outcomes(solver, policy, dice, rollsLeft) {
  // [(category, points, chance)] of the turn from `dice` (a chance per roll) with rollsLeft
  let mass = dice;
  const stages = rollsLeft === 2 ? [policy.keep2, policy.keep1] : rollsLeft === 1 ? [policy.keep1] : [];
  for (const keep of stages) {
    const byKeep = new Float64Array(KEEPS.length);
    for (let r = 0; r < ROLLS.length; r++) if (mass[r]) byKeep[keep[r]] += mass[r];
    const next = new Float64Array(ROLLS.length);
    for (let k = 0; k < KEEPS.length; k++) {
      const m = byKeep[k];
      if (!m) continue;
      const { rolls, chances } = MOVES[k];
      for (let j = 0; j < rolls.length; j++) next[rolls[j]] += chances[j] * m;
    }
    mass = next;
  }
  const n = solver.categories.length;
  const found = new Map();
  for (let r = 0; r < ROLLS.length; r++) {
    if (!mass[r]) continue;
    const c = policy.category[r];
    const key = c * 1000 + solver.points[r * n + c];
    found.set(key, (found.get(key) ?? 0) + mass[r]);
  }
  return [...found].map(([key, p]) => [Math.floor(key / 1000), key % 1000, p]);
}

function addAfter(solver, rem, mask, up, turnOutcomes, out, offset) {
  // out[offset + x] += P(x more points from the state after each outcome, plus its points)
  for (const [c, pts, p] of turnOutcomes) {
    const after = mask | (1 << c);
    let raised = up;
    let shift = pts;
    if (counts(solver, c)) {
      raised = Math.min(solver.cap, up + pts);
      if (up < solver.cap && up + pts >= solver.cap) shift += solver.bonus;
    }
    const s = after * solver.uppers + raised;
    const start = rem.offsets[s];
    const len = rem.most[s] + 1;
    for (let x = 0; x < len; x++) out[offset + shift + x] += p * rem.cells[start + x];
  }
}

/** The distribution of the points still to come from every state after `base` under optimal
 * play (yacht.strategy.remaining for those states): cells[offsets[s] + x] = P(x more points),
 * x = 0..most[s], s = mask * uppers + up. */
export function remainingTable(solver, base = 0) {
  const { most } = mostTable(solver);
  const states = statesAfter(solver, base);
  const offsets = new Int32Array((solver.full + 1) * solver.uppers).fill(-1);
  let size = 0;
  for (const [mask, up] of states) {
    const s = mask * solver.uppers + up;
    offsets[s] = size;
    size += most[s] + 1;
  }
  checkSize(size);
  const rem = { solver, base, offsets, most, cells: new Float64Array(size) };
  for (const [mask, up] of states) {
    const s = mask * solver.uppers + up;
    if (mask === solver.full) {
      rem.cells[offsets[s]] = 1;
      continue;
    }
    const policy = turnPolicy(solver, mask, up);
    addAfter(solver, rem, mask, up, outcomes(solver, policy, FIRST_ROLL, 2), rem.cells, offsets[s]);
  }
  return rem;
}

/** The size of the table remainingTable(solver, base) would build, in cells. */
export function remainingCells(solver, base = 0) {
  const { most } = mostTable(solver);
  let size = 0;
  for (const [mask, up] of statesAfter(solver, base)) size += most[mask * solver.uppers + up] + 1;
  return size;
}

/** Whether a remaining or target table answers positions with used-mask `mask`. */
export const covers = (table, mask) => table !== null && inBase(mask, table.base);

/** P(x more points), x = 0..most, from a position of the game under optimal play from here
 * on: a turn's start (dice null) or `dice` showing with `rollsLeft` (0-2) rolls left
 * (yacht.strategy.remaining.Remaining.pmf and pmf_after_roll). */
export function pointsToCome(rem, used, upper = 0, dice = null, rollsLeft = 0) {
  const { solver } = rem;
  const [mask, up] = state(solver, used, upper);
  if (!covers(rem, mask)) throw new SolverError("needed_base", `the table starts after mask ${rem.base}`);
  const s = mask * solver.uppers + up;
  if (dice === null) return rem.cells.slice(rem.offsets[s], rem.offsets[s] + rem.most[s] + 1);
  if (mask === solver.full) throw new SolverError("all_used", "all categories are used: there is nothing left to score");
  const start = new Float64Array(ROLLS.length);
  start[rollIndex(dice)] = 1;
  const out = new Float64Array(rem.most[s] + 1);
  addAfter(solver, rem, mask, up, outcomes(solver, turnPolicy(solver, mask, up), start, rollsLeft), out, 0);
  return out;
}

export function rollIndex(dice) {
  const ok = Array.isArray(dice) && dice.length === 5 && dice.every((d) => Number.isInteger(d) && d >= 1 && d <= 6);
  if (!ok) throw new SolverError("invalid_dice", `invalid dice: ${JSON.stringify(dice)} (need five faces from 1 to 6)`);
  return ROLL_INDEX.get([...dice].sort((a, b) => a - b).join(""));
}

/** Mean, standard deviation and percentiles of P(final total = t), t = 0.. (the engine's
 * Distribution: a percentile q is the smallest t with P(total <= t) >= q / 100). */
export function summary(probabilities) {
  let mean = 0;
  probabilities.forEach((p, t) => {
    mean += t * p;
  });
  let variance = 0;
  probabilities.forEach((p, t) => {
    variance += (t - mean) ** 2 * p;
  });
  const percentiles = {};
  let cdf = 0;
  let t = 0;
  for (const q of PERCENTILES) {
    while (t < probabilities.length - 1 && cdf + probabilities[t] < q / 100 - 1e-12) cdf += probabilities[t++];
    percentiles[q] = t;
  }
  return { mean, stdev: Math.sqrt(variance), percentiles };
}

/** P(final total = t) for t = 0..banked + most: the points to come moved up by those banked. */
export function finalTotals(toCome, banked) {
  const out = new Float64Array(banked + toCome.length);
  out.set(toCome, banked);
  return out;
}

