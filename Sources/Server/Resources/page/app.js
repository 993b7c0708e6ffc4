// The trip planner page: a plan request from the form or the page's address, the table of
// alternatives, the chosen one's steps beside its map (one list of legs feeds both), and
// the address kept in step with what is shown (back and forward replay it).
import * as i18n from "./i18n.js";
import { t } from "./i18n.js";
import { PlaceField } from "./search.js";
import { TripMap } from "./map.js";

const $ = (id) => document.getElementById(id);
const state = { answer: null, option: 0, leg: -1, source: null, config: null, planned: 0 };
window.tripPage = { timings: [], state };

const from = new PlaceField($("from"), $("from-list"), () => $("to").value ? null : $("to").focus());
const to = new PlaceField($("to"), $("to-list"), () => $("plan").focus());
let map;

async function start() {
  const config = await fetch("/page/config.json").then((r) => r.json());
  state.config = config;
  const url = new URL(location.href);
  const offered = config.languages.map((l) => l.tag);
  const tag = url.searchParams.get("lang") || localStorage.getItem("lang") || i18n.browserLanguage(offered);
  await i18n.load(offered.includes(tag) ? tag : i18n.browserLanguage([tag, ...offered].filter((x) => offered.includes(x))));
  const select = $("lang");
  for (const l of config.languages) select.append(new Option(l.name, l.tag, false, l.tag === i18n.language));
  i18n.translatePage();
  map = new TripMap($("map"), config, (i) => selectLeg(i, false, true), (end, point) => {
    const field = end === "from" ? from : to;
    const [lat, lon] = point.split(",");
    field.set(point, t("page.point", { lat, lon }));
    if (from.place && to.place) plan();
  });
  if (!config.leaflet) $("map").textContent = "";
  setDefaultTime(url);
  fromAddress(url);
  map.drawNetwork();
  window.tripPage.ready = true;
}

/** Today and now in the browser's clock, unless the address says when. */
function setDefaultTime(url) {
  const now = new Date();
  const pad = (n) => String(n).padStart(2, "0");
  if (!$("date").value) $("date").value = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  if (!$("time").value) $("time").value = `${pad(now.getHours())}:${pad(now.getMinutes())}`;
}

/** Fills the form from the address (`?from=…&to=…&time=…`) and plans at once when it names both ends. */
function fromAddress(url) {
  const p = url.searchParams;
  const place = (field, v) => {
    if (!v) return;
    const name = p.get(`${field.input.id}Name`);
    if (/^-?\d+(\.\d+)?,-?\d+(\.\d+)?$/.test(v)) {
      const [lat, lon] = v.split(",");
      field.set(v, name || t("page.point", { lat, lon }));
    } else if (/^stop:/.test(v)) {
      field.set(v, name || v);
      // A link with a stop's id only: its name, when the server knows it.
      if (!name) stopName(v).then((n) => { if (n && field.place === v) field.input.value = n; });
    } else { field.place = null; field.input.value = v; }
  };
  place(from, p.get("from"));
  place(to, p.get("to"));
  const time = p.get("time");
  if (time && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(time)) { $("date").value = time.slice(0, 10); $("time").value = time.slice(11, 16); }
  $("kind").value = p.get("arriveBy") === "true" ? "arrive" : "leave";
  $("modes").value = p.get("modes") || "";
  $("wheelchair").checked = p.get("wheelchair") === "true";
  state.option = Math.max(0, Number(p.get("option") || 1) - 1);
  if (p.get("from") && p.get("to")) plan({ push: false, option: state.option });
}

/** The name of `stop:ID` or `stop:FEED:ID` (/v1/stops/{id}). */
async function stopName(place) {
  const parts = place.split(":");
  const id = parts.length > 2 ? parts.slice(2).join(":") : parts[1];
  const feed = parts.length > 2 ? `?feed=${encodeURIComponent(parts[1])}` : "";
  try {
    const r = await fetch(`/v1/stops/${encodeURIComponent(id)}${feed}`);
    return r.ok ? (await r.json()).stop?.name : null;
  } catch { return null; }
}

function request() {
  const q = new URLSearchParams();
  q.set("from", from.place); q.set("to", to.place);
  q.set("time", `${$("date").value}T${$("time").value}:00`);
  if ($("kind").value === "arrive") q.set("arriveBy", "true");
  if ($("modes").value) q.set("modes", $("modes").value);
  if ($("wheelchair").checked) q.set("wheelchair", "true");
  return q;
}

async function plan({ push = true, option = 0 } = {}) {
  showError(null);
  const asked = ++state.planned;
  $("status").textContent = t("page.planning");
  $("plan").disabled = true;
  try {
    const [a, b] = await Promise.all([from.resolve(), to.resolve()]);
    if (!a || !b) {
      $("status").textContent = "";
      showError(t("page.pickPlace"));
      (a ? $("to") : $("from")).focus();
      return;
    }
    const q = request();
    q.set("lang", i18n.language);
    const sent = performance.now();
    let r;
    try { r = await fetch(`/v1/plan?${q}`); } catch { showError(t("page.offline")); $("status").textContent = ""; return; }
    const body = await r.json().catch(() => null);
    const answered = performance.now();
    if (asked !== state.planned) return;
    // The address: what was asked, and the names shown, so that a shared link opens the same.
    const address = new URLSearchParams(q);
    address.delete("lang");
    address.set("lang", i18n.language);
    address.set("fromName", $("from").value); address.set("toName", $("to").value);
    if (option > 0) address.set("option", String(option + 1));
    const target = `${location.pathname}?${address}`;
    if (push && target !== location.pathname + location.search) history.pushState(null, "", target);
    else history.replaceState(null, "", target);
    if (!r.ok || !body || body.error) {
      state.answer = null;
      $("results").hidden = true;
      map.clear();
      $("status").textContent = "";
      showError(body && body.error ? body.error.message : t("page.serverError", { text: r.status }));
      return;
    }
    state.answer = body;
    render(option < body.itineraries.length ? option : body.recommended);
    // Painted: the time from the API's answer to the plan on screen.
    requestAnimationFrame(() => {
      const shown = performance.now();
      window.tripPage.timings.push({ apiMs: answered - sent, renderMs: shown - answered });
      $("results").dataset.renderMs = String(Math.round(shown - answered));
    });
  } finally {
    if (asked === state.planned) $("plan").disabled = false;
  }
}

function showError(text) {
  $("error").hidden = !text;
  $("error").textContent = text || "";
}

function render(option) {
  const a = state.answer;
  $("results").hidden = false;
  $("status").textContent = t("page.results", { n: a.itineraries.length });
  const day = a.query.time.slice(0, 10);
  const body = $("alternatives").tBodies[0];
  body.replaceChildren();
  a.itineraries.forEach((it, i) => {
    const tr = document.createElement("tr");
    tr.className = "alternative";
    tr.dataset.i = i;
    const s = it.summary;
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = String(i + 1);
    button.setAttribute("aria-label", t("page.option", { n: i + 1 }));
    button.addEventListener("click", () => choose(i, true));
    const cells = [button, i18n.clock(it.departure, day), i18n.clock(it.arrival, day), i18n.duration(it.durationSeconds),
                   s.rides === 0 ? "–" : String(s.changes), i18n.distance(s.walkMeters),
                   s.modes.length ? s.modes.map(i18n.mode).join(i18n.listSeparator()) : i18n.mode("WALK"),
                   it.labels.map(i18n.label).join(i18n.listSeparator())];
    for (const c of cells) {
      const td = document.createElement("td");
      if (typeof c === "string") td.textContent = c; else td.append(c);
      tr.append(td);
    }
    tr.addEventListener("click", (e) => { if (e.target === tr || e.target.tagName === "TD") choose(i, true); });
    body.append(tr);
  });
  $("notices").replaceChildren(...a.notices.map((n) => Object.assign(document.createElement("li"), { textContent: n.message })));
  choose(option, false);
}

/** Shows alternative `i`: its steps and, from the same legs, its map. */
function choose(i, fromTable) {
  const a = state.answer;
  state.option = i;
  state.leg = -1;
  for (const tr of $("alternatives").tBodies[0].rows) tr.setAttribute("aria-selected", String(Number(tr.dataset.i) === i));
  const it = a.itineraries[i];
  const day = a.query.time.slice(0, 10);
  const list = $("steps");
  list.replaceChildren();
  it.legs.forEach((leg, k) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "step";
    b.dataset.leg = k;
    b.setAttribute("aria-label", `${t("page.stepOf", { n: k + 1, count: it.legs.length })}: ${i18n.clock(leg.departure, day)} ${leg.instruction}`);
    const n = Object.assign(document.createElement("span"), { className: "n", textContent: String(k + 1) });
    const colour = it.map.features.find((f) => f.properties.role === "leg" && f.properties.legIndex === k)?.properties.color;
    if (colour) n.style.background = colour;
    if (colour && luminance(colour) > 0.55) n.style.color = "#1a1a1a";
    const time = Object.assign(document.createElement("span"), { className: "t", textContent: i18n.clock(leg.departure, day) });
    const text = Object.assign(document.createElement("span"), { className: "text", textContent: leg.instruction });
    b.append(n, time, text);
    const more = [];
    const late = Math.round((leg.departureDelaySeconds ?? 0) / 60);
    if (late !== 0 && leg.departureDelaySeconds !== undefined) more.push(["late", t(late > 0 ? "page.late" : "page.early", { n: Math.abs(late) })]);
    for (const al of leg.alerts || []) more.push(["alert", t("page.alert", { text: al.header || al.description || "" })]);
    for (const w of leg.walkSteps || []) more.push(["walkstep", w.instruction]);
    for (const [cls, words] of more) b.append(Object.assign(document.createElement("span"), { className: `more ${cls}`, textContent: words }));
    b.addEventListener("click", () => selectLeg(k, true, false));
    li.append(b);
    list.append(li);
  });
  $("summary").textContent = `${t("page.arrived")} ${i18n.clock(it.arrival, day)} · ${i18n.duration(it.durationSeconds)}`;
  map.show(it.map);
  $("follow").hidden = !it.tripToken;
  $("events").replaceChildren();
  if (state.source) { state.source.close(); state.source = null; }
  if (fromTable) {
    const u = new URL(location.href);
    u.searchParams.set("option", String(i + 1));
    history.replaceState(null, "", u);
  }
}

/** Step `k` and leg `k` together: from the list (pan the map) or from the map (scroll the list). */
function selectLeg(k, fromList, fromMap) {
  state.leg = state.leg === k && fromList ? -1 : k;
  for (const b of $("steps").querySelectorAll(".step")) {
    if (Number(b.dataset.leg) === state.leg) b.setAttribute("aria-current", "step"); else b.removeAttribute("aria-current");
  }
  map.select(state.leg, fromList);
  if (fromMap && state.leg >= 0) {
    const b = $("steps").querySelector(`.step[data-leg="${k}"]`);
    b?.scrollIntoView({ block: "nearest" });
    b?.focus({ preventScroll: true });
  }
}

function luminance(hex) {
  const v = parseInt(hex.slice(1), 16);
  return (0.299 * (v >> 16) + 0.587 * ((v >> 8) & 255) + 0.114 * (v & 255)) / 255;
}

function follow() {
  const it = state.answer?.itineraries[state.option];
  if (!it?.tripToken) return;
  if (state.source) state.source.close();
  const list = $("events");
  list.replaceChildren(Object.assign(document.createElement("li"), { textContent: t("page.following") }));
  const source = new EventSource(`/v1/trips/${it.tripToken}/events?lang=${encodeURIComponent(i18n.language)}`);
  state.source = source;
  const say = (e) => {
    try {
      const data = JSON.parse(e.data);
      if (data.message) list.append(Object.assign(document.createElement("li"), { textContent: data.message }));
    } catch { /* a frame without JSON */ }
  };
  for (const type of ["delay", "cancellation", "skipped-stop", "missed-connection", "alert", "leg-upcoming", "arrived", "error"]) {
    source.addEventListener(type, say);
  }
  source.addEventListener("arrived", () => source.close());
}

$("plan-form").addEventListener("submit", (e) => { e.preventDefault(); plan(); });
$("swap").addEventListener("click", () => {
  const a = { place: from.place, text: $("from").value };
  from.set(to.place, $("to").value);
  to.set(a.place, a.text);
});
$("follow").addEventListener("click", follow);
$("lang").addEventListener("change", async () => {
  localStorage.setItem("lang", $("lang").value);
  await i18n.load($("lang").value);
  i18n.translatePage();
  const u = new URL(location.href);
  u.searchParams.set("lang", i18n.language);
  history.replaceState(null, "", u);
  if (state.answer) plan({ push: false, option: state.option });
});
window.addEventListener("popstate", () => fromAddress(new URL(location.href)));
document.addEventListener("keydown", (e) => {
  // Arrow keys move between the steps (and the map follows).
  if (!e.target.classList?.contains("step") || !state.answer) return;
  const n = state.answer.itineraries[state.option].legs.length;
  const k = Number(e.target.dataset.leg);
  const next = e.key === "ArrowDown" ? Math.min(n - 1, k + 1) : e.key === "ArrowUp" ? Math.max(0, k - 1) : null;
  if (next === null) return;
  e.preventDefault();
  $("steps").querySelector(`.step[data-leg="${next}"]`).focus();
  selectLeg(next, true, false);
});

start().catch((e) => showError(t("page.serverError", { text: e.message })));
