// The dataset timeline: the events and dated relations of the datasets on
// the canvas (or named) within a range, oldest first; an item draws.
import { gql } from "./api";
import type { EntityRef, Relation, RelationTypeInfo } from "./api";
import { byId, h, replace } from "./dom";
import { dates, entityButton, entityName, run } from "./ui";

const timelineDocument = `query DatasetTimeline($datasets: [String!]!, $from: PartialDate!, $to: PartialDate!) {
  datasetTimeline(datasets: $datasets, from: $from, to: $to, first: 200) {
    truncated
    items { start end event { ...Ref } relation { ...Rel } }
  }
}`;

interface Item {
  start: string | null;
  end: string | null;
  event: EntityRef | null;
  relation: Relation | null;
}

/** Timeline is the timeline panel. */
export class Timeline {
  constructor(
    private vocabulary: Map<string, RelationTypeInfo>,
    private act: { open(id: string): void; draw(nodes: EntityRef[], relations: Relation[]): void; datasets(): string[] },
  ) {
    this.render();
  }

  /** render draws the form; the datasets default to those on the canvas. */
  render(): void {
    const datasets = this.act.datasets().join(", ");
    replace(
      byId("panel-timeline"),
      h("h2", {}, "Timeline of datasets"),
      h(
        "form",
        { class: "filters", id: "timeline-form", onsubmit: (ev: Event) => (ev.preventDefault(), void this.load(ev.target as HTMLFormElement)) },
        h("label", { for: "timeline-datasets" }, "Datasets"),
        h("input", { id: "timeline-datasets", name: "datasets", value: datasets, placeholder: "caesar-report", required: true }),
        h("label", { for: "timeline-from" }, "From"),
        h("input", { id: "timeline-from", name: "from", value: "2000", pattern: "\\d{4}(-\\d{2}(-\\d{2})?)?", required: true }),
        h("label", { for: "timeline-to" }, "To"),
        h("input", { id: "timeline-to", name: "to", value: String(new Date().getFullYear()), pattern: "\\d{4}(-\\d{2}(-\\d{2})?)?", required: true }),
        h("button", { type: "submit", class: "full" }, "Show"),
      ),
      h("div", { id: "timeline-results", "aria-live": "polite" }),
    );
  }

  private async load(form: HTMLFormElement): Promise<void> {
    const data = new FormData(form);
    const datasets = String(data.get("datasets") ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const answer = await run("Reading the timeline", () =>
      gql<{ datasetTimeline: { truncated: boolean; items: Item[] } }>(timelineDocument, { datasets, from: data.get("from"), to: data.get("to") }),
    );
    if (!answer) return;
    const { items, truncated } = answer.datasetTimeline;
    replace(
      byId("timeline-results"),
      h("p", { class: "hint" }, `${items.length} items${truncated ? " (the first 200: narrow the range for the rest)" : ""}`),
      h(
        "ol",
        { class: "list timeline-list", id: "timeline-items" },
        items.map((item) => {
          const when = h("span", { class: "timeline-date" }, dates(item.start, item.end) || "undated");
          if (item.event) return h("li", {}, when, entityButton(item.event, (id) => (this.act.draw([item.event!], []), this.act.open(id))));
          const r = item.relation!;
          const label = this.vocabulary.get(r.type)?.label ?? r.type;
          return h(
            "li",
            {},
            when,
            h("button", { type: "button", class: "link", onclick: () => this.act.draw([], [r]) }, `${entityName(r.from)} ${label} ${entityName(r.to)}`),
          );
        }),
      ),
    );
  }
}
