// What every client's run shares: the server it talks to (from the
// environment the Go test sets), the documents, the checks, and a fetch
// that records what went out (to see a persisted query sent by hash).
import { createHash } from 'node:crypto';

export const env = {
  url: must('CASEGRAPH_URL'), // http://127.0.0.1:PORT/graphql
  token: must('CASEGRAPH_TOKEN'),
  dataset: must('CASEGRAPH_DATASET'), // holds three people, A, B and C
  writeDataset: must('CASEGRAPH_WRITE_DATASET'), // where the mutations write
  source: must('CASEGRAPH_SOURCE'), // a source of writeDataset
};
export const wsURL = env.url.replace(/^http/, 'ws');
export const auth = { Authorization: `Bearer ${env.token}` };

function must(name) {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: server/clients_test.go runs this matrix`);
  return v;
}

export const documents = {
  query: `query People($ds: [String!]) { entities(filter: {datasets: $ds}, first: 10) { edges { node { id name } } } }`,
  mutation: `mutation Make($in: EntityInput!) { upsertEntity(input: $in) { id name } }`,
  // The audit log's changes in the dataset: the first event says the
  // watch is live, at once.
  subscription: `subscription Watch($ds: [String!]) { changes(datasets: $ds) { cursor change { operation } } }`,
  persisted: `query Persisted($ds: [String!]) { entities(filter: {datasets: $ds}, first: 1) { edges { node { name } } } }`,
};
export const variables = {
  query: { ds: [env.dataset] },
  mutation: (client) => ({ in: { kind: 'PERSON', name: `Made by ${client}`, dataset: env.writeDataset, sourceIds: [env.source] } }),
  // A name the domain refuses: BAD_USER_INPUT, and nothing written.
  error: { in: { kind: 'PERSON', name: '', dataset: env.writeDataset, sourceIds: [env.source] } },
  subscription: { ds: [env.writeDataset] },
};

export const sha256 = (s) => createHash('sha256').update(s).digest('hex');

const results = [];
let current = '';

// client names the client whose steps follow.
export function client(name) {
  current = name;
}

// step runs one step of the current client: it passes unless it throws.
export async function step(name, fn) {
  const label = `${current}: ${name}`;
  try {
    await withTimeout(fn(), 20000, label);
    results.push({ label, ok: true });
    console.log(`ok   ${label}`);
  } catch (err) {
    results.push({ label, ok: false });
    console.log(`FAIL ${label}: ${err?.stack ?? err}${err?.source ? '\n     source: ' + JSON.stringify(err.source) : ''}`);
  }
}

function withTimeout(p, ms, label) {
  let timer;
  return Promise.race([
    p,
    new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${label} took over ${ms} ms`)), ms); }),
  ]).finally(() => clearTimeout(timer));
}

export function expect(cond, what, got) {
  if (!cond) throw new Error(`${what}; got ${JSON.stringify(got)}`);
}

// expectPeople checks a query's answer: the three people of the dataset.
export function expectPeople(data) {
  const names = data?.entities?.edges?.map((e) => e.node.name).sort();
  expect(JSON.stringify(names) === '["A","B","C"]', 'want the people A, B and C', data);
}

export function expectMade(data, clientName) {
  expect(data?.upsertEntity?.name === `Made by ${clientName}` && data.upsertEntity.id, 'want the person made', data);
}

// expectCode checks that a GraphQL error list holds the refusal of the
// mutation's input (the field's error, at path upsertEntity, not a
// refusal of the request) with BAD_USER_INPUT in extensions.code.
export function expectCode(errors, code = 'BAD_USER_INPUT') {
  const e = Array.isArray(errors) ? errors[0] : undefined;
  expect(e?.extensions?.code === code && e?.path?.[0] === 'upsertEntity', `want upsertEntity's error with extensions.code ${code}`, errors);
}

export function expectWatchEvent(data) {
  expect(data?.changes?.cursor && data.changes.change === null, 'want the first event of changes: a cursor, no change', data);
}

// recordingFetch is fetch that keeps each request's method, Accept and
// body, for the checks of persisted queries and of negotiation.
export function recordingFetch() {
  const sent = [];
  const f = (input, init = {}) => {
    const headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined));
    sent.push({ method: init.method ?? 'GET', url: String(input instanceof Request ? input.url : input), accept: headers.get('accept'), body: init.body ?? null });
    return fetch(input, init);
  };
  return { fetch: f, sent };
}

// sentByHash says whether a recorded request carried the document's hash
// without its text.
export function sentByHash(r) {
  const text = r.body ? String(r.body) : decodeURIComponent(new URL(r.url).search);
  return text.includes('sha256Hash') && !text.includes('entities(');
}

export function summary() {
  const failed = results.filter((r) => !r.ok).length;
  console.log(`client matrix: ${results.length - failed} steps passed, ${failed} failed`);
  return failed === 0 && results.length > 0;
}
