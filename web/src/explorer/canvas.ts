// The graph canvas: Cytoscape with five layouts (fCoSE's force, a
// hierarchy with superiors on top, radial and grid: arrange.ts, and a map
// of where entities are: map.ts). A kind is
// shown by shape and colour, a relation's status by line style (CONFIRMED
// solid, REPORTED long dashes, ALLEGED short dashes, DISPUTED dotted) and
// its confidence by width, so nothing depends on colour alone; an entity's
// size grows with its degree, and its label is cut to 24 characters (the
// full name shows on hover): canvasstyle.ts. Relation types and kinds can be left out of
// what is drawn without reading again. Every change a user makes (add,
// expand, hide, remove, pin) can be undone.
import cytoscape from "cytoscape";
import type { Core, ElementDefinition, NodeSingular, EdgeSingular } from "cytoscape";
import fcose from "cytoscape-fcose";
import type { EntityRef, Relation, RelationTypeInfo } from "./api";
import { GeoMap } from "./map";
import type { Projection } from "./map";
import { entityName } from "./ui";
import { arranged, hierarchyRoots } from "./arrange";
import { sizeFor, stylesheet, truncate } from "./canvasstyle";

export { kindStyle, statusStyle, labelLength, sizeFor, truncate } from "./canvasstyle";

cytoscape.use(fcose);

/** Layouts the canvas offers. */
export const layouts = { force: "Force", hierarchy: "Hierarchy", radial: "Radial", grid: "Grid", map: "Map" } as const;
export type LayoutName = keyof typeof layouts;

/** NodeData is what a drawn entity carries. */
export interface NodeData extends EntityRef {
  /** the label drawn: the name cut to labelLength, and how many relations are not drawn */
  label: string;
  /** the entity's drawn size, by its degree on the canvas */
  size?: number;
  more: number;
  expanded: boolean;
}

/** Place is where a view puts an entity: x, y and its flags ("p" pinned, "h" hidden, "x" expanded), as View.n keeps them. */
export type Place = [number, number, string];

/** EdgeData is what a drawn relation carries. */
export interface EdgeData {
  id: string;
  source: string;
  target: string;
  label: string;
  relation: Relation;
  width: number;
}

const maxUndo = 50;

/** farZoom is the zoom below which entities' labels (11px) would be under 7px, too small to read. */
const farZoom = 7 / 11;

/** manyRelations is where the canvas trades curves for speed. */
const manyRelations = 300;

/** Canvas is the drawn graph and its undo history. */
export class Canvas {
  readonly cy: Core;
  private history: ElementDefinition[][] = [];
  /** layingOut says whether a layout is moving entities (tests wait for it). */
  layingOut = false;
  private listeners: (() => void)[] = [];
  private laidOut: (() => void)[] = [];
  /** the layout moving entities, until it stops */
  private running: cytoscape.Layouts | null = null;
  /** the relation types and entity kinds left out of the drawing */
  readonly leftOut = { types: new Set<string>(), kinds: new Set<string>() };
  /** the layout the canvas lays out with */
  layoutName: LayoutName = "force";
  /** the map layout's outlines and placement */
  readonly map: GeoMap;

  constructor(
    container: HTMLElement,
    private vocabulary: Map<string, RelationTypeInfo>,
  ) {
    this.cy = cytoscape({
      container,
      wheelSensitivity: 0.3,
      minZoom: 0.02,
      maxZoom: 6,
      boxSelectionEnabled: true,
      style: stylesheet(),
    });
    this.map = new GeoMap(this.cy, container);
    let far = false;
    this.cy.on("zoom", () => {
      if (far === this.cy.zoom() < farZoom) return;
      far = !far;
      this.cy.nodes().toggleClass("far", far);
    });
    this.cy.on("add", "node", (ev) => ev.target.hasClass("far") !== far && ev.target.toggleClass("far", far));
    // The canvas draws no text a pointer can hover: its title says the full
    // name (or the relation) under the pointer, as a tooltip.
    this.cy.on("mouseover", "node, edge", (ev) => container.setAttribute("title", this.describe(ev.target)));
    this.cy.on("mouseout", "node, edge", () => container.removeAttribute("title"));
  }

  /**
   * follow keeps Cytoscape's idea of where the canvas is on the page
   * current when any of these elements changes size. Cytoscape keeps the
   * container's place and follows a resize of its own 100 ms late; an
   * element above the canvas that grows or shrinks (an error shown, a
   * panel folded) moves the canvas without resizing it, and clicks landed
   * off by as much (on a relation, often nothing) until the next resize.
   */
  follow(elements: Element[]): void {
    const observer = new ResizeObserver(() => this.cy.resize());
    for (const el of [this.cy.container()!, ...elements]) observer.observe(el);
  }

  /** describe is an entity's full name, or a relation read from its from. */
  describe(el: cytoscape.SingularElementArgument): string {
    if (el.isNode()) return entityName(el.data() as NodeData);
    const r = (el.data() as EdgeData).relation;
    return `${entityName(r.from)} ${this.vocabulary.get(r.type)?.label ?? r.type} ${entityName(r.to)}`;
  }

  /** onChange calls fn after every change to what is drawn. */
  onChange(fn: () => void): void {
    this.listeners.push(fn);
  }

  private changed(): void {
    for (const fn of this.listeners) fn();
  }

  /** onLayout calls fn after every layout has placed the entities. */
  onLayout(fn: () => void): void {
    this.laidOut.push(fn);
  }

  /** checkpoint remembers the drawing, for undo. */
  checkpoint(): void {
    this.history.push(this.cy.elements().jsons() as unknown as ElementDefinition[]);
    if (this.history.length > maxUndo) this.history.shift();
  }

  /** canUndo says whether there is a change to undo. */
  canUndo(): boolean {
    return this.history.length > 0;
  }

  /** undo restores the drawing before the last change. */
  undo(): void {
    const before = this.history.pop();
    if (!before) return;
    this.cy.elements().remove();
    this.cy.add(before);
    this.restyle();
    this.changed();
  }

  /**
   * add draws entities and relations (those already drawn stay as they
   * are), then lays out the new ones (unless layout is false). An entity
   * placed (a view restored) is drawn where its place says, pinned,
   * hidden or expanded as its flags say ("p", "h", "x"; see View.n).
   * quiet leaves the listeners of onChange uncalled, for a caller that
   * changes more and calls notify once.
   */
  add(nodes: EntityRef[], relations: Relation[], options: { checkpoint?: boolean; layout?: boolean; placed?: Map<string, Place>; quiet?: boolean } = {}): void {
    if (options.checkpoint !== false) this.checkpoint();
    const fresh: string[] = [];
    const cy = this.cy;
    // One add of every new element, each made as it is to be drawn (its
    // classes, its size by its degree, its place): Cytoscape adds an array
    // at a fraction of the cost of as many single adds, and works out each
    // element's style once, not again for each class or size set after it
    // (500 entities and 650 relations of a restored view:
    // BenchmarkRestoreView).
    const defs: ElementDefinition[] = [];
    const seen = new Set<string>();
    const far = cy.zoom() < farZoom;
    const ensure = (e: EntityRef) => {
      if (seen.has(e.id) || cy.getElementById(e.id).nonempty()) return;
      seen.add(e.id);
      fresh.push(e.id);
      const place = options.placed?.get(e.id);
      const flags = place?.[2] ?? "";
      const classes = [e.protected && !e.redacted ? "protected" : "", far ? "far" : "", this.leftOut.kinds.has(e.kind) ? "left-out" : ""];
      if (flags.includes("p")) classes.push("pinned");
      if (flags.includes("h")) classes.push("hidden");
      defs.push({
        group: "nodes",
        classes: classes.filter(Boolean).join(" "),
        data: { ...e, label: truncate(entityName(e)), more: 0, expanded: flags.includes("x") } satisfies NodeData,
        ...(place ? { position: { x: place[0], y: place[1] }, locked: flags.includes("p") } : {}),
      });
    };
    nodes.forEach(ensure);
    const degree = new Map<string, number>();
    for (const r of relations) {
      ensure(r.from);
      ensure(r.to);
      if (seen.has(r.id) || cy.getElementById(r.id).nonempty()) continue;
      seen.add(r.id);
      if (r.from.id !== r.to.id) for (const end of [r.from.id, r.to.id]) degree.set(end, (degree.get(end) ?? 0) + 1);
      const info = this.vocabulary.get(r.type);
      defs.push({
        group: "edges",
        classes: [r.status, info?.directed === false ? "undirected" : "", this.leftOut.types.has(r.type) ? "left-out" : ""].filter(Boolean).join(" "),
        data: {
          id: r.id,
          source: r.from.id,
          target: r.to.id,
          label: info?.label ?? r.type.toLowerCase(),
          relation: r,
          width: 1 + 4 * (r.confidence ?? 0.5),
        } satisfies EdgeData,
      });
    }
    const many = cy.edges().length + defs.filter((d) => d.group === "edges").length > manyRelations;
    for (const d of defs) {
      if (d.group === "nodes") (d.data as NodeData).size = sizeFor(degree.get(d.data.id!) ?? 0);
      else if (many) d.classes += " many";
    }
    if (defs.length > 0) cy.batch(() => void cy.add(defs));
    // What was drawn before: an entity that gains relations grows, and
    // past manyRelations every relation is drawn straight.
    this.restyle();
    if (options.layout !== false && fresh.length > 0) this.layout(fresh);
    if (!options.quiet) this.changed();
  }

  /** notify calls the listeners of onChange (after an add that was quiet). */
  notify(): void {
    this.changed();
  }

  /**
   * restyle sizes entities by degree, leaves out the types and kinds
   * chosen and draws many relations as straight lines; it changes only
   * what differs, so that Cytoscape works out again the style of those
   * alone (each style worked out for 1,150 elements again cost 50 to
   * 150 ms).
   */
  restyle(): void {
    const cy = this.cy;
    const many = cy.edges().length > manyRelations;
    cy.batch(() => {
      cy.nodes().forEach((n) => {
        const size = sizeFor(n.degree(false));
        if (n.data("size") !== size) n.data("size", size);
        const out = this.leftOut.kinds.has(n.data("kind"));
        if (n.hasClass("left-out") !== out) n.toggleClass("left-out", out);
      });
      cy.edges().forEach((e) => {
        const out = this.leftOut.types.has((e.data() as EdgeData).relation.type);
        if (e.hasClass("left-out") !== out) e.toggleClass("left-out", out);
        if (e.hasClass("many") !== many) e.toggleClass("many", many);
      });
    });
    this.settle();
  }

  /**
   * settle applies the style of the classes just changed. Cytoscape applies
   * a class's style lazily (when it next draws, at the next frame) and
   * caches visible() until then, so :visible (fit, exports, what the
   * legend and tests count) went on answering for the drawing before a
   * toggle or a hide, longest on a loaded machine; reading an element's
   * display applies its pending style and drops the cached answer.
   */
  settle(): void {
    this.cy.elements().forEach((e) => void e.style("display"));
  }

  /** leaveOut hides (or shows again) a relation type's relations or a kind's entities; nothing is read again. */
  leaveOut(what: "types" | "kinds", value: string, out: boolean): void {
    if (out) this.leftOut[what].add(value);
    else this.leftOut[what].delete(value);
    this.restyle();
    this.changed();
  }

  /** layout lays out with the chosen layout; pinned (locked) nodes keep their place. */
  layout(fresh: string[] = [], name: LayoutName = this.layoutName): void {
    const cy = this.cy;
    this.layoutName = name;
    if (name !== "map") this.map.hide();
    if (cy.nodes().length === 0) return;
    if (name === "map") return this.run(this.map.layout(cy.elements().not(".hidden, .left-out")));
    if (name !== "force") return this.run(arranged(this.cy.elements().not(".hidden, .left-out"), name, this.selected()));
    // New nodes start beside a drawn neighbour, so the layout moves the
    // old ones little and the user keeps their bearings.
    for (const id of fresh) {
      const node = cy.getElementById(id);
      const anchor = node.neighborhood("node").filter((n) => !fresh.includes(n.id())).first() as NodeSingular;
      if (anchor.nonempty()) {
        const p = anchor.position();
        node.position({ x: p.x + (Math.random() - 0.5) * 80, y: p.y + (Math.random() - 0.5) * 80 });
      }
    }
    const everything = cy.nodes().length;
    const randomize = fresh.length === everything;
    const layout = cy.layout({
      name: "fcose",
      randomize,
      animate: everything < 300,
      animationDuration: 400,
      fit: false,
      padding: 40,
      nodeRepulsion: () => 8000,
      idealEdgeLength: () => 110,
      // Draft is the spectral layout alone, which fCoSE runs only when it
      // randomizes; an incremental layout refines the current places.
      quality: randomize && everything > 500 ? "draft" : "default",
      fixedNodeConstraint: cy
        .nodes(":locked")
        .map((n) => ({ nodeId: n.id(), position: n.position() })),
    } as cytoscape.LayoutOptions);
    this.run(layout);
  }

  /**
   * run runs a layout, stopping the one still moving entities, if any:
   * two at once each move them (an expansion's, or a layout chosen again,
   * while the last runs), and the first to stop would fit and say the
   * canvas laid out while the other still moves it.
   */
  private run(layout: cytoscape.Layouts): void {
    const before = this.running;
    this.running = layout;
    before?.stop();
    forgetRemoved(this.cy);
    layout.one("layoutstop", () => {
      if (this.running !== layout) return;
      this.running = null;
      this.layingOut = false;
      this.fit();
      for (const fn of this.laidOut) fn();
    });
    this.layingOut = true;
    layout.run();
  }

  /**
   * stopLayout stops the layout still moving entities, if any, before
   * they are removed: stopped once they are gone, an animated layout threw
   * in run, which then never started the next one and the canvas said it
   * was laying out for ever.
   */
  private stopLayout(): void {
    const running = this.running;
    this.running = null;
    this.layingOut = false;
    running?.stop();
  }

  /** keepLayout takes the layout of a kept view without laying out again: a map with its projection (laid out anew without one). */
  keepLayout(name: LayoutName, projection?: Projection): void {
    if (name === "map" && projection) {
      this.layoutName = name;
      this.map.restore(this.cy.elements().not(".hidden, .left-out"), projection);
    } else if (name === "map") this.layout([], name);
    else {
      this.layoutName = name;
      this.map.hide();
    }
  }

  /** tops are the roots of the hierarchy (hierarchyRoots) of what is drawn. */
  tops(): string[] {
    return hierarchyRoots(this.cy.elements().not(".hidden, .left-out"), this.selected());
  }

  /** node is the drawn entity with this id, or null. */
  node(id: string): NodeSingular | null {
    const n = this.cy.getElementById(id);
    return n.nonempty() && n.isNode() ? (n as NodeSingular) : null;
  }

  /** nodes are the drawn entities, in drawing order. */
  nodes(): NodeData[] {
    return this.cy.nodes().map((n) => n.data() as NodeData);
  }

  /** visibleNodes are the drawn entities not hidden. */
  visibleNodes(): NodeData[] {
    return this.cy.nodes(":visible").map((n) => n.data() as NodeData);
  }

  /** visibleRelations are the drawn relations not hidden. */
  visibleRelations(): Relation[] {
    return this.cy.edges(":visible").map((e) => (e.data() as EdgeData).relation);
  }

  /** relations are every drawn relation. */
  relations(): Relation[] {
    return this.cy.edges().map((e) => (e.data() as EdgeData).relation);
  }

  /** selected are the ids of the selected entities. */
  selected(): string[] {
    return this.cy.nodes(":selected").map((n) => n.id());
  }

  /** select makes ids the selection. */
  select(ids: string[]): void {
    this.cy.elements().unselect();
    for (const id of ids) this.cy.getElementById(id).select();
  }

  /** markExpanded records that id's neighbourhood is drawn, and how many of its relations are not. */
  markExpanded(id: string, more: number): void {
    const n = this.node(id);
    if (!n) return;
    n.data({ expanded: true, more });
    n.toggleClass("has-more", more > 0);
    n.data("label", `${truncate(entityName(n.data() as NodeData))}${more > 0 ? `\n(${more} more)` : ""}`);
  }

  /** hide hides entities (and their relations) without removing them. */
  hide(ids: string[]): void {
    if (ids.length === 0) return;
    this.checkpoint();
    for (const id of ids) this.cy.getElementById(id).addClass("hidden");
    this.settle();
    this.changed();
  }

  /** showHidden shows every hidden entity again. */
  showHidden(): void {
    this.checkpoint();
    this.cy.elements(".hidden").removeClass("hidden");
    this.settle();
    this.changed();
  }

  /** hiddenCount is how many entities are hidden. */
  hiddenCount(): number {
    return this.cy.nodes(".hidden").length;
  }

  /** remove takes entities (and their relations) off the canvas. */
  remove(ids: string[]): void {
    if (ids.length === 0) return;
    this.checkpoint();
    for (const id of ids) this.cy.getElementById(id).remove();
    this.restyle();
    this.changed();
  }

  /** togglePin pins or unpins entities: a pinned one stays where it is put. */
  togglePin(ids: string[]): void {
    if (ids.length === 0) return;
    this.checkpoint();
    for (const id of ids) {
      const n = this.node(id);
      if (!n) continue;
      if (n.locked()) {
        n.unlock();
        n.removeClass("pinned");
      } else {
        n.lock();
        n.addClass("pinned");
      }
    }
    this.changed();
  }

  /** forget removes everything and the undo history, which holds what an old identity read; nothing to undo. */
  forget(): void {
    this.history = [];
    this.cy.elements().remove();
  }

  /** clear removes everything. */
  clear(): void {
    this.checkpoint();
    this.stopLayout();
    this.cy.elements().remove();
    this.changed();
  }

  /** highlight marks a path: its entities and relations stand out, the rest fades. */
  highlight(nodeIds: string[], relationIds: string[]): void {
    const cy = this.cy;
    cy.elements().removeClass("path faded");
    if (nodeIds.length === 0) return;
    const path = cy.collection();
    for (const id of [...nodeIds, ...relationIds]) path.merge(cy.getElementById(id));
    path.addClass("path");
    cy.elements().difference(path).addClass("faded");
  }

  /** asOf fades the relations not valid on date (partial ISO), and shows all when date is "". */
  asOf(date: string): void {
    this.cy.edges().forEach((e: EdgeSingular) => {
      const r = (e.data() as EdgeData).relation;
      e.toggleClass("not-valid", date !== "" && !validAt(r, date));
    });
  }

  /**
   * fit fills the canvas with the drawing: only a drawing of one or two
   * entities is held at zoom 2, where one entity would fill the screen.
   */
  fit(): void {
    const cy = this.cy;
    const shown = cy.elements(":visible");
    cy.fit(shown, fitPadding);
    if (shown.nodes().length <= 2 && cy.zoom() > 2) {
      cy.zoom(2);
      cy.center(shown);
    }
  }

  /**
   * zoomFor zooms, before a view is drawn, about as fit will once it is
   * drawn at these places, when that is below farZoom: its entities are
   * then made far (their labels left out) as they are added, so that the
   * fit measures no label (Cytoscape works out an element's whole box,
   * labels included, whatever box is asked of it) and does not make them
   * far all at once after their style is worked out (which works it out
   * again for each).
   */
  zoomFor(places: Place[]): void {
    if (places.length === 0) return;
    let [x1, y1, x2, y2] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const [x, y] of places) [x1, y1, x2, y2] = [Math.min(x1, x), Math.min(y1, y), Math.max(x2, x), Math.max(y2, y)];
    const half = sizeFor(Infinity) / 2;
    const cy = this.cy;
    const v = fitViewport({ x1: x1 - half, y1: y1 - half, w: x2 - x1 + 2 * half, h: y2 - y1 + 2 * half }, cy.width(), cy.height(), cy.minZoom(), cy.maxZoom());
    if (v && v.zoom < farZoom) cy.viewport(v);
  }

  /** zoomBy zooms about the canvas's centre. */
  zoomBy(factor: number): void {
    const cy = this.cy;
    cy.zoom({ level: cy.zoom() * factor, renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } });
  }
}

/** fitPadding is the room fit leaves around the drawing, in pixels. */
const fitPadding = 24;

/** fitViewport is the zoom and pan that fit a box into a canvas of w × h with fitPadding around it, as Cytoscape's fit computes them (for a box of places, before anything is drawn); null for an empty box or canvas. */
export function fitViewport(bb: { x1: number; y1: number; w: number; h: number }, w: number, h: number, minZoom: number, maxZoom: number): { zoom: number; pan: { x: number; y: number } } | null {
  if (!(w > 0 && h > 0 && bb.w > 0 && bb.h > 0)) return null;
  const zoom = Math.min(maxZoom, Math.max(minZoom, Math.min((w - 2 * fitPadding) / bb.w, (h - 2 * fitPadding) / bb.h)));
  return { zoom, pan: { x: (w - zoom * (2 * bb.x1 + bb.w)) / 2, y: (h - zoom * (2 * bb.y1 + bb.h)) / 2 } };
}

/** validAt says whether a relation's dates allow it on date (partial dates compare by the days they allow). */
export function validAt(r: Pick<Relation, "startDate" | "endDate">, date: string): boolean {
  const earliest = (d: string) => d.padEnd(10, d.length === 4 ? "-01-01" : "-01").slice(0, 10);
  const latest = (d: string) => (d.length === 4 ? `${d}-12-31` : d.length === 7 ? `${d}-31` : d);
  if (r.startDate && earliest(r.startDate) > latest(date)) return false;
  if (r.endDate && latest(r.endDate) < earliest(date)) return false;
  return true;
}

/**
 * forgetRemoved takes the elements removed from the graph out of
 * Cytoscape's animation pool. Cytoscape leaves an element removed while
 * it was animated (the canvas cleared, an entity taken off, during a
 * layout) in that pool until its next animation frame steps it, and pools
 * elements by id: an entity of the same id drawn again before that frame
 * (the canvas cleared and an expansion drawing an entity it held) was
 * never pooled, so its animation never ran and the layout that started it
 * never stopped; the canvas said it was laying out for ever (TestExplorer's
 * "draws protected people redacted" in about 1 run of 8;
 * TestLayoutOfEntitiesDrawnAgain). Called when a layout starts, after the
 * one before it stopped, whose animations the removed elements were
 * running. The pool is Cytoscape's private field: without it (another
 * version), nothing is done.
 */
function forgetRemoved(cy: Core): void {
  const pool = (cy as unknown as { _private?: { aniEles?: cytoscape.Collection } })._private?.aniEles;
  if (pool) pool.unmerge(pool.filter((e) => e.removed()));
}
