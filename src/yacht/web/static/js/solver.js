// The exact turn solver in the browser: the hint by expected points of yacht.strategy
// (yacht.strategy.hints.hint), computed here from the tables the server ships as static files
// (static/tables/, written by `python -m yacht.strategy.browser`; docs/strategy/browser.md).
//
// A pure module: no DOM, no imports, nothing runs at import but building the dice tables.
//
// - Rolls are the 252 sorted multisets of five faces and keeps the 462 sorted multisets of 0-5
//   faces, in yacht.dice's order (by size, then itertools.combinations_with_replacement's).
// - A preset is data (index.json): one scorer per category as {kind, fields} and the upper
//   bonus, so any preset the engine can describe scores here without a line about its name.
// - The values of a turn are computed with the engine's own operations in the engine's own
//   order (yacht.strategy.turn), so they are the same float64 numbers, to the bit:
//     score c with roll r:  (points + bonus gained) + V[state after]    (one addition)
//     stop with r:          the largest of those over the open categories
//     keep k, roll the rest: ((((w(k+1) + w(k+2)) + w(k+3)) + w(k+4)) + w(k+5)) + w(k+6),
//                           times 1/6 (each w one die more, down from five dice to k)
//     roll r with rolls left: the largest of stopping and of keeping any part of r
//   Only the start value of a turn (startValue) is a sum of 252 products, which numpy gives to
//   BLAS: that one agrees to about 1e-13, not to the bit.
// - Options are ordered as the engine's hint orders them (_order in strategy/hints.py):
//     1. expected points rounded to 9 decimals (as Python's round(x, 9): correctly rounded,
//        ties to even), highest first;
//     2. then scoring before keeping;
//     3. then, among keeps, more dice kept first, then the kept faces in ascending order
//        (compared face by face);
//     4. then, among scores, sheet order.
//   The best option is the first.

export const FORMAT = 1;
const SIXTH = 1.0 / 6.0;
const FACT = [1, 1, 2, 6, 24, 120];

/** A question the solver cannot answer as asked; `code` names the case (as yacht's errors). */
export class SolverError extends Error {
  constructor(code, message) {
    super(message);
    this.name = "SolverError";
    this.code = code;
  }
}

function multisets(n) {
  const out = [];
  const walk = (from, prefix) => {
    if (prefix.length === n) {
      out.push(Object.freeze(prefix));
      return;
    }
    for (let f = from; f <= 6; f++) walk(f, [...prefix, f]);
  };
  walk(1, []);
  return out;
}

/** The 252 sorted rolls of five dice, in yacht.dice.ROLLS order. */
export const ROLLS = Object.freeze(multisets(5));
/** The 462 sorted keeps of 0-5 dice, in yacht.dice.KEEPS order (by size, then sorted). */
export const KEEPS = Object.freeze([0, 1, 2, 3, 4, 5].flatMap(multisets));
/** KEEPS index of the first keep of n dice, for n = 0..6. */
export const KEEP_START = Object.freeze([0, 1, 7, 28, 84, 210, 462]);

const key = (faces) => faces.join("");
const KEEP_INDEX = new Map(KEEPS.map((k, i) => [key(k), i]));
const local = (faces) => KEEP_INDEX.get(key(faces)) - KEEP_START[faces.length];
const sorted = (faces) => [...faces].sort((a, b) => a - b);

// ADD_FACE[n][6 i + f - 1]: keep i of n dice plus face f, as an index among keeps of n + 1 dice.
const ADD_FACE = [0, 1, 2, 3, 4].map((n) => {
  const keeps = KEEPS.slice(KEEP_START[n], KEEP_START[n + 1]);
  return Int32Array.from(keeps.flatMap((k) => [1, 2, 3, 4, 5, 6].map((f) => local(sorted([...k, f])))));
});

// DROP_DIE[n][i]: the distinct keeps of n - 1 dice inside keep i of n dice (n = 1..5).
const DROP_DIE = [null, 1, 2, 3, 4, 5].map((n) => {
  if (n === null) return null;
  return KEEPS.slice(KEEP_START[n], KEEP_START[n + 1]).map((k) => {
    const children = new Set(k.map((_, i) => local([...k.slice(0, i), ...k.slice(i + 1)])));
    return Int32Array.from(children);
  });
});

// ROLL_KEEPS[r]: the distinct keeps of 0-4 dice of roll r (the options of a roll with rolls left).
const ROLL_KEEPS = ROLLS.map((roll) => {
  const seen = new Map();
  for (let bits = 0; bits < 31; bits++) {
    const k = roll.filter((_, i) => bits & (1 << i));
    seen.set(key(k), k);
  }
  return [...seen.values()];
});
/** The ROLLS index of a roll's faces written in order ("11236"). */
export const ROLL_INDEX = new Map(ROLLS.map((r, i) => [key(r), i]));

function faceCounts(faces) {
  const counts = [0, 0, 0, 0, 0, 0, 0];
  for (const f of faces) counts[f] += 1;
  return counts;
}

function ways(counts) {
  // the multinomial n! / (c1! ... c6!): every step an exact integer under 121
  const n = counts.reduce((sum, c) => sum + c, 0);
  let out = FACT[n];
  for (let f = 1; f <= 6; f++) out /= FACT[counts[f]];
  return [n, out];
}

/** P(the five dice show `roll` after keeping `keep` and rolling the rest), as float64: the
 * multinomial ways / 6 ** n, one correctly rounded division, as Python's float(Fraction). */
export function outcomeProbability(keep, roll) {
  const rest = faceCounts(roll);
  for (const f of keep) rest[f] -= 1;
  if (rest.some((c) => c < 0)) return 0;
  const [n, w] = ways(rest);
  return w / 6 ** n;
}

/** P(roll r) when all five dice are rolled, in ROLLS order. */
export const FIRST_ROLL = Float64Array.from(ROLLS, (r) => outcomeProbability([], r));

const total = (counts) => counts.reduce((sum, n, face) => sum + n * face, 0);

// One function per scorer kind of yacht.scorers, from the same fields (yacht.strategy.browser).
const SCORERS = {
  FaceSum: ({ face }) => (counts) => face * counts[face],
  FullHouse: ({ yacht_counts, fixed }) => (counts) => {
    const shape = counts.filter((n) => n > 0).sort((a, b) => a - b).join();
    if (shape === "2,3" || (yacht_counts && shape === "5")) return fixed ?? total(counts);
    return 0;
  },
  OfAKind: ({ n, all_dice }) => (counts) => {
    for (let face = 6; face >= 1; face--) {
      if (counts[face] >= n) return all_dice ? total(counts) : n * face;
    }
    return 0;
  },
  Straight: ({ length, starts, points }) => (counts) => {
    for (const start of starts) {
      let run = true;
      for (let f = start; f < start + length; f++) run = run && counts[f] >= 1;
      if (run) return points;
    }
    return 0;
  },
  Choice: () => (counts) => total(counts),
  YachtScorer: ({ points }) => (counts) => (counts.includes(5) ? points : 0),
};

/** Every roll's points in every category, `[r * 12 + c]`, from a preset's data (its
 * `scorers` in sheet order, as index.json has them). */
export function scoreTable(preset) {
  const scorers = preset.scorers.map((s) => {
    const make = SCORERS[s.kind];
    if (!make) throw new SolverError("scorer", `cannot score a category of kind ${s.kind}`);
    return make(s);
  });
  const points = new Int32Array(ROLLS.length * scorers.length);
  ROLLS.forEach((roll, r) => {
    const counts = faceCounts(roll);
    scorers.forEach((score, c) => {
      points[r * scorers.length + c] = score(counts);
    });
  });
  return points;
}

const BITS = new DataView(new ArrayBuffer(8));

/** Python's round(x, digits) for a float: the decimal nearest to x's exact binary value (ties
 * to even), read back as the nearest float64. */
export function roundDecimal(x, digits) {
  if (!Number.isFinite(x) || x === 0) return x;
  const view = BITS;
  view.setFloat64(0, Math.abs(x));
  const high = view.getUint32(0);
  const exponent = high >>> 20;
  let mantissa = (BigInt(high & 0xfffff) << 32n) | BigInt(view.getUint32(4));
  let shift = 1074; // x = mantissa * 2 ** -shift
  if (exponent > 0) {
    mantissa |= 1n << 52n;
    shift = 1075 - exponent;
  }
  let q = mantissa * 10n ** BigInt(digits); // |x| * 10 ** digits = q * 2 ** -shift
  if (shift <= 0) {
    q <<= BigInt(-shift);
  } else {
    const s = BigInt(shift);
    const whole = q >> s;
    const rest = q - (whole << s);
    const half = 1n << (s - 1n);
    q = whole + (rest > half || (rest === half && (whole & 1n) === 1n) ? 1n : 0n);
  }
  const out = Number(`${q}e-${digits}`);
  return x < 0 ? -out : out;
}

function dataOf(value) {
  if (value instanceof Float64Array) return value;
  const buffer = ArrayBuffer.isView(value) ? value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength) : value;
  if (!(buffer instanceof ArrayBuffer) || buffer.byteLength % 8) {
    throw new SolverError("tables", "the values file is not a whole number of float64 values");
  }
  const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
  if (littleEndian) return new Float64Array(buffer);
  const view = new DataView(buffer);
  return Float64Array.from({ length: buffer.byteLength / 8 }, (_, i) => view.getFloat64(8 * i, true));
}

/** A solver for preset `name` of `index` (index.json), with `values` (its values file: an
 * ArrayBuffer of little-endian float64, or a Float64Array). */
export function makeSolver(index, name, values) {
  if (index?.format !== FORMAT) {
    throw new SolverError("tables", `tables of format ${index?.format}, not ${FORMAT}`);
  }
  const preset = index.presets.find((p) => p.name === name);
  if (!preset) throw new SolverError("unknown_preset", `unknown rules preset: ${JSON.stringify(name)}`);
  const categories = index.categories;
  const bonus = preset.upper_bonus ?? null;
  const cap = bonus ? bonus.threshold : 0;
  const uppers = cap + 1;
  const table = dataOf(values);
  const masks = 1 << categories.length;
  if (table.length !== masks * uppers || preset.values.uppers !== uppers) {
    throw new SolverError("tables", `${name}: ${table.length} values, not ${masks} x ${uppers}`);
  }
  if (!table.every(Number.isFinite)) throw new SolverError("tables", `${name}: values that are not finite`);
  return Object.freeze({
    name,
    preset,
    categories,
    cap,
    hasBonus: bonus !== null,
    bonus: bonus ? bonus.points : 0,
    uppers,
    full: masks - 1,
    points: scoreTable(preset),
    values: table,
  });
}

const TABLES = new URL("../tables/", import.meta.url);

/** index.json from `base` (by default static/tables/ next to this file). */
export async function loadIndex(base = TABLES) {
  const response = await fetch(new URL("index.json", base));
  if (!response.ok) throw new SolverError("tables", `index.json: HTTP ${response.status}`);
  return response.json();
}

/** The solver of preset `name`: index.json and the preset's values file, fetched from `base`. */
export async function loadSolver(name, base = TABLES, index = null) {
  const known = index ?? (await loadIndex(base));
  const preset = known.presets?.find((p) => p.name === name);
  if (!preset) throw new SolverError("unknown_preset", `unknown rules preset: ${JSON.stringify(name)}`);
  const response = await fetch(new URL(preset.values.file, base));
  if (!response.ok) throw new SolverError("tables", `${preset.values.file}: HTTP ${response.status}`);
  return makeSolver(known, name, await response.arrayBuffer());
}

function possibleUppers(mask) {
  let sums = new Set([0]);
  for (let face = 1; face <= 6; face++) {
    if (!(mask & (1 << (face - 1)))) continue;
    const next = new Set();
    for (const s of sums) for (let n = 0; n <= 5; n++) next.add(s + face * n);
    sums = next;
  }
  return sums;
}

/** The turn-start state `[mask, tracked upper]` of used categories (an int mask, or category
 * names) and an upper subtotal, checked as Solution.state checks it. */
export function state(solver, used, upper = 0) {
  let mask = 0;
  if (Number.isInteger(used)) {
    if (used < 0 || used > solver.full) {
      throw new SolverError("used_mask", `used-category mask ${used} is outside 0..${solver.full}`);
    }
    mask = used;
  } else if (Array.isArray(used)) {
    for (const name of used) {
      const c = solver.categories.indexOf(name);
      if (c < 0) throw new SolverError("unknown_category", `unknown category: ${JSON.stringify(name)}`);
      mask |= 1 << c;
    }
  } else {
    throw new SolverError("used", `used categories must be category names or an int mask, got ${JSON.stringify(used)}`);
  }
  if (!Number.isInteger(upper)) {
    throw new SolverError("upper_type", `upper subtotal must be a whole number, got ${JSON.stringify(upper)}`);
  }
  const possible = possibleUppers(mask);
  const capped = upper === solver.cap && Math.max(...possible) >= upper;
  if (!possible.has(upper) && !capped) {
    throw new SolverError("upper_impossible", `upper subtotal ${upper} is impossible with the used categories`);
  }
  return [mask, Math.min(upper, solver.cap)];
}

function scoreValues(solver, mask, up) {
  // byCategory[c][r]: score roll r in category c, then the state after; null when c is used.
  const { points, values, uppers, cap, bonus, hasBonus } = solver;
  const n = solver.categories.length;
  const byCategory = [];
  for (let c = 0; c < n; c++) {
    const bit = 1 << c;
    if (mask & bit) {
      byCategory.push(null);
      continue;
    }
    const row = (mask | bit) * uppers;
    const counts = hasBonus && c < 6; // Ones..Sixes (the sheet's first six) raise the subtotal
    const out = new Float64Array(ROLLS.length);
    for (let r = 0; r < ROLLS.length; r++) {
      const pts = points[r * n + c];
      if (!counts) {
        out[r] = pts + values[row + up];
      } else {
        const gain = up < cap && up + pts >= cap ? bonus : 0;
        out[r] = pts + gain + values[row + Math.min(cap, up + pts)];
      }
    }
    byCategory.push(out);
  }
  return byCategory;
}

function stopValues(byCategory) {
  let out = null;
  for (const v of byCategory) {
    if (v === null) continue;
    if (out === null) {
      out = Float64Array.from(v);
      continue;
    }
    for (let r = 0; r < out.length; r++) if (v[r] > out[r]) out[r] = v[r];
  }
  return out;
}

/** Keep values (by keep size, 0-4 dice) from every roll's value with one roll fewer left. */
export function keepValues(after) {
  const out = [];
  let above = after;
  for (let n = 4; n >= 0; n--) {
    const idx = ADD_FACE[n];
    const acc = new Float64Array(KEEP_START[n + 1] - KEEP_START[n]);
    for (let i = 0; i < acc.length; i++) {
      const j = 6 * i;
      let s = above[idx[j]];
      s += above[idx[j + 1]];
      s += above[idx[j + 2]];
      s += above[idx[j + 3]];
      s += above[idx[j + 4]];
      s += above[idx[j + 5]];
      acc[i] = s * SIXTH;
    }
    out[n] = acc;
    above = acc;
  }
  return out;
}

/** Each roll's value: stopping (`stop`) or its best keep of 0-4 dice (`keeps`). */
export function rollValues(stop, keeps) {
  let best = keeps[0];
  for (let n = 1; n <= 5; n++) {
    const cur = Float64Array.from(n === 5 ? stop : keeps[n]);
    const drop = DROP_DIE[n];
    for (let i = 0; i < cur.length; i++) {
      for (const child of drop[i]) if (best[child] > cur[i]) cur[i] = best[child];
    }
    best = cur;
  }
  return best;
}

/** One turn from state `[mask, up]`: per category the value of scoring each roll there
 * (null if used), and the keep values (by keep size) with 1 and 2 rolls left. */
export function turn(solver, mask, up) {
  if (mask === solver.full) throw new SolverError("all_used", "all categories are used: there is nothing left to score");
  const byCategory = scoreValues(solver, mask, up);
  const stop = stopValues(byCategory);
  const keeps1 = keepValues(stop);
  const keeps2 = keepValues(rollValues(stop, keeps1));
  return { byCategory, stop, keeps1, keeps2 };
}

/** Expected points still to come from a turn's start, read from the table. */
export function value(solver, used, upper = 0) {
  const [mask, up] = state(solver, used, upper);
  return solver.values[mask * solver.uppers + up];
}

/** The same, computed by this solver from the states after it: the sum over the first roll's
 * 252 outcomes of P(roll) x its value with two rolls left. */
export function startValue(solver, used, upper = 0) {
  const [mask, up] = state(solver, used, upper);
  if (mask === solver.full) return 0;
  const t = turn(solver, mask, up);
  const second = rollValues(t.stop, t.keeps2);
  let sum = 0;
  for (let r = 0; r < ROLLS.length; r++) sum += FIRST_ROLL[r] * second[r];
  return sum;
}

function validDice(dice) {
  const ok = Array.isArray(dice) && dice.length === 5 && dice.every((d) => Number.isInteger(d) && d >= 1 && d <= 6);
  if (!ok) {
    throw new SolverError("invalid_dice", `invalid dice: ${JSON.stringify(dice)} (need five faces from 1 to 6)`);
  }
  return sorted(dice);
}

function compareKeeps(a, b) {
  if (a.length !== b.length) return b.length - a.length;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** The engine's order of two options (see the top of this file); `index` is a score's
 * category index, `rounded` (if given) the expected points already rounded. */
export function compareOptions(a, b) {
  const ra = a.rounded ?? roundDecimal(a.expected, 9);
  const rb = b.rounded ?? roundDecimal(b.expected, 9);
  if (ra !== rb) return rb - ra;
  if (a.action !== b.action) return a.action === "score" ? -1 : 1;
  if (a.action === "keep") return compareKeeps(a.keep, b.keep);
  return a.index - b.index;
}

/** Every option of `dice` with `rollsLeft` (0, 1 or 2) rolls left, best first, as the engine's
 * hint (Option.to_json): {action: "keep", keep, expected} for each distinct keep of 0-4 dice
 * while rolls are left, {action: "score", category, points, expected} for each open category.
 * `used`: the used categories (names or an int mask); `upper`: the upper subtotal. */
export function hint(solver, used, dice, rollsLeft, upper = 0) {
  const roll = validDice(dice);
  if (!(rollsLeft === 0 || rollsLeft === 1 || rollsLeft === 2)) {
    throw new SolverError("rolls_left", `rolls left must be 0, 1 or 2, got ${JSON.stringify(rollsLeft)}`);
  }
  const [mask, up] = state(solver, used, upper);
  const t = turn(solver, mask, up);
  const r = ROLL_INDEX.get(key(roll));
  const ranked = [];
  if (rollsLeft) {
    const keeps = rollsLeft === 1 ? t.keeps1 : t.keeps2;
    for (const k of ROLL_KEEPS[r]) {
      const expected = keeps[k.length][local(k)];
      ranked.push({ action: "keep", keep: k, expected, rounded: roundDecimal(expected, 9) });
    }
  }
  const n = solver.categories.length;
  t.byCategory.forEach((v, c) => {
    if (v !== null) {
      ranked.push({ action: "score", index: c, expected: v[r], rounded: roundDecimal(v[r], 9) });
    }
  });
  ranked.sort(compareOptions);
  const options = ranked.map((o) =>
    o.action === "keep"
      ? { action: "keep", keep: [...o.keep], expected: o.expected }
      : {
          action: "score",
          category: solver.categories[o.index],
          points: solver.points[r * n + o.index],
          expected: o.expected,
        },
  );
  return { best: options[0], options };
}
