// Runs graphql-http's audits of the GraphQL-over-HTTP spec against a
// server and prints one JSON line per audit ({id, name, status, reason}).
// TestGraphQLOverHTTPAudit runs it: node graphql-http-audit.mjs <path of
// web/node_modules/graphql-http> <url of /graphql>.
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const [moduleDir, url] = process.argv.slice(2);
const { serverAudits } = await import(pathToFileURL(join(moduleDir, 'lib', 'index.mjs')).href);
for (const audit of serverAudits({ url })) {
  const result = await audit.fn();
  const line = { id: result.id, name: result.name, status: result.status };
  if (result.status !== 'ok') {
    line.reason = result.reason;
    // The response body, for the test's log.
    try {
      line.response = `${result.response.status} ${result.response.headers.get('content-type')} ${await result.response.text()}`;
    } catch (e) {
      line.response = `(body unread: ${e})`;
    }
  }
  console.log(JSON.stringify(line));
}
