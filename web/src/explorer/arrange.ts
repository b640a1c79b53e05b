// The canvas's arranged layouts (canvas.ts runs them): grid, radial (the
// selection at the centre) and the hierarchy, superiors on top, by the
// relations that rank their ends.
import type cytoscape from "cytoscape";
import type { NodeSingular } from "cytoscape";
import type { EdgeData, LayoutName } from "./canvas";

/**
 * above says, for a relation type that ranks its ends, which end is the
 * superior: SUBORDINATE_TO points up (to is above from), COMMANDS and
 * the like down (from is above to). The hierarchy layout puts superiors on top.
 */
const above: Record<string, "from" | "to"> = {
  SUBORDINATE_TO: "to",
  MEMBER_OF: "to",
  COMMANDS: "from",
  DIRECTOR_OF: "from",
  OWNS: "from",
};

/** arranged is a layout of the visible entities other than force and map. */
export function arranged(eles: cytoscape.CollectionReturnValue, name: Exclude<LayoutName, "force" | "map">, selected: string[]): cytoscape.Layouts {
  const common = { eles, animate: eles.length < 600, animationDuration: 300, fit: false, padding: 30, avoidOverlap: true, nodeDimensionsIncludeLabels: true };
  if (name === "grid") return eles.layout({ name: "grid", ...common } as cytoscape.LayoutOptions);
  const degree = (n: NodeSingular) => n.degree(false);
  if (name === "radial") {
    // The selection (or the most connected entity) at the centre, the rest in rings by degree.
    const centre = new Set(selected);
    return eles.layout({ name: "concentric", ...common, minNodeSpacing: 20, concentric: (n: NodeSingular) => (centre.has(n.id()) ? 1e6 : degree(n)), levelWidth: () => 2 } as cytoscape.LayoutOptions);
  }
  const rank = ranks(eles);
  if (!rank) {
    return eles.layout({ name: "breadthfirst", ...common, directed: false, spacingFactor: 1.1, roots: hierarchyRoots(eles, selected), depthSort: (a: NodeSingular, b: NodeSingular) => a.data("name").localeCompare(b.data("name")) } as unknown as cytoscape.LayoutOptions);
  }
  // Ranked rows, the highest on top, each row in the order of the names.
  const rows = new Map<number, NodeSingular[]>();
  eles.nodes().forEach((n) => void rows.set(rank.get(n.id()) ?? 0, [...(rows.get(rank.get(n.id()) ?? 0) ?? []), n]));
  const positions = new Map<string, { x: number; y: number }>();
  for (const [row, nodes] of rows) {
    nodes.sort((a, b) => String(a.data("name")).localeCompare(String(b.data("name"))));
    nodes.forEach((n, i) => positions.set(n.id(), { x: (i - (nodes.length - 1) / 2) * 170, y: -row * 120 }));
  }
  return eles.layout({ name: "preset", ...common, positions: (n: NodeSingular) => positions.get(n.id()) ?? n.position() } as unknown as cytoscape.LayoutOptions);
}

/**
 * ranks are the rows of a hierarchy: 0 at the bottom, and every ranking
 * relation (see above) puts its superior at least a row above its
 * subordinate; null when no relation drawn ranks its ends. A cycle stops
 * at as many passes as there are entities.
 */
function ranks(eles: cytoscape.CollectionReturnValue): Map<string, number> | null {
  const ups: [string, string][] = [];
  eles.edges().forEach((e) => {
    const r = (e.data() as EdgeData).relation;
    const up = above[r.type];
    if (up) ups.push(up === "to" ? [r.from.id, r.to.id] : [r.to.id, r.from.id]);
  });
  if (ups.length === 0) return null;
  const rank = new Map<string, number>(eles.nodes().map((n) => [n.id(), 0]));
  for (let pass = 0, moved = true; moved && pass < rank.size; pass++) {
    moved = false;
    for (const [low, high] of ups) {
      if ((rank.get(high) ?? 0) <= (rank.get(low) ?? 0)) {
        rank.set(high, (rank.get(low) ?? 0) + 1);
        moved = true;
      }
    }
  }
  return rank;
}

/**
 * hierarchyRoots are the roots of the hierarchy of drawn: in each
 * connected part of it, the entities that are superior in a ranking
 * relation and below none; else the selected ones; else the most
 * connected one.
 */
export function hierarchyRoots(drawn: cytoscape.CollectionReturnValue, selectedIDs: string[]): string[] {
  const below = new Set<string>();
  const superior = new Set<string>();
  drawn.edges().forEach((e) => {
    const r = (e.data() as EdgeData).relation;
    const up = above[r.type];
    if (!up) return;
    superior.add(up === "to" ? r.to.id : r.from.id);
    below.add(up === "to" ? r.from.id : r.to.id);
  });
  const selected = new Set(selectedIDs);
  const roots: string[] = [];
  drawn.components().forEach((part) => {
    const ids = part.nodes().map((n) => n.id());
    let chosen = ids.filter((id) => superior.has(id) && !below.has(id));
    if (chosen.length === 0) chosen = ids.filter((id) => selected.has(id));
    if (chosen.length === 0) chosen = [part.nodes().max((n) => n.degree(false)).ele.id()];
    roots.push(...chosen);
  });
  return roots;
}
