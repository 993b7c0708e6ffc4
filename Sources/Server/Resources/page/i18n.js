// The page's words: the server's catalogue (/page/messages.json, the same messages the API
// and the terminal use), filled as the server fills them ({name}, {n|one|other}).

let messages = {};
export let language = "en";

export async function load(tag) {
  const r = await fetch(`/page/messages.json?lang=${encodeURIComponent(tag)}`);
  const body = await r.json();
  messages = body.messages;
  language = body.language;
  document.documentElement.lang = language;
}

export function fill(template, values = {}) {
  return template.replace(/\{([^}|]+)(?:\|([^}|]*)\|([^}]*))?\}/g, (whole, name, one, other) => {
    if (one !== undefined) return Number(values[name]) === 1 ? one : other;
    return name in values ? String(values[name]) : whole;
  });
}

export function t(key, values) {
  const m = messages[key];
  return m === undefined ? key : fill(m, values);
}

/** The first offered language of the browser's, else English. */
export function browserLanguage(offered) {
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const p = l.toLowerCase().split("-")[0];
    const hit = offered.find((o) => o.toLowerCase().split("-")[0] === p);
    if (hit) return hit;
  }
  return "en";
}

/** Every element marked with data-t (text), data-tp (placeholder) or data-ta (aria-label). */
export function translatePage(root = document) {
  for (const e of root.querySelectorAll("[data-t]")) e.textContent = t(e.dataset.t);
  for (const e of root.querySelectorAll("[data-tp]")) e.placeholder = t(e.dataset.tp);
  for (const e of root.querySelectorAll("[data-ta]")) e.setAttribute("aria-label", t(e.dataset.ta));
  document.title = t("page.title");
}

// Distances and durations as the server words them (Words).
export function distance(m) {
  if (m < 995) return t("words.meters", { n: Math.round(m / 10) * 10 });
  const km = (m / 1000).toFixed(1);
  return t("words.km", { n: km.endsWith(".0") ? km.slice(0, -2) : km });
}

export function minutes(m) {
  if (m < 1) return t("words.underMinute");
  if (m < 60) return t("words.minutes", { n: m });
  return m % 60 === 0 ? t("words.hours", { h: m / 60 }) : t("words.hoursMinutes", { h: Math.floor(m / 60), m: m % 60 });
}

export const duration = (seconds) => minutes(Math.ceil(seconds / 60));

/** What sets an option apart, in words (`name` or `name:value`). */
export function label(code) {
  const [name, value] = code.split(":");
  const key = `label.${name}`;
  if (!(key in messages)) return name.replace(/-/g, " ");
  return t(key, value === undefined ? {} : { duration: duration(Number(value)), n: value });
}

export const mode = (m) => t(`mode.${m}`);

/** "08:12" of an ISO time with offset, and its weekday when not on `day` (YYYY-MM-DD). */
export function clock(iso, day) {
  const hm = iso.slice(11, 16);
  const d = iso.slice(0, 10);
  if (!day || d === day) return hm;
  const weekday = (new Date(`${d}T12:00:00Z`).getUTCDay() + 6) % 7;
  return `${hm} ${t(`dayShort.${weekday}`)}`;
}

export const listSeparator = () => (language === "en" ? ", " : "、");
