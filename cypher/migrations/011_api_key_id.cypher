// One API key an id; a request's key is found by it (the token carries it).
CREATE CONSTRAINT api_key_id IF NOT EXISTS
FOR (k:ApiKey) REQUIRE k.id IS UNIQUE
