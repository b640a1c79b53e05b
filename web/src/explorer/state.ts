// The view in the URL: the entities drawn (with their places, pins and
// whether hidden), the relations drawn, the expansions, the path search,
// the date and the layout (a map with its projection). A link restores it; nothing secret goes in it (never the
// credentials), and what it names is read again with the reader's rights.
import { gql } from "./api";
import type { EntityRef, PathFilter, Relation } from "./api";
import { layouts } from "./canvas";
import type { LayoutName } from "./canvas";
import type { Projection } from "./map";

/** View is what the URL keeps. */
export interface View {
  /** entities: id, x, y, flags ("p" pinned, "h" hidden, "x" expanded). */
  n: [string, number, number, string][];
  /** relation ids */
  r: string[];
  /** the path search: from, to, k, filter, chosen path */
  p?: { f?: string; t?: string; k: number; q: PathFilter; c: number };
  /** "show as of" year, or absent */
  t?: string;
  /** the entity open in the panel */
  e?: string;
  /** the time bar's brushed period: from, to */
  b?: [string, string];
  /** what Analyse shows */
  a?: string;
  /** 1 when the live view is on */
  l?: 1;
  /** the layout, when not force */
  y?: LayoutName;
  /** the map's projection (scale, x, y), with y "map": the outlines go back under the places where the view put them */
  m?: Projection;
}

/** encode makes the URL fragment of a view. */
export function encode(v: View): string {
  const bytes = new TextEncoder().encode(JSON.stringify(v));
  let bin = "";
  bytes.forEach((b) => (bin += String.fromCharCode(b)));
  return "view=" + btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** decode reads a view from a URL fragment, or null when it holds none (or a broken one). */
export function decode(hash: string): View | null {
  const m = /(?:^#?|&)view=([A-Za-z0-9_-]+)/.exec(hash);
  if (!m) return null;
  try {
    const bin = atob(m[1].replace(/-/g, "+").replace(/_/g, "/"));
    const v = JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)))) as View;
    if (!Array.isArray(v.n) || !Array.isArray(v.r)) return null;
    v.n = v.n.filter((e) => Array.isArray(e) && typeof e[0] === "string" && Number.isFinite(e[1]) && Number.isFinite(e[2]) && typeof e[3] === "string");
    v.r = v.r.filter((id) => typeof id === "string");
    if (!(Array.isArray(v.b) && v.b.length === 2 && v.b.every((d) => typeof d === "string" && /^\d{4}(-\d{2}(-\d{2})?)?$/.test(d)))) delete v.b;
    if (typeof v.a !== "string") delete v.a;
    if (v.l !== 1) delete v.l;
    if (!(typeof v.y === "string" && Object.prototype.hasOwnProperty.call(layouts, v.y))) delete v.y;
    if (!(v.y === "map" && Array.isArray(v.m) && v.m.length === 3 && v.m.every(Number.isFinite) && v.m[0] > 0)) delete v.m;
    return v;
  } catch {
    return null;
  }
}

/** perRequest is how many ids a request asks nodes(ids) for (its most), inFlight how many requests run at once. */
const perRequest = 100;
const inFlight = 3;

/**
 * load reads the entities and relations a view names, skipping those gone
 * or not readable: 100 ids a request through nodes(ids), which reads each
 * request's entities in one statement and its relations in one more (as
 * entity(id) and relation(id) aliases did not: a statement per relation),
 * three requests at a time.
 */
export async function load(entityIds: string[], relationIds: string[]): Promise<{ nodes: EntityRef[]; relations: Relation[] }> {
  const ids = [...entityIds, ...relationIds];
  const chunks: string[][] = [];
  for (let i = 0; i < ids.length; i += perRequest) chunks.push(ids.slice(i, i + perRequest));
  const read: (EntityRef | Relation | null)[][] = [];
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) {
      const at = next++;
      const data = await gql<{ nodes: (EntityRef | Relation | null)[] }>(`query Restore($ids: [ID!]!) { nodes(ids: $ids) { ... on Entity { ...Ref } ... on Relation { ...Rel } } }`, { ids: chunks[at] });
      read[at] = data.nodes;
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, chunks.length) }, worker));
  const nodes: EntityRef[] = [];
  const relations: Relation[] = [];
  read.flat().forEach((v, i) => {
    if (!v) return;
    if (i < entityIds.length) nodes.push(v as EntityRef);
    else relations.push(v as Relation);
  });
  return { nodes, relations };
}
