// The time bar under the canvas: a histogram of the view's dated relations
// and events (by year, or by month when the view spans three years or
// less), a brush that fades or hides what lies outside the brushed period,
// a play button that moves a window through time, and "as of" a date
// (relations valid then; the path search and expansions use it too).
// Partial dates compare by the days they allow, open ends as open, as the
// API's validAt does.
import type { EdgeSingular, NodeSingular } from "cytoscape";
import { gql } from "./api";
import type { Canvas, EdgeData, NodeData } from "./canvas";
import { byId, h, replace } from "./dom";

/** Dated is one relation or event with its dates. */
export interface Dated {
  id: string;
  event: boolean;
  start: string | null;
  end: string | null;
}

/** Bin is one bar: a year ("2014") or a month ("2014-03"), and its first and last days. */
export interface Bin {
  label: string;
  first: string;
  last: string;
  relations: number;
  events: number;
}

/** Period is a brushed range of bins, first and last included. */
export interface Period {
  from: string;
  to: string;
}

/** earliest is the first day a partial date allows. */
export function earliest(d: string): string {
  return d.length === 4 ? `${d}-01-01` : d.length === 7 ? `${d}-01` : d;
}

/** latest is the last day a partial date allows. */
export function latest(d: string): string {
  if (d.length === 4) return `${d}-12-31`;
  if (d.length === 7) return `${d}-${String(new Date(Date.UTC(Number(d.slice(0, 4)), Number(d.slice(5, 7)), 0)).getUTCDate()).padStart(2, "0")}`;
  return d;
}

/** meets says whether an item's dates allow a day within the period (open ends are open; an undated item meets every period). */
export function meets(item: Pick<Dated, "start" | "end">, p: Period): boolean {
  if (item.start && earliest(item.start) > latest(p.to)) return false;
  if (item.end && latest(item.end) < earliest(p.from)) return false;
  return true;
}

/** bins counts the dated items by the year (or month, for three years or less) of their first known day. */
export function bins(items: Dated[]): Bin[] {
  const dated = items.filter((i) => i.start || i.end);
  if (dated.length === 0) return [];
  const firsts = dated.map((i) => earliest((i.start ?? i.end)!));
  const lasts = dated.map((i) => latest((i.end ?? i.start)!));
  const lo = firsts.reduce((a, b) => (a < b ? a : b));
  const hi = lasts.reduce((a, b) => (a > b ? a : b));
  const [y0, y1] = [Number(lo.slice(0, 4)), Number(hi.slice(0, 4))];
  const months = y1 - y0 < 3;
  const out: Bin[] = [];
  for (let y = y0; y <= y1; y++) {
    if (!months) {
      out.push({ label: String(y), first: `${y}-01-01`, last: `${y}-12-31`, relations: 0, events: 0 });
      continue;
    }
    for (let m = 1; m <= 12; m++) {
      const label = `${y}-${String(m).padStart(2, "0")}`;
      if (label < lo.slice(0, 7) || label > hi.slice(0, 7)) continue;
      out.push({ label, first: earliest(label), last: latest(label), relations: 0, events: 0 });
    }
  }
  dated.forEach((item, i) => {
    const b = out.find((b) => firsts[i] <= b.last);
    if (b) b[item.event ? "events" : "relations"]++;
  });
  return out;
}

const svgNS = "http://www.w3.org/2000/svg";

function svg(tag: string, attrs: Record<string, string | number>): SVGElement {
  const el = document.createElementNS(svgNS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/** histogram draws bins as an SVG of stacked bars (relations below, events above), with a brush and an as-of marker to place. */
export function histogram(shown: Bin[], id: string): SVGElement {
  const n = shown.length;
  const top = Math.max(...shown.map((b) => b.relations + b.events), 1);
  const height = 40;
  const s = (k: "relations" | "events") => shown.reduce((a, b) => a + b[k], 0);
  const label = `Dated relations (${s("relations")}) and events (${s("events")}), by ${shown[0]?.label.length === 4 ? "year" : "month"}, ${shown[0]?.label} to ${shown[n - 1]?.label}`;
  const root = svg("svg", { viewBox: `0 0 ${n * 10} ${height}`, preserveAspectRatio: "none", role: "img", "aria-label": label, class: "timebar-svg", id });
  shown.forEach((b, i) => {
    const r = (b.relations / top) * (height - 2);
    const e = (b.events / top) * (height - 2);
    const bar = svg("g", { class: "timebar-bin", "data-label": b.label });
    bar.append(svg("rect", { class: "timebar-hit", x: i * 10, y: 0, width: 10, height }));
    if (b.relations) bar.append(svg("rect", { class: "timebar-relations", x: i * 10 + 1, y: height - r, width: 8, height: r }));
    if (b.events) bar.append(svg("rect", { class: "timebar-events", x: i * 10 + 1, y: height - r - e, width: 8, height: e }));
    const title = svg("title", {});
    title.textContent = `${b.label}: ${b.relations} relations, ${b.events} events`;
    bar.append(title);
    root.append(bar);
  });
  root.append(svg("rect", { id: `${id}-brush`, class: "timebar-brush", x: 0, y: 0, width: 0, height }));
  root.append(svg("line", { id: `${id}-asof`, class: "timebar-asof", x1: 0, x2: 0, y1: 0, y2: height, visibility: "hidden" }));
  return root;
}

/** playStep is how long the play button shows each window. */
const playStep = 700;

/** TimeBar is the time bar of the canvas. */
export class TimeBar {
  /** brushed is the period brushed, or null for all time. */
  brushed: Period | null = null;
  private items: Dated[] = [];
  private shown: Bin[] = [];
  private eventDates = new Map<string, { start: string | null; end: string | null }>();
  private playing = 0;
  private dragFrom = -1;
  private asOfDate = "";
  private timer = 0;
  private listeners: (() => void)[] = [];

  constructor(
    private canvas: Canvas,
    el: HTMLElement,
  ) {
    el.classList.add("timebar");
    replace(
      el,
      h(
        "div",
        { class: "timebar-controls" },
        h("button", { type: "button", id: "timebar-play", class: "small", "aria-pressed": "false", onclick: () => this.togglePlay() }, "▶ Play"),
        h("label", { for: "timebar-from" }, "From"),
        h("input", { id: "timebar-from", size: 10, pattern: "\\d{4}(-\\d{2}(-\\d{2})?)?", placeholder: "any", onchange: () => this.typed() }),
        h("label", { for: "timebar-to" }, "to"),
        h("input", { id: "timebar-to", size: 10, pattern: "\\d{4}(-\\d{2}(-\\d{2})?)?", placeholder: "any", onchange: () => this.typed() }),
        h("button", { type: "button", id: "timebar-clear", class: "small", onclick: () => this.brush(null) }, "All time"),
        h(
          "select",
          { id: "timebar-mode", "aria-label": "What happens outside the period", onchange: () => this.filter() },
          h("option", { value: "fade" }, "fade the rest"),
          h("option", { value: "hide" }, "hide the rest"),
        ),
        h("span", { class: "sep" }),
        h("label", {}, h("input", { type: "checkbox", id: "asof-on", onchange: () => this.asOfChanged() }), " Show as of"),
        h("input", { type: "range", id: "asof", min: 0, max: 0, step: 1, value: 0, "aria-label": "The date to show the graph as of", disabled: true, oninput: () => this.asOfChanged(true) }),
        h("output", { id: "asof-value", for: "asof" }, "any date"),
      ),
      h("div", { id: "timebar-chart", class: "timebar-chart" }),
      h("div", { id: "timebar-axis", class: "timebar-axis", "aria-live": "polite" }),
    );
    canvas.onChange(() => {
      clearTimeout(this.timer);
      this.timer = window.setTimeout(() => void this.refresh(), 100);
    });
    void this.refresh();
  }

  /** onChange calls fn when the brushed period or the as-of date changes. */
  onChange(fn: () => void): void {
    this.listeners.push(fn);
  }

  /** asOf is the as-of date, or "" when it is off. */
  asOf(): string {
    return byId<HTMLInputElement>("asof-on").checked ? this.asOfDate : "";
  }

  /** setAsOf turns "as of" on at date ("" turns it off). */
  setAsOf(date: string): void {
    byId<HTMLInputElement>("asof-on").checked = date !== "";
    if (date) this.asOfDate = date;
    this.drawAsOf();
    this.canvas.asOf(this.asOf());
  }

  /** refresh reads the view's dated items again (events' dates once each) and redraws. */
  async refresh(): Promise<void> {
    const cy = this.canvas.cy;
    const events = cy.nodes('[kind = "EVENT"]').map((n) => n.id()).filter((id) => !this.eventDates.has(id));
    for (let i = 0; i < events.length; i += 100) {
      const ids = events.slice(i, i + 100);
      try {
        const data = await gql<{ nodes: ({ id: string; startDate: string | null; endDate: string | null } | null)[] }>(
          `query EventDates($ids: [ID!]!) { nodes(ids: $ids) { ... on Event { id startDate endDate } } }`,
          { ids },
        );
        ids.forEach((id, j) => this.eventDates.set(id, { start: data.nodes[j]?.startDate ?? null, end: data.nodes[j]?.endDate ?? null }));
      } catch {
        ids.forEach((id) => this.eventDates.set(id, { start: null, end: null })); // drawn undated; the next read tries none again
      }
    }
    this.items = [
      ...cy.edges().map((e) => {
        const r = (e.data() as EdgeData).relation;
        return { id: r.id, event: false, start: r.startDate, end: r.endDate };
      }),
      ...cy.nodes('[kind = "EVENT"]').map((n) => ({ id: n.id(), event: true, ...(this.eventDates.get(n.id()) ?? { start: null, end: null }) })),
    ];
    this.draw();
    this.filter();
  }

  /** draw draws the histogram, the brush and the as-of slider's range. */
  private draw(): void {
    this.shown = bins(this.items);
    const chart = byId("timebar-chart");
    const n = this.shown.length;
    const slider = byId<HTMLInputElement>("asof");
    slider.max = String(Math.max(0, n - 1));
    if (n === 0) {
      replace(chart, h("p", { class: "hint" }, "No dated relation or event drawn."));
      this.drawAxis();
      this.drawAsOf();
      return;
    }
    const root = histogram(this.shown, "timebar-svg");
    const bin = (ev: PointerEvent) => {
      const box = root.getBoundingClientRect();
      return Math.min(n - 1, Math.max(0, Math.floor(((ev.clientX - box.left) / box.width) * n)));
    };
    root.addEventListener("pointerdown", (ev) => {
      this.stop();
      this.dragFrom = bin(ev);
      root.setPointerCapture(ev.pointerId);
      this.brushBins(this.dragFrom, this.dragFrom, false);
    });
    root.addEventListener("pointermove", (ev) => this.dragFrom >= 0 && this.brushBins(this.dragFrom, bin(ev), false));
    root.addEventListener("pointerup", (ev) => {
      if (this.dragFrom < 0) return;
      this.brushBins(this.dragFrom, bin(ev), true);
      this.dragFrom = -1;
    });
    replace(chart, root);
    this.drawBrush();
    this.drawAxis();
    this.drawAsOf();
  }

  /** brushBins brushes the bins from a to b (either order); done filters the canvas. */
  private brushBins(a: number, b: number, done: boolean): void {
    const [lo, hi] = a <= b ? [a, b] : [b, a];
    this.brushed = { from: this.shown[lo].label, to: this.shown[hi].label };
    this.drawBrush();
    if (done) this.filter();
  }

  /** brush sets the brushed period (null: all time) and filters the canvas. */
  brush(p: Period | null): void {
    this.brushed = p;
    this.drawBrush();
    this.filter();
  }

  private typed(): void {
    const from = byId<HTMLInputElement>("timebar-from");
    const to = byId<HTMLInputElement>("timebar-to");
    if (!from.checkValidity() || !to.checkValidity()) return;
    const lo = this.shown[0]?.label ?? "0001";
    const hi = this.shown[this.shown.length - 1]?.label ?? "9999";
    this.brush(from.value || to.value ? { from: from.value || lo, to: to.value || hi } : null);
  }

  private drawBrush(): void {
    byId<HTMLInputElement>("timebar-from").value = this.brushed?.from ?? "";
    byId<HTMLInputElement>("timebar-to").value = this.brushed?.to ?? "";
    const rect = document.getElementById("timebar-svg-brush");
    if (!rect) return;
    const p = this.brushed;
    const inside = this.shown.map((b, i) => [b, i] as const).filter(([b]) => p && b.last >= earliest(p.from) && b.first <= latest(p.to));
    rect.setAttribute("x", String(inside.length ? inside[0][1] * 10 : 0));
    rect.setAttribute("width", String(inside.length * 10));
    document.querySelectorAll("#timebar-svg .timebar-bin").forEach((g, i) => g.classList.toggle("brushed", inside.some(([, j]) => j === i)));
  }

  private drawAxis(): void {
    const s = this.shown;
    const p = this.brushed;
    replace(
      byId("timebar-axis"),
      h("span", {}, s[0]?.label ?? ""),
      h("span", { id: "timebar-period" }, p ? (p.from === p.to ? p.from : `${p.from} – ${p.to}`) : s.length ? "all time" : ""),
      h("span", {}, s.length > 1 ? s[s.length - 1].label : ""),
    );
  }

  /** filter fades or hides the relations and events outside the brushed period. */
  private filter(): void {
    const p = this.brushed;
    const hide = byId<HTMLSelectElement>("timebar-mode").value === "hide";
    const cy = this.canvas.cy;
    cy.batch(() => {
      // Only what is or was outside the period is touched: Cytoscape works
      // out again the style of every element touched (all 1,150 of a
      // restored view, before its first frame).
      const mark = (el: EdgeSingular | NodeSingular, item: Dated) => {
        const out = p !== null && !meets(item, p);
        if (!out && !el.hasClass("out-of-period")) return;
        el.toggleClass("out-of-period", out);
        el.removeStyle("opacity display");
        if (out) el.style(hide ? { display: "none" } : { opacity: 0.1 });
      };
      cy.edges().forEach((e) => {
        const r = (e.data() as EdgeData).relation;
        mark(e, { id: r.id, event: false, start: r.startDate, end: r.endDate });
      });
      cy.nodes('[kind = "EVENT"]').forEach((n) => mark(n, { id: n.id(), event: true, ...(this.eventDates.get((n.data() as NodeData).id) ?? { start: null, end: null }) }));
    });
    this.drawAxis();
    for (const fn of this.listeners) fn();
  }

  private togglePlay(): void {
    if (this.playing) return this.stop();
    const n = this.shown.length;
    if (n === 0) return;
    // The window: the brushed bins' width, else a tenth of the range (one bin at least).
    const inside = this.brushed ? this.shown.filter((b) => b.last >= earliest(this.brushed!.from) && b.first <= latest(this.brushed!.to)).length : 0;
    const width = Math.max(1, inside || Math.ceil(n / 10));
    let at = 0;
    const button = byId("timebar-play");
    button.textContent = "❚❚ Pause";
    button.setAttribute("aria-pressed", "true");
    const step = () => {
      if (at + width > n) return this.stop();
      this.brushBins(at, at + width - 1, true);
      at++;
    };
    step();
    this.playing = window.setInterval(step, playStep);
  }

  private stop(): void {
    if (!this.playing) return;
    clearInterval(this.playing);
    this.playing = 0;
    const button = byId("timebar-play");
    button.textContent = "▶ Play";
    button.setAttribute("aria-pressed", "false");
  }

  /** asOfChanged reads the as-of controls (slid: the slider moved) and fades what was not valid then. */
  private asOfChanged(slid = false): void {
    const slider = byId<HTMLInputElement>("asof");
    // Turned on with no date yet: the latest the view knows of.
    const at = slid ? Number(slider.value) : this.shown.length - 1;
    if (slid || !this.asOfDate) this.asOfDate = this.shown[at]?.label ?? String(new Date().getFullYear());
    this.drawAsOf();
    this.canvas.asOf(this.asOf());
    for (const fn of this.listeners) fn();
  }

  private drawAsOf(): void {
    const on = byId<HTMLInputElement>("asof-on").checked;
    const slider = byId<HTMLInputElement>("asof");
    slider.disabled = !on || this.shown.length === 0;
    const i = this.shown.findIndex((b) => b.last >= earliest(this.asOfDate));
    if (this.asOfDate && i >= 0) slider.value = String(i);
    byId<HTMLOutputElement>("asof-value").value = on ? this.asOfDate : "any date";
    const marker = document.getElementById("timebar-svg-asof");
    if (marker) {
      marker.setAttribute("visibility", on && i >= 0 ? "visible" : "hidden");
      marker.setAttribute("x1", String(Math.max(0, i) * 10 + 5));
      marker.setAttribute("x2", String(Math.max(0, i) * 10 + 5));
    }
  }
}
