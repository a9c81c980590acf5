// The moves of a game in words: the log of the table page and the replay's step line.
import { smallDice } from "./dice.js";
import { categoryLabel, t } from "./i18n.js";
import { api, esc } from "./api.js";
import { markup, nameHtml, tHtml, tnHtml } from "./markup.js";

// One event in words (markup, the name isolated). A hold names the faces held (from `dice`, the
// dice on the table then), never the positions: "held 1 4 5" right after a roll reads as faces.
export function eventHtml(event, names, dice = null) {
  const name = nameHtml(names[event.seat] ?? "?");
  const [verb, ...args] = event.action.split(" ");
  if (verb === "roll") return tHtml("{name} rolled {dice}", { name, dice: event.dice.join(" ") });
  if (verb === "hold") {
    if (!args.length) return tHtml("{name} released all dice", { name });
    const faces = heldFaces(args, dice);
    return faces
      ? tHtml("{name} held {dice}", { name, dice: faces.join(" ") })
      : tnHtml("{name} held {n} die", "{name} held {n} dice", args.length, { name });
  }
  if (verb === "score") {
    return tHtml("{name} scored {points} in {category}", { name, points: event.points, category: categoryLabel(args[0]) });
  }
  return markup(`${name}: ${esc(event.action)}`);
}

function heldFaces(positions, dice) {
  if (!dice) return null;
  return positions.map((p) => dice[Number(p) - 1]).sort((a, b) => a - b);
}

// Who starts, from the start rolls: a roll-off (every player, then the tied ones again) or a
// single die that picks a seat. Markup, the names isolated; "" when there were none.
export function startHtml(rule, rolls, first, names) {
  if (!rolls || !rolls.length) return "";
  const starts = tHtml("{name} starts.", { name: nameHtml(names[first]) });
  if (rule === "random") {
    const faces = rolls.map((r) => r[0]).join(", ");
    return `${tHtml("A die picked the first player: {faces}.", { faces })} ${starts}`;
  }
  let contenders = names.map((_, i) => i);
  const rounds = rolls.map((faces) => {
    const text = faces.map((f, i) => `${nameHtml(names[contenders[i]])} ${f}`).join(", ");
    const top = Math.max(...faces);
    contenders = contenders.filter((_, i) => faces[i] === top);
    return text;
  });
  const again = esc(` · ${t("tie, again")}: `);
  return `${tHtml("Roll-off: {rolls}.", { rolls: markup(rounds.join(again)) })} ${starts}`;
}

// Every move of the game so far. The state carries only the last few (`recent`); the earlier
// ones are read once from the game's file and kept, so the card scrolls back to the first roll.
const kept = { id: null, events: [], loading: false, failed: false };
let loaded = () => {};

// `fn` is called when the earlier moves have come (the page draws them then).
export function whenMovesLoaded(fn) {
  loaded = fn;
}

export function allMoves(game) {
  if (kept.id !== game.id) Object.assign(kept, { id: game.id, events: [], loading: false, failed: false });
  if (kept.events.length && kept.events[kept.events.length - 1].version > game.version) {
    kept.events = kept.events.filter((e) => e.version <= game.version); // taken back
  }
  const last = kept.events.length ? kept.events[kept.events.length - 1].version : 0;
  const fresh = game.recent.filter((e) => e.version > last);
  if (fresh.length && fresh[0].version === last + 1) kept.events.push(...fresh);
  else if (fresh.length && !kept.loading && !kept.failed) readMoves(game.id);
  const newest = game.recent.length ? game.recent[game.recent.length - 1].version : 0;
  const whole = kept.events.length && kept.events[kept.events.length - 1].version >= newest;
  return whole ? kept.events : game.recent;
}

async function readMoves(id) {
  kept.loading = true;
  try {
    const file = await api(`api/games/${id}`);
    if (kept.id !== id) return;
    const events = file.events.map((e, i) => ({
      version: i + 1,
      seat: e.player,
      action: e.action,
      dice: e.dice ?? null,
      points: e.points ?? null,
    }));
    if (events.length >= kept.events.length) kept.events = events;
    loaded();
  } catch {
    kept.failed = true; // the last moves stay in view
  } finally {
    kept.loading = false;
  }
}

// The log, newest first: each roll with its dice drawn, each hold with the faces held, and the
// start rolls at the bottom once the first move is in view.
export function logHtml(game, names, startRule) {
  let dice = null;
  const moves = allMoves(game);
  const items = moves.map((e) => {
    if (e.action === "roll") dice = e.dice;
    const held = e.action.startsWith("hold ") && dice
      ? smallDice(e.action.split(" ").slice(1).map((p) => dice[Number(p) - 1]).sort((a, b) => a - b))
      : "";
    const rolled = e.dice && e.action === "roll" ? smallDice(e.dice) : "";
    const text = eventHtml(e, names, dice);
    if (e.action.startsWith("score")) dice = null;
    return `<li>${text}${rolled}${held}</li>`;
  });
  const first = moves.length === 0 || moves[0].version === 1;
  const start = first ? startHtml(startRule, game.start_rolls, game.first, names) : "";
  if (start) items.unshift(`<li class="start">${start}</li>`);
  return items.reverse().join("") || `<li class="muted">${esc(t("No moves yet."))}</li>`;
}
