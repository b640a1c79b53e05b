// Writing from the explorer (issue 26 item 6): an editor adds and edits
// entities and relations with their citations, in the details panel. The
// forms send what upsertEntity and link take; the server judges it, and
// its errors are shown at the field they are about (formkit.ts), nothing
// written. Every write is the API's, so the audit log records it as any.
// Who may write: the server's viewer says which datasets the tab may
// write (none for a reader or an anonymous caller), read at start and at
// every sign-in or sign-out (viewer.ts); the write controls (the write
// bar, the Edit buttons, the form that saves a view: .write-only) show
// only when there is one. The server's gates judge each write all the same.
import "./write.css";
import { gql } from "./api";
import type { EntityRef, Kind, Relation, RelationTypeInfo } from "./api";
import { identityEvent } from "./auth";
import { truncate } from "./canvas";
import type { Canvas } from "./canvas";
import { byId, h, replace } from "./dom";
import { citationValue, citedFields, citationsFieldset, citationsOf, clearErrors, datasetList, errorSummary, field, number, select, showErrors, sourceList, text, value } from "./formkit";
import type { CitedRecord, Input } from "./formkit";
import type { RelationProperties } from "./relation";
import { entityName, showTab, status } from "./ui";
import { readViewer } from "./viewer";
import { entityInput, entityRead, kindFields, kinds } from "./writeentity";
import type { EntityRecord } from "./writeentity";

/** What the forms need of the explorer. */
export interface WriteActions {
  canvas: Canvas;
  vocabulary: Map<string, RelationTypeInfo>;
  open(id: string): void;
  openRelation(id: string): void;
}

let act: WriteActions | null = null;
let mayWrite = false;
/** counts the viewer's reads, so that an old identity's slow answer never decides */
let probes = 0;

/** canWrite says whether the tab's identity may write (an editor's or an admin's). */
export function canWrite(): boolean {
  return mayWrite;
}

/** setupWriting wires the write bar, and asks who may write now and at every sign-in. */
export function setupWriting(actions: WriteActions): void {
  act = actions;
  byId("write-entity").addEventListener("click", () => void entityForm(null));
  byId("write-relation").addEventListener("click", () => void relationForm(null));
  window.addEventListener(identityEvent, () => void probe());
  void probe();
}

async function probe(): Promise<void> {
  const asked = ++probes;
  const v = await readViewer();
  if (asked !== probes) return; // a later sign-in's answer decides
  mayWrite = (v?.writableDatasets.length ?? 0) > 0;
  byId("write").hidden = !mayWrite;
  // The details shown get their Edit button, or lose it; the Views panel its save form.
  for (const b of document.querySelectorAll<HTMLElement>(".write-edit, .write-only")) b.hidden = !mayWrite;
}

/** editButton is the Edit button of the entity or relation panel (hidden unless the tab may write). */
export function editButton(what: "entity" | "relation", id: string): HTMLElement {
  const onclick = () => void (what === "entity" ? entityForm(id) : relationForm(id));
  return h("button", { type: "button", class: "write-edit", id: `edit-${what}`, hidden: !mayWrite, onclick }, "Edit");
}

/** formPanel puts a form in the details panel, with its heading, errors, and buttons. */
function formPanel(id: string, heading: string, body: HTMLElement[], submit: (form: HTMLFormElement) => Promise<void>, cancel: () => void): HTMLFormElement {
  const panel = byId("panel-entity");
  showTab("entity");
  const form = h(
    "form",
    { id, class: "write-form", "aria-labelledby": `${id}-heading`, novalidate: true },
    h("h2", { id: `${id}-heading` }, heading),
    errorSummary(),
    body,
    h("div", { class: "buttons" }, h("button", { type: "submit" }, "Save"), h("button", { type: "button", onclick: cancel }, "Cancel")),
  );
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    clearErrors(form);
    const button = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
    button.disabled = true;
    form.setAttribute("aria-busy", "true");
    void submit(form)
      .catch((err: unknown) => {
        showErrors(form, err);
        status("Nothing was written.");
      })
      .finally(() => {
        button.disabled = false;
        form.removeAttribute("aria-busy");
      });
  });
  replace(panel, form);
  form.querySelector<HTMLElement>("[data-field]")?.focus();
  return form;
}

/** entityForm adds an entity (id null) or edits one, read whole first: upsert sends the whole entity. */
async function entityForm(id: string | null): Promise<void> {
  const e: EntityRecord | null = id ? await entityRead(id) : null;
  if (id && !e) {
    status("This entity is not yours to edit.");
    return;
  }
  const kind = select(kinds, e?.kind ?? "PERSON");
  const dataset = text(e?.dataset ?? datasetNow(), { list: "", autocomplete: "off" });
  const datasets = datasetList();
  dataset.setAttribute("list", datasets.id);
  const sources = sourceList();
  const extra = h("div", { class: "kind-fields" });
  const drawKind = () => replace(extra, kindFields(kind.value as Kind, e));
  kind.addEventListener("change", drawKind);
  drawKind();
  if (e) kind.disabled = true; // a kind is for good
  const aliases = Object.assign(h("textarea", { rows: 2 }), { value: (e?.aliases ?? []).join("\n") });
  const description = Object.assign(h("textarea", { rows: 3 }), { value: e?.description ?? "" });
  formPanel(
    "entity-form",
    e ? `Edit ${entityName(e)}` : "Add an entity",
    [
      field("Kind", "kind", kind),
      field("Name", "name", text(e?.name, { autocomplete: "off" })),
      field("Aliases", "aliases", aliases, "one a line"),
      field("Description", "description", description),
      field("Dataset", "dataset", dataset),
      datasets,
      extra,
      citationsFieldset(e?.citations.map(citationValue) ?? [], sources),
      sources,
    ],
    async (form) => {
      const input = entityInput(form, kind.value as Kind, e, citationsOf(form));
      const data = await gql<{ upsertEntity: EntityRef }>(`mutation WriteEntity($input: EntityInput!) { upsertEntity(input: $input) { ...Ref } }`, { input });
      const saved = data.upsertEntity;
      redrawEntity(saved);
      status(`${e ? "Saved" : "Added"} ${saved.name}.`);
      act?.open(saved.id);
    },
    () => (id ? act?.open(id) : replace(byId("panel-entity"), h("p", { class: "hint" }, "Nothing was written."))),
  );
}

/** redrawEntity draws a written entity: its new name and facts on the canvas, or it, drawn. */
function redrawEntity(e: EntityRef): void {
  const node = act?.canvas.node(e.id);
  if (node) node.data({ ...e, label: truncate(entityName(e)) });
  else act?.canvas.add([e], []);
}

interface RelationRecord extends Omit<Relation, "citations">, RelationProperties {
  citations: CitedRecord[];
}

const relationRead = `query WriteRelation($id: ID!) {
  relation(id: $id) { ...Rel share amount currency relationship post rank ${citedFields} }
}`;

/** relationForm adds a relation (id null) or edits one: its type and ends are for good (link updates by id, type and ends). */
async function relationForm(id: string | null): Promise<void> {
  const r = id ? (await gql<{ relation: RelationRecord | null }>(relationRead, { id })).relation : null;
  if (id && !r) {
    status("This relation is not yours to edit.");
    return;
  }
  const vocabulary = act?.vocabulary ?? new Map<string, RelationTypeInfo>();
  const type = h("select", {}, [...vocabulary.values()].map((t) => h("option", { value: t.type }, `${t.type.toLowerCase().replace(/_/g, " ")} (${t.label})`)));
  type.value = r?.type ?? "RELATED_TO";
  const drawn = h("datalist", { id: "write-drawn" }, (act?.canvas.nodes() ?? []).map((n) => h("option", { value: n.id }, `${entityName(n)} (${n.kind.toLowerCase()})`)));
  const selected = act?.canvas.selected() ?? [];
  const end = (which: "from" | "to", ref: EntityRef | undefined, pick: string | undefined) => {
    const input = text(ref?.id ?? pick, { list: drawn.id, autocomplete: "off" });
    if (r) input.readOnly = true;
    return field(which === "from" ? "From (id; drawn entities are offered)" : "To (id)", which, input);
  };
  const sources = sourceList();
  const confidence = text(r?.confidence, { inputmode: "decimal", placeholder: "0 to 1" });
  // The type's own properties (relationTypes says which it carries), drawn again when the type changes.
  const props = h("div", { class: "type-fields" });
  const drawProps = () => replace(props, propertyFields(vocabulary.get(type.value)?.properties ?? [], r));
  type.addEventListener("change", drawProps);
  drawProps();
  if (r) type.disabled = true;
  formPanel(
    "relation-form",
    r ? `Edit the relation ${r.type.toLowerCase().replace(/_/g, " ")}` : "Add a relation",
    [
      field("Type", "type", type),
      drawn,
      end("from", r?.from, selected[0]),
      end("to", r?.to, selected[1]),
      h("p", { class: "hint" }, "Select two entities on the canvas first to take them as from and to."),
      field("Role", "role", text(r?.role)),
      field("Start date", "startDate", text(r?.startDate, { placeholder: "2011-03" })),
      field("End date", "endDate", text(r?.endDate)),
      field("Status", "status", select(["ALLEGED", "REPORTED", "CONFIRMED", "DISPUTED"], r?.status ?? "REPORTED")),
      field("Confidence", "confidence", confidence),
      props,
      citationsFieldset(r?.citations.map(citationValue) ?? [], sources),
      sources,
    ],
    async (form) => {
      const input: Record<string, unknown> = {
        ...(r ? { id: r.id, dataset: r.dataset } : {}),
        ...propertyValues(form, vocabulary.get(type.value)?.properties ?? []),
        type: type.value,
        from: value(form, "from") ?? "",
        to: value(form, "to") ?? "",
        role: value(form, "role"),
        startDate: value(form, "startDate"),
        endDate: value(form, "endDate"),
        status: value(form, "status"),
        confidence: number(form, "confidence"),
        citations: citationsOf(form),
      };
      for (const k of Object.keys(input)) if (input[k] === null) delete input[k];
      const data = await gql<{ link: Relation }>(`mutation WriteRelation($input: LinkInput!) { link(input: $input) { ...Rel } }`, { input });
      const saved = data.link;
      act?.canvas.cy.getElementById(saved.id).remove();
      act?.canvas.add([], [saved]);
      status(`${r ? "Saved" : "Added"} the relation.`);
      act?.openRelation(saved.id);
    },
    () => (id ? act?.openRelation(id) : replace(byId("panel-entity"), h("p", { class: "hint" }, "Nothing was written."))),
  );
}

/** propertyInputs are the type-specific properties of LinkInput, with their labels and inputs. */
const propertyInputs: Record<keyof RelationProperties, { label: string; hint?: string; input: (v: string | number | null) => Input }> = {
  share: { label: "Share (%)", hint: "above 0, at most 100", input: (v) => text(v, { inputmode: "decimal" }) },
  amount: { label: "Amount", input: (v) => text(v, { inputmode: "decimal" }) },
  currency: { label: "Currency", hint: "ISO 4217: USD", input: (v) => text(v, { autocomplete: "off", maxlength: "3" }) },
  relationship: { label: "Relationship (from is to's …)", input: (v) => select(familyRelationships, v as string | null, true) },
  post: { label: "Post", input: (v) => text(v, { autocomplete: "off" }) },
  rank: { label: "Rank", input: (v) => text(v, { autocomplete: "off" }) },
};

/** familyRelationships are FamilyRelationship's values. */
const familyRelationships = ["PARENT", "CHILD", "SIBLING", "SPOUSE", "PARTNER", "GRANDPARENT", "GRANDCHILD", "UNCLE_OR_AUNT", "NEPHEW_OR_NIECE", "COUSIN", "IN_LAW", "OTHER"];

/** numeric are the properties sent as numbers. */
const numeric = new Set(["share", "amount"]);

/** propertyFields are the inputs of the properties a type carries, filled from r. */
function propertyFields(names: string[], r: RelationRecord | null): HTMLElement[] {
  return names.flatMap((name) => {
    const p = propertyInputs[name as keyof RelationProperties];
    return p ? [field(p.label, name, p.input(r?.[name as keyof RelationProperties] ?? null), p.hint)] : [];
  });
}

/** propertyValues are the properties the type carries as the form says them (those left empty are not sent: link removes them). */
function propertyValues(form: HTMLElement, names: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const v = numeric.has(name) ? number(form, name) : value(form, name);
    if (v !== null) out[name] = v;
  }
  return out;
}

/** datasetNow is the dataset a new entity likely goes to: that of the entities drawn, when they share one. */
function datasetNow(): string {
  const ds = [...new Set((act?.canvas.nodes() ?? []).map((n) => n.dataset))];
  return ds.length === 1 ? ds[0] : "";
}
