// A new identity (signing in, out, or with another key) reads the view
// again with the new credentials (issue 26): what is still readable stays
// where it is; what is not is dropped; and a protected person changes face.
// The API shows a protected person to a caller without clearance by an
// opaque id, and to one with clearance by its real id, and neither finds
// the other's id (NOT_FOUND), so the explorer cannot ask which is which.
// It matches them through what stays: a redacted person drawn beside
// Carter-Ruck by a COMMISSIONED relation of 2014 becomes the entity that
// the new identity reads at the other end of Carter-Ruck's COMMISSIONED
// relation of 2014, when exactly one entity of that kind fits best. Every
// answer is the API's under the new credentials: nothing is shown that the
// new identity may not read.
import { gql } from "./api";
import type { EntityRef, Relation } from "./api";
import { load } from "./state";
import type { View } from "./state";

/** Reread is the view as the new identity reads it. */
export interface Reread {
  /** the view with every id as the new identity names it, and what it cannot read left out */
  view: View;
  nodes: EntityRef[];
  relations: Relation[];
  /** what became what: old id to new id, for entities and relations that changed face */
  renamed: Map<string, string>;
  /** how many entities changed face */
  faces: number;
  /** how many drawn entities the new identity cannot read, or cannot tell which they now are */
  dropped: number;
}

/**
 * skeleton is what identity changes need of a relation: its id, type,
 * ends (id and kind), dates and status; no name, quote or source, so that
 * a tab signed out keeps nothing else of what it read.
 */
export function skeleton(r: Relation): Relation {
  const end = (e: EntityRef): EntityRef => ({ id: e.id, kind: e.kind, name: "", dataset: "", redacted: e.redacted });
  return { id: r.id, type: r.type, from: end(r.from), to: end(r.to), role: null, startDate: r.startDate, endDate: r.endDate, status: r.status, confidence: null, quote: null, dataset: "", sources: [] };
}

const perRequest = 25;
/** A drawn neighbour's relations read to find the new face of an entity: the API's page cap. */
const relationsPerAnchor = 100;

/**
 * reread reads the view v again with the tab's credentials. drawn are the
 * relations drawn before (with their ends), which tell what each entity
 * that the new identity cannot read was connected to.
 */
export async function reread(v: View, drawn: Relation[]): Promise<Reread> {
  const drawnIds = v.n.map(([id]) => id);
  const asked = [...new Set([...drawnIds, v.p?.f, v.p?.t, v.e].filter((id): id is string => !!id))];
  const loaded = await load(asked, v.r);
  const readable = new Set(loaded.nodes.map((e) => e.id));
  const lost = asked.filter((id) => !readable.has(id));
  const renamed = new Map<string, string>();
  const relations = [...loaded.relations];
  const nodes = [...loaded.nodes];

  const faces = lost.length > 0 ? await newFaces(lost, drawn, readable) : new Map<string, Face>();
  for (const [old, face] of faces) {
    renamed.set(old, face.entity.id);
    nodes.push(face.entity);
    for (const [oldRel, r] of face.relations) {
      renamed.set(oldRel, r.id);
      relations.push(r);
    }
  }

  const name = (id: string | undefined) => (id === undefined ? undefined : readable.has(id) ? id : renamed.get(id));
  const keptRelations = new Set(relations.map((r) => r.id));
  const view: View = {
    ...v,
    n: v.n.flatMap(([id, x, y, flags]) => {
      const now = name(id);
      return now ? [[now, x, y, flags] as [string, number, number, string]] : [];
    }),
    r: [...keptRelations],
  };
  if (v.p) view.p = { ...v.p, f: name(v.p.f), t: name(v.p.t), q: { ...v.p.q, excludeIds: v.p.q.excludeIds?.flatMap((id) => name(id) ?? []) } };
  if (view.p && !view.p.q.excludeIds?.length) delete view.p.q.excludeIds;
  const e = name(v.e);
  if (e) view.e = e;
  else delete view.e;
  return { view, nodes: dedupe(nodes), relations: dedupe(relations), renamed, faces: faces.size, dropped: drawnIds.filter((id) => !name(id)).length };
}

interface Face {
  entity: EntityRef;
  /** the relations that connect it to what is drawn: old relation id to the relation read now */
  relations: Map<string, Relation>;
}

/**
 * newFaces finds, for each lost entity, what the new identity reads in its
 * place: through every drawn relation between it and an entity still
 * readable (its anchor), the anchor's relations of the same type, on the
 * same end, with the same dates and status, whose other end is of the same
 * kind and not drawn already. The entity that most of them lead to is its
 * new face, when no other fits as well; an entity is the face of one lost
 * entity at most.
 */
async function newFaces(lost: string[], drawn: Relation[], readable: Set<string>): Promise<Map<string, Face>> {
  const lostSet = new Set(lost);
  const links = new Map<string, { old: Relation; anchor: string }[]>();
  for (const r of drawn) {
    for (const [mine, other] of [
      [r.from.id, r.to.id],
      [r.to.id, r.from.id],
    ]) {
      if (lostSet.has(mine) && readable.has(other)) links.set(mine, [...(links.get(mine) ?? []), { old: r, anchor: other }]);
    }
  }
  const anchors = new Map<string, Set<string>>();
  for (const ls of links.values()) for (const { old, anchor } of ls) anchors.set(anchor, (anchors.get(anchor) ?? new Set()).add(old.type));
  const around = await relationsOf(anchors);

  const kindOf = new Map<string, EntityRef>();
  for (const r of drawn) for (const e of [r.from, r.to]) kindOf.set(e.id, e);
  const candidates: { lost: string; face: EntityRef; score: number; relations: Map<string, Relation> }[] = [];
  for (const [id, ls] of links) {
    const byFace = new Map<string, { face: EntityRef; relations: Map<string, Relation> }>();
    for (const { old, anchor } of ls) {
      const anchorIsFrom = old.from.id === anchor;
      for (const r of around.get(anchor) ?? []) {
        if (r.type !== old.type || (r.from.id === anchor) !== anchorIsFrom) continue;
        if (r.startDate !== old.startDate || r.endDate !== old.endDate || r.status !== old.status) continue;
        const face = anchorIsFrom ? r.to : r.from;
        if (face.kind !== kindOf.get(id)?.kind || readable.has(face.id) || face.id === id) continue;
        const c = byFace.get(face.id) ?? { face, relations: new Map() };
        if (!c.relations.has(old.id)) c.relations.set(old.id, r);
        byFace.set(face.id, c);
      }
    }
    const ranked = [...byFace.values()].sort((a, b) => b.relations.size - a.relations.size);
    // A tie is a guess: the entity is dropped rather than drawn as someone it may not be.
    if (ranked.length === 0 || (ranked.length > 1 && ranked[1].relations.size === ranked[0].relations.size)) continue;
    candidates.push({ lost: id, face: ranked[0].face, score: ranked[0].relations.size, relations: ranked[0].relations });
  }
  candidates.sort((a, b) => b.score - a.score);
  const out = new Map<string, Face>();
  const taken = new Set<string>();
  for (const c of candidates) {
    if (taken.has(c.face.id)) continue;
    taken.add(c.face.id);
    out.set(c.lost, { entity: c.face, relations: c.relations });
  }
  return out;
}

/** relationsOf reads the relations of each anchor of the given types, 25 anchors a request. */
async function relationsOf(anchors: Map<string, Set<string>>): Promise<Map<string, Relation[]>> {
  const out = new Map<string, Relation[]>();
  const list = [...anchors];
  for (let i = 0; i < list.length; i += perRequest) {
    const chunk = list.slice(i, i + perRequest);
    const vars = chunk.map((_, j) => `$i${j}: ID!, $t${j}: [RelationType!]`).join(", ");
    const fields = chunk.map((_, j) => `a${j}: entity(id: $i${j}) { id relations(types: $t${j}, first: ${relationsPerAnchor}) { edges { node { ...Rel } } } }`).join("\n");
    const variables = Object.fromEntries(chunk.flatMap(([id, types], j) => [
      [`i${j}`, id],
      [`t${j}`, [...types]],
    ]));
    const data = await gql<Record<string, { id: string; relations: { edges: { node: Relation }[] } } | null>>(`query Faces(${vars}) {\n${fields}\n}`, variables);
    chunk.forEach(([id], j) => out.set(id, data[`a${j}`]?.relations.edges.map((e) => e.node) ?? []));
  }
  return out;
}

function dedupe<T extends { id: string }>(items: T[]): T[] {
  return [...new Map(items.map((x) => [x.id, x])).values()];
}
