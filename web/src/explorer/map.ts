// The map layout (issue 26 item 2): places with coordinates sit where
// their coordinates project, an entity located in a place (LOCATED_IN,
// BASED_AT, through places without coordinates too) sits around it, and
// the rest stand in a strip beside the map. Natural Earth's country
// outlines (world-atlas, 1:110m) are drawn behind the graph in an SVG
// under Cytoscape's canvases whose transform is Cytoscape's pan and zoom,
// so outlines and entities move as one. The projection (Equal Earth,
// fitted to the places drawn and the canvas) is kept with the view, so a
// shared map reopens with its outlines under its places.
//
// The outlines are a file of their own (content-hashed in dist/assets,
// where the build copies it), read from this origin the first time the
// map is chosen: the explorer's first paint does not carry them.
import type { CollectionReturnValue, Core, Layouts, LayoutOptions, NodeSingular } from "cytoscape";
import { geoPath } from "d3-geo";
import type { GeoPermissibleObjects } from "d3-geo";
import type { Feature, FeatureCollection } from "geojson";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import outlinesURL from "world-atlas/countries-110m.json";
import { byKindAndName, fit, projectionOf, relax, ring, spread, where } from "./mapplace";
import type { Spot } from "./mapplace";
import { status } from "./ui";

/**
 * outlinesAddress is where the outlines are: the build gives their
 * address beside the explorer's script, read while it runs (the page is
 * at /, the assets under /assets/).
 */
const outlinesAddress = new URL(outlinesURL, document.currentScript instanceof HTMLScriptElement ? document.currentScript.src : location.href).href;

/** Projection is the map's Equal Earth projection as a view keeps it: scale, then translation x and y. */
export type Projection = [number, number, number];

/** Box is a rectangle in the drawing's coordinates. */
export interface Box {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** margin keeps the outermost places, and what sits around them, inside the canvas. */
const margin = 70;

/** The strip's grid: a column's width (a cut label is about 150 px) and the gap between map and strip. */
const columnWidth = 180;
const stripGap = 90;

/** Colours of the outlines; none is an entity's, so nothing drawn is mistaken for one. */
export const mapColors = { ocean: "#eef4f8", coast: "#c3d2dc", land: "#ecebe4", border: "#aaa89c", strip: "#ffffff", stripEdge: "#8a8a8a" };

/**
 * GeoMap draws the map layout: it places entities, and keeps the outlines
 * under the canvas for the projection shown.
 */
export class GeoMap {
  /** the projection the outlines are drawn in, or null when the map is not shown */
  projection: Projection | null = null;
  /** the entities in the strip, as the last layout or restore read them */
  private unplaced = new Set<string>();
  private readonly underlay: SVGSVGElement;
  /** takes Cytoscape's pan and zoom */
  private readonly view: SVGGElement;
  /** the outlines in the drawing's coordinates: what exports copy */
  private readonly layer: SVGGElement;
  private outlines: Promise<FeatureCollection> | null = null;
  /** each country's drawn outline and its box, for exports */
  private countries: { el: SVGPathElement; box: Box }[] = [];
  /** drawn says when the outlines for the projection shown are in the page (tests and exports wait for it) */
  drawn: Promise<void> = Promise.resolve();

  constructor(
    private readonly cy: Core,
    container: HTMLElement,
  ) {
    const ns = "http://www.w3.org/2000/svg";
    this.underlay = document.createElementNS(ns, "svg");
    this.underlay.setAttribute("class", "map-underlay");
    this.underlay.setAttribute("aria-hidden", "true");
    this.underlay.setAttribute("focusable", "false");
    this.underlay.setAttribute("display", "none");
    this.view = document.createElementNS(ns, "g");
    this.layer = document.createElementNS(ns, "g");
    this.layer.setAttribute("class", "map");
    this.view.appendChild(this.layer);
    this.underlay.appendChild(this.view);
    // Beneath Cytoscape's canvases, which are transparent where nothing is drawn.
    container.insertBefore(this.underlay, container.firstChild);
    cy.on("viewport", () => this.follow());
    cy.on("dragfree", "node", () => this.projection && this.frame());
  }

  /** shown says whether the map is drawn. */
  get shown(): boolean {
    return this.projection !== null;
  }

  /**
   * layout places eles' entities on the map (pinned ones stay) and shows
   * the outlines for a projection fitted to their places and the canvas.
   */
  layout(eles: CollectionReturnValue): Layouts {
    const found = where(eles);
    const nodes = eles.nodes();
    const width = Math.max(this.cy.width(), 400);
    const height = Math.max(this.cy.height(), 300);
    const strip = nodes.filter((n) => found.unplaced.has(n.id())).sort(byKindAndName);
    // The map keeps at least 60% of the canvas, the strip the rest (a long one runs on, and fit takes it in).
    const right = strip.length === 0 ? width : Math.max(0.6 * width, width - stripGap - columnWidth * Math.ceil(strip.length / 8));
    const box = { x1: margin, y1: margin, x2: right - margin, y2: height - margin };
    const located = nodes.filter((n) => found.points.has(n.id()));
    const projection = spread(
      fit([...found.points.values()], box),
      located.map((n) => ({ point: found.points.get(n.id())!, r: n.width() / 2 + 6 })),
      box,
    );
    const project = projectionOf(projection);
    const spots: Spot[] = [];
    const spot = (n: NodeSingular, x: number, y: number, fixed: boolean) => {
      const s = { id: n.id(), x, y, r: n.width() / 2 + 6, fixed: fixed || n.locked() };
      if (n.locked()) Object.assign(s, n.position());
      spots.push(s);
      return s;
    };
    // Places where their coordinates project; places at one point in a ring about it, the first (by id) at its centre.
    const byPoint = new Map<string, NodeSingular[]>();
    located.forEach((n) => {
      const [x, y] = project(found.points.get(n.id())!) ?? [0, 0];
      const key = `${Math.round(x)},${Math.round(y)}`;
      byPoint.set(key, [...(byPoint.get(key) ?? []), n]);
    });
    const anchors = new Map<string, Spot>();
    for (const group of byPoint.values()) {
      group.sort((a, b) => a.id().localeCompare(b.id()));
      const [x, y] = project(found.points.get(group[0].id())!) ?? [0, 0];
      group.forEach((n, i) => {
        const a = ring(i - 1, group.length - 1, 34);
        anchors.set(n.id(), spot(n, i === 0 ? x : x + a.x, i === 0 ? y : y + a.y, true));
      });
    }
    // The entities located in a place, around it by kind and name, far enough for their number.
    const around = new Map<string, NodeSingular[]>();
    nodes.forEach((n) => {
      const p = found.at.get(n.id());
      if (p) around.set(p, [...(around.get(p) ?? []), n]);
    });
    for (const [place, group] of around) {
      const a = anchors.get(place)!;
      group.sort(byKindAndName);
      const biggest = Math.max(...group.map((n) => n.width()));
      const radius = Math.max(a.r + biggest / 2 + 14, (group.length * (biggest + 16)) / (2 * Math.PI));
      group.forEach((n, i) => {
        const o = ring(i, group.length, radius);
        spot(n, a.x + o.x, a.y + o.y, false);
      });
    }
    relax(spots);
    const positions = new Map(spots.map((s) => [s.id, { x: s.x, y: s.y }]));
    // The strip: columns beside what the map holds, from its top down.
    // Its first row a title's height below the map's top: the panel's title stays inside what exports take in.
    const top = (spots.length === 0 ? box.y1 : Math.min(...spots.map((s) => s.y - s.r))) + 40;
    const bottom = spots.length === 0 ? box.y2 : Math.max(...spots.map((s) => s.y + s.r));
    const left = (spots.length === 0 ? box.x2 : Math.max(...spots.map((s) => s.x + s.r))) + stripGap;
    const rowHeight = Math.max(24, ...strip.map((n) => n.height())) + 34;
    // Square-ish by the labels' width (a column of a long strip's relations would lie on one another), no taller than the map.
    const rows = Math.max(1, Math.min(Math.floor((bottom - top) / rowHeight) + 1, Math.ceil(Math.sqrt((strip.length * columnWidth) / rowHeight))));
    strip.forEach((n, i) => void positions.set(n.id(), { x: left + Math.floor(i / rows) * columnWidth, y: top + (i % rows) * rowHeight }));
    this.unplaced = found.unplaced;
    this.show(projection);
    const layout = eles.layout({
      name: "preset",
      positions: (n: NodeSingular) => positions.get(n.id()) ?? n.position(),
      fit: false,
      animate: eles.length < 600,
      animationDuration: 300,
    } as unknown as LayoutOptions);
    layout.one("layoutstop", () => this.frame());
    return layout;
  }

  /** restore shows the map of a kept view: its projection, with the entities where the view put them. */
  restore(eles: CollectionReturnValue, projection: Projection): void {
    this.unplaced = where(eles).unplaced;
    this.show(projection);
    this.frame();
  }

  /** hide takes the map away (another layout was chosen). */
  hide(): void {
    this.projection = null;
    this.unplaced = new Set();
    this.underlay.setAttribute("display", "none");
    this.layer.replaceChildren();
    this.countries = [];
  }

  /** unplacedCount is how many entities shown stand in the strip. */
  unplacedCount(): number {
    let n = 0;
    for (const id of this.unplaced) if (this.cy.getElementById(id).visible()) n++;
    return n;
  }

  /** note says what the map shows, for the legend; long, for an export's caption, with the projection and the outlines' origin in full. */
  note(long = false): string {
    const n = this.unplacedCount();
    const strip = `${n} ${n === 1 ? "entity" : "entities"} without a place, in the strip beside the map`;
    return long ? `${strip}; Equal Earth projection; country outlines from Natural Earth (public domain, 1:110m), via world-atlas` : `${strip} · outlines: Natural Earth`;
  }

  private show(projection: Projection): void {
    const same = this.projection !== null && this.projection.every((v, i) => v === projection[i]) && this.countries.length > 0;
    this.projection = projection;
    this.underlay.removeAttribute("display");
    this.follow();
    if (same) return;
    this.drawn = this.load().then(
      (world) => {
        if (this.projection !== projection) return;
        this.draw(world, projection);
      },
      (err: unknown) => {
        status(`The map's outlines could not be read: ${String(err)}`);
      },
    );
  }

  /** load reads the outlines once, from this origin. */
  private load(): Promise<FeatureCollection> {
    this.outlines ??= fetch(outlinesAddress).then(async (r) => {
      if (!r.ok) throw new Error(`${r.status} for ${outlinesAddress}`);
      const topology = (await r.json()) as Topology<{ countries: GeometryCollection<{ name: string }> }>;
      return feature(topology, topology.objects.countries) as FeatureCollection;
    });
    return this.outlines;
  }

  private draw(world: FeatureCollection, projection: Projection): void {
    const ns = "http://www.w3.org/2000/svg";
    // A tenth of a unit is finer than any zoom draws, and keeps exports small.
    const path = geoPath(projectionOf(projection)).digits(1);
    const el = (d: string, fill: string, stroke: string) => {
      const p = document.createElementNS(ns, "path");
      p.setAttribute("d", d);
      p.setAttribute("fill", fill);
      p.setAttribute("stroke", stroke);
      p.setAttribute("stroke-width", "0.75");
      p.setAttribute("vector-effect", "non-scaling-stroke");
      return p;
    };
    const sphere = el(path({ type: "Sphere" } as GeoPermissibleObjects) ?? "", mapColors.ocean, mapColors.coast);
    sphere.setAttribute("class", "sphere");
    this.countries = world.features.map((f: Feature) => {
      const p = el(path(f) ?? "", mapColors.land, mapColors.border);
      p.setAttribute("class", "country");
      p.setAttribute("data-name", String(f.properties?.name ?? ""));
      const [[x1, y1], [x2, y2]] = path.bounds(f);
      return { el: p, box: { x1, y1, x2, y2 } };
    });
    this.layer.replaceChildren(sphere, ...this.countries.map((c) => c.el));
    this.frame();
  }

  /** follow gives the outlines Cytoscape's pan and zoom. */
  private follow(): void {
    if (!this.projection) return;
    const { x, y } = this.cy.pan();
    this.view.setAttribute("transform", `translate(${x},${y}) scale(${this.cy.zoom()})`);
  }

  /** frame draws the strip's panel behind the entities without a place, over the outlines, so none seems to sit where it is drawn. */
  private frame(): void {
    this.layer.querySelectorAll(".strip").forEach((e) => e.remove());
    const strip = this.cy.nodes(":visible").filter((n) => this.unplaced.has(n.id()));
    if (!this.projection || strip.empty()) return;
    const b = strip.boundingBox({});
    const ns = "http://www.w3.org/2000/svg";
    const rect = document.createElementNS(ns, "rect");
    const pad = 16;
    for (const [k, v] of Object.entries({ x: b.x1 - pad, y: b.y1 - pad - 18, width: b.w + 2 * pad, height: b.h + 2 * pad + 18 })) rect.setAttribute(k, v.toFixed(1));
    rect.setAttribute("fill", mapColors.strip);
    rect.setAttribute("stroke", mapColors.stripEdge);
    rect.setAttribute("stroke-dasharray", "4 3");
    rect.setAttribute("vector-effect", "non-scaling-stroke");
    const title = document.createElementNS(ns, "text");
    title.setAttribute("x", (b.x1 - pad + 6).toFixed(1));
    title.setAttribute("y", (b.y1 - pad - 4).toFixed(1));
    title.setAttribute("font-size", "12");
    title.setAttribute("fill", "#333333");
    title.textContent = "Without a place";
    for (const e of [rect, title]) e.setAttribute("class", "strip");
    this.layer.append(rect, title);
  }

  /**
   * svg is the outlines as an exported SVG holds them: the sphere, the
   * countries whose box meets the export's, and the strip's panel, as drawn.
   */
  svg(box: Box): string {
    const meets = (c: Box) => c.x1 <= box.x2 && c.x2 >= box.x1 && c.y1 <= box.y2 && c.y2 >= box.y1;
    const copy = this.layer.cloneNode(false) as SVGGElement;
    for (const child of this.layer.children) {
      const country = this.countries.find((c) => c.el === child);
      if (!country || meets(country.box)) copy.appendChild(child.cloneNode(true));
    }
    return new XMLSerializer().serializeToString(copy).replace(/ xmlns="http:\/\/www\.w3\.org\/2000\/svg"/, "");
  }

  /**
   * paint draws the outlines on a PNG export's canvas, under the drawing
   * Cytoscape renders of box (its elements' bounding box) at scale.
   */
  paint(g: CanvasRenderingContext2D, box: Box, scale: number): void {
    g.save();
    g.setTransform(scale, 0, 0, scale, -box.x1 * scale, -box.y1 * scale);
    g.lineWidth = 0.75;
    for (const child of this.layer.children) {
      const fill = child.getAttribute("fill");
      const stroke = child.getAttribute("stroke");
      g.setLineDash(child.getAttribute("stroke-dasharray") ? [4, 3] : []);
      if (child instanceof SVGPathElement) {
        const p = new Path2D(child.getAttribute("d") ?? "");
        if (fill) {
          g.fillStyle = fill;
          g.fill(p);
        }
        if (stroke) {
          g.strokeStyle = stroke;
          g.stroke(p);
        }
      } else if (child instanceof SVGRectElement) {
        const [x, y, w, h] = ["x", "y", "width", "height"].map((k) => Number(child.getAttribute(k)));
        g.fillStyle = fill ?? mapColors.strip;
        g.fillRect(x, y, w, h);
        g.strokeStyle = stroke ?? mapColors.stripEdge;
        g.strokeRect(x, y, w, h);
      } else if (child instanceof SVGTextElement) {
        g.font = `${child.getAttribute("font-size")}px sans-serif`;
        g.fillStyle = fill ?? "#333333";
        g.fillText(child.textContent ?? "", Number(child.getAttribute("x")), Number(child.getAttribute("y")));
      }
    }
    g.restore();
  }
}
