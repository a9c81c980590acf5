// The moves of a game in words: the log of the table page and the replay's step line.
import { smallDice } from "./dice.js";
import { categoryLabel, t } from "./i18n.js";
import { esc } from "./api.js";

// One event in words. A hold names the faces held (from `dice`, the dice on the table then),
// never the positions: "held 1 4 5" right after a roll reads as faces.
export function eventText(event, names, dice = null) {
  const name = names[event.seat] ?? "?";
  const [verb, ...args] = event.action.split(" ");
  if (verb === "roll") return t("{name} rolled {dice}", { name, dice: event.dice.join(" ") });
  if (verb === "hold") {
    if (!args.length) return t("{name} released all dice", { name });
    const faces = heldFaces(args, dice);
    return faces
      ? t("{name} held {dice}", { name, dice: faces.join(" ") })
      : t("{name} held {count} dice", { name, count: args.length });
  }
  if (verb === "score") {
    return t("{name} scored {points} in {category}", { name, points: event.points, category: categoryLabel(args[0]) });
  }
  return `${name}: ${event.action}`;
}

function heldFaces(positions, dice) {
  if (!dice) return null;
  return positions.map((p) => dice[Number(p) - 1]).sort((a, b) => a - b);
}

// Who starts, from the start rolls: a roll-off (every player, then the tied ones again) or a
// single die that picks a seat.
export function startText(rule, rolls, first, names) {
  if (!rolls || !rolls.length) return "";
  const starts = t("{name} starts.", { name: names[first] });
  if (rule === "random") {
    const faces = rolls.map((r) => r[0]).join(", ");
    return `${t("A die picked the first player: {faces}.", { faces })} ${starts}`;
  }
  let contenders = names.map((_, i) => i);
  const rounds = rolls.map((faces) => {
    const text = faces.map((f, i) => `${names[contenders[i]]} ${f}`).join(", ");
    const top = Math.max(...faces);
    contenders = contenders.filter((_, i) => faces[i] === top);
    return text;
  });
  return `${t("Roll-off: {rolls}.", { rolls: rounds.join(` · ${t("tie, again")}: `) })} ${starts}`;
}

// The log, newest first: each roll with its dice drawn, each hold with the faces held, and the
// start rolls at the bottom once the first move is in view.
export function logHtml(game, names, startRule) {
  let dice = null;
  const items = game.recent.map((e) => {
    if (e.action === "roll") dice = e.dice;
    const held = e.action.startsWith("hold ") && dice
      ? smallDice(e.action.split(" ").slice(1).map((p) => dice[Number(p) - 1]).sort((a, b) => a - b))
      : "";
    const rolled = e.dice && e.action === "roll" ? smallDice(e.dice) : "";
    const text = eventText(e, names, dice);
    if (e.action.startsWith("score")) dice = null;
    return `<li>${esc(text)}${rolled}${held}</li>`;
  });
  const first = game.recent.length === 0 || game.recent[0].version === 1;
  const start = first ? startText(startRule, game.start_rolls, game.first, names) : "";
  if (start) items.unshift(`<li class="start">${esc(start)}</li>`);
  return items.reverse().join("") || `<li class="muted">${esc(t("No moves yet."))}</li>`;
}
