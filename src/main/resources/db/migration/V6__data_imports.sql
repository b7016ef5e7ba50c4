-- The data roots bin/tankard import-data has loaded (or is loading) into this database: an import that was cut
-- short is finished by running it again, while any other import into a database that holds data is refused
-- unless forced. Not a user's data, so its key is the source folder.
CREATE TABLE data_imports (
    source      text   PRIMARY KEY,
    started_ms  bigint NOT NULL,
    finished_ms bigint
);
