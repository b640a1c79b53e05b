// The entity form's kind-specific part: the fields of EntityInput each
// kind takes (entity.graphqls), with a person's or an organization's
// identifiers (type, value, issuer; a row each), read whole for an edit
// (upsertEntity sends the whole entity: what is left out is cleared, so
// what the form does not show, protection, goes back as it was read).
import { gql } from "./api";
import type { EntityRef, Kind } from "./api";
import { citedFields, field, number, rowsFieldset, rowsOf, select, text, value } from "./formkit";
import type { CitationValue, CitedRecord } from "./formkit";

/** kinds are the entity kinds, in the order the form offers them. */
export const kinds: Kind[] = ["PERSON", "ORGANIZATION", "EVENT", "DOCUMENT", "PLACE"];

/** categories are each kind's categories (Category's description). */
const categories: Partial<Record<Kind, string[]>> = {
  ORGANIZATION: ["GOVERNMENT", "TRIBUNAL", "LAW_FIRM", "MEDIA", "ARMED_GROUP", "NGO", "INTERGOVERNMENTAL", "POLITICAL_PARTY", "COMPANY", "OTHER"],
  EVENT: ["ATROCITY", "ARMED_CONFLICT", "DETENTION", "TRIAL", "CONFERENCE", "ELECTION", "PROTEST", "MEETING", "PUBLICATION", "OTHER"],
  DOCUMENT: ["REPORT", "ARTICLE", "COURT_FILING", "JUDGMENT", "TESTIMONY", "STATEMENT", "PHOTOGRAPH", "LEAK", "OTHER"],
};

type FieldKind = "text" | "date" | "int" | "category" | "gender";

/** kindInputs are the fields of EntityInput each kind takes, with their labels. */
const kindInputs: Record<Kind, [name: string, label: string, type: FieldKind][]> = {
  PERSON: [
    ["nationality", "Nationality (ISO 3166 code)", "text"],
    ["birthDate", "Birth date", "date"],
    ["deathDate", "Death date", "date"],
    ["birthPlace", "Birth place", "text"],
    ["gender", "Gender", "gender"],
    ["address", "Address", "text"],
  ],
  ORGANIZATION: [
    ["category", "Category", "category"],
    ["jurisdiction", "Jurisdiction (ISO 3166 code)", "text"],
    ["foundingDate", "Founded", "date"],
    ["dissolutionDate", "Dissolved", "date"],
    ["address", "Address", "text"],
  ],
  EVENT: [
    ["category", "Category", "category"],
    ["startDate", "Start date", "date"],
    ["endDate", "End date", "date"],
  ],
  DOCUMENT: [
    ["category", "Category", "category"],
    ["publishedAt", "Published", "date"],
    ["pageCount", "Pages", "int"],
    ["url", "Link", "text"],
    ["language", "Language (ISO 639-1)", "text"],
  ],
  PLACE: [
    ["coordinates.latitude", "Latitude", "text"],
    ["coordinates.longitude", "Longitude", "text"],
    ["countryCode", "Country (ISO 3166 code)", "text"],
  ],
};

/** identifierTypes are IdentifierType's values. */
const identifierTypes = ["PASSPORT", "NATIONAL_ID", "SERVICE_NUMBER", "REGISTRATION_NUMBER", "TAX_NUMBER", "OTHER"];

/** Identifier is an identifier as the form reads and sends it (IdentifierInput). */
interface Identifier {
  type: string;
  value: string;
  issuer: string | null;
}

/** identified are the kinds that hold identifiers. */
const identified: Kind[] = ["PERSON", "ORGANIZATION"];

/** EntityRecord is an entity as the edit form reads it. */
export interface EntityRecord extends EntityRef {
  aliases: string[];
  description: string | null;
  version: number;
  citations: CitedRecord[];
  identifiers?: Identifier[];
  coordinates?: { latitude: number; longitude: number } | null;
  [field: string]: unknown;
}

const readDocument = `query WriteEntity($id: ID!) {
  entity(id: $id) {
    ...Ref version ${citedFields}
    ... on Person { nationality birthDate deathDate birthPlace gender address identifiers { type value issuer } }
    ... on Organization { category jurisdiction foundingDate dissolutionDate address identifiers { type value issuer } }
    ... on Event { category startDate endDate }
    ... on Document { category publishedAt pageCount url language }
    ... on Place { countryCode }
  }
}`;

/** entityRead reads an entity whole for the edit form; null when it is not there or redacted. */
export async function entityRead(id: string): Promise<EntityRecord | null> {
  const data = await gql<{ entity: EntityRecord | null }>(readDocument, { id });
  return data.entity && !data.entity.redacted ? data.entity : null;
}

/** kindFields are the inputs of a kind's fields, filled from e, and its identifiers when it holds any. */
export function kindFields(kind: Kind, e: EntityRecord | null): HTMLElement[] {
  const ids = identified.includes(kind)
    ? [
        rowsFieldset<Identifier>("identifiers", "Identifiers", "Identifier", "Add an identifier", e?.identifiers ?? [], { type: "PASSPORT", value: "", issuer: null }, (id, i) => [
          field("Type", `identifiers[${i}].type`, select(identifierTypes, id.type)),
          field("Number", `identifiers[${i}].value`, text(id.value, { autocomplete: "off" })),
          field("Issuer", `identifiers[${i}].issuer`, text(id.issuer, { autocomplete: "off" }), "a country's code or an authority"),
        ]),
      ]
    : [];
  return [...kindInputs[kind].map(([name, label, type]) => {
    const now = name.startsWith("coordinates.") ? e?.coordinates?.[name.slice(12) as "latitude" | "longitude"] : e?.[name];
    const shown = typeof now === "string" || typeof now === "number" ? now : null;
    if (type === "category") return field(label, name, select(categories[kind] ?? [], shown as string | null, true));
    if (type === "gender") return field(label, name, select(["MALE", "FEMALE", "OTHER"], shown as string | null, true));
    return field(label, name, text(shown, type === "date" ? { placeholder: "2011-03-15" } : {}), type === "date" ? "a year, a month or a day" : undefined);
  }), ...ids];
}

/** entityInput is the EntityInput the form says: its fields, the kind's, and what the form keeps of e as it was. */
export function entityInput(form: HTMLElement, kind: Kind, e: EntityRecord | null, citations: CitationValue[]): Record<string, unknown> {
  const aliases = (form.querySelector<HTMLTextAreaElement>('[data-field="aliases"]')?.value ?? "")
    .split("\n")
    .map((a) => a.trim())
    .filter(Boolean);
  const input: Record<string, unknown> = {
    kind,
    name: form.querySelector<HTMLInputElement>('[data-field="name"]')?.value.trim() ?? "",
    aliases,
    description: value(form, "description"),
    dataset: value(form, "dataset") ?? "",
    citations,
  };
  if (e) {
    input.id = e.id;
    input.version = e.version;
    input.protected = e.protected ?? false;
  }
  // The identifiers' rows with a number (all of them: a row emptied removes it).
  if (identified.includes(kind)) {
    input.identifiers = rowsOf<Identifier>(form, "identifiers", (_, i) => {
      const v = value(form, `identifiers[${i}].value`);
      return v === null ? null : { type: value(form, `identifiers[${i}].type`) ?? "OTHER", value: v, issuer: value(form, `identifiers[${i}].issuer`) };
    });
  }
  for (const [name, , type] of kindInputs[kind]) {
    if (name.startsWith("coordinates.")) continue;
    const v = type === "int" ? number(form, name) : value(form, name);
    if (v !== null) input[name] = v;
  }
  const lat = number(form, "coordinates.latitude");
  const lon = number(form, "coordinates.longitude");
  if (kind === "PLACE" && (lat !== null || lon !== null)) input.coordinates = { latitude: lat, longitude: lon };
  for (const k of Object.keys(input)) if (input[k] === null) delete input[k];
  return input;
}

