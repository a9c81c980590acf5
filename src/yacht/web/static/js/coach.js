// The coach in words: a hint option's reasons (codes and numbers from yacht.strategy.explain)
// as whole sentences in the page's language, one msgid per sentence (the same English as the
// command line's, yacht.coach).
import { categoryLabel, number, percent, t, tn } from "./i18n.js";

function chance(p) {
  return percent(p, p >= 0.1 ? 0 : 1);
}

// A difference with its sign and one decimal: +1.2, -0.4 (the language's minus), ±0.0.
export function signed(value) {
  const shown = number(Math.abs(value), 1);
  if (shown === number(0, 1)) return `±${shown}`;
  return value > 0 ? `+${shown}` : number(value, 1);
}

export function reasonText(reason) {
  const a = reason.args;
  const p = {};
  if ("dice" in a) p.dice = a.dice.join(" ");
  if ("chance" in a) p.chance = chance(a.chance);
  if ("chance2" in a) p.chance2 = chance(a.chance2);
  for (const key of ["category", "category2", "other"]) if (key in a) p[key] = categoryLabel(a[key]);
  if ("points" in a) p.points = number(a.points);
  const vs = reason.code.startsWith("vs_");
  for (const key of ["now", "later", "net"]) if (key in a) p[key] = vs ? signed(a[key]) : number(a[key], 1);
  switch (reason.code) {
    case "keep_two":
      return t("Keep {dice}: {chance} chance of {category} and {chance2} of {category2}, the rest of the turn played best.", p);
    case "keep_one":
      return t("Keep {dice}: {chance} chance of {category}, the rest of the turn played best.", p);
    case "keep_ends":
      return t("Keep {dice}: the turn ends in {category} {chance} of the time, the rest of it played best.", p);
    case "all_two":
      return t("Roll all five again: {chance} chance of {category} and {chance2} of {category2}, the rest of the turn played best.", p);
    case "all_one":
      return t("Roll all five again: {chance} chance of {category}, the rest of the turn played best.", p);
    case "all_ends":
      return t("Roll all five again: the turn ends in {category} {chance} of the time, the rest of it played best.", p);
    case "score_now":
      return t("Scoring {points} in {category} now leaves open categories worth {later} on average.", p);
    case "vs_keep":
      return t("Keeping {dice} instead changes this turn's expected points by {now} and the value of what stays open by {later}.", p);
    case "vs_all":
      return t("Rolling all five again instead changes this turn's expected points by {now} and the value of what stays open by {later}.", p);
    case "vs_score":
      return t("Scoring {points} in {category} instead changes this turn's points by {now} and the value of what stays open by {later}.", p);
    case "score_keeps_open":
      return tn(
        "Scoring {points} in {category} now leaves {other} open: {lost} point fewer now, worth {later} more later, {net} more in all.",
        "Scoring {points} in {category} now leaves {other} open: {lost} points fewer now, worth {later} more later, {net} more in all.",
        Math.round(a.lost),
        { ...p, lost: number(Math.round(a.lost)) },
      );
    default:
      return "";
  }
}
