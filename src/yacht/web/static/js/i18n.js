// Texts of the page: gettext domain yacht_web, fetched as JSON from /api/i18n/{lang}.
// Every call is t(msgid, params) where the msgid is the English text; a text with a count in it
// is tn(singular, plural, n, params), and numbers are written by number() and percent().
const KEY = "yacht:lang";
let messages = {};
let plurals = {};
let categories = {};
let languages = { en: "English", fi: "Suomi", bg: "Български", nb: "Norsk bokmål" };
let current = "en";

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

export function t(msgid, params = {}) {
  return fill(messages[msgid] || msgid, params);
}

// A text whose English word has more than one role ("random": who starts, or a bot level); the
// catalog keys it as gettext does, context and msgid joined by U+0004.
export function pgettext(context, msgid, params = {}) {
  return fill(messages[`${context}\u0004${msgid}`] || msgid, params);
}

// A time in seconds with the language's unit: "30 s" (fi), "30 сек" (bg), "2 min"; whole
// minutes from two on.
export function duration(seconds) {
  const minutes = seconds >= 120 && seconds % 60 === 0;
  return new Intl.NumberFormat(current, {
    style: "unit",
    unit: minutes ? "minute" : "second",
    unitDisplay: "short",
  }).format(minutes ? seconds / 60 : seconds);
}

// Which of a plural message's forms fits n. The catalogs of en, fi, bg and nb all have
// Plural-Forms: nplurals=2; plural=(n != 1), i.e. CLDR's "one" then "other" (a test checks
// that Intl.PluralRules agrees for every language).
export function pluralForm(n) {
  return new Intl.PluralRules(current).select(n) === "one" ? 0 : 1;
}

// The message for the count n ("{n} roll" / "{n} rolls"); params fill its placeholders and n
// is there as {n} too, written the language's way.
export function plural(singular, pluralText, n) {
  const forms = plurals[singular] || [singular, pluralText];
  return forms[Math.min(pluralForm(n), forms.length - 1)];
}

export function tn(singular, pluralText, n, params = {}) {
  return fill(plural(singular, pluralText, n), { n: number(n), ...params });
}

// A number as the page's language writes it: digits decimals (none by default), "110,2" in fi.
export function number(value, digits = 0) {
  return new Intl.NumberFormat(current, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}

// A fraction (0.308) as a percentage: "30,8 %" in fi and nb, "30,8%" in bg and en.
export function percent(fraction, digits = 0) {
  return new Intl.NumberFormat(current, {
    style: "percent",
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(fraction);
}

export function categoryLabel(category) {
  return categories[category] || category.replace(/_/g, " ");
}

export function language() {
  return current;
}

export function pickLanguage() {
  const saved = localStorage.getItem(KEY);
  if (saved && saved in languages) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    let code = tag.toLowerCase().split("-")[0];
    if (code === "no" || code === "nn") code = "nb";
    if (code in languages) return code;
  }
  return "en";
}

export async function loadLanguage(code) {
  const response = await fetch(new URL(`api/i18n/${code}`, document.baseURI));
  if (!response.ok) throw new Error(`no texts for ${code}`);
  const data = await response.json();
  messages = data.messages;
  plurals = data.plurals || {};
  categories = data.categories;
  languages = data.languages;
  current = code;
  localStorage.setItem(KEY, code);
  document.documentElement.lang = code;
  applyStatic();
}

// Static markup carries its msgid in data-i18n (text), data-i18n-label (aria-label),
// data-i18n-placeholder and data-i18n-title; data-i18n-context gives the text's context.
export function applyStatic(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    const context = el.dataset.i18nContext;
    el.textContent = context ? pgettext(context, el.dataset.i18n) : t(el.dataset.i18n);
  }
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  }
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) {
    el.setAttribute("placeholder", t(el.dataset.i18nPlaceholder));
  }
  for (const el of root.querySelectorAll("[data-i18n-title]")) {
    el.setAttribute("title", t(el.dataset.i18nTitle));
  }
}

// Fill the language <select> and reload texts when it changes; onChange re-renders.
export async function setupLanguages(select, onChange) {
  await loadLanguage(pickLanguage());
  select.innerHTML = Object.entries(languages)
    .map(([code, name]) => `<option value="${code}">${name}</option>`)
    .join("");
  select.value = current;
  select.addEventListener("change", async () => {
    await loadLanguage(select.value);
    if (onChange) onChange();
  });
}
