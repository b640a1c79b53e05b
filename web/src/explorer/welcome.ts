// The first screen (issue 27 item 3): instead of an empty canvas, a
// guided first question and the most connected entities the caller may
// read, as the API answers them (it leaves out what the caller may not
// read, and redacts protected people: this only renders). The question is
// the seed's, asked only when the seed's two entities are there to read.
// It goes at the analyst's first step (a search, an entity opened, anything
// drawn, a view restored from a link) and does not come back.
import { gql } from "./api";
import type { EntityRef } from "./api";
import { h, replace } from "./dom";
import { entityButton } from "./ui";

/** The seed's first question, and the names and kinds of its two ends. */
export const seedQuestion = {
  text: "How is Sir Desmond de Silva connected to the Government of Qatar, and on what evidence?",
  from: { name: "Sir Desmond de Silva", kind: "PERSON" },
  to: { name: "Government of Qatar", kind: "ORGANIZATION" },
  dataset: "caesar-report",
} as const;

/** hubCount is how many of the most connected entities the first screen offers. */
export const hubCount = 6;

type Hub = EntityRef & { relations: { totalCount: number } };

const firstDocument = `query FirstScreen($hubs: Int!, $from: String!, $to: String!) {
  hubs: entities(orderBy: {field: DEGREE, direction: DESC}, first: $hubs) { edges { node { ...Ref relations(first: 1) { totalCount } } } }
  from: search(text: $from, kinds: [PERSON], first: 20) { edges { node { ...Ref } } }
  to: search(text: $to, kinds: [ORGANIZATION], first: 20) { edges { node { ...Ref } } }
}`;

interface FirstAnswer {
  hubs: { edges: { node: Hub }[] };
  from: { edges: { node: EntityRef }[] };
  to: { edges: { node: EntityRef }[] };
}

/** Welcome is the first screen over the canvas. */
export class Welcome {
  private gone = false;
  private reads = 0;

  constructor(
    private el: HTMLElement,
    private act: { start(e: EntityRef): void; ask(from: EntityRef, to: EntityRef): void },
  ) {}

  /** shown says whether the first screen is up. */
  get shown(): boolean {
    return !this.gone && !this.el.hidden;
  }

  /** dismiss takes the first screen away for good: the analyst has started. */
  dismiss(): void {
    this.gone = true;
    this.reads++;
    this.el.hidden = true;
    this.el.replaceChildren();
  }

  /** clear takes the first screen away until it is shown again (signed out: what it listed was the old identity's). */
  clear(): void {
    this.reads++;
    this.el.hidden = true;
    this.el.replaceChildren();
  }

  /** show reads where to start with the tab's credentials and shows it, unless the analyst has started. */
  async show(): Promise<void> {
    if (this.gone) return;
    const mine = ++this.reads;
    this.el.hidden = false;
    this.el.setAttribute("aria-busy", "true");
    replace(this.el, h("h2", { id: "welcome-heading" }, "Where to start"), h("p", { class: "hint" }, "Reading where to start…"));
    let data: FirstAnswer;
    try {
      data = await gql<FirstAnswer>(firstDocument, { hubs: hubCount, from: seedQuestion.from.name, to: seedQuestion.to.name });
    } catch {
      // Signed out, say: the page shows that error itself; nothing to start from.
      if (mine === this.reads) this.el.hidden = true;
      return;
    }
    if (mine !== this.reads) return; // dismissed, or read again since
    this.el.removeAttribute("aria-busy");
    this.render(
      data.hubs.edges.map((e) => e.node),
      questionEnds(
        data.from.edges.map((e) => e.node),
        data.to.edges.map((e) => e.node),
      ),
    );
  }

  private render(hubs: Hub[], ends: { from: EntityRef; to: EntityRef } | null): void {
    replace(
      this.el,
      h("h2", { id: "welcome-heading" }, "Where to start"),
      h("p", { class: "hint" }, "Search above (press / ), or begin here."),
      ends
        ? [
            h("h3", {}, "A first question"),
            h(
              "button",
              { type: "button", id: "welcome-question", class: "question", "aria-describedby": "welcome-question-hint", onclick: () => this.act.ask(ends.from, ends.to) },
              seedQuestion.text,
            ),
            h("p", { class: "hint", id: "welcome-question-hint" }, "Finds the shortest paths between them and shows the evidence for every hop."),
          ]
        : null,
      h("h3", { id: "welcome-hubs-heading" }, "The most connected entities you may read"),
      hubs.length === 0
        ? h("p", { class: "hint", id: "welcome-empty" }, "Nothing to read yet: your key reads no entity, or none is imported.")
        : h(
            "ul",
            { class: "list", id: "welcome-hubs", "aria-labelledby": "welcome-hubs-heading" },
            hubs.map((e) =>
              h(
                "li",
                {},
                entityButton(e, () => this.act.start(e), `${e.relations.totalCount} ${e.relations.totalCount === 1 ? "relation" : "relations"} · ${e.dataset}`),
              ),
            ),
          ),
      hubs.length ? h("p", { class: "hint" }, "One opens it, and draws it with its neighbours.") : null,
    );
  }
}

/**
 * questionEnds are the seed question's two ends as the caller may read
 * them, both of one dataset (the seed's first, when a caller reads several
 * copies), or null when the seed is not there to read.
 */
export function questionEnds(from: EntityRef[], to: EntityRef[]): { from: EntityRef; to: EntityRef } | null {
  const fit = (list: EntityRef[], want: { name: string; kind: string }) => list.filter((e) => !e.redacted && e.name === want.name && e.kind === want.kind);
  const tos = fit(to, seedQuestion.to);
  const pairs = fit(from, seedQuestion.from).flatMap((f) => tos.filter((t) => t.dataset === f.dataset).map((t) => ({ from: f, to: t })));
  return pairs.find((p) => p.from.dataset === seedQuestion.dataset) ?? pairs[0] ?? null;
}
