// The peer of the Casegraph benchmark: the Neo4j GraphQL Library
// (@neo4j/graphql 7) served by graphql-yoga 5 over the graph Casegraph
// writes (same labels, same relationship types, same properties).
//
// Run it (see ../README.md):
//
//   npm ci                                   # once; bench/run.sh does it when node_modules is missing
//   NEO4J_URI=bolt://127.0.0.1:7687 PORT=4000 node server.js
//
// Environment: NEO4J_URI (default bolt://127.0.0.1:7687), NEO4J_USER and
// NEO4J_PASSWORD (empty: no authentication), NEO4J_DATABASE (default neo4j),
// PORT (default 4000), HOST (default 127.0.0.1). POST /graphql.
//
// What the library cannot express by itself, and what its users write
// instead (a @cypher field, which the library inlines as a subquery of the
// one statement it compiles a query into):
//   - "every relation of an entity, of any type, either way, in id order":
//     a @relationship field has one type and one direction, so relations
//     and neighbors are @cypher fields on EntityNode, one node type over
//     the :Entity label (typedefs.js says why not the Entity interface);
//   - shortest paths: a @cypher field on Query with Casegraph's
//     shortestPath() pattern (maxDepth 4).
// Full-text search is the library's own @fulltext, over Casegraph's
// entity_search index, on EntityNode too.
import { createServer } from "node:http";

import { Neo4jGraphQL } from "@neo4j/graphql";
import { createYoga } from "graphql-yoga";
import neo4j from "neo4j-driver";

import { typeDefs } from "./typedefs.js";

const env = process.env;
const uri = env.NEO4J_URI || "bolt://127.0.0.1:7687";
const port = Number(env.PORT || 4000);
const host = env.HOST || "127.0.0.1";
const database = env.NEO4J_DATABASE || "neo4j";
const auth = env.NEO4J_USER ? neo4j.auth.basic(env.NEO4J_USER, env.NEO4J_PASSWORD || "") : undefined;

const driver = neo4j.driver(uri, auth, { disableLosslessIntegers: true });
const neoSchema = new Neo4jGraphQL({ typeDefs, driver, features: { filters: { String: { GT: true } } } });
const schema = await neoSchema.getSchema();
await driver.verifyConnectivity({ database });

const yoga = createYoga({
  schema,
  graphqlEndpoint: "/graphql",
  graphiql: false,
  logging: "warn",
  context: () => ({ sessionConfig: { database } }),
});

const server = createServer(yoga);
server.listen(port, host, () => {
  console.log(`peer: @neo4j/graphql on http://${host}:${port}/graphql (Neo4j ${uri})`);
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.close();
    driver.close().finally(() => process.exit(0));
  });
}
