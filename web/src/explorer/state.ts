// The view in the URL: the entities drawn (with their places, pins and
// whether hidden), the relations drawn, the expansions, the path search
// and the date. A link restores it; nothing secret goes in it (never the
// credentials), and what it names is read again with the reader's rights.
import { gql } from "./api";
import type { EntityRef, PathFilter, Relation } from "./api";

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
    return v;
  } catch {
    return null;
  }
}

const perRequest = 25;

/** load reads the entities and relations a view names, 25 a request, skipping those gone or not readable. */
export async function load(entityIds: string[], relationIds: string[]): Promise<{ nodes: EntityRef[]; relations: Relation[] }> {
  const nodes: EntityRef[] = [];
  const relations: Relation[] = [];
  const ids = [...entityIds.map((id) => ["entity", id] as const), ...relationIds.map((id) => ["relation", id] as const)];
  for (let i = 0; i < ids.length; i += perRequest) {
    const chunk = ids.slice(i, i + perRequest);
    const vars = chunk.map((_, j) => `$i${j}: ID!`).join(", ");
    const fields = chunk.map(([field], j) => `a${j}: ${field}(id: $i${j}) { ...${field === "entity" ? "Ref" : "Rel"} }`).join("\n");
    const variables = Object.fromEntries(chunk.map(([, id], j) => [`i${j}`, id]));
    const data = await gql<Record<string, EntityRef | Relation | null>>(`query Restore(${vars}) {\n${fields}\n}`, variables);
    chunk.forEach(([field], j) => {
      const v = data[`a${j}`];
      if (!v) return;
      if (field === "entity") nodes.push(v as EntityRef);
      else relations.push(v as Relation);
    });
  }
  return { nodes, relations };
}
