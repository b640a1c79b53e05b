// graphql-request, as its README sets it up: a GraphQLClient with headers.
// It does no subscriptions and no persisted queries.
import { GraphQLClient, ClientError } from 'graphql-request';
import { env, auth, documents, variables, client, step, expect, expectPeople, expectMade, expectCode, recordingFetch } from './lib.mjs';

export async function run() {
  client('graphql-request');
  const rec = recordingFetch();
  const gql = new GraphQLClient(env.url, { headers: auth, fetch: rec.fetch });
  await step('query', async () => expectPeople(await gql.request(documents.query, variables.query)));
  await step('mutation', async () => expectMade(await gql.request(documents.mutation, variables.mutation('graphql-request')), 'graphql-request'));
  await step('error', async () => {
    try {
      await gql.request(documents.mutation, variables.error);
    } catch (err) {
      expect(err instanceof ClientError, 'want a ClientError', String(err));
      return expectCode(err.response.errors);
    }
    throw new Error('the refused mutation did not fail');
  });
  await step('its default Accept', async () => expect(rec.sent.every((r) => r.accept?.includes('application/graphql-response+json')), 'want application/graphql-response+json in Accept', rec.sent));
}
