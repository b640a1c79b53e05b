// The Relay client's persisted documents: a project of its own
// (relay-persisted.config.json), whose persistConfig writes each
// operation's text into .relay/persisted.json (id -> text, the id its
// SHA-256) and leaves the compiled operation its id alone (params.id,
// params.text null). server/clients_test.go compiles it and starts the
// server with that file registered (--persisted-documents); relay.mjs's
// "persisted query" step sends the id as doc_id. (In relay.config.json's
// project, whose operations the other steps send as text, persisting
// would take the text away from them all.) This file is read by the
// compiler, never run.
/* global graphql */

graphql`
  query relayPersistedPeopleQuery($ds: [String!]) {
    entities(filter: { datasets: $ds }, first: 10) {
      edges {
        node {
          ...relayPersisted_person
        }
      }
    }
  }
`;

graphql`
  fragment relayPersisted_person on Entity {
    id
    name
  }
`;
