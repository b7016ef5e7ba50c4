-- Chats and chat backups: what ST keeps as files under the user's folder (ST: src/endpoints/chats.js,
-- src/endpoints/backups.js). area is the folder there ('chats', 'group chats', 'backups'); folder is a
-- character's chat folder under chats/ ('' for chats/ itself, for group chats and for backups).

-- Chat folders, which exist while empty in ST (a card's folder is made with the card): the character list
-- tells a card with no chats from one whose folder is missing.
CREATE TABLE chat_folders (
    user_handle text NOT NULL,
    area        text NOT NULL,
    folder      text NOT NULL,
    PRIMARY KEY (user_handle, area, folder)
);

-- One row per chat file: its stat (size; modified_ms is Node's mtimeMs, strictly later after every write, so a
-- save that compares stats sees any change) and the number of its writes (version), which a read is opened on.
CREATE TABLE chats (
    user_handle text             NOT NULL,
    chat_id     bigserial        NOT NULL,
    area        text             NOT NULL,
    folder      text             NOT NULL,
    name        text             NOT NULL,
    size        bigint           NOT NULL,
    modified_ms double precision NOT NULL,
    version     bigint           NOT NULL,
    PRIMARY KEY (user_handle, chat_id),
    UNIQUE (user_handle, area, folder, name)
);

-- A chat's bytes, one row per line as the file holds it, its LF included (the last line may have none), so
-- that the file is its live rows (replaced_in null) in byte_offset order, byte for byte, whatever they hold.
-- byte_offset (where the line starts in the file) finds the line a read at any position needs. A save that
-- changes the end of a chat (one new message, an edit of the last one) replaces only the lines from the first
-- changed one, found by comparing each line's SHA-256 (hash) with the new content's.
-- A save marks the lines it replaces (replaced_in: the chat's version it made, replaced_at) rather than deleting
-- them, so that a read opened on an earlier version (gen: the version that wrote the line) keeps reading the
-- chat it was opened on without holding a connection or a transaction; the next save of the chat deletes the
-- lines replaced more than ten minutes before.
CREATE TABLE chat_lines (
    user_handle text        NOT NULL,
    chat_id     bigint      NOT NULL,
    byte_offset bigint      NOT NULL,
    gen         bigint      NOT NULL,
    replaced_in bigint,
    replaced_at timestamptz,
    hash        bytea       NOT NULL,
    line        bytea       NOT NULL,
    PRIMARY KEY (user_handle, chat_id, byte_offset, gen),
    FOREIGN KEY (user_handle, chat_id) REFERENCES chats (user_handle, chat_id) ON DELETE CASCADE
);
