// Apollo Client: ApolloClient with an InMemoryCache and an HttpLink (its
// default Accept), subscriptions over GraphQLWsLink (graphql-ws), split
// by operation as Apollo's docs show, and automatic persisted queries
// with the persisted-queries link.
import { ApolloClient, InMemoryCache, HttpLink, ApolloLink, gql, CombinedGraphQLErrors } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { getMainDefinition } from '@apollo/client/utilities';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { env, wsURL, auth, documents, variables, client, step, expect, expectPeople, expectMade, expectCode, expectWatchEvent, recordingFetch, sha256, sentByHash } from './lib.mjs';

export async function run() {
  client('apollo');
  const rec = recordingFetch();
  const ws = createClient({ url: wsURL, webSocketImpl: WebSocket, connectionParams: auth, retryAttempts: 0 });
  const link = ApolloLink.split(
    ({ query }) => {
      const def = getMainDefinition(query);
      return def.kind === 'OperationDefinition' && def.operation === 'subscription';
    },
    new GraphQLWsLink(ws),
    new HttpLink({ uri: env.url, headers: auth, fetch: rec.fetch }),
  );
  const apollo = new ApolloClient({ link, cache: new InMemoryCache() });
  try {
    await step('query', async () => {
      const res = await apollo.query({ query: gql(documents.query), variables: variables.query });
      expectPeople(res.data);
    });
    await step('mutation', async () => {
      const res = await apollo.mutate({ mutation: gql(documents.mutation), variables: variables.mutation('apollo') });
      expectMade(res.data, 'apollo');
    });
    await step('error', async () => {
      try {
        await apollo.mutate({ mutation: gql(documents.mutation), variables: variables.error });
      } catch (err) {
        expect(CombinedGraphQLErrors.is(err), 'want CombinedGraphQLErrors', String(err));
        return expectCode(err.errors);
      }
      throw new Error('the refused mutation did not fail');
    });
    await step('subscription (GraphQLWsLink)', async () => {
      const res = await new Promise((resolve, reject) => {
        const sub = apollo.subscribe({ query: gql(documents.subscription), variables: variables.subscription }).subscribe({
          next: (r) => { sub.unsubscribe(); resolve(r); },
          error: reject,
        });
      });
      expectWatchEvent(res.data);
    });
    await step('persisted query', async () => {
      const prec = recordingFetch();
      const make = () => new ApolloClient({
        cache: new InMemoryCache(),
        link: new PersistedQueryLink({ sha256 }).concat(new HttpLink({ uri: env.url, headers: auth, fetch: prec.fetch })),
      });
      const query = gql(documents.persisted);
      const first = await make().query({ query, variables: variables.query });
      expect(first.data?.entities?.edges?.length === 1, 'want one person', first.data);
      expect(sentByHash(prec.sent[0]), 'want the hash sent first, without the document', prec.sent);
      const before = prec.sent.length;
      const again = await make().query({ query, variables: variables.query });
      expect(again.data?.entities?.edges?.length === 1, 'want one person again', again.data);
      expect(prec.sent.length === before + 1 && sentByHash(prec.sent[before]), 'want the second run by hash alone, in one request', prec.sent.slice(before));
    });
  } finally {
    await ws.dispose();
  }
}
