// Relay: relay-runtime's Environment with the network layer Relay's docs
// show (a fetch of { query: params.text, variables } with the key, and
// subscriptions over graphql-ws), and the documents of relay/documents.js
// as relay-compiler compiled them (server/clients_test.go writes the
// schema and runs the compiler first). Paging goes through the @connection
// fragment's @refetchable pagination query, and a refetch through
// node(id:). A persisted query: an operation of relay-persisted/ (compiled
// with relay-compiler's local persistConfig, so it carries params.id and
// no text) through an environment whose network sends { doc_id:
// params.id, variables }, as Relay's docs show, to the server that has
// the compiler's file registered.
import relay from 'relay-runtime';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { env, wsURL, auth, variables, client, step, expect, expectCode, expectWatchEvent, recordingFetch } from './lib.mjs';
import PeopleQuery from './relay/__generated__/relayPeopleQuery.graphql.js';
import PeopleFragment from './relay/__generated__/relayPeople_query.graphql.js';
import PeoplePaginationQuery from './relay/__generated__/relayPeoplePaginationQuery.graphql.js';
import PersonQuery from './relay/__generated__/relayPersonQuery.graphql.js';
import PersonFragment from './relay/__generated__/relayPerson_person.graphql.js';
import PersonRefetchQuery from './relay/__generated__/relayPersonRefetchQuery.graphql.js';
import MakeMutation from './relay/__generated__/relayMakeMutation.graphql.js';
import WatchSubscription from './relay/__generated__/relayWatchSubscription.graphql.js';
import PersistedPeopleQuery from './relay-persisted/__generated__/relayPersistedPeopleQuery.graphql.js';
import PersistedPersonFragment from './relay-persisted/__generated__/relayPersisted_person.graphql.js';

const { Environment, Network, RecordSource, Store, Observable, fetchQuery, commitMutation, requestSubscription, createOperationDescriptor, getRequest, getSelector } = relay;

export async function run() {
  client('relay');
  const ws = createClient({ url: wsURL, webSocketImpl: WebSocket, connectionParams: auth, retryAttempts: 0 });
  const fetchFn = async (params, vars) => {
    const res = await fetch(env.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...auth },
      body: JSON.stringify({ query: params.text, variables: vars }),
    });
    return res.json();
  };
  const subscribeFn = (operation, vars) =>
    Observable.create((sink) => ws.subscribe({ operationName: operation.name, query: operation.text, variables: vars }, sink));
  const environment = new Environment({ network: Network.create(fetchFn, subscribeFn), store: new Store(new RecordSource()) });

  // read looks up a fragment's data in the store, from its reference.
  const read = (fragment, ref) => environment.lookup(getSelector(fragment, ref)).data;
  const mutate = (vars) => new Promise((resolve, reject) => {
    commitMutation(environment, { mutation: MakeMutation, variables: vars, onCompleted: (res, errors) => (errors ? reject(Object.assign(new Error('errors'), { source: { errors } })) : resolve(res)), onError: reject });
  });

  try {
    const vars = { ds: [env.dataset] };
    let root;
    await step('query (a @connection fragment, its first page)', async () => {
      await fetchQuery(environment, PeopleQuery, vars).toPromise();
      root = environment.lookup(createOperationDescriptor(getRequest(PeopleQuery), vars).fragment).data;
      const page = read(PeopleFragment, root).entities;
      expect(page.edges.length === 2 && page.pageInfo.hasNextPage, 'want a first page of two and more after it', page);
    });
    await step('paging (the @refetchable pagination query, merged into the connection)', async () => {
      const { endCursor } = read(PeopleFragment, root).entities.pageInfo;
      await fetchQuery(environment, PeoplePaginationQuery, { ds: [env.dataset], count: 2, cursor: endCursor }).toPromise();
      const page = read(PeopleFragment, root).entities;
      const names = page.edges.map((e) => e.node.name).sort();
      expect(JSON.stringify(names) === '["A","B","C"]' && !page.pageInfo.hasNextPage, 'want A, B and C in the connection, and no page after', page);
    });
    let made;
    await step('mutation', async () => {
      made = (await mutate(variables.mutation('relay'))).upsertEntity;
      expect(made?.name === 'Made by relay', 'want the person made', made);
    });
    await step('refetch (the @refetchable query, by node(id:))', async () => {
      await fetchQuery(environment, PersonQuery, { id: made.id }).toPromise();
      const ref = environment.lookup(createOperationDescriptor(getRequest(PersonQuery), { id: made.id }).fragment).data.entity.relayPerson_person;
      expect(read(PersonFragment, ref).name === 'Made by relay', 'want the person read', read(PersonFragment, ref));
      // Renamed behind Relay's back; the refetch brings the new name.
      const renamed = await fetchFn({ text: 'mutation($in: EntityInput!) { upsertEntity(input: $in) { id } }' }, { in: { ...variables.mutation('relay').in, id: made.id, name: 'Made by relay, renamed' } });
      expect(!renamed.errors, 'want the rename to pass', renamed);
      await fetchQuery(environment, PersonRefetchQuery, { id: made.id }).toPromise();
      expect(read(PersonFragment, ref).name === 'Made by relay, renamed', 'want the new name after the refetch', read(PersonFragment, ref));
    });
    await step('error', async () => {
      try {
        await mutate(variables.error);
      } catch (err) {
        return expectCode(err.source?.errors);
      }
      throw new Error('the refused mutation did not fail');
    });
    await step('subscription (graphql-ws)', async () => {
      const data = await new Promise((resolve, reject) => {
        const d = requestSubscription(environment, {
          subscription: WatchSubscription, variables: variables.subscription,
          onNext: (res) => { d.dispose(); resolve(res); },
          onError: reject,
        });
      });
      expectWatchEvent(data);
    });
    await step('persisted query (doc_id of a persisted compiled query, no text sent)', async () => {
      const params = PersistedPeopleQuery.params;
      expect(params.id && params.text == null, 'want a compiled operation with an id and no text', params);
      const rec = recordingFetch();
      // The network of Relay's docs on persisted queries.
      const persistedFetch = async (operation, vars) => {
        const res = await rec.fetch(env.url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...auth },
          body: JSON.stringify({ doc_id: operation.id, variables: vars }),
        });
        return res.json();
      };
      const persisted = new Environment({ network: Network.create(persistedFetch), store: new Store(new RecordSource()) });
      const vars = { ds: [env.dataset] };
      await fetchQuery(persisted, PersistedPeopleQuery, vars).toPromise();
      const data = persisted.lookup(createOperationDescriptor(getRequest(PersistedPeopleQuery), vars).fragment).data;
      const names = data.entities.edges.map((e) => persisted.lookup(getSelector(PersistedPersonFragment, e.node)).data.name).sort();
      expect(JSON.stringify(names) === '["A","B","C"]', 'want the people A, B and C', names);
      const sent = rec.sent.map((r) => JSON.parse(r.body));
      expect(sent.length === 1 && sent[0].doc_id === params.id && !('query' in sent[0]) && !String(rec.sent[0].body).includes('entities'),
        'want one request carrying the doc_id and no query text', rec.sent);
    });
  } finally {
    await ws.dispose();
  }
}
