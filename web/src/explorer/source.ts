// The source panel: a source's facts (kind, reliability, publisher, dates,
// language, links to it and to its archived copy, the file's hash) and
// what it supports. The API names no claims by source (Source has no
// field for what cites it), so the panel lists the relations the explorer
// has read that cite it: those drawn, and those of the entity last opened.
import { gql } from "./api";
import type { EntityRef, Relation, RelationTypeInfo } from "./api";
import { byId, h, replace, safeURL } from "./dom";
import type { SourceInfo } from "./relation";
import { entityButton, entityName, readPanel, showTab } from "./ui";

interface SourceDetail extends SourceInfo {
  retrievedAt: string | null;
  language: string | null;
  sha256: string | null;
}

const sourceDocument = `query SourcePanel($id: ID!) {
  source(id: $id) { id title publisher url publishedAt retrievedAt dataset kind language archivedUrl sha256 reliability }
}`;

/** What the source panel can do. */
export interface SourceActions {
  open(id: string): void;
  openRelation(id: string): void;
  /** the relations the explorer has read, to find those citing the source */
  known(): Relation[];
}

/** showSource fills the details panel with the source id. */
export async function showSource(id: string, vocabulary: Map<string, RelationTypeInfo>, act: SourceActions): Promise<void> {
  const panel = byId("panel-entity");
  showTab("entity");
  const data = await readPanel("Reading the source", () => gql<{ source: SourceDetail | null }>(sourceDocument, { id }), () => void showSource(id, vocabulary, act));
  if (!data) return;
  const s = data.source;
  if (!s) {
    replace(panel, h("p", {}, "No source with this id, or not one you may read."));
    return;
  }
  const link = (u: string | null) => (safeURL(u) ? h("a", { href: safeURL(u)!, target: "_blank", rel: "noopener noreferrer" }, u!) : null);
  const facts: [string, string | HTMLElement | null][] = [
    ["Kind", s.kind?.toLowerCase().replace(/_/g, " ") ?? null],
    ["Reliability", s.reliability],
    ["Publisher", s.publisher],
    ["Published", s.publishedAt],
    ["Retrieved", s.retrievedAt],
    ["Language", s.language],
    ["Link", link(s.url)],
    ["Archived", link(s.archivedUrl)],
    ["SHA-256", s.sha256],
    ["Dataset", s.dataset],
    ["Id", s.id],
  ];
  const seen = new Set<string>();
  const citing = act.known().filter((r) => r.sources.some((x) => x.id === s.id) && !seen.has(r.id) && seen.add(r.id));
  const ends = new Map<string, EntityRef>();
  for (const r of citing) for (const e of [r.from, r.to]) ends.set(e.id, e);
  replace(
    panel,
    h("h2", { id: "source-heading", "data-source": s.id }, h("span", { class: "kind source-badge" }, "source"), s.title),
    h("dl", { class: "facts", id: "source-facts" }, facts.filter(([, v]) => v !== null && v !== "").flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v!)])),
    h("h3", {}, `What it supports (${citing.length} ${citing.length === 1 ? "relation" : "relations"} read here)`),
    h("p", { class: "hint" }, "The relations drawn, or listed for the entity last opened, that cite this source."),
    h(
      "ul",
      { class: "list", id: "source-supports" },
      citing.map((r) =>
        h(
          "li",
          {},
          h(
            "button",
            { type: "button", class: "link", "data-relation": r.id, onclick: () => act.openRelation(r.id) },
            `${entityName(r.from)} ${vocabulary.get(r.type)?.label ?? r.type} ${entityName(r.to)}`,
          ),
        ),
      ),
    ),
    ends.size
      ? [
          h("h3", {}, "Entities in those relations"),
          h(
            "ul",
            { class: "list", id: "source-entities" },
            [...ends.values()].map((e) => h("li", {}, entityButton(e, act.open))),
          ),
        ]
      : null,
  );
}
