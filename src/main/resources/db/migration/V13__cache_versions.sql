-- The versions of what nodes keep in memory from the database (store.pg.CacheVersions; docs/architecture.md,
-- "Caches across nodes"): a write of such data moves its topic's version on in its own transaction and notifies the
-- channel tankard_changes; a node compares the versions it holds with these. handle is the user whose data it is,
-- '' for data of no one user (the accounts); kind names what is cached.
CREATE TABLE cache_versions (
    handle  text   NOT NULL,
    kind    text   NOT NULL,
    version bigint NOT NULL,
    PRIMARY KEY (handle, kind)
);
