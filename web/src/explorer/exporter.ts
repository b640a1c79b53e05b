// Export of what is on screen (hidden entities left out): PNG and SVG of
// the view, GraphML and CSV of its entities and relations.
import type { Canvas, EdgeData, NodeData } from "./canvas";
import { kindStyle, statusStyle } from "./canvas";
import { download } from "./dom";

/**
 * fileName names an export after its view: the path's ends when the view
 * asks for a path, else its two most connected entities, then the day,
 * e.g. casegraph-desmond-de-silva-government-of-qatar-2026-12-01.svg. A
 * redacted entity is named as drawn ("protected-person"), never by id.
 */
export function fileName(canvas: Canvas, ext: string, ends: (string | undefined)[] = [], today = new Date()): string {
  let names = ends.filter((n): n is string => !!n);
  if (names.length === 0) {
    names = canvas.cy
      .nodes(":visible")
      .sort((a, b) => b.degree(false) - a.degree(false) || a.id().localeCompare(b.id()))
      .slice(0, 2)
      .map((n) => (n.data("redacted") ? "Protected person" : String(n.data("name") ?? "")));
  }
  const slug = names
    .map((n) => n.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, ""))
    .filter(Boolean)
    .join("-")
    .slice(0, 60)
    .replace(/-+$/, "");
  const day = today.toISOString().slice(0, 10);
  return ["casegraph", slug, day].filter(Boolean).join("-") + "." + ext;
}

/** png saves the whole drawing as a PNG at twice the screen's scale. */
export function png(canvas: Canvas, name: string): void {
  const blob = canvas.cy.png({ output: "blob", full: true, bg: "#ffffff", scale: 2 }) as unknown as Blob;
  download(name, blob);
}

/** graphml is the visible graph as GraphML, every property a keyed data element. */
export function graphml(canvas: Canvas): string {
  const nodes = canvas.visibleNodes();
  const relations = canvas.visibleRelations();
  const nodeKeys = ["name", "kind", "dataset", "redacted"] as const;
  const edgeKeys = ["type", "status", "confidence", "role", "startDate", "endDate", "quote", "sources", "dataset"] as const;
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<graphml xmlns="http://graphml.graphdrawing.org/xmlns">`,
    ...nodeKeys.map((k) => `  <key id="n_${k}" for="node" attr.name="${k}" attr.type="${k === "redacted" ? "boolean" : "string"}"/>`),
    ...edgeKeys.map((k) => `  <key id="e_${k}" for="edge" attr.name="${k}" attr.type="${k === "confidence" ? "double" : "string"}"/>`),
    `  <graph id="casegraph" edgedefault="directed">`,
  ];
  const data = (prefix: string, key: string, v: unknown) => (v === null || v === undefined || v === "" ? "" : `<data key="${prefix}_${key}">${xml(String(v))}</data>`);
  for (const n of nodes) {
    lines.push(`    <node id="${xml(n.id)}">${data("n", "name", n.redacted ? "Protected person" : n.name)}${data("n", "kind", n.kind)}${data("n", "dataset", n.dataset)}${data("n", "redacted", n.redacted)}</node>`);
  }
  for (const r of relations) {
    const values: Record<(typeof edgeKeys)[number], unknown> = { ...r, sources: r.sources.map((s) => s.title).join(" | ") };
    lines.push(`    <edge id="${xml(r.id)}" source="${xml(r.from.id)}" target="${xml(r.to.id)}">${edgeKeys.map((k) => data("e", k, values[k])).join("")}</edge>`);
  }
  lines.push(`  </graph>`, `</graphml>`, ``);
  return lines.join("\n");
}

/** csv is the visible graph as one table: a row per entity, then a row per relation. */
export function csv(canvas: Canvas): string {
  const header = ["record", "id", "kind", "name", "dataset", "type", "from", "to", "status", "confidence", "role", "startDate", "endDate", "quote", "sources"];
  const rows: unknown[][] = [header];
  for (const n of canvas.visibleNodes()) rows.push(["entity", n.id, n.kind, n.redacted ? "Protected person" : n.name, n.dataset, "", "", "", "", "", "", "", "", "", ""]);
  for (const r of canvas.visibleRelations()) {
    rows.push(["relation", r.id, "", "", r.dataset, r.type, r.from.id, r.to.id, r.status, r.confidence ?? "", r.role ?? "", r.startDate ?? "", r.endDate ?? "", r.quote ?? "", r.sources.map((s) => s.title).join(" | ")]);
  }
  return rows.map((row) => row.map((v) => csvCell(String(v))).join(",")).join("\r\n") + "\r\n";
}

/** csvCell quotes a cell when it must be, and defuses one a spreadsheet would read as a formula (as the server's CSV does). */
export function csvCell(v: string): string {
  if (/^[\s\u00a0\u200b\u200c\u200d\u2060\ufeff]*[=+\-@\uff1d\uff0b\uff0d\uff20]/u.test(v) || /^[\t\r]/.test(v)) v = "'" + v;
  return /[",;\r\n]|^\s|\s$/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** svg is the view as SVG: shapes by kind, lines by status, labels as text. */
export function svg(canvas: Canvas): string {
  const cy = canvas.cy;
  const box = cy.elements(":visible").boundingBox({});
  const pad = 30;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${box.x1 - pad} ${box.y1 - pad} ${box.w + 2 * pad} ${box.h + 2 * pad}" font-family="sans-serif">`,
    `<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#7a7a7a"/></marker></defs>`,
    `<rect x="${box.x1 - pad}" y="${box.y1 - pad}" width="${box.w + 2 * pad}" height="${box.h + 2 * pad}" fill="#ffffff"/>`,
  ];
  cy.edges(":visible").forEach((e) => {
    const d = e.data() as EdgeData;
    const s = e.source().position();
    const t = e.target().position();
    // Stop short of the target's edge so the arrow shows.
    const len = Math.hypot(t.x - s.x, t.y - s.y) || 1;
    const tx = t.x - ((t.x - s.x) / len) * 15;
    const ty = t.y - ((t.y - s.y) / len) * 15;
    const style = statusStyle[d.relation.status];
    const dash = style.style === "dotted" ? "2 3" : style.dash ? style.dash.join(" ") : "";
    out.push(
      `<line x1="${r1(s.x)}" y1="${r1(s.y)}" x2="${r1(tx)}" y2="${r1(ty)}" stroke="#7a7a7a" stroke-width="${r1(d.width)}"${dash ? ` stroke-dasharray="${dash}"` : ""}${e.hasClass("undirected") ? "" : ` marker-end="url(#arrow)"`}><title>${xml(d.label)}</title></line>`,
      `<text x="${r1((s.x + t.x) / 2)}" y="${r1((s.y + t.y) / 2)}" font-size="8" fill="#444" text-anchor="middle">${xml(d.label)}</text>`,
    );
  });
  cy.nodes(":visible").forEach((n) => {
    const d = n.data() as NodeData;
    const { x, y } = n.position();
    const color = d.redacted ? "#8a8a8a" : kindStyle[d.kind].color;
    out.push(shape(kindStyle[d.kind].shape, x, y, 14, color));
    String(d.label)
      .split("\n")
      .forEach((line, i) => out.push(`<text x="${r1(x)}" y="${r1(y + 28 + i * 12)}" font-size="11" text-anchor="middle" fill="#1d1d1d">${xml(line)}</text>`));
  });
  out.push(`</svg>`, ``);
  return out.join("\n");
}

function shape(kind: string, x: number, y: number, r: number, fill: string): string {
  const pts = (ps: [number, number][]) => `<polygon points="${ps.map(([a, b]) => `${r1(x + a)},${r1(y + b)}`).join(" ")}" fill="${fill}"/>`;
  switch (kind) {
    case "ellipse":
      return `<circle cx="${r1(x)}" cy="${r1(y)}" r="${r}" fill="${fill}"/>`;
    case "round-rectangle":
      return `<rect x="${r1(x - r)}" y="${r1(y - r)}" width="${2 * r}" height="${2 * r}" rx="5" fill="${fill}"/>`;
    case "rectangle":
      return `<rect x="${r1(x - r)}" y="${r1(y - r)}" width="${2 * r}" height="${2 * r}" fill="${fill}"/>`;
    case "diamond":
      return pts([[0, -r], [r, 0], [0, r], [-r, 0]]);
    default:
      return pts([[0, -r], [r, r], [-r, r]]);
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
