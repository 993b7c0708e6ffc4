// The map: Leaflet (served by the server from Debian's libjs-leaflet), the network's own
// lines and stops as the background (or --tiles), the coverage regions, and the chosen
// itinerary drawn from its `map` GeoJSON: one line per leg, in leg order, the same legs
// as the steps; pins at the ends (green start, red destination) and where one boards,
// changes and gets off. Each pin has a title and a shape besides its colour.
import { t } from "./i18n.js";

const PIN = { start: { r: 11, label: "page.start" }, destination: { r: 11, label: "page.destination" },
              board: { r: 7, label: "page.board" }, alight: { r: 7, label: "page.alight" },
              change: { r: 7, label: "page.change" }, vehicle: { r: 6, label: "page.vehicle" } };

export class TripMap {
  constructor(element, config, onLeg, onPoint) {
    this.onLeg = onLeg; this.onPoint = onPoint;
    this.available = typeof window.L !== "undefined";
    if (!this.available) {
      element.textContent = "";
      return;
    }
    const L = window.L;
    this.map = L.map(element, { zoomControl: true, preferCanvas: false }).setView([20, 0], 2);
    if (config.tiles) L.tileLayer(config.tiles, { attribution: config.tilesAttribution || "", maxZoom: 19 }).addTo(this.map);
    this.background = L.canvas({ padding: 0.2 });
    this.trip = L.layerGroup().addTo(this.map);
    this.legs = [];
    this.map.on("click", (e) => this.pointMenu(e.latlng));
    // A phone turned, a panel that grows: the map takes its new size.
    if (window.ResizeObserver) new ResizeObserver(() => this.map.invalidateSize()).observe(element);
  }

  /** The coverage regions (once ready: the server works them out after loading), then the network in view. */
  async drawNetwork() {
    if (!this.available) return;
    const L = window.L;
    this.map.on("moveend", () => { clearTimeout(this.networkTimer); this.networkTimer = setTimeout(() => this.networkInView(), 150); });
    this.networkInView();
    for (let tries = 0; tries < 60; tries++) {
      // The server says when its regions are ready (/v1/health), so the page never asks too early.
      const health = await fetch("/v1/health").then((r) => r.json()).catch(() => null);
      const state = health && health.timetable && health.timetable.coverage;
      if (state === "ready") break;
      if (state === "failed") return;
      await new Promise((done) => setTimeout(done, 2000));
    }
    const coverage = await fetch("/v1/coverage").then((r) => (r.ok ? r.json() : null)).catch(() => null);
    if (coverage && coverage.features) {
      const layer = L.geoJSON(coverage, {
        renderer: this.background, interactive: false,
        style: () => ({ color: "#0b4f9c", weight: 1, opacity: 0.25, fillColor: "#0b4f9c", fillOpacity: 0.05 }),
      }).addTo(this.map);
      layer.bringToBack();
      if (!this.fitted && layer.getBounds().isValid()) this.map.fitBounds(layer.getBounds());
    }
  }

  /** The network's lines and stops in view (/v1/network?bbox=…), from a city's zoom up. */
  async networkInView() {
    const L = window.L;
    if (this.map.getZoom() < 9) { if (this.network) { this.network.remove(); this.network = null; } return; }
    const b = this.map.getBounds().pad(0.3);
    const box = [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()].map((x, i) => Math.max(i % 2 ? -90 : -180, Math.min(i % 2 ? 90 : 180, x)).toFixed(4));
    const asked = (this.networkAsked = (this.networkAsked || 0) + 1);
    const network = await fetch(`/v1/network?bbox=${box.join(",")}`).then((r) => (r.ok ? r.json() : null)).catch(() => null);
    if (!network || asked !== this.networkAsked) return;
    const layer = L.geoJSON(network, {
      renderer: this.background, interactive: false,
      style: (f) => ({ color: f.properties.color || "#777", weight: 2, opacity: 0.45 }),
      pointToLayer: (f, latlng) => L.circleMarker(latlng, { renderer: this.background, radius: 2, color: "#555", weight: 1, fillOpacity: 0.6 }),
    }).addTo(this.map);
    if (this.network) this.network.remove();
    this.network = layer;
  }

  pointMenu(latlng) {
    const L = window.L;
    const lat = latlng.lat.toFixed(5), lon = latlng.lng.toFixed(5);
    const box = document.createElement("div");
    for (const [end, key] of [["from", "page.setFrom"], ["to", "page.setTo"]]) {
      const b = document.createElement("button");
      b.type = "button"; b.textContent = t(key); b.className = `set-${end}`;
      b.addEventListener("click", () => { this.map.closePopup(); this.onPoint(end, `${lat},${lon}`); });
      box.append(b, document.createTextNode(" "));
    }
    L.popup().setLatLng(latlng).setContent(box).openOn(this.map);
  }

  /** Draws an itinerary's map (GeoJSON: lines with `legIndex`, pins with `role`). */
  show(map) {
    if (!this.available) return;
    const L = window.L;
    this.trip.clearLayers();
    this.legs = [];
    this.fitted = true;
    const lines = map.features.filter((f) => f.properties.role === "leg");
    for (const f of lines) {
      const i = f.properties.legIndex;
      const walk = f.properties.mode === "WALK";
      const line = L.polyline(f.geometry.coordinates.map(([lon, lat]) => [lat, lon]), {
        color: f.properties.color, weight: 6, opacity: 0.95, dashArray: walk ? "2 9" : null, lineCap: "round",
        className: `leg leg-${i} leg-${walk ? "walk" : "ride"}`,
      }).addTo(this.trip);
      line.on("click", (e) => { L.DomEvent.stopPropagation(e); this.onLeg(i); });
      this.legs[i] = line;
    }
    // The ends last, on top of the board and alight pins at the same stops.
    const end = (f) => (f.properties.role === "start" || f.properties.role === "destination" ? 1 : 0);
    for (const f of map.features.filter((f) => f.properties.role !== "leg").sort((a, b) => end(a) - end(b))) {
      const role = f.properties.role, pin = PIN[role] || { r: 6, label: role };
      const [lon, lat] = f.geometry.coordinates;
      const marker = L.circleMarker([lat, lon], {
        radius: pin.r, color: role === "start" || role === "destination" ? "#ffffff" : "#1a1a1a", weight: role === "vehicle" ? 1 : 3,
        fillColor: f.properties.color, fillOpacity: 1, className: `pin pin-${role}`,
      }).addTo(this.trip);
      marker.bindTooltip(t(pin.label), { direction: "top" });
      marker.on("click", (e) => { L.DomEvent.stopPropagation(e); this.onLeg(f.properties.legIndex); });
    }
    const bounds = L.featureGroup(this.legs.filter(Boolean)).getBounds();
    if (bounds.isValid()) this.map.fitBounds(bounds, { padding: [30, 30] });
    // Titles for the legs' paths (screen readers and the tests read them).
    this.legs.forEach((line, i) => line.getElement()?.setAttribute("data-leg", String(i)));
  }

  /** Emphasises leg `i` (the others fade); -1: none. */
  select(i, pan) {
    if (!this.available) return;
    this.legs.forEach((line, k) => {
      const on = k === i;
      line.setStyle({ weight: on ? 10 : 6, opacity: i < 0 || on ? 0.95 : 0.35 });
      line.getElement()?.classList.toggle("leg-selected", on);
      if (on) line.bringToFront();
    });
    if (pan && i >= 0 && this.legs[i]) this.map.fitBounds(this.legs[i].getBounds(), { padding: [40, 40], maxZoom: 16 });
  }

  clear() { if (this.available) { this.trip.clearLayers(); this.legs = []; } }
}
