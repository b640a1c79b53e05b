// The legend under the canvas: what every style means (kind by shape and
// colour, protected people, status by line style, confidence by width,
// degree by size), and toggles by entity kind and by relation type that
// leave them out of the drawing and bring them back, without reading again.
import type { Kind, RelationTypeInfo } from "./api";
import type { Canvas, EdgeData, NodeData } from "./canvas";
import { kindStyle, statusStyle } from "./canvas";
import { byId, h, replace } from "./dom";

/** renderLegend draws the legend for what is on the canvas now. */
export function renderLegend(canvas: Canvas, vocabulary: Map<string, RelationTypeInfo>): void {
  const kinds = new Map<string, number>();
  canvas.cy.nodes().forEach((n) => void kinds.set((n.data() as NodeData).kind, (kinds.get((n.data() as NodeData).kind) ?? 0) + 1));
  const types = new Map<string, number>();
  canvas.cy.edges().forEach((e) => {
    const t = (e.data() as EdgeData).relation.type;
    types.set(t, (types.get(t) ?? 0) + 1);
  });
  for (const t of canvas.leftOut.types) if (!types.has(t)) types.set(t, 0);
  const toggle = (what: "types" | "kinds", value: string, label: (string | HTMLElement)[], count: number) => {
    const shown = !canvas.leftOut[what].has(value);
    return h(
      "button",
      {
        type: "button",
        class: "toggle",
        "data-toggle": `${what}:${value}`,
        "aria-pressed": String(shown),
        title: shown ? "Shown: press to leave out of the drawing" : "Left out: press to draw again",
        onclick: () => canvas.leaveOut(what, value, shown),
      },
      ...label,
      h("span", { class: "count" }, String(count)),
    );
  };
  // The toggle pressed is drawn anew: the keyboard's focus stays on it.
  const focused = (document.activeElement as HTMLElement | null)?.dataset?.toggle;
  const legend = byId("legend");
  replace(
    legend,
    h(
      "div",
      { class: "legend-row", role: "group", "aria-label": "Entity kinds: press to leave out or draw again" },
      h("span", { class: "legend-title" }, "Kinds"),
      (Object.keys(kindStyle) as Kind[]).map((kind) => toggle("kinds", kind, [h("span", { class: `swatch shape-${kind}`, "aria-hidden": "true" }), ` ${kindStyle[kind].label} `], kinds.get(kind) ?? 0)),
    ),
    types.size
      ? h(
          "div",
          { class: "legend-row", role: "group", "aria-label": "Relation types: press to leave out or draw again" },
          h("span", { class: "legend-title" }, "Relations"),
          [...types.entries()]
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([type, count]) => toggle("types", type, [`${vocabulary.get(type)?.label ?? type.toLowerCase()} `], count)),
        )
      : null,
    h(
      "div",
      { class: "legend-row legend-key" },
      h("span", { class: "legend-title" }, "Styles"),
      Object.entries(statusStyle).map(([status, s]) => h("span", {}, h("span", { class: `line line-${s.style}${status === "REPORTED" ? " long" : ""}`, "aria-hidden": "true" }), ` ${status.toLowerCase()} (${s.label})`)),
      h("span", {}, h("span", { class: "swatch swatch-redacted", "aria-hidden": "true" }), " protected person, redacted (grey, dashed)"),
      h("span", {}, h("span", { class: "swatch swatch-protected", "aria-hidden": "true" }), " protected person you may see (red ring)"),
      h("span", {}, "line width: confidence · size: relations drawn"),
    ),
  );
  if (focused) legend.querySelector<HTMLElement>(`[data-toggle="${CSS.escape(focused)}"]`)?.focus();
}
