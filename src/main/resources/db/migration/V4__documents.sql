-- A user's JSON documents: what ST keeps as files in the user's data folder (ST: src/constants.js,
-- USER_DIRECTORY_TEMPLATE): settings.json, secrets.json and stats.json in the folder itself (folder ''), presets,
-- themes, lorebooks and settings snapshots in the folders of those names ('OpenAI Settings', 'worlds', 'backups',
-- ...). content is the file's bytes exactly, so an export back to files writes the same bytes; modified is the time
-- of the last write, what a listing reports as the file's mtime and ctime.
CREATE TABLE documents (
    handle   text        NOT NULL,
    folder   text        NOT NULL,
    name     text        NOT NULL,
    content  bytea       NOT NULL,
    modified timestamptz NOT NULL,
    PRIMARY KEY (handle, folder, name)
);
