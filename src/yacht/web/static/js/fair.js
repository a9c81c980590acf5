// Provably fair dice, checked in the browser: SHA-256 and HMAC-SHA256 in plain JavaScript
// (crypto.subtle needs a secure context, which a LAN address is not), the same derivation as
// yacht.dice.FairDice, and a re-derivation of every roll of a finished game.
import { t } from "./i18n.js";

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

// Die number `index` (0-based): exactly yacht.dice.FairDice.die.
export function fairDie(serverSeed, clientSeed, index) {
  const key = encoder.encode(serverSeed);
  for (let counter = 0; ; counter++) {
    const digest = hmacSha256(key, encoder.encode(`${clientSeed}:${index}:${counter}`));
    for (const byte of digest) if (byte < 252) return (byte % 6) + 1;
  }
}

// Re-derive every die of a finished game file: the start rolls and every roll.
export function verifyGame(data) {
  const problems = [];
  const dice = data.dice || {};
  const seed = dice.server_seed;
  const client = dice.client_seed || "";
  const commitment = (data.fair || {}).commitment;
  if (!seed || !commitment) return { fair: false, rolls: 0, dice: 0, problems: [t("no revealed seed")] };
  if (hex(sha256(encoder.encode(seed))) !== commitment.toLowerCase()) {
    problems.push(t("the revealed seed does not match the published commitment"));
  }
  let index = 0;
  const roll = (n) => Array.from({ length: n }, () => fairDie(seed, client, index++));
  const players = data.players.length;
  const start = data.start || { rule: "seat", first: 0, rolls: [] };
  const startRolls = [];
  let first = 0;
  if (start.rule === "random") {
    for (;;) {
      const [face] = roll(1);
      startRolls.push([face]);
      if (face <= players) { first = face - 1; break; }
    }
  } else if (start.rule === "roll-off") {
    let contenders = [...Array(players).keys()];
    for (;;) {
      const faces = roll(contenders.length);
      startRolls.push(faces);
      const top = Math.max(...faces);
      contenders = contenders.filter((_, i) => faces[i] === top);
      if (contenders.length === 1) { first = contenders[0]; break; }
    }
  }
  if (JSON.stringify(startRolls) !== JSON.stringify(start.rolls || []) || first !== (start.first || 0)) {
    problems.push(t("the start rolls do not follow from the seed"));
  }
  let current = null;
  let held = new Set();
  let rolls = 0;
  data.events.forEach((event, i) => {
    if (problems.length) return;
    const [verb, ...args] = event.action.split(" ");
    if (verb === "roll") {
      rolls += 1;
      const next = current ? [...current] : [0, 0, 0, 0, 0];
      for (let p = 1; p <= 5; p++) if (!current || !held.has(p)) next[p - 1] = roll(1)[0];
      if (JSON.stringify(next) !== JSON.stringify(event.dice)) {
        problems.push(
          t("move {n}: recorded {recorded}, the seed gives {derived}", { n: i + 1, recorded: event.dice.join(" "), derived: next.join(" ") }),
        );
      }
      current = event.dice;
    } else if (verb === "hold") {
      held = new Set(args.map(Number));
    } else if (verb === "score") {
      current = null;
      held = new Set();
    } else {
      problems.push(t("move {n}: {action} cannot be checked here", { n: i + 1, action: event.action }));
    }
  });
  return { fair: problems.length === 0, rolls, dice: index, problems };
}
