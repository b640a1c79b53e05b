// The dataset timeline: the events and dated relations of datasets (those
// of the entities drawn, else every one the caller may read) within a
// period, as a histogram by year or month; a bar lists its items, each of
// which draws, and "Draw them all" puts the period on the canvas, where
// the time bar brushes it.
import { gql } from "./api";
import { identityEvent } from "./auth";
import type { EntityRef, Relation, RelationTypeInfo } from "./api";
import { byId, h, replace } from "./dom";
import { bins, earliest, histogram } from "./timebar";
import type { Bin } from "./timebar";
import { dates, entityButton, entityName, run } from "./ui";

const timelineDocument = `query DatasetTimeline($datasets: [String!]!, $from: PartialDate!, $to: PartialDate!) {
  datasetTimeline(datasets: $datasets, from: $from, to: $to, first: 200) {
    truncated
    items { start end event { ...Ref } relation { ...Rel } }
  }
}`;

/** maxDatasets is the API's cap on datasetTimeline's datasets. */
const maxDatasets = 50;

interface Item {
  start: string | null;
  end: string | null;
  event: EntityRef | null;
  relation: Relation | null;
}

/** Timeline is the timeline panel. */
export class Timeline {
  /** edited says the user typed datasets of their own: the defaults leave them be. */
  private edited = false;
  private readable: string[] | null = null;
  private items: Item[] = [];

  constructor(
    private vocabulary: Map<string, RelationTypeInfo>,
    private act: { open(id: string): void; draw(nodes: EntityRef[], relations: Relation[]): void; datasets(): string[] },
  ) {
    this.render();
    window.addEventListener(identityEvent, () => this.signedIn());
    // The readable datasets are counted by the server (datasets reads their
    // sizes): asked for only once the panel shows, whichever way it is opened.
    new MutationObserver(() => void this.defaults()).observe(byId("panel-timeline"), { attributes: true, attributeFilter: ["hidden"] });
  }

  /** render draws the form; the datasets default to those on the canvas, else to every readable one. */
  render(): void {
    replace(
      byId("panel-timeline"),
      h("h2", {}, "Timeline of datasets"),
      h(
        "form",
        { class: "filters", id: "timeline-form", onsubmit: (ev: Event) => (ev.preventDefault(), void this.load(ev.target as HTMLFormElement)) },
        h("label", { for: "timeline-datasets" }, "Datasets"),
        h("input", { id: "timeline-datasets", name: "datasets", placeholder: "caesar-report", required: true, oninput: () => (this.edited = true) }),
        h("label", { for: "timeline-from" }, "From"),
        h("input", { id: "timeline-from", name: "from", value: "2000", pattern: "\\d{4}(-\\d{2}(-\\d{2})?)?", required: true }),
        h("label", { for: "timeline-to" }, "To"),
        h("input", { id: "timeline-to", name: "to", value: String(new Date().getFullYear()), pattern: "\\d{4}(-\\d{2}(-\\d{2})?)?", required: true }),
        h("button", { type: "submit", class: "full" }, "Show"),
      ),
      h("div", { id: "timeline-results", "aria-live": "polite" }),
    );
    void this.defaults();
  }

  /** defaults fills the datasets field, unless the user wrote in it: the datasets drawn, else every readable one. */
  async defaults(): Promise<void> {
    if (this.edited) return;
    let datasets = this.act.datasets();
    if (datasets.length === 0) {
      if (byId("panel-timeline").hidden) return;
      if (this.readable === null) {
        try {
          this.readable = (await gql<{ datasets: { name: string }[] }>(`{ datasets { name } }`)).datasets.map((d) => d.name).slice(0, maxDatasets);
        } catch {
          return; // signed out, say: the field stays as it is
        }
      }
      datasets = this.readable;
    }
    const field = document.getElementById("timeline-datasets") as HTMLInputElement | null;
    if (field && !this.edited) field.value = datasets.join(", ");
  }

  /** signedIn forgets the readable datasets, which depend on who asks. */
  signedIn(): void {
    this.readable = null;
    void this.defaults();
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
    this.items = items;
    const shown = bins(items.map((it, i) => ({ id: String(i), event: it.event !== null, start: it.start, end: it.end })));
    const chart = shown.length ? histogram(shown, "timeline-svg") : null;
    chart?.addEventListener("click", (ev) => {
      const label = (ev.target as Element).closest(".timebar-bin")?.getAttribute("data-label");
      const bin = shown.find((b) => b.label === label);
      if (bin) this.list(bin);
    });
    replace(
      byId("timeline-results"),
      h("p", { class: "hint" }, `${items.length} items${truncated ? " (the first 200: narrow the range for the rest)" : ""}. A bar lists its items.`),
      chart ? h("div", { class: "timebar-chart" }, chart) : null,
      h(
        "p",
        {},
        h("button", { type: "button", class: "small", id: "timeline-draw", onclick: () => this.drawAll() }, "Draw them all"),
        " ",
        h("button", { type: "button", class: "small", id: "timeline-all", onclick: () => this.list(null) }, "List them all"),
      ),
      h("div", { id: "timeline-list" }),
    );
    this.list(null);
  }

  /** list lists the items of a bin (null: all of them). */
  private list(bin: Bin | null): void {
    // As bins counts them: by the first day an item's dates allow.
    const inBin = (it: Item) => {
      const first = it.start ?? it.end;
      return !bin || (first !== null && earliest(first) >= bin.first && earliest(first) <= bin.last);
    };
    document.querySelectorAll("#timeline-svg .timebar-bin").forEach((g) => g.classList.toggle("brushed", g.getAttribute("data-label") === bin?.label));
    replace(
      byId("timeline-list"),
      bin ? h("h3", {}, bin.label) : null,
      h(
        "ol",
        { class: "list timeline-list", id: "timeline-items" },
        this.items.filter(inBin).map((item) => {
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

  private drawAll(): void {
    this.act.draw(
      this.items.flatMap((it) => (it.event ? [it.event] : [])),
      this.items.flatMap((it) => (it.relation ? [it.relation] : [])),
    );
  }
}
