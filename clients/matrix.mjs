// The client matrix: each client in its default configuration runs a
// query, a mutation, an error, a subscription (where it does them) and a
// persisted query (where it supports one) against a running Casegraph.
// server/clients_test.go starts the server over Neo4j, writes the data and
// runs this (node matrix.mjs); it exits 1 when a step fails.
import { summary } from './lib.mjs';

// Ending a subscription aborts its fetch: urql's reader of the event
// stream then rejects with an AbortError nobody awaits (a browser logs
// it). Any other unhandled rejection fails the run.
process.on('unhandledRejection', (err) => {
  if (err?.name === 'AbortError') return;
  console.log(`FAIL unhandled rejection: ${err?.stack ?? err}`);
  process.exitCode = 1;
});

const clients = ['urql', 'apollo', 'relay', 'graphql-request', 'graphql-ws', 'graphql-sse'];
// CASEGRAPH_CLIENTS=urql,relay runs only those.
const only = (process.env.CASEGRAPH_CLIENTS ?? '').split(',').filter(Boolean);
for (const name of clients) {
  if (only.length && !only.includes(name)) continue;
  const { run } = await import(`./${name}.mjs`);
  await run();
}
process.exit(summary() && !process.exitCode ? 0 : 1);
