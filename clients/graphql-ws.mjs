// graphql-ws, the reference client of graphql-transport-ws: createClient
// with Node's WebSocket (the ws package, as its README shows for Node) and
// the key in connectionParams. Every operation goes over the socket.
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { wsURL, env, documents, variables, client, step, expect, expectPeople, expectMade, expectCode, expectWatchEvent } from './lib.mjs';

// first returns the first result of an operation and ends it.
export async function first(c, payload) {
  const it = c.iterate(payload);
  try {
    const { value, done } = await it.next();
    expect(!done, 'want a result', null);
    return value;
  } finally {
    await it.return?.();
  }
}

export async function run() {
  client('graphql-ws');
  const c = createClient({ url: wsURL, webSocketImpl: WebSocket, connectionParams: { Authorization: `Bearer ${env.token}` }, lazy: true, retryAttempts: 0 });
  try {
    await step('query', async () => expectPeople((await first(c, { query: documents.query, variables: variables.query })).data));
    await step('mutation', async () => expectMade((await first(c, { query: documents.mutation, variables: variables.mutation('graphql-ws') })).data, 'graphql-ws'));
    await step('error', async () => expectCode((await first(c, { query: documents.mutation, variables: variables.error })).errors));
    await step('subscription', async () => expectWatchEvent((await first(c, { query: documents.subscription, variables: variables.subscription })).data));
  } finally {
    await c.dispose();
  }
}
