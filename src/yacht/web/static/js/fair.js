// Provably fair dice, checked in the browser (docs/web/fairness.md): the dice key against the
// commitment and the players' seeds, and every roll of a finished game re-derived from the
// revealed seed, as `yacht verify` does. Rule 3 deals each die by its place (seat, turn, roll,
// slot: yacht.dice.PlacedDice); rules 2 and 1 (older games) from one counter (FairDice).
// HMAC-SHA256 and SHA-256 come from Web Crypto (crypto.subtle); a page served over plain http
// from a LAN address is not a secure context and has no crypto.subtle, so the same functions
// in plain JavaScript below stand in there.
import { t, tn } from "./i18n.js";

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

export function sha256(bytes) {
  const length = bytes.length;
  const padded = new Uint8Array(((length + 9 + 63) >> 6) << 6);
  padded.set(bytes);
  padded[length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor((length * 8) / 2 ** 32));
  view.setUint32(padded.length - 4, (length * 8) >>> 0);
  const h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const w = new Uint32Array(64);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(offset + i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  h.forEach((x, i) => outView.setUint32(i * 4, x));
  return out;
}

const encoder = new TextEncoder();

export function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function hmacSha256(key, message) {
  let k = key.length > 64 ? sha256(key) : key;
  const block = new Uint8Array(64);
  block.set(k);
  const inner = new Uint8Array(64 + message.length);
  const outer = new Uint8Array(64 + 32);
  for (let i = 0; i < 64; i++) {
    inner[i] = block[i] ^ 0x36;
    outer[i] = block[i] ^ 0x5c;
  }
  inner.set(message, 64);
  outer.set(sha256(inner), 64);
  return sha256(outer);
}

// Die number `index` (0-based) of rules 1 and 2: exactly yacht.dice.FairDice.die.
export function fairDie(serverSeed, clientSeed, index) {
  const key = encoder.encode(serverSeed);
  for (let counter = 0; ; counter++) {
    const digest = hmacSha256(key, encoder.encode(`${clientSeed}:${index}:${counter}`));
    for (const byte of digest) if (byte < 252) return (byte % 6) + 1;
  }
}

const subtle = globalThis.isSecureContext ? globalThis.crypto?.subtle : undefined;

export async function sha256Hex(text) {
  const bytes = encoder.encode(text);
  return hex(subtle ? new Uint8Array(await subtle.digest("SHA-256", bytes)) : sha256(bytes));
}

// HMAC-SHA256 under the server seed, label by label.
function macUnder(serverSeed) {
  const secret = encoder.encode(serverSeed);
  if (!subtle) return async (label) => hmacSha256(secret, encoder.encode(label));
  const key = subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return async (label) => new Uint8Array(await subtle.sign("HMAC", await key, encoder.encode(label)));
}

// The face a label deals: the first HMAC byte under 252 (6 * 42: every face equally likely),
// counter by counter.
async function faceOf(mac, label) {
  for (let counter = 0; ; counter++) {
    for (const byte of await mac(`${label}:${counter}`)) if (byte < 252) return (byte % 6) + 1;
  }
}

// The face of slot `slot` (0-4) at roll `roll` (0-2) of seat `seat`'s turn `turn` (0-11), rule 3.
export async function placedFace(serverSeed, key, seat, turn, roll, slot) {
  return faceOf(macUnder(serverSeed), `${key}:${seat}:${turn}:${roll}:${slot}`);
}

// The dice key of rules 2 and 3: SHA-256 of the rule's label, the commitment and each seat's
// seed, by seat, one a line (fairness.dice_key).
export async function diceKey(commitment, contributions, rule) {
  const lines = [`yacht-fair-${rule}`, String(commitment).toLowerCase()];
  for (const c of [...contributions].sort((a, b) => a.seat - b.seat)) lines.push(`${c.seat}:${c.seed}`);
  return sha256Hex(lines.join("\n") + "\n");
}

const KIND = { 1: "fair", 2: "fair", 3: "placed" };

// The rule the file names and the problem with it, if any: none named, unknown, or dice of
// another kind than the rule deals. Without its rule nothing says how to check the file.
function ruleOf(fair, dice) {
  if (!("rule" in fair)) return { problem: t("the file names no fair dice rule, so nothing says how its dice were dealt") };
  const rule = fair.rule;
  if (!Object.hasOwn(KIND, String(rule)) || typeof rule !== "number") return { problem: t("unknown fair dice rule {rule}", { rule: JSON.stringify(rule) }) };
  if (dice.kind !== KIND[rule]) return { problem: t("rule {rule} deals {expected} dice, the file has {kind}", { rule, expected: KIND[rule], kind: JSON.stringify(dice.kind) }) };
  return { rule };
}

// Check a finished game file on its own, as `yacht verify FILE` does: the seed against the
// commitment, the rule, the key against the commitment and the seeds, every die. `fair`: all
// holds and the key has a player's seed in it; `alone`: all holds but the server dealt alone.
export async function verifyGame(data) {
  const problems = [];
  const dice = data.dice || {};
  const fair = data.fair || {};
  const seed = dice.server_seed;
  const commitment = fair.commitment;
  const result = { fair: false, alone: false, rule: null, seeds: 0, rolls: 0, dice: 0, problems };
  if (!seed || !commitment) {
    problems.push(t("no revealed seed"));
    return result;
  }
  if ((await sha256Hex(seed)) !== String(commitment).toLowerCase()) {
    problems.push(t("the revealed seed does not match the published commitment"));
  }
  const { rule, problem } = ruleOf(fair, dice);
  if (problem) {
    problems.push(problem);
    return result;
  }
  result.rule = rule;
  const key = (rule === 3 ? dice.key : dice.client_seed) || "";
  if (rule !== 1) {
    const contributions = Array.isArray(fair.contributions) ? fair.contributions : [];
    result.seeds = contributions.length;
    if ((await diceKey(commitment, contributions, rule)) !== key) {
      problems.push(t("the dice key is not the one the commitment and the players' seeds make"));
    }
  }
  const mac = macUnder(seed);
  let index = 0; // rules 1 and 2: the one counter over the whole game
  let rolloffs = 0; // rule 3: the start's roll-off has labels of its own
  const draw = (label) => {
    result.dice += 1;
    return faceOf(mac, label);
  };
  const roll = async (n) => {
    const out = [];
    for (let i = 0; i < n; i++) out.push(await draw(rule === 3 ? `${key}:rolloff:${rolloffs++}` : `${key}:${index++}`));
    return out;
  };
  const players = data.players.length;
  const start = data.start || { rule: "seat", first: 0, rolls: [] };
  const startRolls = [];
  let first = 0;
  if (start.rule === "random") {
    for (;;) {
      const [face] = await roll(1);
      startRolls.push([face]);
      if (face <= players) { first = face - 1; break; }
    }
  } else if (start.rule === "roll-off") {
    let contenders = [...Array(players).keys()];
    for (;;) {
      const faces = await roll(contenders.length);
      startRolls.push(faces);
      const top = Math.max(...faces);
      contenders = contenders.filter((_, i) => faces[i] === top);
      if (contenders.length === 1) { first = contenders[0]; break; }
    }
  }
  if (JSON.stringify(startRolls) !== JSON.stringify(start.rolls || []) || first !== (start.first || 0)) {
    problems.push(t("the start rolls do not follow from the seed"));
  }
  const turns = new Array(players).fill(0); // each seat's scores so far: its turn number
  let current = null;
  let held = new Set();
  let rollsThisTurn = 0;
  for (const [i, event] of data.events.entries()) {
    if (problems.length) break;
    const [verb, ...args] = event.action.split(" ");
    if (verb === "roll") {
      result.rolls += 1;
      const next = current ? [...current] : [0, 0, 0, 0, 0];
      for (let p = 1; p <= 5; p++) {
        if (current && held.has(p)) continue;
        next[p - 1] = await draw(rule === 3 ? `${key}:${event.player}:${turns[event.player]}:${rollsThisTurn}:${p - 1}` : `${key}:${index++}`);
      }
      if (JSON.stringify(next) !== JSON.stringify(event.dice)) {
        problems.push(
          t("move {n}: recorded {recorded}, the seed gives {derived}", { n: i + 1, recorded: (event.dice || []).join(" "), derived: next.join(" ") }),
        );
      }
      current = event.dice;
      rollsThisTurn += 1;
    } else if (verb === "hold") {
      held = new Set(args.map(Number));
    } else if (verb === "score") {
      turns[event.player] += 1;
      current = null;
      held = new Set();
      rollsThisTurn = 0;
    } else {
      problems.push(t("move {n}: {action} cannot be checked here", { n: i + 1, action: event.action }));
    }
  }
  result.alone = problems.length === 0 && result.seeds === 0;
  result.fair = problems.length === 0 && !result.alone;
  return result;
}

// The verdict in words: fair (by which rule), dealt by the server alone, or not fair and why.
// The counts come first: the extraction reads no t() inside another t()'s arguments.
export function verdictText(result) {
  if (result.problems.length) return `${t("NOT fair")}: ${result.problems.join("; ")}`;
  const rolls = tn("{n} roll", "{n} rolls", result.rolls);
  const dice = tn("{n} die", "{n} dice", result.dice);
  if (result.alone) {
    return t("Dealt by the server alone (rule {rule}): no player's seed is in the dice key, though all {rolls} ({dice}) follow from the revealed seed.", { rule: result.rule, rolls, dice });
  }
  return t("Fair by rule {rule}: all {rolls} ({dice}) follow from the revealed seed and the players' seeds.", { rule: result.rule, rolls, dice });
}

// Show a verdict in its box: green only when fair.
export function showVerdict(box, result) {
  box.className = `verdict ${result.fair ? "ok" : "bad"}`;
  box.textContent = verdictText(result);
}
