// A place field: the stop search as one types (/v1/stops), a listbox a keyboard can use
// (arrows, Enter, Escape), and the place chosen (stop:FEED:ID or lat,lon) kept apart from
// the words shown.
import { t, mode, listSeparator } from "./i18n.js";

export class PlaceField {
  constructor(input, list, onPick) {
    this.input = input; this.list = list; this.onPick = onPick;
    this.place = null; this.items = []; this.active = -1; this.timer = null; this.asked = 0;
    input.addEventListener("input", () => { this.place = null; this.schedule(); });
    input.addEventListener("keydown", (e) => this.key(e));
    input.addEventListener("blur", () => setTimeout(() => this.close(), 150));
    list.addEventListener("mousedown", (e) => e.preventDefault());
    list.addEventListener("click", (e) => {
      const li = e.target.closest("li[role=option]");
      if (li) this.pick(Number(li.dataset.i));
    });
  }

  /** A place given whole: a stop (`stop:…`), a point, or a name shown as typed. */
  set(place, text) {
    this.place = place; this.input.value = text; this.close();
  }

  schedule() {
    clearTimeout(this.timer);
    const text = this.input.value.trim();
    if (text.length < 2 || /^-?\d+(\.\d+)?\s*,\s*-?\d+(\.\d+)?$/.test(text)) { this.close(); return; }
    this.timer = setTimeout(() => this.search(text), 120);
  }

  async search(text) {
    const asked = ++this.asked;
    try {
      const r = await fetch(`/v1/stops?query=${encodeURIComponent(text)}&limit=8`);
      if (asked !== this.asked) return;
      const body = await r.json();
      this.show(r.ok ? body.stops : [], text);
    } catch { this.close(); }
  }

  show(stops, text) {
    this.items = stops;
    this.active = stops.length ? 0 : -1;
    this.list.replaceChildren();
    if (!stops.length) {
      const li = document.createElement("li");
      li.textContent = t("page.noMatch", { text });
      li.setAttribute("aria-disabled", "true");
      this.list.append(li);
    }
    stops.forEach((s, i) => {
      const li = document.createElement("li");
      li.id = `${this.list.id}-${i}`;
      li.setAttribute("role", "option");
      li.className = "suggestion";
      li.dataset.i = i;
      li.dataset.place = `stop:${s.feed}:${s.id}`;
      const modes = [...new Set((s.routes || []).map((r) => r.mode))].map(mode).join(listSeparator());
      const routes = (s.routes || []).slice(0, 4).map((r) => r.shortName || r.longName || r.id).join(listSeparator());
      li.textContent = s.name;
      const small = document.createElement("small");
      small.textContent = [s.distinction, modes, routes].filter(Boolean).join(" · ");
      li.append(small);
      this.list.append(li);
    });
    this.list.hidden = false;
    this.input.setAttribute("aria-expanded", "true");
    this.highlight();
  }

  highlight() {
    [...this.list.querySelectorAll("li[role=option]")].forEach((li, i) => li.setAttribute("aria-selected", String(i === this.active)));
    if (this.active >= 0) this.input.setAttribute("aria-activedescendant", `${this.list.id}-${this.active}`);
    else this.input.removeAttribute("aria-activedescendant");
  }

  key(e) {
    if (this.list.hidden) return;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const n = this.items.length;
      if (!n) return;
      this.active = (this.active + (e.key === "ArrowDown" ? 1 : n - 1)) % n;
      this.highlight();
    } else if (e.key === "Enter" && this.active >= 0) {
      e.preventDefault(); this.pick(this.active);
    } else if (e.key === "Escape") {
      this.close();
    }
  }

  pick(i) {
    const s = this.items[i];
    if (!s) return;
    this.set(`stop:${s.feed}:${s.id}`, s.name);
    this.onPick?.(this);
  }

  close() {
    this.list.hidden = true;
    this.input.setAttribute("aria-expanded", "false");
    this.input.removeAttribute("aria-activedescendant");
  }

  /** The place to plan from: the one picked, coordinates typed, else the best match of the words. */
  async resolve() {
    if (this.place) return this.place;
    const text = this.input.value.trim();
    if (!text) return null;
    if (/^-?\d+(\.\d+)?\s*,\s*-?\d+(\.\d+)?$/.test(text)) return text.replace(/\s/g, "");
    if (text.startsWith("stop:")) return text;
    const r = await fetch(`/v1/stops?query=${encodeURIComponent(text)}&limit=1`);
    const body = r.ok ? await r.json() : { stops: [] };
    const s = body.stops[0];
    if (!s) return null;
    this.set(`stop:${s.feed}:${s.id}`, s.name);
    return this.place;
  }
}
