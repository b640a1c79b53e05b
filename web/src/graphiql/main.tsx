// GraphiQL, bundled and served by the binary: it works without internet
// and under the same Content-Security-Policy as the explorer. The headers
// tab starts with the credentials the explorer holds for this tab.
import { GraphiQL } from "graphiql";
import type { Fetcher } from "@graphiql/toolkit";
import { createRoot } from "react-dom/client";
import { getOperationAST, parse, type ExecutionResult } from "graphql";
import "graphiql/graphiql.css";
import "./page.css";
import { authHeader } from "../explorer/auth";

// Queries and mutations are plain POSTs; a subscription is a POST that
// accepts server-sent events, read as they come (no WebSocket: the page
// needs nothing the server does not serve).
const fetcher: Fetcher = (params, opts) => {
  const headers = opts?.headers ?? {};
  if (isSubscription(params.query, params.operationName)) {
    return events(params, headers);
  }
  return fetch("/graphql", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json", ...headers },
    body: JSON.stringify(params),
  }).then((response) => response.json());
};

function isSubscription(query: string, operationName?: string | null): boolean {
  try {
    return getOperationAST(parse(query), operationName ?? undefined)?.operation === "subscription";
  } catch {
    return false; // the server says what is wrong with it
  }
}

// events yields each event of a subscription over server-sent events until
// the server completes it or GraphiQL stops it.
async function* events(params: unknown, headers: Record<string, string>): AsyncGenerator<ExecutionResult> {
  const abort = new AbortController();
  try {
    const response = await fetch("/graphql", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "text/event-stream", ...headers },
      body: JSON.stringify(params),
      signal: abort.signal,
    });
    if (!response.body || !(response.headers.get("Content-Type") ?? "").startsWith("text/event-stream")) {
      yield (await response.json()) as ExecutionResult; // a refusal before the stream (401, 429 ...)
      return;
    }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (block.startsWith("event: complete")) return;
        const data = block
          .split("\n")
          .filter((line) => line.startsWith("data: "))
          .map((line) => line.slice(6))
          .join("\n");
        if (data) yield JSON.parse(data) as ExecutionResult;
      }
    }
  } finally {
    abort.abort();
  }
}

const auth = authHeader();
const root = document.getElementById("graphiql");
if (root) {
  createRoot(root).render(
    <GraphiQL
      fetcher={fetcher}
      defaultHeaders={auth ? JSON.stringify({ Authorization: auth }, null, 2) : undefined}
      shouldPersistHeaders={false}
      defaultQuery={'{\n  entity(id: "caesar") {\n    name\n    sources { title publisher }\n  }\n}\n'}
    />,
  );
}
