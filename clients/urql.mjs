// urql: @urql/core's Client with its default exchanges (cacheExchange,
// fetchExchange) and its default fetch options, which send
// Accept: application/graphql-response+json, application/graphql+json,
// application/json, text/event-stream, multipart/mixed for every query and
// mutation. Subscriptions two ways urql documents: fetchSubscriptions
// (the fetch exchange reads the answer's event stream) and
// subscriptionExchange over graphql-sse. Persisted queries with
// @urql/exchange-persisted in front of the fetch exchange.
import { Client, cacheExchange, fetchExchange, subscriptionExchange, gql } from '@urql/core';
import { persistedExchange } from '@urql/exchange-persisted';
import { createClient as createSSEClient } from 'graphql-sse';
import { env, auth, documents, variables, client, step, expect, expectPeople, expectMade, expectCode, expectWatchEvent, recordingFetch, sha256, sentByHash } from './lib.mjs';

// firstOf returns a subscription's first result and ends it.
function firstOf(source) {
  return new Promise((resolve) => {
    const { unsubscribe } = source.subscribe((result) => {
      unsubscribe();
      resolve(result);
    });
  });
}

export async function run() {
  client('urql');
  const rec = recordingFetch();
  const urql = new Client({ url: env.url, exchanges: [cacheExchange, fetchExchange], fetchOptions: { headers: auth }, fetch: rec.fetch, fetchSubscriptions: true });
  await step('query', async () => {
    const res = await urql.query(documents.query, variables.query).toPromise();
    expect(!res.error, 'want no error', res.error?.message);
    expectPeople(res.data);
    expect(rec.sent[0].accept.includes('text/event-stream'), "want urql's default Accept, text/event-stream in it", rec.sent[0]);
    // urql sends a query by GET while its URL is short enough.
  });
  await step('query by POST (preferGetMethod: false)', async () => {
    const res = await urql.query(documents.query, variables.query, { preferGetMethod: false, requestPolicy: 'network-only' }).toPromise();
    expect(!res.error, 'want no error', res.error?.message);
    expectPeople(res.data);
    expect(rec.sent.at(-1).method === 'POST', 'want a POST', rec.sent.at(-1));
  });
  await step('mutation', async () => {
    const res = await urql.mutation(documents.mutation, variables.mutation('urql')).toPromise();
    expect(!res.error, 'want no error', res.error?.message);
    expectMade(res.data, 'urql');
  });
  await step('error', async () => {
    const res = await urql.mutation(documents.mutation, variables.error).toPromise();
    expectCode(res.error?.graphQLErrors);
  });
  await step('subscription (fetchSubscriptions)', async () => {
    const res = await firstOf(urql.subscription(documents.subscription, variables.subscription));
    expect(!res.error, 'want no error', res.error?.message);
    expectWatchEvent(res.data);
  });

  const sse = createSSEClient({ url: env.url, headers: auth, retryAttempts: 0 });
  const withSSE = new Client({
    url: env.url,
    fetchOptions: { headers: auth },
    exchanges: [cacheExchange, fetchExchange, subscriptionExchange({
      forwardSubscription(request) {
        const input = { ...request, query: request.query || '' };
        return { subscribe: (sink) => ({ unsubscribe: sse.subscribe(input, sink) }) };
      },
    })],
  });
  await step('subscription (subscriptionExchange over graphql-sse)', async () => {
    const res = await firstOf(withSSE.subscription(documents.subscription, variables.subscription));
    expect(!res.error, 'want no error', res.error?.message);
    expectWatchEvent(res.data);
  });
  sse.dispose();

  await step('persisted query', async () => {
    const prec = recordingFetch();
    const make = () => new Client({
      url: env.url, fetchOptions: { headers: auth }, fetch: prec.fetch, requestPolicy: 'network-only',
      exchanges: [cacheExchange, persistedExchange({ generateHash: async (query) => sha256(query) }), fetchExchange],
    });
    const doc = gql(documents.persisted);
    const first = await make().query(doc, variables.query).toPromise();
    expect(!first.error && first.data?.entities?.edges?.length === 1, 'want one person', first.error?.message ?? first.data);
    expect(prec.sent.length >= 1 && sentByHash(prec.sent[0]), 'want the hash sent first, without the document', prec.sent);
    const before = prec.sent.length;
    const again = await make().query(doc, variables.query).toPromise();
    expect(!again.error && again.data?.entities?.edges?.length === 1, 'want one person again', again.error?.message);
    expect(prec.sent.length === before + 1 && sentByHash(prec.sent[before]), 'want the second run by hash alone, in one request', prec.sent.slice(before));
  });
}
