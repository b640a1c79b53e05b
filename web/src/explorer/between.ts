// Who stands between two entities: across every path found (the API's k
// shortest, up to its cap of 20), the entities inside the paths ranked by
// how many paths pass them, then by the shortest path through them. The
// ends are not intermediaries; a path passes an entity at most once (paths
// are simple).
import type { EntityRef, Path } from "./api";
import { h } from "./dom";
import { entityName, kindBadge } from "./ui";

/** maxPaths is the API's cap on k (graph/schema/path.graphqls: paths, 1 to 20). */
export const maxPaths = 20;

/** Intermediary is an entity inside paths: how many pass it, and the shortest of them. */
export interface Intermediary {
  entity: EntityRef;
  /** paths is how many of the paths pass it. */
  paths: number;
  /** shortest is the length of the shortest path through it. */
  shortest: number;
  /** via is the shortest path through it (drawn when it is picked and not on the canvas). */
  via: Path;
}

/** intermediaries ranks the entities inside paths: most paths first, then the shortest path through them, then by name. */
export function intermediaries(paths: Path[]): Intermediary[] {
  const byID = new Map<string, Intermediary>();
  for (const p of paths) {
    for (const e of p.nodes.slice(1, -1)) {
      const seen = byID.get(e.id);
      if (!seen) byID.set(e.id, { entity: e, paths: 1, shortest: p.length, via: p });
      else {
        seen.paths++;
        if (p.length < seen.shortest) Object.assign(seen, { shortest: p.length, via: p });
      }
    }
  }
  return [...byID.values()].sort(
    (a, b) => b.paths - a.paths || a.shortest - b.shortest || entityName(a.entity).localeCompare(entityName(b.entity)) || a.entity.id.localeCompare(b.entity.id),
  );
}

/** share is a small bar as long as a fraction (set through the CSSOM: the CSP refuses style attributes). */
function share(fraction: number): HTMLElement {
  const bar = h("span", { class: "between-bar", "aria-hidden": "true" });
  bar.style.setProperty("--share", `${Math.round(100 * fraction)}%`);
  return bar;
}

/** betweenList draws the ranking; pick is called with an intermediary when one is clicked. */
export function betweenList(paths: Path[], pick: (i: Intermediary) => void): HTMLElement {
  const ranked = intermediaries(paths);
  const n = paths.length;
  const steps = (k: number) => `${k} ${k === 1 ? "step" : "steps"}`;
  return h(
    "section",
    { class: "between", "aria-labelledby": "between-heading" },
    h("h3", { id: "between-heading" }, `Who stands between, across ${n} ${n === 1 ? "path" : "paths"}`),
    ranked.length === 0
      ? h("p", { class: "hint" }, n === 0 ? "No path." : "Nobody: they are related directly.")
      : h(
          "ol",
          { class: "list between-list", id: "between-list" },
          ranked.map((r) =>
            h(
              "li",
              { "data-id": r.entity.id, "data-paths": r.paths, "data-shortest": r.shortest },
              h(
                "button",
                { type: "button", class: "link", title: "Select it on the canvas", onclick: () => pick(r) },
                kindBadge(r.entity),
                h("span", { class: r.entity.redacted ? "redacted" : "" }, entityName(r.entity)),
              ),
              share(r.paths / n),
              h("span", { class: "hint" }, ` in ${r.paths} of ${n} · shortest through it ${steps(r.shortest)}`),
            ),
          ),
        ),
  );
}
