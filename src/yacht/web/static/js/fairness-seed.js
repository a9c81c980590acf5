// Fair dice on the page (docs/web/fairness.md): this browser's own seed for every game it
// plays, made with crypto.getRandomValues once the game's commitment is on screen, sent with
// the join (the opener's too, from the lobby) and, for a rematch, as soon as the next game's
// commitment is published; kept with the commitment it was given against, so "Check every
// roll" can tell whether the server changed its seed afterwards or left this seed out of the
// dice key.
import { hex, verifyGame } from "./fair.js";
import { t } from "./i18n.js";

const sent = new Set(); // "code:game:seat" given in this page's life

function load(code) {
  try {
    return JSON.parse(localStorage.getItem(`yacht:fair:${code}`) || "{}");
  } catch {
    return {};
  }
}

function makeSeed() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return hex(bytes);
}

// This browser's seed for game `number` at table `code`, made now if new, kept with the
// commitment it is given against.
export function seedFor(code, number, commitment) {
  const all = load(code);
  if (!all[number] || all[number].commitment !== commitment) {
    all[number] = { seed: makeSeed(), commitment };
    localStorage.setItem(`yacht:fair:${code}`, JSON.stringify(all));
  }
  return all[number].seed;
}

// On every state: give this browser's seats' seeds for the next game once its commitment is out.
export function contribute(table, mine, send) {
  const fair = table.game.fair;
  if (!fair || !fair.next_commitment) return;
  const next = table.game.number + 1;
  for (const [key, token] of Object.entries(mine)) {
    const seat = Number(key);
    const done = `${table.code}:${next}:${seat}`;
    if (sent.has(done) || fair.next_contributions.some((c) => c.seat === seat)) continue;
    if (table.seats[seat]?.kind === "bot") continue;
    const seed = seedFor(table.code, next, fair.next_commitment);
    if (send({ type: "seed", seat, token, game: next, seed })) sent.add(done);
  }
}

// The seeds part of the fair-dice box: this browser's seed, everyone's, the key once fixed.
export function seedLines(table, esc, t) {
  const g = table.game;
  const fair = g.fair;
  if (!fair) return "";
  const mine = (load(table.code)[g.number] || {}).seed;
  const seeds = fair.contributions.map((c) => `<li><bdi>${esc(table.seats[c.seat]?.name || `#${c.seat + 1}`)}</bdi>: <code class="hash">${esc(c.seed)}</code></li>`);
  return (
    (mine ? `<p>${esc(t("Your seed"))}: <code class="hash" id="my-seed">${esc(mine)}</code></p>` : "") +
    (seeds.length ? `<p>${esc(t("Players' seeds"))}:</p><ul class="seeds">${seeds.join("")}</ul>` : "") +
    (fair.key ? `<p>${esc(t("Dice key"))}:</p><p><code class="hash">${esc(fair.key)}</code></p>` : "") +
    (fair.key && !seeds.length ? `<p class="muted" id="server-alone">${esc(t("No player's seed is in the dice key: the server deals this game alone."))}</p>` : "")
  );
}

// What this browser adds to checking a finished game file: the commitment it saw, and its
// seed among the seeds of the dice key.
export function checkSeeds(data, code) {
  const fair = data.fair || {};
  const problems = [];
  const number = (data.table || {}).game;
  const mine = code ? load(code)[number] : undefined;
  if (mine && mine.commitment !== fair.commitment) problems.push(t("the file's commitment is not the one this browser saw: the server changed its seed"));
  const seeds = Array.isArray(fair.contributions) ? fair.contributions : [];
  if (mine && !seeds.some((c) => c.seed === mine.seed)) problems.push(t("this browser's seed is not among the seeds of the dice key"));
  return problems;
}

// The full check of a finished game file: the file on its own (fair.js), then what this
// browser remembers of the game at table `code`.
export async function checkGame(data, code) {
  const result = await verifyGame(data);
  result.problems.push(...checkSeeds(data, code));
  result.fair = result.fair && result.problems.length === 0;
  result.alone = result.alone && result.problems.length === 0;
  return result;
}
