// Search: type-ahead suggestions while typing (suggest), and full results
// with their counts by kind and by dataset (search with totalCount and
// facets); a facet narrows the results to it.
import { gql } from "./api";
import type { EntityRef, Kind } from "./api";
import { byId, h, replace } from "./dom";
import { entityButton, kindBadge, entityName, run } from "./ui";

interface Hit {
  node: EntityRef;
  matchedField: string;
}

interface SearchAnswer {
  search: {
    edges: Hit[];
    totalCount: number;
    facets: { kinds: { kind: Kind; count: number }[]; datasets: { dataset: string; count: number }[] };
  };
}

const searchDocument = `query Search($text: String!, $kinds: [EntityKind!], $datasets: [String!]) {
  search(text: $text, kinds: $kinds, datasets: $datasets, first: 50) {
    totalCount
    facets { kinds { kind count } datasets { dataset count } }
    edges { matchedField node { ...Ref } }
  }
}`;

const suggestDocument = `query Suggest($prefix: String!) {
  suggest(prefix: $prefix, first: 8) { text entity { ...Ref } }
}`;

/** Search wires the search box, its suggestions and the results list. */
export class Search {
  private input = byId<HTMLInputElement>("search");
  private list = byId<HTMLUListElement>("suggestions");
  private active = -1;
  private suggestions: { text: string; entity: EntityRef }[] = [];
  private timer = 0;
  private asked = 0;
  private kinds: Kind[] = [];
  private datasets: string[] = [];
  private text = "";

  constructor(
    private open: (id: string) => void,
    private draw: (e: EntityRef) => void,
  ) {
    byId("search-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      this.stopSuggesting();
      this.kinds = [];
      this.datasets = [];
      void this.search(this.input.value);
    });
    this.input.addEventListener("input", () => {
      clearTimeout(this.timer);
      this.input.setAttribute("aria-busy", "true");
      this.timer = window.setTimeout(() => void this.suggest(this.input.value), 150);
    });
    this.input.addEventListener("keydown", (ev) => this.key(ev));
    this.input.addEventListener("blur", () => setTimeout(() => this.closeSuggestions(), 150));
  }

  private async suggest(prefix: string): Promise<void> {
    const asked = ++this.asked;
    if (prefix.trim().length < 2) {
      this.input.removeAttribute("aria-busy");
      return this.closeSuggestions();
    }
    try {
      const data = await gql<{ suggest: { text: string; entity: EntityRef }[] }>(suggestDocument, { prefix });
      if (asked !== this.asked) return; // a later keystroke has asked again
      this.input.removeAttribute("aria-busy");
      this.suggestions = data.suggest;
      this.active = -1;
      this.renderSuggestions();
    } catch {
      // Type-ahead is a convenience: its errors show when the user searches.
      if (asked === this.asked) this.input.removeAttribute("aria-busy");
      this.closeSuggestions();
    }
  }

  private renderSuggestions(): void {
    if (this.suggestions.length === 0) return this.closeSuggestions();
    replace(
      this.list,
      this.suggestions.map((s, i) =>
        h(
          "li",
          { role: "option", id: `suggestion-${i}`, "aria-selected": String(i === this.active), onmousedown: (ev: Event) => (ev.preventDefault(), this.choose(i)) },
          kindBadge(s.entity),
          entityName(s.entity),
          s.text !== s.entity.name && !s.entity.redacted ? h("span", { class: "dataset" }, ` (${s.text})`) : "",
        ),
      ),
    );
    this.list.hidden = false;
    this.input.setAttribute("aria-expanded", "true");
    if (this.active >= 0) this.input.setAttribute("aria-activedescendant", `suggestion-${this.active}`);
    else this.input.removeAttribute("aria-activedescendant");
  }

  /** stopSuggesting closes the suggestions, and drops those asked for and not yet come (they would open over a search's results). */
  private stopSuggesting(): void {
    clearTimeout(this.timer);
    this.asked++;
    this.input.removeAttribute("aria-busy");
    this.closeSuggestions();
  }

  private closeSuggestions(): void {
    this.list.hidden = true;
    this.suggestions = [];
    this.input.setAttribute("aria-expanded", "false");
    this.input.removeAttribute("aria-activedescendant");
  }

  private choose(i: number): void {
    const s = this.suggestions[i];
    if (!s) return;
    this.closeSuggestions();
    this.draw(s.entity);
    this.open(s.entity.id);
  }

  private key(ev: KeyboardEvent): void {
    if (ev.key === "Escape") {
      // A search box clears itself on Escape: this one keeps the query and closes its suggestions.
      ev.preventDefault();
      this.stopSuggesting();
      return;
    }
    if (this.list.hidden) return;
    const n = this.suggestions.length;
    if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
      ev.preventDefault();
      this.active = (this.active + (ev.key === "ArrowDown" ? 1 : -1) + n + 1) % (n + 1);
      if (this.active === n) this.active = -1;
      this.renderSuggestions();
    } else if (ev.key === "Enter" && this.active >= 0) {
      ev.preventDefault();
      this.choose(this.active);
    }
  }

  /** again runs the last search again (for a new identity), if there was one. */
  again(): void {
    if (this.text.trim() !== "") void this.search(this.text);
  }

  /** clear forgets the results (signed out: they were the old identity's). */
  clear(): void {
    this.text = "";
    replace(byId("facets"));
    replace(byId("results"));
  }

  /** search runs a full search and lists the hits with their facets. */
  async search(text: string): Promise<void> {
    this.text = text;
    if (text.trim() === "") return;
    const data = await run(`Searching for “${text}”`, () =>
      gql<SearchAnswer>(searchDocument, { text, kinds: this.kinds.length ? this.kinds : null, datasets: this.datasets.length ? this.datasets : null }),
    );
    if (!data) return;
    const { edges, totalCount, facets } = data.search;
    const facetButton = (label: string, count: number, on: boolean, toggle: () => void) =>
      h("button", { type: "button", "aria-pressed": String(on), onclick: () => (toggle(), void this.search(this.text)) }, `${label} ${count}`);
    replace(
      byId("facets"),
      h("p", { class: "hint", id: "results-count" }, `${totalCount} ${totalCount === 1 ? "match" : "matches"}${edges.length < totalCount ? `, ${edges.length} shown` : ""}`),
      h(
        "div",
        { class: "facets", role: "group", "aria-label": "By kind" },
        facets.kinds.map((k) => facetButton(k.kind.toLowerCase(), k.count, this.kinds.includes(k.kind), () => (this.kinds = toggled(this.kinds, k.kind)))),
      ),
      h(
        "div",
        { class: "facets", role: "group", "aria-label": "By dataset" },
        facets.datasets.map((d) => facetButton(d.dataset, d.count, this.datasets.includes(d.dataset), () => (this.datasets = toggled(this.datasets, d.dataset)))),
      ),
    );
    replace(
      byId("results"),
      edges.length === 0
        ? h("li", { class: "hint" }, "Nothing matches.")
        : edges.map((e) =>
            h(
              "li",
              {},
              entityButton(e.node, (id) => (this.draw(e.node), this.open(id)), `${e.node.dataset}${e.matchedField === "NAME" ? "" : ` · by ${e.matchedField.toLowerCase()}`}`),
            ),
          ),
    );
  }
}

function toggled<T>(list: T[], v: T): T[] {
  return list.includes(v) ? list.filter((x) => x !== v) : [...list, v];
}
