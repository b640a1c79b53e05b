// The relation panel: a relation read from its from, its typed properties
// (post, rank, share, amount, relationship), dates, status and confidence,
// and its evidence: every citation with its quote, locator, and the source
// with its kind, reliability and the citation's grade, linked to the source
// and its archived copy. Opened by a click on an edge or on a relation in
// a list; it fills the details panel, as an entity does.
import { gql } from "./api";
import type { EntityRef, Relation, RelationTypeInfo, Source } from "./api";
import { editButton } from "./write";
import { byId, h, replace, safeURL } from "./dom";
import { confidence, dates, entityName, kindBadge, readPanel, showTab } from "./ui";

/** SourceInfo is a source as the evidence shows it. */
export interface SourceInfo extends Source {
  kind: string | null;
  reliability: string;
  archivedUrl: string | null;
  dataset: string;
}

/** Citation is one source cited for a claim, with its own words and grade. */
export interface Citation {
  quote: string | null;
  locator: string | null;
  credibility: number;
  grade: string;
  source: SourceInfo;
}

/** Evidenced is a relation with its citations. */
export interface Evidenced extends Relation {
  citations: Citation[];
}

/** citationFields selects a claim's citations, with what the panels show of each source. */
export const citationFields = `citations { quote locator credibility grade source { id title publisher url publishedAt kind reliability archivedUrl dataset } }`;

/** RelationProperties are the type-specific properties of a relation (LinkInput's too). */
export interface RelationProperties {
  share: number | null;
  amount: number | null;
  currency: string | null;
  relationship: string | null;
  post: string | null;
  rank: string | null;
}

interface RelationDetail extends Evidenced, RelationProperties {}

const relationDocument = `query RelationPanel($id: ID!) {
  relation(id: $id) { ...Rel share amount currency relationship post rank ${citationFields} }
}`;

/** What the relation panel can do. */
export interface RelationActions {
  open(id: string): void;
  openSource(id: string): void;
  draw(nodes: EntityRef[], relations: Relation[]): void;
  /** the open kept view's notes on the relation, with a form to add one; null when no kept view is open */
  notes?(id: string): HTMLElement | null;
}

/** reliabilityWords are the NATO/Admiralty reliability grades in words. */
const reliabilityWords: Record<string, string> = {
  A: "completely reliable",
  B: "usually reliable",
  C: "fairly reliable",
  D: "not usually reliable",
  E: "unreliable",
  F: "reliability cannot be judged",
};

/** credibilityWords are the citation credibility grades in words. */
const credibilityWords: Record<number, string> = {
  1: "confirmed by other sources",
  2: "probably true",
  3: "possibly true",
  4: "doubtful",
  5: "improbable",
  6: "truth cannot be judged",
};

/** showRelation fills the details panel with the relation id. */
export async function showRelation(id: string, vocabulary: Map<string, RelationTypeInfo>, act: RelationActions): Promise<void> {
  const panel = byId("panel-entity");
  showTab("entity");
  const data = await readPanel("Reading the relation", () => gql<{ relation: RelationDetail | null }>(relationDocument, { id }), () => void showRelation(id, vocabulary, act));
  if (!data) return;
  const r = data.relation;
  if (!r) {
    replace(panel, h("p", {}, "No relation with this id, or not one you may read."));
    return;
  }
  const verb = vocabulary.get(r.type)?.label ?? r.type;
  const amount = r.amount !== null ? `${r.amount.toLocaleString("en")}${r.currency ? ` ${r.currency}` : ""}` : "";
  const facts: [string, string | number | null][] = [
    ["Type", `${verb} (${r.type})`],
    ["Status", r.status.toLowerCase()],
    ["Confidence", confidence(r.confidence)],
    ["Dates", dates(r.startDate, r.endDate)],
    ["Role", r.role],
    ["Post", r.post],
    ["Rank", r.rank],
    ["Share", r.share !== null ? `${r.share}%` : null],
    ["Amount", amount],
    ["Relationship", r.relationship?.toLowerCase().replace(/_/g, " ") ?? null],
    ["Dataset", r.dataset],
    ["Id", r.id],
  ];
  const end = (e: EntityRef) => h("button", { type: "button", class: "link inline", "data-id": e.id, onclick: () => act.open(e.id) }, kindBadge(e), h("span", { class: e.redacted ? "redacted" : "" }, entityName(e)));
  replace(
    panel,
    h("h2", { id: "relation-heading", "data-relation": r.id }, end(r.from), ` ${verb} `, end(r.to)),
    h("div", { class: "buttons" }, h("button", { type: "button", onclick: () => act.draw([], [r]) }, "Draw"), editButton("relation", r.id)),
    act.notes?.(r.id) ?? null,
    h("dl", { class: "facts", id: "relation-facts" }, facts.filter(([, v]) => v !== null && v !== "").flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, String(v))])),
    h("h3", { id: "citations-heading" }, `Evidence (${r.citations.length} ${r.citations.length === 1 ? "citation" : "citations"})`),
    r.citations.length
      ? h("ol", { class: "citations", id: "citations", "aria-labelledby": "citations-heading" }, r.citations.map((c) => citationItem(c, act.openSource)))
      : h("p", { class: "hint" }, "No source you may read."),
  );
}

/** citationItem is one citation: the quote, where it is, the source with its grade and links. */
export function citationItem(c: Citation, openSource: (id: string) => void): HTMLElement {
  const s = c.source;
  const url = safeURL(s.url);
  const archived = safeURL(s.archivedUrl);
  const reliability = reliabilityWords[s.reliability] ?? s.reliability;
  return h(
    "li",
    { class: "citation", "data-source": s.id },
    c.quote ? h("blockquote", { dir: "auto" }, c.quote) : h("p", { class: "hint" }, "No quote."),
    c.locator ? h("div", { class: "locator" }, `at ${c.locator}`) : null,
    h(
      "div",
      { class: "source-line" },
      h("button", { type: "button", class: "link inline", "data-source": s.id, onclick: () => openSource(s.id) }, s.title),
      s.kind ? h("span", { class: "source-kind" }, s.kind.toLowerCase().replace(/_/g, " ")) : null,
      s.publisher ? ` — ${s.publisher}` : "",
      s.publishedAt ? `, ${s.publishedAt}` : "",
    ),
    h(
      "div",
      { class: "grade-line" },
      h("abbr", { class: "grade", title: `source ${reliability}; this citation ${credibilityWords[c.credibility] ?? c.credibility}` }, c.grade),
      ` source ${s.reliability}: ${reliability} · credibility ${c.credibility}: ${credibilityWords[c.credibility] ?? ""}`,
    ),
    url || archived
      ? h(
          "div",
          { class: "links" },
          url ? h("a", { href: url, target: "_blank", rel: "noopener noreferrer" }, "source") : null,
          url && archived ? " · " : "",
          archived ? h("a", { href: archived, target: "_blank", rel: "noopener noreferrer" }, "archived copy") : null,
        )
      : null,
  );
}
