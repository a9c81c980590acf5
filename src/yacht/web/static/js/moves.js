// The moves of a game in words: the log of the table page and the replay's step line.
import { smallDice } from "./dice.js";
import { categoryLabel, t } from "./i18n.js";
import { esc } from "./api.js";
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
    const text = eventHtml(e, names, dice);
    if (e.action.startsWith("score")) dice = null;
    return `<li>${text}${rolled}${held}</li>`;
  });
  const first = game.recent.length === 0 || game.recent[0].version === 1;
  const start = first ? startHtml(startRule, game.start_rolls, game.first, names) : "";
  if (start) items.unshift(`<li class="start">${start}</li>`);
  return items.reverse().join("") || `<li class="muted">${esc(t("No moves yet."))}</li>`;
}
