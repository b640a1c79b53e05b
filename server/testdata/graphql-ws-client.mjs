// A graphql-ws client (the npm package pinned in web/package.json) that
// the watch tests drive: one JSON command a line on stdin, one JSON event
// a line on stdout. node graphql-ws-client.mjs <web/node_modules> <ws url>
//
//   {"op":"connect","client":"c1","token":"..."}     connectionParams' Authorization
//   {"op":"subscribe","client":"c1","id":"s1","query":"...","variables":{...}}
//   {"op":"unsubscribe","id":"s1"}
//   {"op":"close","client":"c1"}
//
// Events: {"client","type":"connected"|"closed","code","reason"} and
// {"id","type":"next"|"error"|"complete","payload"|"errors"}.
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const [modules, url] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(join(modules, p)).href);
const { createClient } = await load('graphql-ws/dist/index.js');
const { default: WebSocket } = await load('ws/wrapper.mjs');

const print = (e) => process.stdout.write(JSON.stringify(e) + '\n');
const clients = new Map();
const subscriptions = new Map();

function connect({ client, token }) {
  const c = createClient({
    url,
    webSocketImpl: WebSocket,
    lazy: false,
    retryAttempts: 0,
    onNonLazyError: () => {}, // the closed event reports it
    connectionParams: token ? { Authorization: `Bearer ${token}` } : {},
    on: {
      connected: () => print({ client, type: 'connected' }),
      closed: (e) => print({ client, type: 'closed', code: e?.code, reason: e?.reason }),
      error: () => {},
    },
  });
  clients.set(client, c);
}

function subscribe({ client, id, query, variables }) {
  const dispose = clients.get(client).subscribe(
    { query, variables },
    {
      next: (payload) => print({ id, type: 'next', payload }),
      error: (e) => print({ id, type: 'error', errors: Array.isArray(e) ? e : [{ message: String(e?.reason ?? e?.message ?? e), code: e?.code }] }),
      complete: () => print({ id, type: 'complete' }),
    },
  );
  subscriptions.set(id, dispose);
}

// dispose closes a client; one the server closed already has nothing to
// close (graphql-ws rejects with the close event).
async function dispose(c) {
  try {
    await c?.dispose();
  } catch {}
}

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  const cmd = JSON.parse(line);
  switch (cmd.op) {
    case 'connect': connect(cmd); break;
    case 'subscribe': subscribe(cmd); break;
    case 'unsubscribe': subscriptions.get(cmd.id)?.(); break;
    case 'close': await dispose(clients.get(cmd.client)); break;
    default: print({ type: 'bad command', line });
  }
}
for (const c of clients.values()) await dispose(c);
