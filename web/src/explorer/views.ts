// The Views panel (issue 26 item 4): views kept on the server by a name, in
// versions, with notes on their entities and relations. A view is saved as
// the explorer keeps it (the View of state.ts, with the tab open and what
// the legend leaves out, in the words of viewstate.go's ViewState), and
// reopened as the server shows it to whoever opens it: a protected person
// hidden from the reader comes back as the redacted node the server names,
// what the reader may not read not at all. A link #saved=NAME@VERSION
// reopens it for anyone who may open it; while the drawing is the one
// opened, the address is that link.
import { ApiError, gql } from "./api";
import type { EntityRef, Relation } from "./api";
import { layouts } from "./canvas";
import type { LayoutName } from "./canvas";
import { byId, h, replace } from "./dom";
import { setPanel } from "./panels";
import type { View } from "./state";
import { copyText, run, status } from "./ui";
import { canWrite } from "./write";

/**
 * SavedState is a view as the server keeps it: the View's keys but the
 * layout (g, not y), with the map's projection (m, with g "map": a kept
 * map reopens as it was saved), the tab open (o) and what the legend
 * leaves out (y).
 */
export interface SavedState extends Omit<View, "y"> {
  o?: string;
  g?: string;
  y?: { k?: string[]; t?: string[] };
}

/** LeftOut is what the legend's toggles leave out of the drawing. */
export interface LeftOut {
  kinds: Set<string>;
  types: Set<string>;
}

/** toSaved is the server's state of a view, with the tab open and what is left out. */
export function toSaved(v: View, tab: string, leftOut: LeftOut): SavedState {
  const { y, ...rest } = v;
  const s: SavedState = { ...rest, o: tab };
  if (y) s.g = y;
  const k = [...leftOut.kinds].sort();
  const t = [...leftOut.types].sort();
  if (k.length || t.length) s.y = { ...(k.length ? { k } : {}), ...(t.length ? { t } : {}) };
  return s;
}

/** fromSaved is the explorer's view of a kept state, with its tab and what it leaves out. */
export function fromSaved(s: SavedState): { view: View; tab?: string; leftOut: { k: string[]; t: string[] } } {
  const { o, g, y, ...rest } = s;
  const view: View = { ...rest, n: s.n ?? [], r: s.r ?? [] };
  if (g && Object.prototype.hasOwnProperty.call(layouts, g)) view.y = g as LayoutName;
  if (view.y !== "map") delete view.m; // a projection is the map's only
  return { view, tab: o, leftOut: { k: y?.k ?? [], t: y?.t ?? [] } };
}

/** Note is a note of a kept view on an entity or a relation, by the id the caller reads it by. */
export interface Note {
  targetKind: "ENTITY" | "RELATION";
  targetId: string;
  text: string;
  author: string;
  createdAt: string;
}

/** Opened is a version of a kept view as the server shows it to the caller. */
export interface Opened {
  name: string;
  version: number;
  title: string;
  note: string | null;
  owner: string;
  visibility: string;
  author: string;
  createdAt: string;
  /** whether the caller may save a new version of it, annotate it or delete it (its owner or an admin) */
  mayChange: boolean;
  state: SavedState;
  notes: Note[];
  entities: EntityRef[];
  relations: Relation[];
}

const listed = `name version title note owner visibility author createdAt mayChange`;
const opened = `${listed} state notes { targetKind targetId text author createdAt } entities { ...Ref } relations { ...Rel }`;

/** savedRef reads a #saved=NAME or #saved=NAME@VERSION address, or null. */
export function savedRef(hash: string): { name: string; version?: number } | null {
  const m = /^#?saved=([a-z0-9][a-z0-9-]*)(?:@(\d+))?$/.exec(hash);
  return m ? { name: m[1], version: m[2] ? Number(m[2]) : undefined } : null;
}

/** readSaved reads a version of a kept view (the latest when version is left out) as the server shows it to the caller. */
export function readSaved(name: string, version?: number): Promise<Opened> {
  return gql<{ savedView: Opened | null }>(`query OpenView($n: String!, $v: Int) { savedView(name: $n, version: $v) { ${opened} } }`, { n: name, v: version ?? null }).then((d) => {
    if (!d.savedView) throw new ApiError(`No view ${name} you may open.`, "NOT_FOUND");
    return d.savedView;
  });
}

/** What the panel asks of the explorer. */
export interface ViewsHost {
  /** the view drawn now, as the server keeps one */
  current(): SavedState;
  /** draws a kept view as the server showed it, replacing what is drawn */
  show(v: Opened): Promise<void>;
  /** the address follows what is open */
  changed(): void;
  /** the datasets of what is drawn (whose readers a view for DATASETS is shared with) */
  datasets(): string[];
  /** shows again what the details panel shows (with the notes of the view now open) */
  detail(): void;
}

/** The save form's inputs, by the top field of the server's errors about them. */
const fieldOf: Record<string, string> = { name: "name", title: "title", note: "note", description: "note", visibility: "visibility", datasets: "visibility" };

/** Views is the panel. */
export class Views {
  /** the kept view open, as the server showed it */
  open: Opened | null = null;
  /** which kept view is open (kept through a sign-out, to read again at the next sign-in) */
  ref: { name: string; version: number } | null = null;
  /** the state drawn when it was opened or saved: while the drawing is the same, the address is its link */
  private snapshot = "";
  /** true while a kept view is being drawn */
  opening = false;
  private readonly body: HTMLElement;
  private readonly summary: HTMLElement;
  private readonly list: HTMLElement;
  private readonly versions: HTMLElement;
  private readonly inputs: Record<string, HTMLInputElement | HTMLSelectElement> = {};

  constructor(root: HTMLElement, private readonly host: ViewsHost) {
    const toggle = h("button", { type: "button", id: "views-toggle", class: "fold", "aria-expanded": "false", "aria-controls": "views-body" }, "Views");
    this.summary = h("div", { id: "view-open", "aria-live": "polite" });
    this.list = h("ul", { id: "views-list", class: "list", "aria-labelledby": "views-list-heading" });
    this.versions = h("section", { id: "view-versions", "aria-label": "Versions", hidden: true });
    const input = (key: string, label: string, attrs: Record<string, string | number | boolean>) => {
      const el = h("input", { id: `view-${key}`, "aria-describedby": `view-${key}-error`, ...attrs });
      this.inputs[key] = el;
      return [h("label", { for: el.id }, label), el, h("p", { id: `view-${key}-error`, class: "field-error", hidden: true })];
    };
    const visibility = h(
      "select",
      { id: "view-visibility", "aria-describedby": "view-visibility-error" },
      h("option", { value: "PRIVATE" }, "Only me"),
      h("option", { value: "DATASETS" }, "Readers of the datasets drawn"),
      h("option", { value: "PUBLIC" }, "Everyone"),
    );
    this.inputs.visibility = visibility;
    const form = h(
      "form",
      { id: "view-save", class: "write-only", hidden: !canWrite(), "aria-labelledby": "view-save-heading", novalidate: true, onsubmit: (ev: Event) => (ev.preventDefault(), void this.save()) },
      h("h3", { id: "view-save-heading" }, "Save this view"),
      input("name", "Name (a slug: the-caesar-network)", { maxlength: 100, autocomplete: "off", spellcheck: "false" }),
      input("title", "Title", { maxlength: 200, autocomplete: "off" }),
      input("note", "Note on this version", { maxlength: 2000, autocomplete: "off" }),
      h("label", { for: "view-visibility" }, "Shared with"),
      visibility,
      h("p", { id: "view-visibility-error", class: "field-error", hidden: true }),
      h("p", { id: "view-form-error", class: "field-error", hidden: true }),
      h("button", { type: "submit", id: "view-save-button" }, "Save"),
    );
    this.body = h(
      "div",
      { id: "views-body", hidden: true },
      form,
      h("h3", { id: "views-list-heading" }, "Kept views ", h("button", { type: "button", class: "small", onclick: () => void this.refresh() }, "Refresh")),
      this.list,
      this.versions,
    );
    toggle.addEventListener("click", () => this.fold(!this.body.hidden));
    replace(root, h("h2", { id: "views-heading" }, toggle), this.summary, this.body);
    // A #saved= link pasted into this tab opens it.
    window.addEventListener("hashchange", () => {
      const ref = savedRef(location.hash);
      if (ref && (ref.name !== this.ref?.name || (ref.version ?? this.ref.version) !== this.ref.version)) void this.openNamed(ref.name, ref.version);
    });
  }

  /** focus unfolds the panel (and the side panel it is in) and puts the focus in its form. */
  focus(): void {
    setPanel("left", true);
    this.fold(false);
    byId("view-name").focus();
  }

  /** fold folds the panel (or unfolds it, reading the list of views). */
  fold(folded: boolean): void {
    this.body.hidden = folded;
    byId("views-toggle").setAttribute("aria-expanded", String(!folded));
    if (!folded) void this.refresh();
  }

  /** link is the address of the view open while the drawing is the one opened, else null. */
  link(): string | null {
    if (!this.open || !this.ref || JSON.stringify(this.host.current()) !== this.snapshot) return null;
    return `saved=${this.ref.name}@${this.ref.version}`;
  }

  /** openNamed reads a kept view (or takes its read already under way) and draws it; false when there is none the caller may open. */
  async openNamed(name: string, version?: number, reading?: Promise<Opened>): Promise<boolean> {
    const v = await run(`Opening the view ${name}`, () => reading ?? readSaved(name, version));
    if (!v) return false;
    await this.show(v);
    status(`Opened ${v.title} (${v.name}, version ${v.version}).`);
    return true;
  }

  /** reread reads the view open again with the tab's new credentials: null when it may not open it. */
  async reread(): Promise<Opened | null> {
    if (!this.ref) return null;
    const v = await run("Reading the view again for the new identity", () => readSaved(this.ref!.name, this.ref!.version));
    if (!v) this.close();
    return v ?? null;
  }

  /** show draws a kept view and makes it the one open. */
  async show(v: Opened): Promise<void> {
    this.open = v;
    this.ref = { name: v.name, version: v.version };
    this.opening = true;
    try {
      await this.host.show(v);
    } finally {
      this.opening = false;
    }
    this.opened();
  }

  /** forget drops what was read (signed out), keeping which view is open to read again. */
  forget(): void {
    this.open = null;
    this.snapshot = "";
    replace(this.summary);
    replace(this.list);
    this.versions.hidden = true;
  }

  /** again reads the list again for a new identity, when it is shown. */
  again(): void {
    replace(this.list);
    this.versions.hidden = true;
    if (!this.body.hidden) void this.refresh();
  }

  /** close leaves the kept view (what is drawn stays, as a view of the tab's own). */
  close(): void {
    this.open = null;
    this.ref = null;
    this.snapshot = "";
    replace(this.summary);
    this.host.changed();
  }

  /** opened takes what is drawn now as the view open, and says so. */
  private opened(): void {
    const v = this.open!;
    this.snapshot = JSON.stringify(this.host.current());
    const link = () => `${location.origin}${location.pathname}#saved=${v.name}@${v.version}`;
    replace(
      this.summary,
      h("p", {}, "Open: ", h("strong", { id: "view-open-title" }, v.title), ` (${v.name}, version ${v.version}, by ${v.author})`),
      v.note ? h("p", { class: "hint" }, v.note) : null,
      h(
        "div",
        { class: "buttons" },
        h("button", { type: "button", class: "small", onclick: () => copyText(link(), "The link to this kept view is copied.", `Its link: ${link()}`) }, "Copy link"),
        h("button", { type: "button", class: "small", "aria-label": `Versions of ${v.title}`, onclick: () => void this.listVersions(v.name, v.title) }, "Versions"),
        h("button", { type: "button", class: "small", "aria-label": `Close the view ${v.title}`, onclick: () => this.close() }, "Close"),
      ),
    );
    this.host.changed();
  }

  private async save(): Promise<void> {
    for (const key of [...Object.keys(this.inputs), "form"]) this.fieldError(key, "");
    const value = (key: string) => this.inputs[key].value.trim();
    const visibility = value("visibility");
    const input = {
      name: value("name"),
      title: value("title"),
      note: value("note") || undefined,
      state: this.host.current(),
      visibility,
      datasets: visibility === "DATASETS" ? this.host.datasets() : undefined,
    };
    status("Saving the view…");
    try {
      const data = await gql<{ saveView: Opened }>(`mutation SaveView($in: SaveViewInput!) { saveView(input: $in) { ${opened} } }`, { in: input });
      this.open = data.saveView;
      this.ref = { name: data.saveView.name, version: data.saveView.version };
      this.opened();
      status(`Saved as ${data.saveView.name}, version ${data.saveView.version}.`);
      this.host.detail();
      void this.refresh();
    } catch (err) {
      status("");
      const field = err instanceof ApiError && typeof err.extensions.field === "string" ? err.extensions.field : undefined;
      const at = field ? (fieldOf[field.split(/[.[]/)[0]] ?? "form") : "form";
      const code = err instanceof ApiError ? err.code : "ERROR";
      this.fieldError(at, `${code}: ${at === "form" && field ? `${field}: ` : ""}${err instanceof Error ? err.message : String(err)}`);
      (this.inputs[at] ?? byId("view-save-button")).focus();
    }
  }

  /** fieldError shows an error at an input ("" clears it), for screen readers too. */
  private fieldError(key: string, text: string): void {
    const el = byId(`view-${key}-error`);
    el.textContent = text;
    el.hidden = text === "";
    if (text) el.setAttribute("role", "alert");
    else el.removeAttribute("role");
    this.inputs[key]?.setAttribute("aria-invalid", String(text !== ""));
  }

  /** refresh lists the views the caller may open. */
  async refresh(): Promise<void> {
    const data = await run("Listing the kept views", () => gql<{ savedViews: { totalCount: number; edges: { node: Opened }[] } }>(`{ savedViews(first: 100) { totalCount edges { node { ${listed} } } } }`));
    if (!data) return;
    const views = data.savedViews.edges.map((e) => e.node);
    replace(
      this.list,
      views.length === 0
        ? h("li", { class: "hint" }, "No view kept that you may open.")
        : views.map((v) =>
            h(
              "li",
              { "data-view": v.name },
              h("button", { type: "button", class: "link", "aria-label": `Open ${v.title}`, onclick: () => void this.openNamed(v.name) }, v.title),
              " ",
              h("span", { class: "dataset" }, `${v.name} · v${v.version} · ${v.owner} · ${v.visibility.toLowerCase()}`),
              h("button", { type: "button", class: "small", "aria-label": `Versions of ${v.title}`, onclick: () => void this.listVersions(v.name, v.title) }, "Versions"),
              // Only on a view the caller may delete: the server would refuse another's.
              v.mayChange ? h("button", { type: "button", class: "small", "aria-label": `Delete ${v.title}`, onclick: (ev: Event) => void this.remove(v.name, ev.currentTarget as HTMLButtonElement) }, "Delete") : null,
            ),
          ),
    );
  }

  /** listVersions lists a view's versions, newest first, each a button that opens it. */
  private async listVersions(name: string, title: string): Promise<void> {
    const data = await run("Listing its versions", () => gql<{ savedViewVersions: Opened[] | null }>(`query Versions($n: String!) { savedViewVersions(name: $n) { version note author createdAt } }`, { n: name }));
    if (!data) return;
    const list = data.savedViewVersions ?? [];
    this.fold(false);
    this.versions.hidden = false;
    replace(
      this.versions,
      h("h3", { id: "view-versions-heading" }, `Versions of ${title}`),
      h(
        "ul",
        { class: "list", id: "view-versions-list", "aria-labelledby": "view-versions-heading" },
        list.map((v) =>
          h(
            "li",
            { "data-version": v.version },
            h("button", { type: "button", class: "link", onclick: () => void this.openNamed(name, v.version) }, `Version ${v.version}`),
            ` ${v.createdAt.slice(0, 10)}, ${v.author}${v.note ? ` — ${v.note}` : ""}`,
          ),
        ),
      ),
    );
  }

  /** remove deletes a view with all its versions, at a second press (offered only on the caller's own, or to an admin). */
  private async remove(name: string, button: HTMLButtonElement): Promise<void> {
    if (button.dataset.confirm !== "yes") {
      button.dataset.confirm = "yes";
      button.textContent = "Delete: press again";
      return;
    }
    const data = await run(`Deleting the view ${name}`, () => gql<{ deleteSavedView: { versions: number } }>(`mutation Delete($n: String!) { deleteSavedView(name: $n) { versions } }`, { n: name }));
    if (!data) return;
    status(`Deleted ${name} (${data.deleteSavedView.versions} versions).`);
    if (this.ref?.name === name) this.close();
    await this.refresh();
  }

  /** notesFor is the open view's notes on an entity or a relation, with a form to add one, or null when no kept view is open. */
  notesFor(kind: Note["targetKind"], id: string): HTMLElement | null {
    if (!this.open) return null;
    const section = h("section", { class: "view-notes", "aria-labelledby": "notes-heading" });
    this.renderNotes(section, kind, id);
    return section;
  }

  private renderNotes(section: HTMLElement, kind: Note["targetKind"], id: string): void {
    const v = this.open!;
    const mine = v.notes.filter((n) => n.targetKind === kind && n.targetId === id);
    const text = h("textarea", { id: "note-text", rows: 2, maxlength: 5000, "aria-describedby": "note-error" });
    const error = h("p", { id: "note-error", class: "field-error", hidden: true });
    const add = async () => {
      error.hidden = true;
      try {
        const data = await gql<{ annotateView: Opened }>(`mutation Annotate($n: String!, $note: ViewNoteInput!) { annotateView(name: $n, note: $note) { ${opened} } }`, {
          n: v.name,
          note: { targetKind: kind, targetId: id, text: text.value },
        });
        const now = data.annotateView;
        status(`Note added: ${now.name} is at version ${now.version}.`);
        if (JSON.stringify(now.state) !== JSON.stringify(v.state)) return void (await this.show(now));
        this.open = now;
        this.ref = { name: now.name, version: now.version };
        this.opened();
        this.renderNotes(section, kind, id);
        byId("note-text").focus();
      } catch (err) {
        error.textContent = `${err instanceof ApiError ? err.code : "ERROR"}: ${err instanceof Error ? err.message : String(err)}`;
        error.hidden = false;
        text.setAttribute("aria-invalid", "true");
        text.focus();
      }
    };
    replace(
      section,
      h("h3", { id: "notes-heading" }, `Notes in “${v.title}” (${mine.length})`),
      mine.length
        ? h("ul", { class: "notes", id: "notes" }, mine.map((n) => h("li", {}, h("p", { dir: "auto" }, n.text), h("div", { class: "hint" }, `${n.author}, ${n.createdAt.slice(0, 10)}`))))
        : h("p", { class: "hint" }, "No note on this in the view."),
      // Only the view's owner or an admin may annotate it.
      v.mayChange ? h("form", { id: "note-form", onsubmit: (ev: Event) => (ev.preventDefault(), void add()) }, h("label", { for: "note-text" }, "Add a note"), text, error, h("button", { type: "submit" }, "Add note")) : null,
    );
  }
}
