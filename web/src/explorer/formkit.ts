// What the write forms share (issue 26 item 6): labelled inputs named by
// the API's input field, the server's errors shown at the field they are
// about (extensions.field, or each of extensions.problems), and the
// citations fieldset (source, quote, locator) both forms carry.
import { ApiError, gql } from "./api";
import { h, replace } from "./dom";

/** Input is what a form's field can be. */
export type Input = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

let fieldIds = 0;

/**
 * field makes a labelled input for the API's input field name (its
 * data-field, which errors are matched to), with a place for its error.
 */
export function field(label: string, name: string, input: Input, hint?: string): HTMLElement {
  const id = `wf-${++fieldIds}`;
  input.id = id;
  input.dataset.field = name;
  const error = h("p", { class: "field-error", id: `${id}-error`, hidden: true });
  input.setAttribute("aria-describedby", error.id);
  return h("div", { class: "form-field" }, h("label", { for: id }, label), input, hint ? h("span", { class: "hint" }, hint) : null, error);
}

/** text is a text input with a value. */
export function text(value: string | number | null | undefined, attrs: Record<string, string> = {}): HTMLInputElement {
  const el = h("input", { type: "text", ...attrs });
  el.value = value === null || value === undefined ? "" : String(value);
  return el;
}

/** select is a select of the values (the first, "", when optional), with one chosen. */
export function select(values: string[], chosen: string | null | undefined, optional = false): HTMLSelectElement {
  const el = h("select", {}, optional ? h("option", { value: "" }, "—") : null, values.map((v) => h("option", { value: v }, v.toLowerCase().replace(/_/g, " "))));
  el.value = chosen ?? "";
  return el;
}

/** value is an input's trimmed value, null when empty. */
export function value(form: HTMLElement, name: string): string | null {
  const el = form.querySelector<Input>(`[data-field="${name}"]`);
  const v = el?.value.trim() ?? "";
  return v === "" ? null : v;
}

/** decimal is the form of a number typed in: digits, a point, an exponent (not "0x10", "Infinity" or "1,5", which Number reads or drops). */
const decimal = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * number is an input's value as a number, null when empty. A value that is
 * no number is refused at its field before anything is sent (as JSON it
 * would go as null, which the API takes for "none": the value typed would
 * be dropped without a word).
 */
export function number(form: HTMLElement, name: string): number | null {
  const v = value(form, name);
  if (v === null) return null;
  const n = Number(v);
  if (!decimal.test(v) || !Number.isFinite(n)) {
    throw new ApiError(`${name} "${v}" is not a number: type digits, with a point for a fraction (2500, 0.75)`, "BAD_USER_INPUT", undefined, { field: name });
  }
  return n;
}

/** Problem is one error the server gave, at a field or not. */
interface Problem {
  message: string;
  code: string;
  field?: string;
}

/** problemsOf splits an API error into its problems: each of extensions.problems, or itself. */
function problemsOf(err: unknown): Problem[] {
  if (!(err instanceof ApiError)) return [{ message: err instanceof Error ? err.message : String(err), code: "ERROR" }];
  const list = err.extensions.problems;
  if (Array.isArray(list) && list.length > 0) return list as Problem[];
  const f = err.extensions.field;
  return [{ message: err.message, code: err.code, field: typeof f === "string" ? f : undefined }];
}

/**
 * showErrors shows err's problems in form: each at the input whose field
 * is the problem's or the nearest one above it ("citations[0].quote" at
 * citations[0].quote, "aliases[2]" at aliases), and those about no input
 * of the form in its summary. The first input with an error takes the focus.
 */
export function showErrors(form: HTMLElement, err: unknown): void {
  clearErrors(form);
  const summary = form.querySelector<HTMLElement>(".form-errors")!;
  const inputs = [...form.querySelectorAll<Input>("[data-field]")];
  const loose: Problem[] = [];
  let first: Input | null = null;
  const nearest = (f: string | undefined): Input | undefined => {
    for (let path = f ?? ""; path !== ""; ) {
      const at = inputs.find((i) => i.dataset.field === path);
      if (at) return at;
      const shorter = path.replace(/(\.[^.[\]]+|\[[0-9]+\])$/, "");
      if (shorter === path) return undefined;
      path = shorter;
    }
    return undefined;
  };
  // A list of rows sends only its filled rows (rowsOf): the server's
  // citations[k] is the k-th row sent, which rowsOf noted on the form.
  const inForm = (f: string | undefined) =>
    f?.replace(/^([A-Za-z]+)\[([0-9]+)\]/, (all, list: string, k: string) => {
      const row = form.getAttribute(`data-sent-${list}`)?.split(",")[Number(k)];
      return row ? `${list}[${row}]` : all;
    });
  for (const p of problemsOf(err)) {
    const at = nearest(inForm(p.field));
    if (!at) {
      loose.push(p);
      continue;
    }
    const box = form.querySelector<HTMLElement>(`#${at.id}-error`)!;
    box.hidden = false;
    box.textContent = [box.textContent, `${p.code}: ${p.message}`].filter(Boolean).join(" · ");
    at.setAttribute("aria-invalid", "true");
    first ??= at;
  }
  if (loose.length > 0) {
    summary.hidden = false;
    replace(summary, loose.map((p) => h("p", {}, h("span", { class: "code" }, p.code), p.message)));
  }
  (first ?? summary).focus();
}

/** clearErrors takes the shown errors away. */
export function clearErrors(form: HTMLElement): void {
  for (const box of form.querySelectorAll<HTMLElement>(".field-error")) {
    box.hidden = true;
    box.textContent = "";
  }
  for (const i of form.querySelectorAll("[aria-invalid]")) i.removeAttribute("aria-invalid");
  const summary = form.querySelector<HTMLElement>(".form-errors");
  if (summary) {
    summary.hidden = true;
    summary.replaceChildren();
  }
}

/** errorSummary is the place of a form's errors that are about none of its inputs. */
export function errorSummary(): HTMLElement {
  return h("div", { class: "form-errors panel-error", role: "alert", tabindex: "-1", hidden: true });
}

/** CitationValue is a citation as the forms read and send it (CitationInput). */
export interface CitationValue {
  sourceId: string;
  quote?: string | null;
  locator?: string | null;
  credibility?: number;
}

/** CitedRecord is a citation as an edit form reads it (citedFields). */
export interface CitedRecord {
  quote: string | null;
  locator: string | null;
  typedCredibility: number;
  source: { id: string };
}

/** citedFields selects what an edit form reads of a claim's citations. */
export const citedFields = `citations { quote locator typedCredibility source { id } }`;

/** citationValue is a citation read, as the form sends it again (its credibility as it was given). */
export function citationValue(c: CitedRecord): CitationValue {
  return { sourceId: c.source.id, quote: c.quote, locator: c.locator, credibility: c.typedCredibility };
}

/**
 * rowsFieldset is a list input of the API's (citations, identifiers): a
 * fieldset of rows, each the inputs fields makes for the row's index, and
 * a button that adds one; a row for each value, or one empty row.
 */
export function rowsFieldset<T>(name: string, legend: string, rowLabel: string, addLabel: string, values: T[], empty: T, fields: (v: T, i: number, row: HTMLElement) => HTMLElement[]): HTMLFieldSetElement {
  const rows = h("div", { class: "form-rows" });
  const set = h("fieldset", { class: `${name} rows-of`, "data-list": name }, h("legend", {}, legend), rows);
  const add = (v: T) => {
    const i = rows.children.length;
    const row = h("div", { class: `form-row ${name}-row`, role: "group", "aria-label": `${rowLabel} ${i + 1}` });
    row.append(...fields(v, i, row));
    rows.append(row);
  };
  (values.length > 0 ? values : [empty]).forEach(add);
  set.append(h("button", { type: "button", class: "small", onclick: () => add(empty) }, addLabel));
  return set;
}

/** rowsOf reads a rowsFieldset's rows (read gives null for a row left empty, which is not sent), noting on the form which rows it sent, for showErrors. */
export function rowsOf<T>(form: HTMLElement, name: string, read: (row: HTMLElement, i: number) => T | null): T[] {
  const sent: number[] = [];
  const out = [...form.querySelectorAll<HTMLElement>(`fieldset[data-list="${name}"] .form-row`)].flatMap((row, i) => {
    const v = read(row, i);
    if (v === null) return [];
    sent.push(i);
    return [v];
  });
  form.setAttribute(`data-sent-${name}`, sent.join(","));
  return out;
}

/** citationsFieldset is the citations of a claim, one row each, with a button that adds one. */
export function citationsFieldset(cited: CitationValue[], sources: HTMLDataListElement): HTMLFieldSetElement {
  return rowsFieldset("citations", "Citations", "Citation", "Add a citation", cited, { sourceId: "" }, (c, i, row) => {
    row.dataset.credibility = String(c.credibility ?? 6);
    return [
      field("Source (id)", `citations[${i}].sourceId`, text(c.sourceId, { list: sources.id, autocomplete: "off" })),
      field("Quote", `citations[${i}].quote`, Object.assign(h("textarea", { rows: 2 }), { value: c.quote ?? "" })),
      field("Locator", `citations[${i}].locator`, text(c.locator, { placeholder: "p. 12" })),
    ];
  });
}

/** citationsOf reads the citations fieldset: rows without a source are left out. */
export function citationsOf(form: HTMLElement): CitationValue[] {
  return rowsOf(form, "citations", (row, i) => {
    const sourceId = value(row, `citations[${i}].sourceId`);
    if (!sourceId) return null;
    return { sourceId, quote: value(row, `citations[${i}].quote`), locator: value(row, `citations[${i}].locator`), credibility: Number(row.dataset.credibility ?? 6) };
  });
}

/** sourceList is a datalist of the sources the caller may read (the first 100), for the citation rows. */
export function sourceList(): HTMLDataListElement {
  const list = h("datalist", { id: `wf-sources-${++fieldIds}` });
  void gql<{ sources: { edges: { node: { id: string; title: string; dataset: string } }[] } }>(`{ sources(first: 100) { edges { node { id title dataset } } } }`)
    .then((d) => list.append(...d.sources.edges.map(({ node }) => h("option", { value: node.id }, `${node.title} (${node.dataset})`))))
    .catch(() => undefined);
  return list;
}

/** datasetList is a datalist of the datasets the caller may read. */
export function datasetList(): HTMLDataListElement {
  const list = h("datalist", { id: `wf-datasets-${++fieldIds}` });
  void gql<{ datasets: { name: string }[] }>(`{ datasets { name } }`)
    .then((d) => list.append(...d.datasets.map((ds) => h("option", { value: ds.name }))))
    .catch(() => undefined);
  return list;
}
