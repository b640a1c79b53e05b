// The explorer's only way to the server: POST /graphql on this origin, with
// the tab's credentials. Errors come back as ApiError with the server's
// code (BAD_USER_INPUT, FORBIDDEN, BUSY, ...) and message, shown as such.
import { authHeader } from "./auth";

export type Kind = "PERSON" | "ORGANIZATION" | "EVENT" | "DOCUMENT" | "PLACE";
export type Status = "ALLEGED" | "REPORTED" | "CONFIRMED" | "DISPUTED";

export interface Source {
  id: string;
  title: string;
  publisher: string | null;
  url: string | null;
  publishedAt: string | null;
  /** the preserved copy's address (what exports carry where there is no url) */
  archivedUrl?: string | null;
}

export interface EntityRef {
  id: string;
  kind: Kind;
  name: string;
  dataset: string;
  redacted: boolean;
  /** a protected person: redacted for callers without clearance, drawn ringed for those with it */
  protected?: boolean;
  /** what exports carry of an entity besides its name (none of a redacted one) */
  description?: string | null;
  aliases?: string[];
  /** a place's point (WGS 84 degrees), where the map layout draws it */
  coordinates?: { latitude: number; longitude: number } | null;
}

export interface Relation {
  id: string;
  type: string;
  from: EntityRef;
  to: EntityRef;
  role: string | null;
  startDate: string | null;
  endDate: string | null;
  status: Status;
  confidence: number | null;
  quote: string | null;
  dataset: string;
  sources: Source[];
  /** the grade of each citation ("B2"), in the order of sources (what exports carry) */
  citations?: { grade: string }[];
}

export interface Subgraph {
  nodes: EntityRef[];
  relations: Relation[];
  truncated: boolean;
}

export interface PathStep {
  forward: boolean;
  from: EntityRef;
  to: EntityRef;
  relation: Relation;
}

export interface Path {
  length: number;
  nodes: EntityRef[];
  steps: PathStep[];
}

export interface PathFilter {
  maxDepth?: number;
  relationTypes?: string[];
  excludeIds?: string[];
  kinds?: Kind[];
  validAt?: string;
  minConfidence?: number;
  statuses?: Status[];
  maxDegree?: number;
}

export interface RelationTypeInfo {
  type: string;
  label: string;
  inverseLabel: string;
  directed: boolean;
  /** the type-specific properties a relation of the type carries (share for OWNS) */
  properties: string[];
}

/** ApiError is an error the server answered with its code, or the network's. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly reason?: string,
    /** the error's extensions: field, problems (each with its field), line ... */
    readonly extensions: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** The fragments documents may spread; gql adds those a document uses. */
const fragmentDefinitions: Record<string, string> = {
  Ref: `fragment Ref on Entity { id kind name dataset redacted protected description aliases ... on Place { coordinates { latitude longitude } } }`,
  Src: `fragment Src on Source { id title publisher url publishedAt archivedUrl }`,
  Rel: `fragment Rel on Relation {
  id type role startDate endDate status confidence quote dataset
  from { ...Ref } to { ...Ref } sources { ...Src } citations { grade }
}`,
};

/** withFragments appends the definitions of the fragments document spreads, and theirs. */
export function withFragments(document: string): string {
  const used = new Set<string>();
  const visit = (text: string) => {
    for (const [, name] of text.matchAll(/\.\.\.([A-Za-z]+)\b/g)) {
      if (fragmentDefinitions[name] && !used.has(name)) {
        used.add(name);
        visit(fragmentDefinitions[name]);
      }
    }
  };
  visit(document);
  return [document, ...[...used].map((name) => fragmentDefinitions[name])].join("\n");
}

interface GraphQLError {
  message: string;
  extensions?: { code?: string; reason?: string } & Record<string, unknown>;
}

/** gql runs a document and returns its data, or throws the first error. */
export async function gql<T>(document: string, variables: Record<string, unknown> = {}): Promise<T> {
  const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json" };
  const auth = authHeader();
  if (auth) headers.Authorization = auth;
  let response: Response;
  try {
    response = await fetch("/graphql", { method: "POST", headers, body: JSON.stringify({ query: withFragments(document), variables }) });
  } catch (err) {
    throw new ApiError(`The server cannot be reached (${String(err)}).`, "NETWORK");
  }
  let body: { data?: T | null; errors?: GraphQLError[] };
  try {
    body = await response.json();
  } catch {
    throw new ApiError(`The server answered ${response.status} without JSON.`, "HTTP_" + response.status);
  }
  if (body.errors && body.errors.length > 0) {
    const first = body.errors[0];
    throw new ApiError(first.message, first.extensions?.code ?? "HTTP_" + response.status, first.extensions?.reason, first.extensions);
  }
  if (!body.data) throw new ApiError(`The server answered ${response.status} without data.`, "HTTP_" + response.status);
  return body.data;
}

/** relationTypes reads the vocabulary: labels in both reading directions. */
export async function relationTypes(): Promise<Map<string, RelationTypeInfo>> {
  const data = await gql<{ relationTypes: RelationTypeInfo[] }>(`{ relationTypes { type label inverseLabel directed properties } }`);
  return new Map(data.relationTypes.map((t) => [t.type, t]));
}

/** neighborhood reads the entities and relations around id. */
export async function neighborhood(id: string, limit: number, filter: PathFilter): Promise<Subgraph & { total: number; centre: EntityRef | null }> {
  const data = await gql<{ neighborhood: Subgraph; entity: (EntityRef & { relations: { totalCount: number } }) | null }>(
    `query Expand($id: ID!, $limit: Int!, $filter: PathFilter) {
      neighborhood(id: $id, depth: 1, limit: $limit, filter: $filter) { nodes { ...Ref } relations { ...Rel } truncated }
      entity(id: $id) { ...Ref relations(first: 1) { totalCount } }
    }`,
    { id, limit, filter },
  );
  return { ...data.neighborhood, total: data.entity?.relations.totalCount ?? 0, centre: data.entity };
}
