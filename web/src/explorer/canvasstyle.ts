// How the canvas draws: a kind's shape and colour, a status's line
// style, labels cut to 24 characters, an entity's size by its degree, and
// the stylesheet that says so to Cytoscape (canvas.ts draws with it; the
// legend and the exports read the same tables).
import type cytoscape from "cytoscape";
import type { Kind } from "./api";

/** Kind styles: shape first, colour second. */
export const kindStyle: Record<Kind, { shape: string; color: string; label: string }> = {
  PERSON: { shape: "ellipse", color: "#3b6fb6", label: "person (circle)" },
  ORGANIZATION: { shape: "round-rectangle", color: "#a0561a", label: "organization (rounded square)" },
  EVENT: { shape: "diamond", color: "#9b2f6b", label: "event (diamond)" },
  DOCUMENT: { shape: "rectangle", color: "#2f7f5f", label: "document (square)" },
  PLACE: { shape: "triangle", color: "#6a5aa8", label: "place (triangle)" },
};

/** Status line styles, as words for the legend. */
export const statusStyle: Record<string, { style: "solid" | "dashed" | "dotted"; dash?: number[]; label: string }> = {
  CONFIRMED: { style: "solid", label: "solid" },
  REPORTED: { style: "dashed", dash: [10, 3], label: "long dashes" },
  ALLEGED: { style: "dashed", dash: [4, 4], label: "short dashes" },
  DISPUTED: { style: "dotted", label: "dotted" },
};

/** labelLength is where an entity's label is cut (the full name shows on hover). */
export const labelLength = 24;

/** truncate cuts text to n characters (by code point), ending with "…" when it does. */
export function truncate(text: string, n = labelLength): string {
  const chars = [...text.replace(/\s+/g, " ").trim()];
  return chars.length <= n ? chars.join("") : chars.slice(0, n - 1).join("").trimEnd() + "…";
}


/** sizeFor is an entity's size by its degree: 24 px alone, growing with the square root, up to 64. */
export function sizeFor(degree: number): number {
  return Math.round(Math.min(64, 24 + 6 * Math.sqrt(degree)));
}

/** stylesheet is the canvas's Cytoscape style: kinds by shape and colour, statuses by line style, and the classes the canvas sets. */
export function stylesheet(): cytoscape.StylesheetJson {
  const kinds = Object.entries(kindStyle).map(([kind, s]) => ({
    selector: `node[kind = "${kind}"]`,
    style: { shape: s.shape, "background-color": s.color },
  }));
  const statuses = Object.entries(statusStyle).map(([status, s]) => ({
    selector: `edge.${status}`,
    style: { "line-style": s.style, ...(s.dash ? { "line-dash-pattern": s.dash } : {}) },
  }));
  return [
    {
      selector: "node",
      style: {
        label: "data(label)",
        "text-wrap": "wrap",
        "text-max-width": "180px",
        "font-size": 11,
        "text-valign": "bottom",
        "text-margin-y": 4,
        color: "#1d1d1d",
        "text-outline-color": "#ffffff",
        "text-outline-width": 2,
        // Labels too small to read are not drawn: a fitted 1,000-entity
        // view redraws shapes and lines only, and reads again on zoom.
        "min-zoomed-font-size": 7,
        width: "data(size)",
        height: "data(size)",
        "border-width": 1,
        "border-color": "#ffffff",
      },
    },
    ...kinds,
    { selector: "node[?redacted]", style: { "background-color": "#8a8a8a", "border-style": "dashed", "border-width": 2, "border-color": "#333" } },
    // A protected person the caller is cleared to see: its own colour, ringed in red.
    { selector: "node.protected", style: { "border-style": "double", "border-width": 4, "border-color": "#b3001b" } },
    { selector: "node.has-more", style: { "border-width": 3, "border-color": "#222", "border-style": "double" } },
    { selector: "node.pinned", style: { "outline-width": 2, "outline-color": "#222", "outline-offset": 3 } as cytoscape.Css.Node },
    // Selection is a halo beneath the entity, so its own colour (and a
    // protected person's grey) stays as it is.
    { selector: "node:selected", style: { "underlay-color": "#f2b01e", "underlay-opacity": 0.8, "underlay-padding": 7, "underlay-shape": "ellipse" } as cytoscape.Css.Node },
    {
      selector: "edge",
      style: {
        width: "data(width)",
        "curve-style": "bezier",
        "line-color": "#7a7a7a",
        "target-arrow-color": "#7a7a7a",
        "target-arrow-shape": "triangle",
        "arrow-scale": 0.8,
        label: "data(label)",
        "font-size": 10,
        "min-zoomed-font-size": 8,
        color: "#444",
        "text-rotation": "autorotate",
        "text-outline-color": "#ffffff",
        "text-outline-width": 2,
      },
    },
    { selector: "edge.undirected", style: { "target-arrow-shape": "none" } },
    // Many relations: straight lines (parallel ones overlap) cost far less
    // to draw while dragging than bundled curves.
    // Labels cost as much to lay out as to draw, even when too small to be
    // drawn; with many relations theirs show only when selected or on a
    // path, and entities' only when zoomed in enough to read them.
    { selector: "edge.many", style: { "curve-style": "straight", label: "" } },
    { selector: "edge.many:selected, edge.many.path", style: { label: "data(label)" } },
    { selector: "node.far", style: { label: "" } },
    ...statuses,
    { selector: ".path", style: { "line-color": "#d0421b", "target-arrow-color": "#d0421b", "z-index": 10, "border-color": "#d0421b", "border-width": 3 } },
    { selector: ".faded", style: { opacity: 0.25 } },
    { selector: "edge.not-valid", style: { opacity: 0.12 } },
    { selector: ".hidden, .left-out", style: { display: "none" } },
  ] as cytoscape.StylesheetJson;
}
