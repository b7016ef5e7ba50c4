-- Groups: what ST keeps as groups/<sanitized id>.json (ST: src/endpoints/groups.js). name is that file name and
-- content the file's bytes as written (ST's pretty JSON), so an export gives the same file; created_ms is the
-- file's birth time in Node's units, which each atomic save (a new file renamed over the old) renews.
CREATE TABLE groups (
    handle     text             NOT NULL,
    name       text             NOT NULL,
    content    bytea            NOT NULL,
    created_ms double precision NOT NULL,
    PRIMARY KEY (handle, name)
);
