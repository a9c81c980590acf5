// Markup with player names in it. A name is free text in any script: it is escaped and isolated
// in a <bdi>, so a right-to-left name cannot reorder the sentence or row around it; a
// translated message with a {name} in it is escaped part by part, the isolated name put in.
import { esc } from "./api.js";
import { number, plural, t } from "./i18n.js";

// Markup already safe to insert (its text escaped), told apart from text that still needs it.
export class Markup {
  constructor(html) {
    this.html = html;
  }

  toString() {
    return this.html;
  }
}

export function markup(html) {
  return new Markup(html);
}

// A name, escaped and isolated.
export function nameHtml(name) {
  return markup(`<bdi>${esc(name)}</bdi>`);
}

// Names in a row, each isolated, the separator escaped.
export function namesHtml(names, separator = ", ") {
  return markup(names.map((n) => nameHtml(n).html).join(esc(separator)));
}

// t(msgid, params) as markup: the message's words escaped, each parameter escaped unless it is
// Markup already (a nameHtml), which goes in as it is.
export function tHtml(msgid, params = {}) {
  return fillHtml(t(msgid), params);
}

// tn(singular, plural, n, params) as markup, as tHtml is to t.
export function tnHtml(singular, pluralText, n, params = {}) {
  return fillHtml(plural(singular, pluralText, n), { n: number(n), ...params });
}

function fillHtml(text, params) {
  return markup(
    text
      .split(/(\{\w+\})/)
      .map((part, i) => {
        const key = part.slice(1, -1);
        if (i % 2 === 0 || !(key in params)) return esc(part);
        const value = params[key];
        return value instanceof Markup ? value.html : esc(value);
      })
      .join(""),
  );
}
