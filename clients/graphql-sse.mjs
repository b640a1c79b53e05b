// graphql-sse in its default mode (distinct connections: one POST with
// Accept: text/event-stream per operation), the key in headers. Every
// operation, queries and mutations too, is answered as a stream.
import { createClient } from 'graphql-sse';
import { env, auth, documents, variables, client, step, expectPeople, expectMade, expectCode, expectWatchEvent, recordingFetch, expect } from './lib.mjs';
import { first } from './graphql-ws.mjs';

export async function run() {
  client('graphql-sse');
  const rec = recordingFetch();
  const c = createClient({ url: env.url, headers: auth, fetchFn: rec.fetch, retryAttempts: 0 });
  try {
    await step('query', async () => expectPeople((await first(c, { query: documents.query, variables: variables.query })).data));
    await step('mutation', async () => expectMade((await first(c, { query: documents.mutation, variables: variables.mutation('graphql-sse') })).data, 'graphql-sse'));
    await step('error', async () => expectCode((await first(c, { query: documents.mutation, variables: variables.error })).errors));
    await step('subscription', async () => expectWatchEvent((await first(c, { query: documents.subscription, variables: variables.subscription })).data));
    await step('its default Accept', async () => expect(rec.sent.length >= 4 && rec.sent.every((r) => r.accept === 'text/event-stream'), 'want Accept: text/event-stream', rec.sent));
  } finally {
    c.dispose();
  }
}
