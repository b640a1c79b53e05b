// Common ground: for 2-10 selected entities, the paths that connect them
// (connections) and the entities related to every one of them
// (commonNeighbors), each drawn and listed.
import { gql } from "./api";
import type { EntityRef, PathFilter, Relation, RelationTypeInfo, Subgraph } from "./api";
import type { Canvas, NodeData } from "./canvas";
import { byId, h, replace } from "./dom";
import { entityButton, entityName, reading, run } from "./ui";

const connectionsDocument = `query Connections($ids: [ID!]!, $filter: PathFilter) {
  connections(ids: $ids, filter: $filter) {
    nodes { ...Ref } relations { ...Rel } truncated unconnectedPairs { a { ...Ref } b { ...Ref } }
  }
}`;

const commonDocument = `query Common($ids: [ID!]!, $filter: PathFilter) {
  commonNeighbors(ids: $ids, filter: $filter, limit: 100) { entity { ...Ref } relations { ...Rel } }
}`;

/** Common is the common-ground panel. */
/** selectedRefs are the entities selected on the canvas, whose common ground the panel shows. */
export function selectedRefs(canvas: Canvas): EntityRef[] {
  return canvas.cy.nodes(":selected").map((n) => {
    const d = n.data() as NodeData;
    return { id: d.id, kind: d.kind, name: d.name, dataset: d.dataset, redacted: d.redacted };
  });
}

export class Common {
  constructor(
    private vocabulary: Map<string, RelationTypeInfo>,
    private act: { open(id: string): void; draw(nodes: EntityRef[], relations: Relation[]): void; selected(): EntityRef[]; filter(): PathFilter },
  ) {
    this.render([]);
  }

  /** render lists the selection and the two actions. */
  render(selected: EntityRef[]): void {
    const ok = selected.length >= 2 && selected.length <= 10;
    replace(
      byId("panel-common"),
      h("h2", {}, "Common ground"),
      h("p", { class: "hint" }, "Select 2 to 10 entities on the canvas (Shift+click, or drag a box with Shift held)."),
      h("ul", { class: "list", id: "common-selection" }, selected.map((e) => h("li", {}, entityButton(e, this.act.open)))),
      h("button", { type: "button", id: "connect", disabled: !ok, onclick: () => void this.connect() }, "Connect them"),
      " ",
      h("button", { type: "button", id: "common", disabled: !ok, onclick: () => void this.common() }, "What they have in common"),
      h("div", { id: "common-results", "aria-live": "polite" }),
    );
  }

  private async connect(): Promise<void> {
    const ids = this.act.selected().map((e) => e.id);
    const data = await run("Connecting", () =>
      gql<{ connections: Subgraph & { unconnectedPairs: { a: EntityRef; b: EntityRef }[] } }>(connectionsDocument, { ids, filter: this.act.filter() }),
    );
    if (!data) return;
    const c = data.connections;
    this.act.draw(c.nodes, c.relations);
    replace(
      byId("common-results"),
      h("p", {}, `${c.nodes.length} entities and ${c.relations.length} relations connect them${c.truncated ? " (cut short: the search hit its limits)" : ""}.`),
      c.unconnectedPairs.length
        ? [h("h3", {}, "Not connected within the filter"), h("ul", {}, c.unconnectedPairs.map((p) => h("li", {}, `${entityName(p.a)} and ${entityName(p.b)}`)))]
        : null,
    );
  }

  private async common(): Promise<void> {
    const ids = this.act.selected().map((e) => e.id);
    const data = await run("Finding common neighbours", () =>
      gql<{ commonNeighbors: { entity: EntityRef; relations: Relation[] }[] }>(commonDocument, { ids, filter: this.act.filter() }),
    );
    if (!data) return;
    const found = data.commonNeighbors;
    this.act.draw(
      found.map((f) => f.entity),
      found.flatMap((f) => f.relations),
    );
    replace(
      byId("common-results"),
      h("h3", {}, found.length === 0 ? "Nothing is related to all of them." : `${found.length} related to all of them`),
      h(
        "ul",
        { class: "list", id: "common-list" },
        found.map((f) =>
          h(
            "li",
            { class: "common-item" },
            entityButton(f.entity, this.act.open),
            h(
              "span",
              { class: "hint" },
              f.relations.map((r) => {
                const { label, other } = reading(r, f.entity.id, this.vocabulary);
                return `${label} ${entityName(other)}`;
              }).join("; "),
            ),
          ),
        ),
      ),
    );
  }
}
