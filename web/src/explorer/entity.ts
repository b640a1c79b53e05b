// The entity panel: an entity's facts, aliases and sources, its relations
// grouped by how they read from it ("authored", "was authored by"), each
// with its evidence (how many citations, the first quote, the rest a click
// away), and its timeline. An organization offers its chain of command.
import { gql } from "./api";
import type { EntityRef, Relation, RelationTypeInfo, Source } from "./api";
import { byId, h, replace, safeURL } from "./dom";
import { citationFields, citationItem } from "./relation";
import type { Evidenced } from "./relation";
import { editButton } from "./write";
import { confidence, dates, entityButton, entityName, kindBadge, reading, readPanel, showTab } from "./ui";

interface EntityDetail extends EntityRef {
  aliases: string[];
  description: string | null;
  sources: Source[];
  /** null for a redacted entity, which shows no times. */
  updatedAt: string | null;
  category?: string | null;
  nationality?: string | null;
  startDate?: string | null;
  endDate?: string | null;
  publishedAt?: string | null;
  pageCount?: number | null;
  url?: string | null;
  relations: { totalCount: number; edges: { node: Evidenced }[] };
}

interface TimelineItem {
  start: string | null;
  end: string | null;
  event: EntityRef | null;
  relation: Relation | null;
}

const entityDocument = `query EntityPanel($id: ID!) {
  entity(id: $id) {
    ...Ref aliases description updatedAt sources { ...Src }
    ... on Person { nationality }
    ... on Organization { category }
    ... on Event { category startDate endDate }
    ... on Document { category publishedAt pageCount url }
    relations(first: 100) { totalCount edges { node { ...Rel ${citationFields} } } }
  }
  timeline(id: $id) { start end event { ...Ref } relation { ...Rel } }
}`;

/** Actions the panel offers on an entity. */
export interface EntityActions {
  open(id: string): void;
  draw(e: EntityRef, relations?: Relation[]): void;
  expand(id: string): void;
  pathEnd(which: "from" | "to", e: EntityRef): void;
  openRelation(id: string): void;
  openSource(id: string): void;
  /** draws an organization's chain of command at a date, top down */
  commandChain(id: string, at: string): void;
  /** the open kept view's notes on the entity, with a form to add one; null when no kept view is open */
  notes?(id: string): HTMLElement | null;
}

/** lastRelations are the relations of the entity last shown (the source panel looks among them). */
let lastRelations: Relation[] = [];

/** readRelations are the relations of the entity last shown. */
export function readRelations(): Relation[] {
  return lastRelations;
}

/** showEntity fills the entity panel with the entity id. */
export async function showEntity(id: string, vocabulary: Map<string, RelationTypeInfo>, act: EntityActions): Promise<void> {
  const panel = byId("panel-entity");
  showTab("entity");
  const data = await readPanel("Reading the entity", () => gql<{ entity: EntityDetail | null; timeline: TimelineItem[] }>(entityDocument, { id }), () => void showEntity(id, vocabulary, act));
  if (!data) return;
  const e = data.entity;
  lastRelations = e ? e.relations.edges.map((edge) => edge.node) : [];
  if (!e) {
    replace(panel, h("p", {}, "No entity with this id, or not one you may read."));
    return;
  }
  const facts: [string, string | number | HTMLElement | null | undefined][] = [
    ["Kind", e.kind.toLowerCase()],
    ["Dataset", e.dataset],
    ["Category", e.category?.toLowerCase().replace(/_/g, " ")],
    ["Nationality", e.nationality],
    ["Dates", dates(e.startDate, e.endDate)],
    ["Published", e.publishedAt],
    ["Pages", e.pageCount],
    ["Link", safeURL(e.url) ? h("a", { href: safeURL(e.url)!, target: "_blank", rel: "noopener noreferrer" }, e.url!) : null],
    ["Updated", e.updatedAt?.slice(0, 10)],
    ["Id", e.id],
  ];
  replace(
    panel,
    h("h2", { id: "entity-name", class: e.redacted ? "redacted" : "" }, kindBadge(e), entityName(e)),
    e.redacted ? h("p", { class: "redacted" }, "A protected person: you are not cleared to see who this is.") : null,
    e.description ? h("p", {}, e.description) : null,
    h("div", { class: "buttons" }, [
      h("button", { type: "button", onclick: () => act.draw(e) }, "Draw"),
      h("button", { type: "button", onclick: () => act.expand(e.id) }, "Expand"),
      h("button", { type: "button", onclick: () => act.pathEnd("from", e) }, "Path from here"),
      h("button", { type: "button", onclick: () => act.pathEnd("to", e) }, "Path to here"),
      e.redacted ? null : editButton("entity", e.id),
    ]),
    e.kind === "ORGANIZATION" ? chainForm(e.id, act) : null,
    h("dl", { class: "facts" }, facts.filter(([, v]) => v !== null && v !== undefined && v !== "").flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v as Node | string | number)])),
    e.aliases.length ? [h("h3", {}, "Also known as"), h("ul", { class: "aliases" }, e.aliases.map((a) => h("li", { dir: "auto" }, a)))] : null,
    h("h3", {}, "Sources"),
    e.sources.length ? h("ul", { class: "sources" }, e.sources.map((s) => sourceLink(s, act.openSource))) : h("p", { class: "hint" }, "None you may read."),
    act.notes?.(e.id) ?? null,
    relationGroups(e, vocabulary, act),
    timelineList(e.id, data.timeline, vocabulary, act),
  );
}

function relationGroups(e: EntityDetail, vocabulary: Map<string, RelationTypeInfo>, act: EntityActions): HTMLElement[] {
  const groups = new Map<string, { relation: Evidenced; other: EntityRef }[]>();
  for (const { node } of e.relations.edges) {
    const { label, other } = reading(node, e.id, vocabulary);
    const group = groups.get(label) ?? [];
    group.push({ relation: node, other });
    groups.set(label, group);
  }
  const shown = e.relations.edges.length;
  const out: HTMLElement[] = [h("h3", {}, `Relations (${e.relations.totalCount}${shown < e.relations.totalCount ? `, first ${shown} shown` : ""})`)];
  for (const [label, items] of [...groups.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    out.push(
      h("h4", {}, `${entityName(e)} ${label}`),
      h(
        "ul",
        { class: "list relations" },
        items.map(({ relation, other }) =>
          h(
            "li",
            { class: "relation-item", "data-relation": relation.id },
            h(
              "div",
              { class: "relation-row" },
              entityButton(other, act.open, [dates(relation.startDate, relation.endDate), relation.status.toLowerCase(), confidence(relation.confidence)].filter(Boolean).join(" · ")),
              h("button", { type: "button", class: "small", "aria-label": `Evidence: ${entityName(e)} ${label} ${entityName(other)}`, onclick: () => act.openRelation(relation.id) }, "Evidence"),
              h("button", { type: "button", class: "small", title: `Draw this relation`, "aria-label": `Draw: ${entityName(e)} ${label} ${entityName(other)}`, onclick: () => act.draw(other, [relation]) }, "Draw"),
            ),
            evidenceSummary(relation, act.openSource),
          ),
        ),
      ),
    );
  }
  return out;
}

/** evidenceSummary is a relation's citation count and first quote; the citations open below it. */
function evidenceSummary(r: Evidenced, openSource: (id: string) => void): HTMLElement {
  const n = r.citations.length;
  const first = r.citations.find((c) => c.quote) ?? r.citations[0];
  const count = `${n} ${n === 1 ? "citation" : "citations"}`;
  if (n === 0) return h("div", { class: "evidence-summary hint" }, "No source you may read.");
  return h(
    "details",
    { class: "evidence-summary" },
    h("summary", {}, h("span", { class: "citation-count" }, count), first?.quote ? h("q", { dir: "auto" }, first.quote) : ` ${first.source.title}`),
    h("ol", { class: "citations" }, r.citations.map((c) => citationItem(c, openSource))),
  );
}

/** sourceLink is a source in a list: its title opens the source panel. */
function sourceLink(s: Source, openSource: (id: string) => void): HTMLElement {
  return h(
    "li",
    {},
    h("button", { type: "button", class: "link inline", "data-source": s.id, onclick: () => openSource(s.id) }, s.title),
    s.publisher ? ` — ${s.publisher}` : "",
    s.publishedAt ? `, ${s.publishedAt}` : "",
  );
}

/** chainForm asks for the date of an organization's chain of command. */
function chainForm(id: string, act: EntityActions): HTMLElement {
  const input = h("input", { id: "chain-at", name: "at", value: String(new Date().getFullYear()), pattern: "\\d{4}(-\\d{2}(-\\d{2})?)?", required: true, size: 10, "aria-describedby": "chain-hint" });
  return h(
    "form",
    { class: "chain-form", id: "chain-form", onsubmit: (ev: Event) => (ev.preventDefault(), act.commandChain(id, input.value.trim())) },
    h("label", { for: "chain-at" }, "Command chain at"),
    " ",
    input,
    " ",
    h("button", { type: "submit", id: "chain-submit" }, "Command chain"),
    h("span", { id: "chain-hint", class: "hint" }, " Drawn top down: superiors above."),
  );
}

function timelineList(id: string, items: TimelineItem[], vocabulary: Map<string, RelationTypeInfo>, act: EntityActions): HTMLElement[] {
  if (items.length === 0) return [];
  return [
    h("h3", {}, "Timeline"),
    h(
      "ol",
      { class: "list timeline-list" },
      items.map((item) => {
        const when = h("span", { class: "timeline-date" }, dates(item.start, item.end) || "undated");
        if (item.event) return h("li", {}, when, entityButton(item.event, act.open));
        const r = item.relation!;
        const { label, other } = reading(r, id, vocabulary);
        return h("li", {}, when, `${label} `, entityButton(other, act.open));
      }),
    ),
  ];
}
