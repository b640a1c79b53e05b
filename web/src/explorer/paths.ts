// Paths: two entities and a filter; the k shortest paths, the chosen one
// highlighted on the canvas, and the evidence for every hop in reading
// order. An empty answer says why (pathExplanation).
import { gql } from "./api";
import type { EntityRef, Kind, Path, PathFilter, RelationTypeInfo, Status } from "./api";
import { betweenList, maxPaths } from "./between";
import type { Intermediary } from "./between";
import { byId, h, replace } from "./dom";
import { confidence, dates, entityName, kindBadge, run, showTab, sourceItem } from "./ui";

const pathsDocument = `query Paths($from: ID!, $to: ID!, $k: Int!, $filter: PathFilter) {
  paths(from: $from, to: $to, k: $k, filter: $filter) {
    length nodes { ...Ref } steps { forward from { ...Ref } to { ...Ref } relation { ...Rel } }
  }
}`;

const explainDocument = `query WhyNoPath($from: ID!, $to: ID!, $filter: PathFilter) {
  pathExplanation(from: $from, to: $to, filter: $filter) { found length lengthBeyondMaxDepth blockingFilters complete message }
}`;

interface Explanation {
  found: boolean;
  lengthBeyondMaxDepth: number | null;
  blockingFilters: string[];
  complete: boolean;
  message: string;
}

/** PathForm is the path search as the URL keeps it. */
export interface PathForm {
  from?: EntityRef;
  to?: EntityRef;
  k: number;
  filter: PathFilter;
  chosen: number;
}

const kinds: Kind[] = ["PERSON", "ORGANIZATION", "EVENT", "DOCUMENT", "PLACE"];
const statuses: Status[] = ["CONFIRMED", "REPORTED", "ALLEGED", "DISPUTED"];

/** Paths is the paths panel. */
export class Paths {
  form: PathForm = { k: 3, filter: {}, chosen: 0 };
  private found: Path[] = [];
  /** ranking counts the searches, so that an old search's ranking never replaces a newer one's. */
  private ranking = 0;

  constructor(
    private vocabulary: Map<string, RelationTypeInfo>,
    private act: {
      open(id: string): void;
      drawPath(p: Path): void;
      highlight(p: Path | null): void;
      select(ids: string[]): void;
      selected(): EntityRef[];
      validAt(): string;
      changed(): void;
    },
  ) {
    this.render();
  }

  /** setEnd makes e the start or the end of the search. */
  setEnd(which: "from" | "to", e: EntityRef): void {
    this.form[which] = e;
    this.render();
    showTab("paths");
    this.act.changed();
  }

  private readForm(form: HTMLFormElement): void {
    const data = new FormData(form);
    const num = (name: string) => {
      const v = String(data.get(name) ?? "").trim();
      return v === "" ? undefined : Number(v);
    };
    const f: PathFilter = {};
    f.maxDepth = num("maxDepth");
    f.minConfidence = num("minConfidence");
    f.maxDegree = num("maxDegree");
    const types = data.getAll("relationTypes").map(String);
    if (types.length) f.relationTypes = types;
    const ks = data.getAll("kinds").map(String) as Kind[];
    if (ks.length && ks.length < kinds.length) f.kinds = ks;
    const ss = data.getAll("statuses").map(String) as Status[];
    if (ss.length && ss.length < statuses.length) f.statuses = ss;
    if (this.form.filter.excludeIds?.length) f.excludeIds = this.form.filter.excludeIds;
    const validAt = this.act.validAt();
    if (validAt) f.validAt = validAt;
    for (const key of Object.keys(f) as (keyof PathFilter)[]) if (f[key] === undefined) delete f[key];
    this.form.filter = f;
    this.form.k = num("k") ?? 3;
  }

  /** search finds the paths of the form, or says why there are none. */
  async search(): Promise<void> {
    const { from, to, k, filter } = this.form;
    if (!from || !to) return;
    this.act.changed();
    const out = byId("path-results");
    replace(out, h("p", { class: "hint" }, "Searching…"));
    replace(byId("between"));
    const data = await run("Finding paths", () => gql<{ paths: Path[] }>(pathsDocument, { from: from.id, to: to.id, k, filter }));
    if (!data) return replace(out);
    this.found = data.paths;
    if (this.found.length > 0) {
      this.choose(Math.min(this.form.chosen, this.found.length - 1));
      // Ranking costs a search of up to 20 paths: it runs when asked.
      replace(
        byId("between"),
        h("button", { type: "button", id: "between-run", class: "small", onclick: () => void this.between(from.id, to.id, filter) }, `Who stands between (across up to ${maxPaths} paths)`),
      );
      return;
    }
    this.act.highlight(null);
    replace(out, h("p", { class: "explanation", id: "path-explanation" }, "No path. Finding out why…"));
    const why = await run("Finding out why there is no path", () => gql<{ pathExplanation: Explanation }>(explainDocument, { from: from.id, to: to.id, filter }));
    if (!why) return replace(out, h("p", { class: "explanation", id: "path-explanation" }, "No path."));
    const e = why.pathExplanation;
    replace(
      out,
      h(
        "div",
        { class: "explanation", id: "path-explanation" },
        h("p", {}, e.message),
        e.lengthBeyondMaxDepth !== null ? h("p", {}, `A path of ${e.lengthBeyondMaxDepth} steps exists: raise Max depth to ${e.lengthBeyondMaxDepth}.`) : null,
        e.blockingFilters.length ? h("p", {}, `Each of these alone removes every path: ${e.blockingFilters.join(", ")}.`) : null,
        e.complete ? null : h("p", { class: "hint" }, "Not every check finished within the time allowed."),
      ),
    );
  }

  private choose(i: number): void {
    this.form.chosen = i;
    const path = this.found[i];
    this.act.drawPath(path);
    this.act.highlight(path);
    this.act.changed();
    replace(
      byId("path-results"),
      h("h3", {}, `${this.found.length} ${this.found.length === 1 ? "path" : "paths"}, shortest first`),
      h(
        "ol",
        { class: "list paths-list", id: "paths-list" },
        this.found.map((p, j) =>
          h(
            "li",
            { "aria-current": String(j === i) },
            h(
              "button",
              { type: "button", class: "link", onclick: () => this.choose(j) },
              `${p.length} ${p.length === 1 ? "step" : "steps"}: ${p.nodes.map(entityName).join(" → ")}`,
            ),
          ),
        ),
      ),
      h("h3", { id: "evidence-heading" }, `Evidence, hop by hop (path ${i + 1})`),
      h("ol", { class: "evidence", id: "evidence", "aria-labelledby": "evidence-heading" }, path.steps.map((s, n) => this.hop(s, n))),
    );
  }

  /** between ranks who stands between the ends across as many paths as the API gives (k = 20, its cap). */
  private async between(from: string, to: string, filter: PathFilter): Promise<void> {
    const search = ++this.ranking;
    const out = byId("between");
    let paths = this.found;
    if (this.form.k < maxPaths) {
      replace(out, h("p", { class: "hint" }, `Ranking who stands between across up to ${maxPaths} paths…`));
      try {
        paths = (await gql<{ paths: Path[] }>(pathsDocument, { from, to, k: maxPaths, filter })).paths;
      } catch (err) {
        if (search === this.ranking) replace(out, h("p", { class: "hint" }, `Who stands between: ${err instanceof Error ? err.message : String(err)}`));
        return;
      }
    }
    if (search !== this.ranking) return;
    replace(out, betweenList(paths, (i) => this.pick(i)));
  }

  /** pick selects an intermediary on the canvas, drawing the shortest path through it first when it is not drawn. */
  private pick(i: Intermediary): void {
    this.act.drawPath(i.via);
    this.act.select([i.entity.id]);
  }

  private hop(step: Path["steps"][number], n: number): HTMLElement {
    const r = step.relation;
    const info = this.vocabulary.get(r.type);
    // In reading order: the step's from, then what it did to the step's to.
    const verb = step.forward ? info?.label ?? r.type : info?.inverseLabel ?? r.type;
    const facts = [
      r.role ? `role: ${r.role}` : "",
      dates(r.startDate, r.endDate),
      r.status.toLowerCase(),
      r.confidence !== null ? `confidence ${confidence(r.confidence)}` : "",
    ].filter(Boolean);
    return h(
      "li",
      { class: "hop", "data-relation": r.id, tabindex: "0", "aria-label": `Step ${n + 1}: ${entityName(step.from)} ${verb} ${entityName(step.to)}` },
      h(
        "div",
        { class: "hop-line" },
        h("button", { type: "button", class: "link", onclick: () => this.act.open(step.from.id) }, kindBadge(step.from), entityName(step.from)),
        ` ${verb} `,
        h("button", { type: "button", class: "link", onclick: () => this.act.open(step.to.id) }, kindBadge(step.to), entityName(step.to)),
      ),
      h("div", { class: "hop-facts" }, facts.join(" · ")),
      r.quote ? h("blockquote", { dir: "auto" }, r.quote) : null,
      r.sources.length ? h("ul", { class: "sources" }, r.sources.map(sourceItem)) : h("p", { class: "hint" }, "No source you may read."),
    );
  }

  /** render draws the form from this.form. */
  render(): void {
    const f = this.form.filter;
    const end = (which: "from" | "to") => {
      const e = this.form[which];
      return [
        h("label", { for: `path-${which}` }, which === "from" ? "From" : "To"),
        h(
          "div",
          {},
          h("output", { id: `path-${which}`, "data-id": e?.id ?? "" }, e ? [kindBadge(e), entityName(e)] : "—"),
          " ",
          h("button", { type: "button", class: "small", onclick: () => this.useSelected(which) }, "Use selected"),
        ),
      ];
    };
    const checkboxes = (name: string, values: string[], on: string[] | undefined) =>
      h(
        "fieldset",
        { class: "full" },
        h("legend", {}, name === "kinds" ? "Kinds the path may pass through" : "Statuses"),
        values.map((v) => h("label", {}, h("input", { type: "checkbox", name, value: v, checked: !on || on.includes(v as never) }), ` ${v.toLowerCase()} `)),
      );
    const form = h(
      "form",
      { class: "filters", id: "path-form", onsubmit: (ev: Event) => (ev.preventDefault(), this.readForm(ev.target as HTMLFormElement), void this.search()) },
      end("from"),
      end("to"),
      h("label", { for: "path-k" }, "Paths"),
      h("input", { id: "path-k", name: "k", type: "number", min: 1, max: 20, value: this.form.k }),
      h("label", { for: "path-depth" }, "Max depth"),
      h("input", { id: "path-depth", name: "maxDepth", type: "number", min: 1, max: 8, value: f.maxDepth ?? "", placeholder: "4" }),
      h("label", { for: "path-types" }, "Relation types"),
      h(
        "select",
        { id: "path-types", name: "relationTypes", multiple: true, "aria-describedby": "path-types-hint" },
        [...this.vocabulary.values()].map((t) => h("option", { value: t.type, selected: f.relationTypes?.includes(t.type) }, `${t.label} (${t.type})`)),
      ),
      h("span", { id: "path-types-hint", class: "hint full" }, "None chosen: every type."),
      checkboxes("kinds", kinds, f.kinds),
      checkboxes("statuses", statuses, f.statuses),
      h("label", { for: "path-confidence" }, "Min confidence"),
      h("input", { id: "path-confidence", name: "minConfidence", type: "number", min: 0, max: 1, step: 0.05, value: f.minConfidence ?? "" }),
      h("label", { for: "path-degree" }, "Max degree"),
      h("input", { id: "path-degree", name: "maxDegree", type: "number", min: 1, value: f.maxDegree ?? "", placeholder: "no cap" }),
      h("span", {}, "Excluded"),
      h(
        "div",
        { id: "path-excluded" },
        (f.excludeIds ?? []).map((id) => h("button", { type: "button", class: "small", title: "Include again", onclick: () => this.include(id) }, `${id} ×`)),
        h("button", { type: "button", class: "small", onclick: () => this.excludeSelected() }, "Exclude selected"),
      ),
      h("p", { class: "hint full" }, "Valid at: the date of “Show as of” under the canvas, when it is on."),
      h("button", { type: "submit", class: "full", id: "path-submit" }, "Find paths"),
    );
    replace(byId("panel-paths"), h("h2", {}, "Paths"), form, h("div", { id: "path-results", "aria-live": "polite" }), h("div", { id: "between", "aria-live": "polite" }));
  }

  private useSelected(which: "from" | "to"): void {
    const [e] = this.act.selected();
    if (e) this.setEnd(which, e);
  }

  private excludeSelected(): void {
    const ids = this.act.selected().map((e) => e.id);
    this.form.filter.excludeIds = [...new Set([...(this.form.filter.excludeIds ?? []), ...ids])];
    this.render();
    this.act.changed();
  }

  private include(id: string): void {
    this.form.filter.excludeIds = (this.form.filter.excludeIds ?? []).filter((x) => x !== id);
    this.render();
    this.act.changed();
  }
}
