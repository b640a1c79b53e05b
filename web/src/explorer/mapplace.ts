// Where the map layout puts entities (map.ts draws them): what the
// drawing says of where each is, the projection fitted to the places and
// the canvas and spread until none overlap, and the rings around a place.
import type { CollectionReturnValue, NodeSingular } from "cytoscape";
import { geoEqualEarth } from "d3-geo";
import type { GeoProjection } from "d3-geo";
import type { Kind } from "./api";
import type { EdgeData, NodeData } from "./canvas";
import type { Box, Projection } from "./map";

/** locating are the relation types that put their from where their to is, the first preferred. */
const locating = ["LOCATED_IN", "BASED_AT"];

/** The strip's order: places first (those without coordinates), then the other kinds. */
const kindOrder: Kind[] = ["PLACE", "EVENT", "ORGANIZATION", "PERSON", "DOCUMENT"];

/**
 * minSpan is the least extent, in degrees, the projection is fitted to:
 * places a few kilometres apart (a village in its district) spread over
 * the canvas instead of one on top of the other, and a single place gets
 * a region around it.
 */
const minSpan = 1;

/** Where is what the drawing says of where its entities are. */
export interface Where {
  /** the places with coordinates: [longitude, latitude] */
  points: Map<string, [number, number]>;
  /** the entities located in one of those places (through others without coordinates), by id: the place's id */
  at: Map<string, string>;
  /** the entities with no place: the strip */
  unplaced: Set<string>;
}

/** where reads where the entities of eles are, from their coordinates and the locating relations among them. */
export function where(eles: CollectionReturnValue): Where {
  const points = new Map<string, [number, number]>();
  const nodes = eles.nodes();
  nodes.forEach((n) => {
    const c = (n.data() as NodeData).coordinates;
    if (c && !n.data("redacted")) points.set(n.id(), [c.longitude, c.latitude]);
  });
  // The located relations in a fixed order (LOCATED_IN before BASED_AT, then
  // by id), so a drawing always reads the same.
  const steps = eles
    .edges()
    .map((e) => (e.data() as EdgeData).relation)
    .filter((r) => locating.includes(r.type) && r.from.id !== r.to.id)
    .sort((a, b) => locating.indexOf(a.type) - locating.indexOf(b.type) || a.id.localeCompare(b.id));
  const at = new Map<string, string>();
  const placeOf = (id: string) => (points.has(id) ? id : at.get(id));
  // A pass finds the entities one step further from a place with
  // coordinates; a chain is at most as long as there are entities.
  for (let moved = true, pass = 0; moved && pass < nodes.length; pass++) {
    moved = false;
    for (const r of steps) {
      if (points.has(r.from.id) || at.has(r.from.id)) continue;
      const p = placeOf(r.to.id);
      if (p) {
        at.set(r.from.id, p);
        moved = true;
      }
    }
  }
  const unplaced = new Set(nodes.filter((n) => !points.has(n.id()) && !at.has(n.id())).map((n) => n.id()));
  return { points, at, unplaced };
}

/** projectionOf is the d3 projection a Projection names. */
export function projectionOf([k, x, y]: Projection): GeoProjection {
  return geoEqualEarth().scale(k).translate([x, y]);
}

/**
 * fit is the projection that fits points (at least minSpan degrees of
 * them) into a box, or the whole earth when there is none; rounded to
 * hundredths, as the view keeps it, so the drawing and a link agree.
 */
export function fit(points: [number, number][], box: Box): Projection {
  const p = geoEqualEarth();
  const extent: [[number, number], [number, number]] = [
    [box.x1, box.y1],
    [box.x2, box.y2],
  ];
  if (points.length === 0) {
    p.fitExtent(extent, { type: "Sphere" });
  } else {
    const span = (vs: number[], lo: number, hi: number) => {
      const a = Math.min(...vs);
      const b = Math.max(...vs);
      const half = Math.max(b - a, minSpan) / 2;
      return [Math.max(lo, (a + b) / 2 - half), Math.min(hi, (a + b) / 2 + half)];
    };
    const [w, e] = span(points.map((q) => q[0]), -180, 180);
    const [s, n] = span(points.map((q) => q[1]), -90, 90);
    const corners: [number, number][] = [
      [w, s],
      [w, n],
      [e, s],
      [e, n],
    ];
    p.fitExtent(extent, { type: "MultiPoint", coordinates: [...points, ...corners] });
  }
  const round = (v: number) => Math.round(v * 100) / 100;
  return [round(p.scale()), round(p.translate()[0]), round(p.translate()[1])];
}

/** maxSpread is how much larger than the fit spread may draw the map. */
const maxSpread = 8;

/**
 * spread scales the projection up about the box's centre until no two
 * places overlap (each is r from its point), up to maxSpread times: a
 * city and another a few hundred kilometres away stay apart on a map of
 * three continents, which fit then shows whole (the entities drawn
 * smaller, as any zoom out does) and a zoom in reads.
 */
export function spread(projection: Projection, places: { point: [number, number]; r: number }[], box: Box): Projection {
  const project = projectionOf(projection);
  const at = places.map((p) => project(p.point) ?? [0, 0]);
  let f = 1;
  for (let i = 0; i < at.length; i++) {
    for (let j = i + 1; j < at.length; j++) {
      const d = Math.hypot(at[i][0] - at[j][0], at[i][1] - at[j][1]);
      // Places at one point go in a ring about it, whatever the scale.
      if (d >= 1) f = Math.max(f, (places[i].r + places[j].r) / d);
    }
  }
  f = Math.min(f, maxSpread);
  if (f === 1) return projection;
  const cx = (box.x1 + box.x2) / 2;
  const cy = (box.y1 + box.y2) / 2;
  const round = (v: number) => Math.round(v * 100) / 100;
  const [k, x, y] = projection;
  return [round(k * f), round(cx + (x - cx) * f), round(cy + (y - cy) * f)];
}

export interface Spot {
  id: string;
  x: number;
  y: number;
  /** half its size and a gap: how close another may come */
  r: number;
  fixed: boolean;
}

/** byKindAndName orders the strip and a place's surroundings: by kind, then name. */
export function byKindAndName(a: NodeSingular, b: NodeSingular): number {
  const ka = kindOrder.indexOf(a.data("kind"));
  const kb = kindOrder.indexOf(b.data("kind"));
  return ka - kb || String(a.data("name")).localeCompare(String(b.data("name"))) || a.id().localeCompare(b.id());
}

/** ring is the i-th of n points on a circle of radius r, the first at the top. */
export function ring(i: number, n: number, r: number): { x: number; y: number } {
  const a = -Math.PI / 2 + (2 * Math.PI * i) / Math.max(n, 1);
  return { x: r * Math.cos(a), y: r * Math.sin(a) };
}

/**
 * relax moves the entities around places apart where they overlap each
 * other or a place (places stay on their coordinates), each by as little
 * as it takes; beyond 800 it leaves the rings as they are (a pass costs
 * the square of their number).
 */
export function relax(spots: Spot[]): void {
  if (spots.length > 800) return;
  for (let round = 0; round < 60; round++) {
    let moved = false;
    for (let i = 0; i < spots.length; i++) {
      for (let j = i + 1; j < spots.length; j++) {
        const a = spots[i];
        const b = spots[j];
        if (a.fixed && b.fixed) continue;
        let dx = b.x - a.x;
        let dy = b.y - a.y;
        let d = Math.hypot(dx, dy);
        if (d >= a.r + b.r) continue;
        if (d < 0.01) {
          // One on the other: apart along a direction of their own, the same every time.
          const t = (i * 2.399 + j) % (2 * Math.PI);
          [dx, dy, d] = [Math.cos(t), Math.sin(t), 1];
        }
        const push = (a.r + b.r - d) / d;
        const [sa, sb] = a.fixed ? [0, 1] : b.fixed ? [1, 0] : [0.5, 0.5];
        a.x -= dx * push * sa;
        a.y -= dy * push * sa;
        b.x += dx * push * sb;
        b.y += dy * push * sb;
        moved = true;
      }
    }
    if (!moved) return;
  }
}
