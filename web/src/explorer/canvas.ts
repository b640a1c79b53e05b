// The graph canvas: Cytoscape with the fCoSE force layout. A kind is shown
// by shape and colour, a relation's status by line style (CONFIRMED solid,
// REPORTED long dashes, ALLEGED short dashes, DISPUTED dotted) and its
// confidence by width, so nothing depends on colour alone. Every change a
// user makes (add, expand, hide, remove, pin) can be undone.
import cytoscape from "cytoscape";
import type { Core, ElementDefinition, NodeSingular, EdgeSingular } from "cytoscape";
import fcose from "cytoscape-fcose";
import type { EntityRef, Kind, Relation, RelationTypeInfo } from "./api";

cytoscape.use(fcose);

/** Kind styles: shape first, colour second. */
export const kindStyle: Record<Kind, { shape: string; color: string; label: string }> = {
  PERSON: { shape: "ellipse", color: "#3b6fb6", label: "person (circle)" },
  ORGANIZATION: { shape: "round-rectangle", color: "#b8641d", label: "organization (rounded square)" },
  EVENT: { shape: "diamond", color: "#9b2f6b", label: "event (diamond)" },
  DOCUMENT: { shape: "rectangle", color: "#2f7f5f", label: "document (square)" },
  PLACE: { shape: "triangle", color: "#6a5aa8", label: "place (triangle)" },
};

/** Status line styles, as words for the legend. */
export const statusStyle: Record<string, { style: "solid" | "dashed" | "dotted"; dash?: number[]; label: string }> = {
  CONFIRMED: { style: "solid", label: "solid" },
  REPORTED: { style: "dashed", dash: [10, 3], label: "long dashes" },
  ALLEGED: { style: "dashed", dash: [4, 4], label: "short dashes" },
  DISPUTED: { style: "dotted", label: "dotted" },
};

/** NodeData is what a drawn entity carries. */
export interface NodeData extends EntityRef {
  label: string;
  more: number;
  expanded: boolean;
}

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

  constructor(
    container: HTMLElement,
    private vocabulary: Map<string, RelationTypeInfo>,
  ) {
    this.cy = cytoscape({
      container,
      wheelSensitivity: 0.3,
      minZoom: 0.05,
      maxZoom: 4,
      boxSelectionEnabled: true,
      style: stylesheet(),
    });
    let far = false;
    this.cy.on("zoom", () => {
      if (far === this.cy.zoom() < farZoom) return;
      far = !far;
      this.cy.nodes().toggleClass("far", far);
    });
    this.cy.on("add", "node", (ev) => ev.target.toggleClass("far", far));
  }

  /** onChange calls fn after every change to what is drawn. */
  onChange(fn: () => void): void {
    this.listeners.push(fn);
  }

  private changed(): void {
    for (const fn of this.listeners) fn();
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
    this.changed();
  }

  /** add draws entities and relations (those already drawn are updated), then lays out the new ones. */
  add(nodes: EntityRef[], relations: Relation[], options: { checkpoint?: boolean; layout?: boolean } = {}): void {
    if (options.checkpoint !== false) this.checkpoint();
    const fresh: string[] = [];
    const cy = this.cy;
    cy.batch(() => {
      const ensure = (e: EntityRef) => {
        const existing = cy.getElementById(e.id);
        if (existing.nonempty()) return;
        fresh.push(e.id);
        cy.add({ group: "nodes", data: { ...e, label: e.redacted ? "Protected person" : e.name, more: 0, expanded: false } satisfies NodeData });
      };
      nodes.forEach(ensure);
      for (const r of relations) {
        ensure(r.from);
        ensure(r.to);
        if (cy.getElementById(r.id).nonempty()) continue;
        const info = this.vocabulary.get(r.type);
        cy.add({
          group: "edges",
          classes: [r.status, info?.directed === false ? "undirected" : ""].join(" "),
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
    });
    cy.edges().toggleClass("many", cy.edges().length > manyRelations);
    if (options.layout !== false && fresh.length > 0) this.layout(fresh);
    this.changed();
  }

  /** layout runs the force layout; pinned (locked) nodes keep their place. */
  layout(fresh: string[] = []): void {
    const cy = this.cy;
    if (cy.nodes().length === 0) return;
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
    layout.one("layoutstop", () => {
      this.layingOut = false;
      this.fit();
    });
    this.layingOut = true;
    layout.run();
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
    n.data("label", `${n.data("redacted") ? "Protected person" : n.data("name")}${more > 0 ? `\n(${more} more)` : ""}`);
  }

  /** hide hides entities (and their relations) without removing them. */
  hide(ids: string[]): void {
    if (ids.length === 0) return;
    this.checkpoint();
    for (const id of ids) this.cy.getElementById(id).addClass("hidden");
    this.changed();
  }

  /** showHidden shows every hidden entity again. */
  showHidden(): void {
    this.checkpoint();
    this.cy.elements(".hidden").removeClass("hidden");
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

  /** clear removes everything. */
  clear(): void {
    this.checkpoint();
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

  /** fit shows the whole drawing, zoomed in no further than 1.2 (one entity would fill the screen). */
  fit(): void {
    const cy = this.cy;
    cy.fit(cy.elements(":visible"), 40);
    if (cy.zoom() > 1.2) {
      cy.zoom(1.2);
      cy.center(cy.elements(":visible"));
    }
  }
}

/** validAt says whether a relation's dates allow it on date (partial dates compare by the days they allow). */
export function validAt(r: Pick<Relation, "startDate" | "endDate">, date: string): boolean {
  const earliest = (d: string) => d.padEnd(10, d.length === 4 ? "-01-01" : "-01").slice(0, 10);
  const latest = (d: string) => (d.length === 4 ? `${d}-12-31` : d.length === 7 ? `${d}-31` : d);
  if (r.startDate && earliest(r.startDate) > latest(date)) return false;
  if (r.endDate && latest(r.endDate) < earliest(date)) return false;
  return true;
}

function stylesheet(): cytoscape.StylesheetJson {
  const kinds = Object.entries(kindStyle).map(([kind, s]) => ({
    selector: `node[kind = "${kind}"]`,
    style: { shape: s.shape, "background-color": s.color },
  }));
  const statuses = Object.entries(statusStyle).map(([status, s]) => ({
    selector: `edge.${status}`,
    style: { "line-style": s.style, ...(s.dash ? { "line-dash-pattern": s.dash } : {}) },
  }));
  return [
    {
      selector: "node",
      style: {
        label: "data(label)",
        "text-wrap": "wrap",
        "text-max-width": "140px",
        "font-size": 11,
        "text-valign": "bottom",
        "text-margin-y": 4,
        color: "#1d1d1d",
        "text-outline-color": "#ffffff",
        "text-outline-width": 2,
        // Labels too small to read are not drawn: a fitted 1,000-entity
        // view redraws shapes and lines only, and reads again on zoom.
        "min-zoomed-font-size": 7,
        width: 28,
        height: 28,
        "border-width": 1,
        "border-color": "#ffffff",
      },
    },
    ...kinds,
    { selector: "node[?redacted]", style: { "background-color": "#8a8a8a", "border-style": "dashed", "border-width": 2, "border-color": "#333" } },
    { selector: "node.has-more", style: { "border-width": 3, "border-color": "#222", "border-style": "double" } },
    { selector: "node.pinned", style: { "outline-width": 2, "outline-color": "#222", "outline-offset": 3 } as cytoscape.Css.Node },
    // Selection is a halo beneath the entity, so its own colour (and a
    // protected person's grey) stays as it is.
    { selector: "node:selected", style: { "underlay-color": "#f2b01e", "underlay-opacity": 0.8, "underlay-padding": 7, "underlay-shape": "ellipse" } as cytoscape.Css.Node },
    {
      selector: "edge",
      style: {
        width: "data(width)",
        "curve-style": "bezier",
        "line-color": "#7a7a7a",
        "target-arrow-color": "#7a7a7a",
        "target-arrow-shape": "triangle",
        "arrow-scale": 0.8,
        label: "data(label)",
        "font-size": 9,
        "min-zoomed-font-size": 8,
        color: "#444",
        "text-rotation": "autorotate",
        "text-outline-color": "#ffffff",
        "text-outline-width": 2,
      },
    },
    { selector: "edge.undirected", style: { "target-arrow-shape": "none" } },
    // Many relations: straight lines (parallel ones overlap) cost far less
    // to draw while dragging than bundled curves.
    // Labels cost as much to lay out as to draw, even when too small to be
    // drawn; with many relations theirs show only when selected or on a
    // path, and entities' only when zoomed in enough to read them.
    { selector: "edge.many", style: { "curve-style": "straight", label: "" } },
    { selector: "edge.many:selected, edge.many.path", style: { label: "data(label)" } },
    { selector: "node.far", style: { label: "" } },
    ...statuses,
    { selector: ".path", style: { "line-color": "#d0421b", "target-arrow-color": "#d0421b", "z-index": 10, "border-color": "#d0421b", "border-width": 3 } },
    { selector: ".faded", style: { opacity: 0.25 } },
    { selector: "edge.not-valid", style: { opacity: 0.12 } },
    { selector: ".hidden", style: { display: "none" } },
  ] as cytoscape.StylesheetJson;
}
