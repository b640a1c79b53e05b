// GraphiQL, bundled and served by the binary: it works without internet
// and under the same Content-Security-Policy as the explorer. The headers
// tab starts with the credentials the explorer holds for this tab.
import { GraphiQL } from "graphiql";
import type { Fetcher } from "@graphiql/toolkit";
import { createRoot } from "react-dom/client";
import "graphiql/graphiql.css";
import "./page.css";
import { authHeader } from "../explorer/auth";

const fetcher: Fetcher = async (params, opts) => {
  const response = await fetch("/graphql", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json", ...(opts?.headers ?? {}) },
    body: JSON.stringify(params),
  });
  return response.json();
};

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
