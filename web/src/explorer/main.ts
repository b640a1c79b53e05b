// The Casegraph explorer: search, an entity panel, a graph canvas that
// expands on double-click, paths with the evidence for every hop, common
// ground, a timeline, export, and a URL that restores the view. It talks
// only to this origin's /graphql, with the tab's credentials.
import "./explorer.css";
import "./analysis.css";
import { Analysis } from "./analyse";
import type { Measure } from "./analyse";
import { ApiError, neighborhood, relationTypes } from "./api";
import type { EntityRef, Path, PathFilter, Relation, RelationTypeInfo } from "./api";
import { setupSignIn } from "./signin";
import { Canvas } from "./canvas";
import type { LayoutName, Place } from "./canvas";
import { drawChain } from "./chain";
import { Common, selectedRefs } from "./common";
import { byId, h, replace } from "./dom";
import { readRelations, showEntity } from "./entity";
import * as exporter from "./exporter";
import { renderLegend } from "./legend";
import { openPanel, setupKeys, setupPanels } from "./panels";
import { Paths } from "./paths";
import { showRelation } from "./relation";
import { Search } from "./search";
import { showSource } from "./source";
import { decode, encode, load } from "./state";
import type { View } from "./state";
import { TimeBar } from "./timebar";
import { Timeline } from "./timeline";
import { Live } from "./live";
import { clearError, copyText, currentTab, isTab, renderOnscreen, run, setupTabs, showError, showTab, status } from "./ui";
import { reread, skeleton } from "./identity";
import type { Reread } from "./identity";
import { Views, fromSaved, readSaved, savedRef, toSaved } from "./views";
import type { Opened } from "./views";
import { Welcome } from "./welcome";
import { setupWriting } from "./write";
import { setupImport } from "./importer";

/** The first expansion of an entity draws this many neighbours; each further one four times more, up to the API's cap. */
const firstExpansion = 50;
const maxExpansion = 1000;

/** firstGraph is the performance mark of the first frame with entities drawn. */
const firstGraph = "casegraph:first-graph";
/** ready is the performance mark of the first moment the explorer is usable (a view in the address restored): the benchmarks' "first screen usable". */
const ready = "casegraph:ready";
/** viewRead is the performance mark of the moment the view in the address has been read, before it is drawn. */
const viewRead = "casegraph:view-read";

class Explorer {
  readonly canvas: Canvas;
  readonly paths: Paths;
  readonly common: Common;
  readonly timeline: Timeline;
  // Who stands between, the time bar, analysis and live (issue 26 items 3, 5, 7).
  readonly timebar: TimeBar;
  readonly analysis: Analysis;
  readonly live: Live;
  /** the first screen, until the analyst starts (issue 27 item 3) */
  readonly welcome: Welcome;
  /** the views kept on the server (issue 26 item 4) */
  readonly views: Views;
  private readonly search: Search;
  private openEntity = "";
  /** what the details panel shows, read again for a new identity */
  private detail: { kind: "entity" | "relation" | "source"; id: string } | null = null;
  /** the view as it was when the tab signed out, ids only: read again at the next sign-in */
  private pending: { view: View; drawn: Relation[] } | null = null;
  /** counts identity changes, so that a slow read for an old identity never draws over a newer one's */
  private identities = 0;
  private urlTimer = 0;
  private restoring = false;

  constructor(private vocabulary: Map<string, RelationTypeInfo>) {
    this.canvas = new Canvas(byId("canvas"), vocabulary);
    this.timebar = new TimeBar(this.canvas, byId("time"));
    this.analysis = new Analysis(this.canvas, byId("analyse-control"), byId("analyse-legend"));
    this.live = new Live(this.canvas, byId("live-control"), vocabulary, () => this.saveURL());
    this.timebar.onChange(() => {
      if (this.analysis.measure !== "none") this.analysis.apply();
      this.saveURL();
    });
    const act = {
      open: (id: string) => void this.open(id),
      draw: (nodes: EntityRef[], relations: Relation[]) => this.canvas.add(nodes, relations),
      selected: () => selectedRefs(this.canvas),
      filter: () => this.filter(),
    };
    this.paths = new Paths(vocabulary, {
      ...act,
      drawPath: (p: Path) => this.canvas.add(p.nodes, p.steps.map((s) => s.relation)),
      highlight: (p: Path | null) => this.canvas.highlight(p ? p.nodes.map((n) => n.id) : [], p ? p.steps.map((s) => s.relation.id) : []),
      select: (ids: string[]) => this.canvas.select(ids),
      validAt: () => this.validAt(),
      changed: () => {
        const { from, to, filter } = this.paths.form;
        this.live.watchPair(from && to ? { from, to, filter } : null);
        this.saveURL();
      },
    });
    this.common = new Common(vocabulary, act);
    this.timeline = new Timeline(vocabulary, { ...act, datasets: () => [...new Set(this.canvas.nodes().map((n) => n.dataset))] });
    this.search = new Search(act.open, (e) => this.canvas.add([e], []));
    this.welcome = new Welcome(byId("welcome"), {
      start: (e) => {
        this.canvas.add([e], []);
        void this.expand(e.id);
        void this.open(e.id);
      },
      ask: (from, to) => void this.ask(from, to),
    });
    // A search is a start: the first screen goes.
    byId("search-form").addEventListener("submit", () => this.welcome.dismiss());

    const cy = this.canvas.cy;
    cy.on("tap", "node", (ev) => void this.open(ev.target.id()));
    cy.on("dbltap", "node", (ev) => void this.expand(ev.target.id()));
    cy.on("tap", "edge", (ev) => void this.openRelation(ev.target.id()));
    // A tap on the background ends a path's highlight.
    cy.on("tap", (ev) => ev.target === cy && this.canvas.highlight([], []));
    cy.on("select unselect", "node", () => this.common.render(selectedRefs(this.canvas)));
    cy.on("dragfree", "node", () => this.saveURL());
    this.canvas.onChange(() => this.changed());
    // A layout moves entities and may show or take away the map: the legend and the address follow.
    this.canvas.onLayout(() => {
      renderLegend(this.canvas, vocabulary);
      this.saveURL();
    });

    this.views = new Views(byId("views"), {
      current: () => toSaved(this.view(), currentTab(), this.canvas.leftOut),
      show: (v) => this.showSaved(v),
      changed: () => this.saveURL(),
      datasets: () => [...new Set(this.canvas.nodes().map((n) => n.dataset))].sort(),
      // The details again, with the view's notes, when they are the tab open.
      detail: () => void (currentTab() === "entity" && (this.detail?.kind === "entity" ? this.open(this.detail.id) : this.detail?.kind === "relation" && this.openRelation(this.detail.id))),
    });

    this.toolbar();
    setupKeys(this.canvas, (id) => void this.expand(id), () => this.views.focus());
    setupPanels();
    setupWriting({ canvas: this.canvas, vocabulary, open: (id) => void this.open(id), openRelation: (id) => void this.openRelation(id) });
    setupImport();
    this.canvas.follow([...document.querySelectorAll("header, #alert, #status, #toolbar, #left, #right")]);
    renderLegend(this.canvas, vocabulary);
  }

  /** open shows an entity in the panel. */
  async open(id: string): Promise<void> {
    this.welcome.dismiss();
    this.openEntity = id;
    this.detail = { kind: "entity", id };
    openPanel("right");
    this.saveURL();
    await showEntity(id, this.vocabulary, {
      open: (other) => void this.open(other),
      draw: (e, relations = []) => this.canvas.add([e], relations),
      expand: (other) => void this.expand(other),
      pathEnd: (which, e) => this.paths.setEnd(which, e),
      openRelation: (other) => void this.openRelation(other),
      openSource: (other) => void this.openSource(other),
      commandChain: (unit, at) => void drawChain(this.canvas, unit, at),
      notes: (other) => this.views.notesFor("ENTITY", other),
    });
  }

  // The relation and source panels (evidence at a click) share the details panel with entities.

  /** openRelation shows a relation and its evidence in the details panel. */
  async openRelation(id: string): Promise<void> {
    this.detail = { kind: "relation", id };
    openPanel("right");
    await showRelation(id, this.vocabulary, {
      open: (other) => void this.open(other),
      openSource: (other) => void this.openSource(other),
      draw: (nodes, relations) => this.canvas.add(nodes, relations),
      notes: (other) => this.views.notesFor("RELATION", other),
    });
  }

  /** openSource shows a source and what it supports in the details panel. */
  async openSource(id: string): Promise<void> {
    this.detail = { kind: "source", id };
    openPanel("right");
    await showSource(id, this.vocabulary, {
      open: (other) => void this.open(other),
      openRelation: (other) => void this.openRelation(other),
      known: () => [...this.canvas.relations(), ...readRelations()],
    });
  }

  /** expand draws an entity's neighbourhood, more of it each time. */
  async expand(id: string): Promise<void> {
    const node = this.canvas.node(id);
    const drawn = node ? node.connectedEdges().length : 0;
    const limit = node?.data("expanded") ? Math.min(Math.max(drawn, firstExpansion) * 4, maxExpansion) : firstExpansion;
    const sub = await run("Expanding", () => neighborhood(id, limit, this.filter()));
    if (!sub) return;
    this.canvas.add(sub.centre ? [sub.centre, ...sub.nodes] : sub.nodes, sub.relations);
    const shown = this.canvas.node(id)?.connectedEdges().length ?? 0;
    const more = Math.max(0, sub.total - shown);
    this.canvas.markExpanded(id, more);
    status(`${sub.nodes.length} neighbours drawn${more > 0 ? `; ${more} more relations (expand again for more)` : ""}.`);
    this.saveURL();
  }

  /** ask runs a path search from the first screen: the paths and their evidence, hop by hop, in the Paths panel. */
  async ask(from: EntityRef, to: EntityRef): Promise<void> {
    this.welcome.dismiss();
    openPanel("right");
    this.paths.form = { k: 3, filter: {}, chosen: 0 };
    this.paths.setEnd("from", from);
    this.paths.setEnd("to", to);
    showTab("paths");
    await this.paths.search();
    document.querySelector<HTMLElement>("#evidence li.hop")?.focus();
  }

  /** filter is the filter for expansions and common ground: the date, when one is set. */
  filter(): PathFilter {
    const validAt = this.validAt();
    return validAt ? { validAt } : {};
  }

  validAt(): string {
    return this.timebar.asOf();
  }

  private changed(): void {
    const nodes = this.canvas.nodes();
    if (nodes.length > 0) this.welcome.dismiss();
    if (nodes.length > 0 && performance.getEntriesByName(firstGraph).length === 0) {
      // The frame after the first entities are drawn: the benchmark's "time to first graph".
      requestAnimationFrame(() => performance.getEntriesByName(firstGraph).length === 0 && performance.mark(firstGraph));
    }
    const hidden = new Set(this.canvas.cy.nodes(".hidden").map((n) => n.id()));
    renderOnscreen(nodes, hidden, { open: (id) => void this.open(id), select: (id) => this.canvas.select([id]), expand: (id) => void this.expand(id) });
    this.canvas.asOf(this.validAt());
    void this.timeline.defaults();
    renderLegend(this.canvas, this.vocabulary);
    this.saveURL();
  }

  private toolbar(): void {
    const ends = [() => this.paths.form.from?.name, () => this.paths.form.to?.name];
    // Files are named after the kept view open, else after what is drawn.
    const names = () => (this.views.open ? [this.views.open.title] : exporter.viewNames(this.canvas, ends.map((e) => e())));
    const title = () => this.views.open?.title ?? exporter.viewTitle(this.canvas, ends[0](), ends[1]());
    const actions: Record<string, () => void> = {
      expand: () => this.canvas.selected().forEach((id) => void this.expand(id)),
      pin: () => this.canvas.togglePin(this.canvas.selected()),
      hide: () => this.canvas.hide(this.canvas.selected()),
      show: () => this.canvas.showHidden(),
      remove: () => this.canvas.remove(this.canvas.selected()),
      undo: () => this.canvas.undo(),
      fit: () => this.canvas.fit(),
      zoomin: () => this.canvas.zoomBy(1.25),
      zoomout: () => this.canvas.zoomBy(0.8),
      layout: () => this.canvas.layout([], byId<HTMLSelectElement>("layout-choice").value as LayoutName),
      clear: () => this.canvas.clear(),
      ...exporter.exportActions(this.canvas, names, title, status),
      link: () => (this.saveURLNow(), copyText(location.href, "The link to this view is copied.", "Copy the address bar: it restores this view.")),
    };
    byId("layout-choice").addEventListener("change", () => actions.layout());
    byId("toolbar").addEventListener("click", (ev) => {
      const action = (ev.target as HTMLElement).closest("button")?.dataset.action;
      if (action && actions[action]) actions[action]();
    });
  }

  view(): View {
    const v: View = {
      n: this.canvas.cy.nodes().map((n) => {
        const p = n.position();
        const flags = (n.locked() ? "p" : "") + (n.hasClass("hidden") ? "h" : "") + (n.data("expanded") ? "x" : "");
        return [n.id(), Math.round(p.x), Math.round(p.y), flags] as [string, number, number, string];
      }),
      r: this.canvas.relations().map((r) => r.id),
    };
    const form = this.paths.form;
    if (form.from || form.to) v.p = { f: form.from?.id, t: form.to?.id, k: form.k, q: form.filter, c: form.chosen };
    if (this.validAt()) v.t = this.validAt();
    if (this.openEntity) v.e = this.openEntity;
    if (this.timebar.brushed) v.b = [this.timebar.brushed.from, this.timebar.brushed.to];
    if (this.analysis.measure !== "none") v.a = this.analysis.measure;
    if (this.live.on) v.l = 1;
    if (this.canvas.layoutName !== "force") v.y = this.canvas.layoutName;
    if (this.canvas.layoutName === "map" && this.canvas.map.projection) v.m = this.canvas.map.projection;
    return v;
  }

  saveURL(): void {
    if (this.restoring || this.pending) return;
    clearTimeout(this.urlTimer);
    this.urlTimer = window.setTimeout(() => this.saveURLNow(), 300);
  }

  private saveURLNow(): void {
    if (this.restoring || this.pending) return;
    history.replaceState(null, "", "#" + (this.views.link() ?? encode(this.view())));
  }

  /** restore rebuilds the view a URL names. */
  async restore(v: View): Promise<void> {
    this.welcome.dismiss();
    this.restoring = true;
    try {
      const pathEnds = [v.p?.f, v.p?.t].filter((id): id is string => !!id);
      const loaded = await run("Restoring the view", () => load([...v.n.map(([id]) => id), ...pathEnds], v.r));
      if (!loaded) return;
      // What the benchmark splits a restore by: reading the view, then drawing it.
      if (performance.getEntriesByName(viewRead).length === 0) performance.mark(viewRead);
      await this.apply(v, loaded.nodes, loaded.relations, true);
      if (v.e) await this.open(v.e);
      if (loaded.nodes.length < v.n.length + pathEnds.length) status("Some entities of this view are gone, or not yours to read.");
    } finally {
      this.restoring = false;
    }
  }

  /** apply draws a view from what was read for it: places, pins, the date, the time bar, analysis, live and the path search. */
  private async apply(v: View, nodes: EntityRef[], relations: Relation[], fit: boolean): Promise<void> {
    const byID = new Map(nodes.map((e) => [e.id, e]));
    const placed = new Map(v.n.map(([id, x, y, flags]) => [id, [x, y, flags] as Place]));
    const onCanvas = nodes.filter((e) => placed.has(e.id));
    if (fit) this.canvas.zoomFor([...placed.values()].filter(([, , flags]) => !flags.includes("h")));
    // Each entity is added at its place with its flags, and the listeners
    // of the canvas are called once, when the view is drawn.
    this.canvas.add(onCanvas, relations, { checkpoint: false, layout: false, placed, quiet: true });
    // An entity drawn before keeps its place: it is moved to the view's.
    this.canvas.cy.batch(() => {
      for (const [id, [x, y, flags]] of placed) {
        const node = this.canvas.node(id);
        const there = (n: NonNullable<typeof node>) =>
          n.position("x") === x && n.position("y") === y && (!flags.includes("p") || n.locked()) && (!flags.includes("h") || n.hasClass("hidden")) && (!flags.includes("x") || n.data("expanded"));
        if (!node || there(node)) continue;
        node.position({ x, y });
        if (flags.includes("p")) node.lock().addClass("pinned");
        if (flags.includes("h")) node.addClass("hidden");
        if (flags.includes("x")) node.data("expanded", true);
      }
    });
    this.canvas.settle();
    // What the view does not set is set back to the default: a view drawn over another keeps nothing of it.
    this.canvas.keepLayout(v.y ?? "force", v.m);
    byId<HTMLSelectElement>("layout-choice").value = v.y ?? "force";
    if (fit) this.canvas.fit();
    this.timebar.setAsOf(v.t ?? "");
    this.canvas.notify();
    await this.timebar.refresh();
    this.timebar.brush(v.b ? { from: v.b[0], to: v.b[1] } : null);
    if (v.a || this.analysis.measure !== "none") this.analysis.set((v.a ?? "none") as Measure);
    if (!!v.l !== this.live.on) this.live.toggle(!!v.l);
    if (v.p) {
      const form = this.paths.form;
      form.from = v.p.f ? byID.get(v.p.f) : undefined;
      form.to = v.p.t ? byID.get(v.p.t) : undefined;
      form.k = v.p.k;
      form.filter = v.p.q ?? {};
      form.chosen = v.p.c ?? 0;
      this.paths.render();
      if (form.from && form.to) await this.paths.search();
    }
  }

  /**
   * showSaved draws a kept view as the server showed it, in place of what
   * is drawn: its entities where they were kept, what the legend left
   * out, the entity open and the tab open.
   */
  async showSaved(saved: Opened): Promise<void> {
    if (performance.getEntriesByName(viewRead).length === 0) performance.mark(viewRead);
    const { view, tab, leftOut } = fromSaved(saved.state);
    this.welcome.dismiss();
    this.restoring = true;
    try {
      this.clearPanels();
      for (const [what, values] of [["kinds", leftOut.k], ["types", leftOut.t]] as const) {
        this.canvas.leftOut[what].clear();
        values.forEach((value) => this.canvas.leftOut[what].add(value));
      }
      await this.apply({ ...view, e: undefined }, saved.entities, saved.relations, true);
      this.canvas.restyle();
      if (view.e) await this.open(view.e);
      if (isTab(tab)) showTab(tab);
    } finally {
      this.restoring = false;
    }
  }

  /**
   * identityChanged reads everything shown again with the tab's new
   * credentials (signed in, or with another key): what the new identity
   * reads stays where it was, a protected person changes face (see
   * identity.ts), and what it cannot read is dropped; the undo history,
   * which holds what the old identity read, goes.
   */
  async identityChanged(): Promise<void> {
    const mine = ++this.identities;
    void this.welcome.show();
    this.search.again();
    const before = this.pending ?? { view: this.view(), drawn: this.canvas.relations() };
    const showing = this.pending ? null : this.detail;
    this.pending = null;
    this.views.again();
    // A kept view open is read again as the server shows it to the new identity.
    if (this.views.ref) {
      const again = await this.views.reread();
      if (mine !== this.identities) return;
      if (again) return void (await this.views.show(again), status("Read again for the new identity."));
    }
    if (before.view.n.length === 0 && !before.view.p && !before.view.e && !showing) return;
    const again = await run("Reading the view again for the new identity", () => reread(before.view, before.drawn));
    if (mine !== this.identities) return;
    if (!again) {
      this.forget(before);
      return;
    }
    await this.redraw(again, showing);
  }

  private async redraw(again: Reread, showing: { kind: "entity" | "relation" | "source"; id: string } | null): Promise<void> {
    this.restoring = true;
    try {
      this.clearPanels();
      await this.apply({ ...again.view, e: undefined }, again.nodes, again.relations, false);
      const now = (id: string) => again.renamed.get(id) ?? id;
      if (showing?.kind === "relation" && again.relations.some((r) => r.id === now(showing.id))) await this.openRelation(now(showing.id));
      else if (showing?.kind === "source") await this.openSource(showing.id);
      else if (again.view.e) await this.open(again.view.e);
    } finally {
      this.restoring = false;
    }
    this.saveURL();
    const changed = again.faces > 0 ? `${again.faces} shown as you may now see ${again.faces === 1 ? "it" : "them"}` : "";
    const dropped = again.dropped > 0 ? `${again.dropped} no longer yours to read` : "";
    status(`Read again for the new identity${changed || dropped ? ": " + [changed, dropped].filter(Boolean).join("; ") : ""}.`);
  }

  /**
   * forget drops everything shown when the tab may read nothing (signed
   * out without anonymous access, or a key refused), keeping the view's
   * ids (as the URL does) to read again at the next sign-in.
   */
  forget(before: { view: View; drawn: Relation[] } = this.pending ?? { view: this.view(), drawn: this.canvas.relations() }): void {
    this.identities++;
    this.pending = { view: before.view, drawn: before.drawn.map(skeleton) };
    this.views.forget();
    this.welcome.clear();
    this.clearPanels();
    this.search.clear();
    this.changed();
  }

  /** clearPanels empties the canvas, its undo history and every panel that shows what was read. */
  private clearPanels(): void {
    this.canvas.forget();
    this.openEntity = "";
    this.detail = null;
    this.paths.form = { k: 3, filter: {}, chosen: 0 };
    this.paths.render();
    this.common.render([]);
    this.timeline.render();
    replace(byId("panel-entity"), h("p", { class: "hint" }, "Search for an entity, or click an entity or a relation on the canvas."));
  }
}

async function main(): Promise<void> {
  setupTabs();
  let explorer: Explorer | null = null;
  const start = async () => {
    // Until what is shown is read again with the new credentials, the page is not ready (tests wait for it).
    if (explorer) document.body.dataset.ready = "false";
    // A kept view in the address of a page just opened is read while the
    // vocabulary is: neither waits for the other (its error, if any, is
    // shown when it is opened).
    const saved = explorer ? null : savedRef(location.hash);
    const reading = saved ? readSaved(saved.name, saved.version) : undefined;
    reading?.catch(() => undefined);
    let vocabulary: Map<string, RelationTypeInfo>;
    try {
      vocabulary = await relationTypes();
    } catch (err) {
      showError(err);
      if (err instanceof ApiError && (err.code === "UNAUTHENTICATED" || err.code === "FORBIDDEN")) {
        // Signed out (or the key refused): nothing shown may stay.
        explorer?.forget();
        byId("signin-button").focus();
      }
      if (explorer) document.body.dataset.ready = "true";
      return;
    }
    clearError();
    if (explorer) {
      // Signed in again, or with another key: what is shown is read again with it.
      await explorer.identityChanged();
      document.body.dataset.ready = "true";
      return;
    }
    explorer = new Explorer(vocabulary);
    (window as unknown as { casegraph: Explorer }).casegraph = explorer;
    const view = decode(location.hash);
    if (saved) await explorer.views.openNamed(saved.name, saved.version, reading);
    else if (view) await explorer.restore(view);
    else void explorer.welcome.show();
    document.body.dataset.ready = "true";
    performance.mark(ready);
  };
  setupSignIn(() => void start());
  await start();
}

void main();
