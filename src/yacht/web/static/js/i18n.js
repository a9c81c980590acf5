// Texts of the page: gettext domain yacht_web, fetched as JSON from /api/i18n/{lang}.
// Every call is t(msgid, params) where the msgid is the English text.
const KEY = "yacht:lang";
let messages = {};
let categories = {};
let languages = { en: "English", fi: "Suomi", bg: "Български", nb: "Norsk bokmål" };
let current = "en";

export function t(msgid, params = {}) {
  const text = messages[msgid] || msgid;
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
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
  const response = await fetch(`/api/i18n/${code}`);
  if (!response.ok) throw new Error(`no texts for ${code}`);
  const data = await response.json();
  messages = data.messages;
  categories = data.categories;
  languages = data.languages;
  current = code;
  localStorage.setItem(KEY, code);
  document.documentElement.lang = code;
  applyStatic();
}

// Static markup carries its msgid in data-i18n (text), data-i18n-label (aria-label),
// data-i18n-placeholder and data-i18n-title.
export function applyStatic(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
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
