// The legend under the canvas: what every style means (kind by shape and
// colour, protected people, status by line style, confidence by width,
// degree by size; on the map, how many entities have no place and where
// the outlines come from), and toggles by entity kind and by relation
// type that leave them out of the drawing and bring them back, without
// reading again.
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
  const kindList = Object.keys(kindStyle) as Kind[];
  const typeList = [...types.keys()].sort((a, b) => a.localeCompare(b));
  const legend = byId("legend");
  // The same toggles as drawn: they are updated in place, not drawn anew,
  // so a press and its release land on one element (a legend replaced
  // between them, by a change that comes in meanwhile, loses the click)
  // and the keyboard's focus stays where it is.
  const map = canvas.map.shown ? canvas.map.note() : "";
  const keys = [...kindList.map((k) => `kinds:${k}`), ...typeList.map((t) => `types:${t}`), map].join(" ");
  if (legend.dataset.toggles === keys) {
    legend.querySelectorAll<HTMLButtonElement>("button[data-toggle]").forEach((b) => {
      const [what, value] = b.dataset.toggle!.split(/:(.*)/s) as ["types" | "kinds", string];
      const shown = !canvas.leftOut[what].has(value);
      b.setAttribute("aria-pressed", String(shown));
      b.title = toggleTitle(shown);
      b.querySelector(".count")!.textContent = String((what === "kinds" ? kinds : types).get(value) ?? 0);
    });
    return;
  }
  legend.dataset.toggles = keys;
  const toggle = (what: "types" | "kinds", value: string, label: (string | HTMLElement)[], count: number) => {
    const shown = !canvas.leftOut[what].has(value);
    return h(
      "button",
      {
        type: "button",
        class: "toggle",
        "data-toggle": `${what}:${value}`,
        "aria-pressed": String(shown),
        title: toggleTitle(shown),
        // What the toggle does is read when it is pressed, never kept from when it was drawn.
        onclick: () => canvas.leaveOut(what, value, !canvas.leftOut[what].has(value)),
      },
      ...label,
      h("span", { class: "count" }, String(count)),
    );
  };
  // A toggle drawn anew keeps the keyboard's focus.
  const focused = (document.activeElement as HTMLElement | null)?.dataset?.toggle;
  replace(
    legend,
    h(
      "div",
      { class: "legend-row", role: "group", "aria-label": "Entity kinds: press to leave out or draw again" },
      h("span", { class: "legend-title" }, "Kinds"),
      kindList.map((kind) => toggle("kinds", kind, [h("span", { class: `swatch shape-${kind}`, "aria-hidden": "true" }), ` ${kindStyle[kind].label} `], kinds.get(kind) ?? 0)),
    ),
    types.size
      ? h(
          "div",
          { class: "legend-row", role: "group", "aria-label": "Relation types: press to leave out or draw again" },
          h("span", { class: "legend-title" }, "Relations"),
          typeList.map((type) => toggle("types", type, [`${vocabulary.get(type)?.label ?? type.toLowerCase()} `], types.get(type) ?? 0)),
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
    map ? h("div", { class: "legend-row", id: "legend-map" }, h("span", { class: "legend-title" }, "Map"), h("span", {}, map)) : null,
  );
  if (focused) legend.querySelector<HTMLElement>(`[data-toggle="${CSS.escape(focused)}"]`)?.focus();
}

function toggleTitle(shown: boolean): string {
  return shown ? "Shown: press to leave out of the drawing" : "Left out: press to draw again";
}
