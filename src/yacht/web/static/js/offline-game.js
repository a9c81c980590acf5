// One game played on this device (docs/web/offline.md): the engine's rules as data (the preset's
// scorers and upper bonus from static/tables/index.json, scored by solver.js), the engine's fair
// dice rule 3 (yacht.dice.PlacedDice: each die by its seat, turn, roll and slot, from a secret
// seed made here), the engine's bots but winner (random, greedy, easy, medium, hard, optimal),
// and every decision rated by the solver as it is made, for the review.
//
// A game is a plain object that IndexedDB stores as it is; nothing here touches the page.
import { placedFace } from "./fair.js";
import { hint, ROLLS } from "./solver.js";

export const ROUNDS = 12;
export const KINDS = ["human", "random", "greedy", "easy", "medium", "hard", "optimal"];
/** The softmax temperatures (points) of the noisy levels, as yacht.bots.registry.BOT_LEVELS. */
const TEMPERATURES = { easy: 1.75, medium: 0.9, hard: 0.5 };
const KEY = "offline";

function newSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A new game of `preset` for `players` ([{name, kind}], 1-6 of them); `account`, the name
 * signed in on this device when it starts (null: none), whose history it goes to once synced. */
export function newGame(preset, players, account = null) {
  if (players.length < 1 || players.length > 6) throw new Error("1 to 6 players");
  const now = Date.now();
  return {
    format: 1,
    id: `${now.toString(36)}-${newSeed().slice(0, 8)}`,
    preset,
    seed: newSeed(),
    key: KEY,
    players: players.map((p) => ({ name: p.name, kind: p.kind })),
    sheets: players.map(() => ({})),
    player: 0,
    round: 0,
    rollsUsed: 0,
    dice: null,
    held: [false, false, false, false, false],
    decisions: [],
    // every action in the engine's words with the dice each roll showed: what the server
    // replays when the game is synced (yacht.web.service.offline)
    moves: [],
    account,
    finished: false,
    created: now,
    updated: now,
  };
}

export function categories(solver) {
  return solver.categories;
}

/** The upper subtotal (Ones to Sixes) of a sheet. */
export function upperTotal(solver, sheet) {
  return solver.categories.slice(0, 6).reduce((sum, c) => sum + (sheet[c] ?? 0), 0);
}

export function bonusOf(solver, sheet) {
  const b = solver.preset.upper_bonus;
  return b && upperTotal(solver, sheet) >= b.threshold ? b.points : 0;
}

/** A sheet's total: its boxes plus any upper bonus (Rules.total). */
export function total(solver, sheet) {
  return Object.values(sheet).reduce((a, b) => a + b, 0) + bonusOf(solver, sheet);
}

export function totals(solver, game) {
  return game.sheets.map((s) => total(solver, s));
}

export function winners(solver, game) {
  const all = totals(solver, game);
  const best = Math.max(...all);
  return all.flatMap((v, i) => (v === best ? [i] : []));
}

export function rollsLeft(game) {
  return 3 - game.rollsUsed;
}

function usedOf(game) {
  return Object.keys(game.sheets[game.player]);
}

/** The solver's options for the player to move (best first), or null before the first roll. */
export function options(solver, game) {
  if (!game.dice || game.finished) return null;
  const sheet = game.sheets[game.player];
  const upper = solver.hasBonus ? upperTotal(solver, sheet) : 0;
  return hint(solver, usedOf(game), game.dice, rollsLeft(game), upper);
}

/** The points of the dice in every open category of the player to move. */
export function possible(solver, game) {
  if (!game.dice) return {};
  const sorted = [...game.dice].sort((a, b) => a - b);
  const r = ROLLS.findIndex((roll) => roll.every((f, i) => f === sorted[i]));
  const n = solver.categories.length;
  const out = {};
  solver.categories.forEach((c, i) => {
    if (!(c in game.sheets[game.player])) out[c] = solver.points[r * n + i];
  });
  return out;
}

function sameKeep(a, b) {
  return a.length === b.length && a.every((f, i) => f === b[i]);
}

function rate(solver, game, chosen) {
  const ranked = options(solver, game);
  const taken = ranked.options.find((o) =>
    o.action === "keep" ? chosen.action === "keep" && sameKeep(o.keep, chosen.keep) : o.category === chosen.category,
  );
  game.decisions.push({
    seat: game.player,
    turn: game.round + 1,
    roll: game.rollsUsed,
    dice: [...game.dice],
    taken,
    best: ranked.best,
    loss: Math.max(0, ranked.best.expected - taken.expected),
  });
  return taken;
}

/** Roll the dice that are not held (all five at a turn's start). */
export async function roll(solver, game) {
  if (game.finished || game.rollsUsed >= 3) throw new Error("no rolls left");
  if (game.dice) {
    if (game.held.every(Boolean)) throw new Error("every die is held");
    const keep = game.dice.filter((_, i) => game.held[i]).sort((a, b) => a - b);
    rate(solver, game, { action: "keep", keep });
    const places = game.held.flatMap((held, i) => (held ? [i + 1] : []));
    game.moves?.push({ action: `hold ${places.join(" ")}`.trim() });
  }
  const dice = game.dice ? [...game.dice] : [0, 0, 0, 0, 0];
  for (let slot = 0; slot < 5; slot++) {
    if (game.dice && game.held[slot]) continue;
    dice[slot] = await placedFace(game.seed, game.key, game.player, game.round, game.rollsUsed, slot);
  }
  game.dice = dice;
  game.moves?.push({ action: "roll", dice: [...dice] });
  game.rollsUsed += 1;
  game.updated = Date.now();
}

export function toggle(game, slot) {
  if (!game.dice || game.rollsUsed >= 3 || game.finished) return;
  game.held[slot] = !game.held[slot];
}

/** Score the dice in `category` and pass the turn on. */
export function score(solver, game, category) {
  const points = possible(solver, game)[category];
  if (points === undefined) throw new Error(`cannot score in ${category}`);
  rate(solver, game, { action: "score", category });
  game.moves?.push({ action: `score ${category}` });
  game.sheets[game.player][category] = points;
  game.dice = null;
  game.held = [false, false, false, false, false];
  game.rollsUsed = 0;
  game.player += 1;
  if (game.player === game.players.length) {
    game.player = 0;
    game.round += 1;
  }
  game.finished = game.round === ROUNDS;
  game.updated = Date.now();
  return points;
}

// A small generator seeded by the game's seed and its move count, so a random bot's moves
// follow from the game (mulberry32).
function generator(game) {
  let a = (parseInt(game.seed.slice(0, 8), 16) ^ (game.decisions.length * 0x9e3779b9)) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

// The engine's bots (yacht.bots), deciding from the same information; their random choices
// come from the page's generator, not Python's, so a seed does not replay a server's game.
function greedy(solver, game) {
  const counts = [0, 0, 0, 0, 0, 0, 0];
  for (const face of game.dice) counts[face] += 1;
  const points = possible(solver, game);
  const n = solver.categories.length;
  const top = (c) => {
    const i = solver.categories.indexOf(c);
    let best = 0;
    for (let r = 0; r < ROLLS.length; r++) best = Math.max(best, solver.points[r * n + i]);
    return best;
  };
  const perfect = Object.entries(points).some(([c, p]) => p === top(c));
  let face = 6;
  for (let f = 5; f >= 1; f--) if (counts[f] > counts[face]) face = f;
  if (rollsLeft(game) > 0 && !perfect && counts[face] < 5) {
    return { action: "keep", keep: Array(counts[face]).fill(face) };
  }
  let category = null;
  for (const c of solver.categories) if (c in points && (category === null || points[c] > points[category])) category = c;
  return { action: "score", category };
}

function noisy(options, temperature, random) {
  const top = Math.max(...options.map((o) => o.expected));
  const weights = options.map((o) => Math.exp((o.expected - top) / temperature));
  let pick = random() * weights.reduce((a, b) => a + b, 0);
  for (let i = 0; i < options.length; i++) {
    pick -= weights[i];
    if (pick < 0) return options[i];
  }
  return options[0];
}

/** The choice of the bot to move, once its dice are rolled. */
export function botChoice(solver, game) {
  const kind = game.players[game.player].kind;
  const ranked = options(solver, game).options;
  const random = generator(game);
  if (kind === "random") return ranked[Math.floor(random() * ranked.length)]; // every keep of 0-4 dice and every open box
  if (kind === "greedy") return greedy(solver, game);
  if (kind in TEMPERATURES) return noisy(ranked, TEMPERATURES[kind], random);
  return ranked[0];
}

/** One move of the bot to move: roll, hold and roll again, or score. */
export async function botMove(solver, game) {
  if (!game.dice) return roll(solver, game);
  const choice = botChoice(solver, game);
  if (choice.action === "keep") {
    const wanted = [...choice.keep];
    game.held = game.dice.map((face) => {
      const at = wanted.indexOf(face);
      if (at < 0) return false;
      wanted.splice(at, 1);
      return true;
    });
    return roll(solver, game);
  }
  score(solver, game, choice.category);
}

export function isBotTurn(game) {
  return !game.finished && game.players[game.player].kind !== "human";
}

/** What the server needs to put a finished game into the account's history (POST
 * api/me/offline-games), or null when it cannot: not finished, played before moves were
 * recorded, or no person at it (the account's seat is the first person's). */
export function syncRecord(solver, game) {
  const seat = game.players.findIndex((p) => p.kind === "human");
  if (!game.finished || !game.moves || seat < 0) return null;
  return {
    id: game.id,
    preset: game.preset,
    seed: game.seed,
    players: game.players.map((p) => p.kind),
    seat,
    moves: game.moves,
    totals: totals(solver, game),
    finished_at: new Date(game.updated).toISOString(),
  };
}

/** Points lost per seat over the game. */
export function losses(game) {
  const out = game.players.map(() => 0);
  for (const d of game.decisions) out[d.seat] += d.loss;
  return out;
}
