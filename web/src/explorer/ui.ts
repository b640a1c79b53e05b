// Pieces of the page every panel uses: messages, tabs, and the way an
// entity, a date range and a relation read.
import { ApiError } from "./api";
import type { EntityRef, Relation, RelationTypeInfo, Source } from "./api";
import type { NodeData } from "./canvas";
import { byId, h, replace, safeURL } from "./dom";

/** showError shows an error with its code until the next action. */
export function showError(err: unknown): void {
  const alert = byId("alert");
  replace(alert, ...errorText(err));
  alert.hidden = false;
}

/** errorText is an error as the page shows it: its code (and reason), then its message. */
function errorText(err: unknown): [HTMLElement, string] {
  const code = err instanceof ApiError ? err.code : "ERROR";
  const reason = err instanceof ApiError && err.reason ? ` (${err.reason})` : "";
  return [h("span", { class: "code" }, code + reason), err instanceof Error ? err.message : String(err)];
}

/** copyText copies text to the clipboard and says so, or says what to copy by hand. */
export function copyText(text: string, copied: string, otherwise: string): void {
  navigator.clipboard.writeText(text).then(
    () => status(copied),
    () => status(otherwise),
  );
}

/** clearError hides the error. */
export function clearError(): void {
  byId("alert").hidden = true;
}

/** status says what is happening, politely, to screen readers too. */
export function status(text: string): void {
  byId("status").textContent = text;
}

/** run shows progress, clears the old error, and shows a new one. */
export async function run<T>(what: string, fn: () => Promise<T>): Promise<T | undefined> {
  clearError();
  status(what + "…");
  try {
    const out = await fn();
    if (byId("status").textContent === what + "…") status("");
    return out;
  } catch (err) {
    status("");
    showError(err);
    return undefined;
  }
}

let panelReads = 0;

/**
 * readPanel reads what the details panel shows next (an entity, a
 * relation, a source). While it reads, the panel says so (busy, for
 * screen readers too); a read that fails leaves the panel with the error's
 * code and message and a button that tries again, never the last thing
 * shown as if it were the answer; and an answer that comes after a later
 * click is dropped, so a slow read never covers what the user asked for
 * since. The result is undefined then, or on an error.
 */
export async function readPanel<T>(what: string, read: () => Promise<T>, again: () => void): Promise<T | undefined> {
  const panel = byId("panel-entity");
  const mine = ++panelReads;
  panel.setAttribute("aria-busy", "true");
  replace(panel, h("p", { class: "hint", id: "panel-loading" }, `${what}…`));
  let failure: unknown;
  const out = await run(what, () =>
    read().catch((err: unknown) => {
      failure = err;
      throw err;
    }),
  );
  if (mine !== panelReads) return undefined;
  panel.removeAttribute("aria-busy");
  if (failure !== undefined) {
    replace(panel, h("div", { class: "panel-error", id: "panel-error" }, h("p", {}, `${what} failed: `, ...errorText(failure)), h("button", { type: "button", onclick: again }, "Try again")));
    return undefined;
  }
  return out;
}

const tabs = ["entity", "paths", "common", "timeline"] as const;
export type Tab = (typeof tabs)[number];

/** showTab brings a panel forward. */
export function showTab(tab: Tab, focus = false): void {
  for (const t of tabs) {
    const button = byId(`tab-${t}`);
    const on = t === tab;
    button.setAttribute("aria-selected", String(on));
    button.tabIndex = on ? 0 : -1;
    byId(`panel-${t}`).hidden = !on;
  }
  if (focus) byId(`tab-${tab}`).focus();
}

/** currentTab is the tab brought forward. */
export function currentTab(): Tab {
  return tabs.find((t) => byId(`tab-${t}`).getAttribute("aria-selected") === "true") ?? "entity";
}

/** isTab says whether a word names a tab. */
export function isTab(word: string | undefined): word is Tab {
  return (tabs as readonly string[]).includes(word ?? "");
}

/** setupTabs wires the tab buttons: click, and arrow keys as the ARIA pattern says. */
export function setupTabs(): void {
  tabs.forEach((t, i) => {
    const button = byId(`tab-${t}`);
    button.addEventListener("click", () => showTab(t));
    button.addEventListener("keydown", (ev) => {
      const step = ev.key === "ArrowRight" ? 1 : ev.key === "ArrowLeft" ? -1 : 0;
      if (step === 0) return;
      ev.preventDefault();
      showTab(tabs[(i + step + tabs.length) % tabs.length], true);
    });
  });
}

/** kindBadge is an entity's kind as a small label. */
export function kindBadge(e: Pick<EntityRef, "kind">): HTMLElement {
  return h("span", { class: `kind kind-${e.kind}` }, e.kind.toLowerCase());
}

/** entityName is the name to show, "Protected person" for redacted ones. */
export function entityName(e: Pick<EntityRef, "name" | "redacted">): string {
  return e.redacted ? "Protected person" : e.name;
}

/** entityButton is a button that opens an entity, showing its kind and dataset. */
export function entityButton(e: EntityRef, open: (id: string) => void, extra?: string): HTMLElement {
  return h(
    "button",
    { type: "button", class: "link", "data-id": e.id, onclick: () => open(e.id) },
    kindBadge(e),
    h("span", { class: e.redacted ? "redacted" : "" }, entityName(e)),
    " ",
    h("span", { class: "dataset" }, extra ?? e.dataset),
  );
}

/** dates reads a relation's or event's dates: "2011–2014", "since 2011", "until 2014", or "". */
export function dates(start: string | null | undefined, end: string | null | undefined): string {
  if (start && end) return start === end ? start : `${start}–${end}`;
  if (start) return `since ${start}`;
  if (end) return `until ${end}`;
  return "";
}

/** reading is a relation read from one end: "authored" from its from, "was authored by" from its to. */
export function reading(r: Relation, from: string, vocabulary: Map<string, RelationTypeInfo>): { label: string; other: EntityRef } {
  const info = vocabulary.get(r.type);
  if (r.from.id === from) return { label: info?.label ?? r.type, other: r.to };
  return { label: info?.inverseLabel ?? r.type, other: r.from };
}

/** sourceItem is a source: title (linked when it has a URL), publisher and date. */
export function sourceItem(s: Source): HTMLElement {
  const url = safeURL(s.url);
  const title = url ? h("a", { href: url, target: "_blank", rel: "noopener noreferrer" }, s.title) : h("span", {}, s.title);
  return h("li", {}, title, s.publisher ? ` — ${s.publisher}` : "", s.publishedAt ? `, ${s.publishedAt}` : "");
}

/** confidence reads a confidence as a percentage, or "" when unknown. */
export function confidence(c: number | null): string {
  return c === null ? "" : `${Math.round(c * 100)}%`;
}

/** renderOnscreen lists the entities drawn (hidden ones marked), each with buttons to select and expand it. */
export function renderOnscreen(nodes: NodeData[], hidden: Set<string>, act: { open(id: string): void; select(id: string): void; expand(id: string): void }): void {
  byId("onscreen-count").textContent = `(${nodes.length})`;
  replace(
    byId("onscreen"),
    nodes.map((n) =>
      h(
        "li",
        { class: hidden.has(n.id) ? "hidden-entity" : "" },
        entityButton(n, act.open, `${n.more > 0 ? `${n.more} more · ` : ""}${hidden.has(n.id) ? "hidden" : n.dataset}`),
        h("button", { type: "button", class: "small", "aria-label": `Select ${entityName(n)}`, onclick: () => act.select(n.id) }, "Select"),
        h("button", { type: "button", class: "small", "aria-label": `Expand ${entityName(n)}`, onclick: () => act.expand(n.id) }, "Expand"),
      ),
    ),
  );
}
