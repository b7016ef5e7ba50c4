-- Tankard's schema. Every table's key starts with the user (an account's handle), so that a distributed
-- PostgreSQL (Citus) could shard by it.

-- Accounts: what ST keeps as node-persist entries in _storage/ (ST: src/users.js), "user:<handle>" in accounts
-- and "avatar:<handle>" in account_avatars. record is the account object's JSON text as it was written, so that
-- an export gives the same bytes; created orders the accounts as ST lists them.
CREATE TABLE accounts (
    handle  text   PRIMARY KEY,
    created bigint NOT NULL,
    record  text   NOT NULL
);

-- A custom account avatar, a data: URL. ST keeps it apart from the account, and so may an import.
CREATE TABLE account_avatars (
    handle   text PRIMARY KEY,
    data_url text NOT NULL
);
