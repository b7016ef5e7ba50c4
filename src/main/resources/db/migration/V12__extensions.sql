-- Third-party extensions (git checkouts) installed through any node, so that every node brings its own folders to
-- the same state (tankard.extension.ExtensionRecords): per scope ('' for the global folder, else a user's handle)
-- and folder name, where the checkout came from and the branch and commit it is at. A removal stays as a row with
-- removed = true until the name is installed again, so that the nodes that still have the folder delete it too.
CREATE TABLE extensions (
    scope       text    NOT NULL,
    name        text    NOT NULL,
    url         text    NOT NULL,
    branch      text    NOT NULL,
    commit_hash text    NOT NULL,
    removed     boolean NOT NULL DEFAULT false,
    PRIMARY KEY (scope, name)
);
