// Export of what is on screen (hidden entities left out): PNG and SVG of
// the view (on the map with its outlines beneath), GraphML and CSV of its
// entities and relations.
import type { Kind, Relation } from "./api";
import type cytoscape from "cytoscape";
import type { Canvas, NodeData } from "./canvas";
import { kindStyle, statusStyle } from "./canvas";
import { download } from "./dom";

/**
 * viewNames are the names a view is known by: the path's ends when the
 * view asks for a path, else its two most connected entities; a redacted
 * entity as drawn ("Protected person"), never by id.
 */
export function viewNames(canvas: Canvas, ends: (string | undefined)[] = []): string[] {
  const names = ends.filter((n): n is string => !!n);
  if (names.length > 0) return names;
  return canvas.cy
    .nodes(":visible")
    .sort((a, b) => b.degree(false) - a.degree(false) || a.id().localeCompare(b.id()))
    .slice(0, 2)
    .map((n) => (n.data("redacted") ? "Protected person" : String(n.data("name") ?? "")));
}

/**
 * fileName names an export after its view (viewNames) and the day, e.g.
 * casegraph-desmond-de-silva-government-of-qatar-2026-12-01.svg.
 */
export function fileName(names: string[], ext: string, today = new Date()): string {
  const slug = names
    .map((n) => n.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, ""))
    .filter(Boolean)
    .join("-")
    .slice(0, 60)
    .replace(/-+$/, "");
  const day = today.toISOString().slice(0, 10);
  return ["casegraph", slug, day].filter(Boolean).join("-") + "." + ext;
}

/** viewTitle is an exported figure's title: the path asked for (its ends' names), else the view's most connected entities. */
export function viewTitle(canvas: Canvas, from?: string, to?: string): string {
  if (from && to) return `How ${from} is connected to ${to}`;
  const names = viewNames(canvas, [from, to]);
  return names.length > 0 ? `Around ${names.join(" and ")}` : "Casegraph";
}

/**
 * exportActions are the Export menu's actions: files named after names()
 * and the day, figures titled title(); the SVG of a map once its outlines
 * are in (read the first time it is chosen).
 */
export function exportActions(canvas: Canvas, names: () => string[], title: () => string, failed: (text: string) => void): Record<string, () => void> {
  const name = (ext: string) => fileName(names(), ext);
  return {
    png: () => void png(canvas, name("png"), title()).catch((err: unknown) => failed(`The PNG could not be made: ${String(err)}`)),
    svg: () => void canvas.map.drawn.then(() => download(name("svg"), new Blob([svg(canvas, title())], { type: "image/svg+xml" }))),
    graphml: () => download(name("graphml"), new Blob([graphml(canvas)], { type: "application/graphml+xml" })),
    csv: () => download(name("csv"), new Blob([csv(canvas)], { type: "text/csv;charset=utf-8" })),
  };
}

/** png saves the whole drawing as a PNG at print resolution (four times the screen's scale, at most 8,000 pixels a side), its caption below. */
export async function png(canvas: Canvas, name: string, title = "Casegraph"): Promise<void> {
  const box = canvas.cy.elements(":visible").boundingBox({});
  const scale = Math.max(1, Math.min(4, 8000 / Math.max(box.w, box.h, 1)));
  const map = canvas.map.shown;
  if (map) await canvas.map.drawn;
  // On the map the drawing is transparent, over the outlines painted first.
  const drawing = canvas.cy.png({ output: "base64uri", full: true, bg: map ? undefined : "#ffffff", scale }) as string;
  const image = new Image();
  image.src = drawing;
  await image.decode();
  const cap = caption(canvas, title);
  const line = captionLine * scale;
  const pad = 20 * scale;
  const out = document.createElement("canvas");
  out.width = Math.max(image.width, Math.round(480 * scale));
  out.height = image.height + pad + (cap.lines.length + 2) * line;
  const g = out.getContext("2d")!;
  g.fillStyle = "#ffffff";
  g.fillRect(0, 0, out.width, out.height);
  if (map) {
    // Where Cytoscape draws: its elements' bounding box, at the scale times the screen's pixel ratio (as cy.png does).
    g.save();
    g.beginPath();
    g.rect(0, 0, image.width, image.height);
    g.clip();
    canvas.map.paint(g, canvas.cy.elements().boundingBox({}), scale * (window.devicePixelRatio || 1));
    g.restore();
  }
  g.drawImage(image, 0, 0);
  let y = image.height + pad;
  g.fillStyle = "#1d1d1d";
  g.font = `bold ${14 * scale}px sans-serif`;
  g.fillText(cap.title, pad, y);
  g.font = `${10 * scale}px sans-serif`;
  g.fillStyle = "#333333";
  for (const l of cap.lines) {
    y += line;
    let x = pad;
    if (l.kind) {
      g.fillStyle = l.kind === "REDACTED" ? "#8a8a8a" : kindStyle[l.kind as Kind].color;
      g.fillRect(x, y - 9 * scale, 9 * scale, 9 * scale);
      x += 16 * scale;
    } else if (l.status) {
      const st = statusStyle[l.status];
      g.strokeStyle = "#7a7a7a";
      g.lineWidth = 2 * scale;
      g.setLineDash((st.style === "dotted" ? [2, 3] : (st.dash ?? [])).map((d) => d * scale));
      g.beginPath();
      g.moveTo(x, y - 4 * scale);
      g.lineTo(x + 12 * scale, y - 4 * scale);
      g.stroke();
      g.setLineDash([]);
      x += 16 * scale;
    }
    g.fillStyle = "#333333";
    g.fillText(l.text, x, y);
  }
  const blob = await new Promise<Blob>((resolve, reject) => out.toBlob((b) => (b ? resolve(b) : reject(new Error("the PNG could not be made"))), "image/png"));
  download(name, blob);
}

/** The columns exports carry of an entity besides its kind and dataset, and of what a relation cites: the sources, their URLs (the archived one when there is no other) and each citation's grade ("B2": the source's reliability and the claim's credibility). */
const joined = (vs: (string | null | undefined)[]) => vs.filter((v) => v).join(" | ");
const entityColumns = (n: NodeData) => ({
  name: n.redacted ? "Protected person" : n.name,
  description: n.description ?? "",
  aliases: joined(n.aliases ?? []),
});
const relationColumns = (r: Relation) => ({
  sources: joined(r.sources.map((s) => s.title)),
  sourceUrls: joined(r.sources.map((s) => s.url ?? s.archivedUrl)),
  grades: joined((r.citations ?? []).map((c) => c.grade)),
});

/** graphml is the visible graph as GraphML, every property a keyed data element. */
export function graphml(canvas: Canvas): string {
  const nodes = canvas.visibleNodes();
  const relations = canvas.visibleRelations();
  const nodeKeys = ["name", "kind", "dataset", "redacted", "description", "aliases"] as const;
  const edgeKeys = ["type", "status", "confidence", "role", "startDate", "endDate", "quote", "sources", "sourceUrls", "grades", "dataset"] as const;
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<graphml xmlns="http://graphml.graphdrawing.org/xmlns">`,
    ...nodeKeys.map((k) => `  <key id="n_${k}" for="node" attr.name="${k}" attr.type="${k === "redacted" ? "boolean" : "string"}"/>`),
    ...edgeKeys.map((k) => `  <key id="e_${k}" for="edge" attr.name="${k}" attr.type="${k === "confidence" ? "double" : "string"}"/>`),
    `  <graph id="casegraph" edgedefault="directed">`,
  ];
  const data = (prefix: string, key: string, v: unknown) => (v === null || v === undefined || v === "" ? "" : `<data key="${prefix}_${key}">${xml(String(v))}</data>`);
  for (const n of nodes) {
    const values: Record<(typeof nodeKeys)[number], unknown> = { ...n, ...entityColumns(n) };
    lines.push(`    <node id="${xml(n.id)}">${nodeKeys.map((k) => data("n", k, values[k])).join("")}</node>`);
  }
  for (const r of relations) {
    const values: Record<(typeof edgeKeys)[number], unknown> = { ...r, ...relationColumns(r) };
    lines.push(`    <edge id="${xml(r.id)}" source="${xml(r.from.id)}" target="${xml(r.to.id)}">${edgeKeys.map((k) => data("e", k, values[k])).join("")}</edge>`);
  }
  lines.push(`  </graph>`, `</graphml>`, ``);
  return lines.join("\n");
}

/** csv is the visible graph as one table: a row per entity, then a row per relation. */
export function csv(canvas: Canvas): string {
  const header = ["record", "id", "kind", "name", "description", "aliases", "dataset", "type", "from", "to", "status", "confidence", "role", "startDate", "endDate", "quote", "sources", "sourceUrls", "grades"];
  const rows: unknown[][] = [header];
  for (const n of canvas.visibleNodes()) {
    const e = entityColumns(n);
    rows.push(["entity", n.id, n.kind, e.name, e.description, e.aliases, n.dataset, "", "", "", "", "", "", "", "", "", "", "", ""]);
  }
  for (const r of canvas.visibleRelations()) {
    const c = relationColumns(r);
    rows.push(["relation", r.id, "", "", "", "", r.dataset, r.type, r.from.id, r.to.id, r.status, r.confidence ?? "", r.role ?? "", r.startDate ?? "", r.endDate ?? "", r.quote ?? "", c.sources, c.sourceUrls, c.grades]);
  }
  return rows.map((row) => row.map((v) => csvCell(String(v))).join(",")).join("\r\n") + "\r\n";
}

/** csvCell quotes a cell when it must be, and defuses one a spreadsheet would read as a formula (as the server's CSV does). */
export function csvCell(v: string): string {
  if (/^[\s\u00a0\u200b\u200c\u200d\u2060\ufeff]*[=+\-@\uff1d\uff0b\uff0d\uff20]/u.test(v) || /^[\t\r]/.test(v)) v = "'" + v;
  return /[",;\r\n]|^\s|\s$/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/**
 * Caption is what a published figure carries under the drawing: its
 * title, the datasets and the day it was drawn, the legend of the kinds
 * and statuses shown, and every source the relations shown cite.
 */
export interface Caption {
  title: string;
  lines: { text: string; kind?: string; status?: string }[];
}

/** caption is the view's caption (see Caption). */
export function caption(canvas: Canvas, title: string, today = new Date()): Caption {
  const nodes = canvas.visibleNodes();
  const relations = canvas.visibleRelations();
  const datasets = [...new Set([...nodes.map((n) => n.dataset), ...relations.map((r) => r.dataset)].filter(Boolean))].sort();
  const lines: Caption["lines"] = [
    { text: `Datasets: ${datasets.join(", ") || "none"}. Drawn ${today.toISOString().slice(0, 10)} from Casegraph: ${nodes.length} entities, ${relations.length} relations.` },
  ];
  const kinds = new Set(nodes.map((n) => (n.redacted ? "REDACTED" : n.kind)));
  for (const k of Object.keys(kindStyle) as Kind[]) if (kinds.has(k)) lines.push({ text: kindStyle[k].label, kind: k });
  if (kinds.has("REDACTED")) lines.push({ text: "protected person (grey: redacted for this reader)", kind: "REDACTED" });
  if (canvas.map.shown) lines.push({ text: `Map: ${canvas.map.note(true)}.` });
  const statuses = new Set<string>(relations.map((r) => r.status));
  for (const st of Object.keys(statusStyle)) if (statuses.has(st)) lines.push({ text: `${st.toLowerCase()} (${statusStyle[st].label})`, status: st });
  const sources = new Map<string, string>();
  for (const r of relations) for (const src of r.sources) sources.set(src.id, [src.title, src.publisher, src.publishedAt, src.url].filter(Boolean).join(", "));
  if (sources.size > 0) {
    lines.push({ text: "Sources:" });
    [...sources.values()].sort((a, b) => a.localeCompare(b)).forEach((text, i) => lines.push({ text: `${i + 1}. ${text}` }));
  }
  return { title, lines };
}

/** Caption layout, in the drawing's units. */
const captionLine = 14;

/** svgCaption draws the caption as SVG from (x, y), and returns its height. */
function svgCaption(c: Caption, x: number, y: number, out: string[]): number {
  out.push(`<text x="${r1(x)}" y="${r1(y + 16)}" font-size="14" font-weight="bold" fill="#1d1d1d">${xml(c.title)}</text>`);
  let at = y + 16 + captionLine + 4;
  for (const line of c.lines) {
    let tx = x;
    if (line.kind) {
      out.push(shape(line.kind === "REDACTED" ? "ellipse" : kindStyle[line.kind as Kind].shape, 5, 5, `fill="${line.kind === "REDACTED" ? "#8a8a8a" : kindStyle[line.kind as Kind].color}"`, x + 5, at - 4));
      tx += 16;
    } else if (line.status) {
      const st = statusStyle[line.status];
      const dash = st.style === "dotted" ? "2 3" : st.dash ? st.dash.join(" ") : "";
      out.push(`<line x1="${r1(x)}" y1="${r1(at - 4)}" x2="${r1(x + 12)}" y2="${r1(at - 4)}" stroke="#7a7a7a" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ""}/>`);
      tx += 16;
    }
    out.push(`<text x="${r1(tx)}" y="${r1(at)}" font-size="10" fill="#333">${xml(line.text)}</text>`);
    at += captionLine;
  }
  return at - y;
}

/**
 * svg is the view as SVG, drawn as the canvas draws it: every visible
 * entity and relation (hidden and left-out ones absent) at its place, with
 * the shape, size, colours, border, opacity and label the canvas's style
 * gives it (redacted, protected, on a path, faded; no label where the
 * canvas draws none), relations from where their lines start to where
 * they end (curves by their control points, arrows of the canvas's size),
 * labelled along the line as the canvas labels them; its caption below.
 * Each entity is a group translated to its place, each carrying the id
 * of what it draws (data-id), so the drawing can be checked against the canvas.
 */
export function svg(canvas: Canvas, title = "Casegraph"): string {
  const cy = canvas.cy;
  canvas.settle();
  const box = cy.elements(":visible").boundingBox({});
  const pad = 30;
  const cap = caption(canvas, title);
  const capHeight = 16 + captionLine + 4 + cap.lines.length * captionLine + pad;
  const width = Math.max(box.w + 2 * pad, 480);
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${r1(box.x1 - pad)} ${r1(box.y1 - pad)} ${r1(width)} ${r1(box.h + 2 * pad + capHeight)}" font-family="sans-serif">`,
    `<rect x="${r1(box.x1 - pad)}" y="${r1(box.y1 - pad)}" width="${r1(width)}" height="${r1(box.h + 2 * pad + capHeight)}" fill="#ffffff"/>`,
  ];
  if (canvas.map.shown) {
    // The outlines as drawn, clipped to the drawing (a nested svg clips to its viewport), beneath everything.
    const [x, y, w, h] = [box.x1 - pad, box.y1 - pad, width, box.h + 2 * pad].map(r1);
    out.push(`<svg x="${x}" y="${y}" width="${w}" height="${h}" viewBox="${x} ${y} ${w} ${h}">${canvas.map.svg({ x1: box.x1 - pad, y1: box.y1 - pad, x2: box.x1 - pad + width, y2: box.y2 + pad })}</svg>`);
  }
  svgCaption(cap, box.x1, box.y2 + pad, out);
  // The canvas draws relations beneath entities.
  cy.edges(":visible").forEach((e) => void out.push(svgEdge(e)));
  cy.nodes(":visible").forEach((n) => void out.push(svgNode(n)));
  out.push(`</svg>`, ``);
  return out.join("\n");
}

const px = (v: string | number) => parseFloat(String(v)) || 0;
const opacity = (el: cytoscape.SingularElementArgument) => {
  const o = px(el.style("opacity"));
  return o < 1 ? ` opacity="${o}"` : "";
};

/** svgLabel is text as the canvas labels: its font size and colour, outlined in white, one text per line. */
function svgLabel(el: cytoscape.SingularElementArgument, x: number, y: number, attrs = ""): string {
  const label = String(el.style("label") ?? "");
  if (label === "") return "";
  const size = px(el.style("font-size"));
  const outline = px(el.style("text-outline-width"));
  const stroke = outline > 0 ? ` stroke="${el.style("text-outline-color")}" stroke-width="${2 * outline}" paint-order="stroke" stroke-linejoin="round"` : "";
  return label
    .split("\n")
    .map((line, i) => `<text x="${r1(x)}" y="${r1(y + i * size * 1.2)}" font-size="${size}" text-anchor="middle" fill="${el.style("color")}"${stroke}${attrs}>${xml(line)}</text>`)
    .join("");
}

function svgNode(n: cytoscape.NodeSingular): string {
  const { x, y } = n.position();
  const w = n.width();
  const h = n.height();
  const bw = px(n.style("border-width"));
  const border = n.style("border-style");
  const dash = border === "dashed" ? ` stroke-dasharray="4 3"` : border === "dotted" ? ` stroke-dasharray="1 1"` : "";
  const paint = `fill="${n.style("background-color")}"${bw > 0 ? ` stroke="${n.style("border-color")}" stroke-width="${bw}"${dash}` : ""}`;
  const parts = [`<g class="node" data-id="${xml(n.id())}" transform="translate(${r1(x)},${r1(y)})"${opacity(n)}>`, `<title>${xml(String(n.data("redacted") ? "Protected person" : n.data("name")))}</title>`];
  parts.push(shape(n.style("shape"), w / 2, h / 2, paint));
  // Labels below the entity (text-valign bottom), their first line's baseline a font size down.
  parts.push(svgLabel(n, 0, h / 2 + px(n.style("text-margin-y")) + px(n.style("font-size"))));
  parts.push(`</g>`);
  return parts.join("");
}

function svgEdge(e: cytoscape.EdgeSingular): string {
  const s = e.sourceEndpoint();
  const t = e.targetEndpoint();
  const cps = e.controlPoints();
  const d = cps && cps.length > 0 ? `M${r1(s.x)},${r1(s.y)} ${cps.map((c, i) => `Q${r1(c.x)},${r1(c.y)} ${r1(i === cps.length - 1 ? t.x : (c.x + cps[i + 1].x) / 2)},${r1(i === cps.length - 1 ? t.y : (c.y + cps[i + 1].y) / 2)}`).join(" ")}` : `M${r1(s.x)},${r1(s.y)} L${r1(t.x)},${r1(t.y)}`;
  const width = px(e.style("width"));
  const color = e.style("line-color");
  const style = e.style("line-style");
  // Cytoscape gives the pattern as text ("10px 3px", or "10, 3").
  const pattern = String(e.style("line-dash-pattern") ?? "").split(/[\s,]+/).filter(Boolean).map(px);
  const dash = style === "dotted" ? ` stroke-dasharray="1 1"` : style === "dashed" && pattern.length > 0 ? ` stroke-dasharray="${pattern.join(" ")}"` : "";
  const parts = [`<g class="edge" data-id="${xml(e.id())}"${opacity(e)}>`, `<title>${xml(String(e.data("label")))}</title>`];
  parts.push(`<path d="${d}" fill="none" stroke="${color}" stroke-width="${width}"${dash}/>`);
  if (e.style("target-arrow-shape") !== "none") {
    // Cytoscape's triangle arrow: 0.3 of its arrow size long and wide, the size growing with the line's width.
    const size = Math.max(Math.pow(width * 13.37, 0.9), 29) * px(e.style("arrow-scale"));
    const from = cps && cps.length > 0 ? cps[cps.length - 1] : s;
    const len = Math.hypot(t.x - from.x, t.y - from.y) || 1;
    const ux = (t.x - from.x) / len;
    const uy = (t.y - from.y) / len;
    const bx = t.x - ux * 0.3 * size;
    const by = t.y - uy * 0.3 * size;
    const half = 0.15 * size;
    parts.push(`<polygon class="arrow" points="${r1(t.x)},${r1(t.y)} ${r1(bx - uy * half)},${r1(by + ux * half)} ${r1(bx + uy * half)},${r1(by - ux * half)}" fill="${e.style("target-arrow-color")}"/>`);
  }
  const m = e.midpoint();
  // autorotate: along the line, never upside down.
  let angle = (Math.atan2(t.y - s.y, t.x - s.x) * 180) / Math.PI;
  if (angle > 90) angle -= 180;
  if (angle < -90) angle += 180;
  parts.push(svgLabel(e, m.x, m.y, ` dominant-baseline="middle" transform="rotate(${r1(angle)} ${r1(m.x)} ${r1(m.y)})"`));
  parts.push(`</g>`);
  return parts.join("");
}

/** shape draws a node shape of half-width rx and half-height ry about (0, 0), or about (x, y) for the caption's legend. */
function shape(kind: string, rx: number, ry: number, paint: string, x = 0, y = 0): string {
  const pts = (ps: [number, number][]) => `<polygon points="${ps.map(([a, b]) => `${r1(x + a * rx)},${r1(y + b * ry)}`).join(" ")}" ${paint}/>`;
  switch (kind) {
    case "ellipse":
      return `<ellipse cx="${r1(x)}" cy="${r1(y)}" rx="${r1(rx)}" ry="${r1(ry)}" ${paint}/>`;
    case "round-rectangle":
      return `<rect x="${r1(x - rx)}" y="${r1(y - ry)}" width="${r1(2 * rx)}" height="${r1(2 * ry)}" rx="${r1(Math.min(rx, ry) / 2)}" ${paint}/>`;
    case "rectangle":
      return `<rect x="${r1(x - rx)}" y="${r1(y - ry)}" width="${r1(2 * rx)}" height="${r1(2 * ry)}" ${paint}/>`;
    case "diamond":
      return pts([[0, -1], [1, 0], [0, 1], [-1, 0]]);
    default:
      return pts([[0, -1], [1, 1], [-1, 1]]);
  }
}

function r1(v: number): string {
  return v.toFixed(1);
}

/** xml escapes text for XML, dropping the characters XML 1.0 cannot hold. */
export function xml(s: string): string {
  return s
    .replace(/[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}
