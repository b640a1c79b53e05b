// The documents of the Relay client, as an app writes them: relay-compiler
// (npm run relay, which relay.mjs runs before the client) compiles them
// into relay/__generated__/, which relay.mjs imports. This file is read by
// the compiler, never run.
/* global graphql */

graphql`
  query relayPeopleQuery($ds: [String!]) {
    ...relayPeople_query @arguments(ds: $ds)
  }
`;

// A page of people with @connection, and its pagination query made by
// @refetchable: the next page is fetched and merged into the connection.
graphql`
  fragment relayPeople_query on Query
  @refetchable(queryName: "relayPeoplePaginationQuery")
  @argumentDefinitions(
    ds: { type: "[String!]" }
    count: { type: "Int", defaultValue: 2 }
    cursor: { type: "String" }
  ) {
    entities(filter: { datasets: $ds }, first: $count, after: $cursor)
      @connection(key: "relayPeople_entities", filters: ["filter"]) {
      edges {
        node {
          id
          name
        }
      }
    }
  }
`;

// A person refetched by its id (node(id:), made by @refetchable).
graphql`
  fragment relayPerson_person on Person @refetchable(queryName: "relayPersonRefetchQuery") {
    id
    name
  }
`;

graphql`
  query relayPersonQuery($id: ID!) {
    entity(id: $id) {
      ...relayPerson_person @alias
    }
  }
`;

graphql`
  mutation relayMakeMutation($in: EntityInput!) {
    upsertEntity(input: $in) {
      id
      name
    }
  }
`;

graphql`
  subscription relayWatchSubscription($ds: [String!]) {
    changes(datasets: $ds) {
      cursor
      change {
        operation
      }
    }
  }
`;
