-- A user's blobs: every file of the user's folder that no other store keeps (images, Data Bank files, sprites,
-- assets, backgrounds, persona avatars, content.log, ...; tankard.Stores.isBlob). folder and name are the file's
-- place in ST's layout: folder its folder's path from the user's folder ('' for that folder itself,
-- 'user/images/Seraphina'), name the file's name. Both are in the "C" collation, byte order whatever the database's:
-- a listing is in Node's readdir order, and a folder with everything under it is one range of the key.
-- id names the blob's content, in blob_chunks: each write stores its content under a new id and then points the row
-- at it, so a read, which fetches the chunks of the id it was opened on, never mixes two versions. size and sha256
-- are the content's, modified_ms the file's mtimeMs in Node's units.
CREATE SEQUENCE blob_ids;

CREATE TABLE blobs (
    handle      text             NOT NULL,
    folder      text COLLATE "C" NOT NULL,
    name        text COLLATE "C" NOT NULL,
    id          bigint           NOT NULL,
    size        bigint           NOT NULL,
    modified_ms double precision NOT NULL,
    sha256      bytea            NOT NULL,
    PRIMARY KEY (handle, folder, name),
    UNIQUE (handle, id)
);

-- A blob's content in chunks of 256 KiB in chunk_index order, the last one shorter (an empty blob has none). A
-- write inserts its chunks before the row points at them, so the key is checked at commit: no transaction leaves a
-- chunk without its blob. Deleting a blob deletes its chunks.
CREATE TABLE blob_chunks (
    handle      text    NOT NULL,
    blob_id     bigint  NOT NULL,
    chunk_index integer NOT NULL,
    data        bytea   NOT NULL,
    PRIMARY KEY (handle, blob_id, chunk_index),
    FOREIGN KEY (handle, blob_id) REFERENCES blobs (handle, id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED
);

-- Out of line and uncompressed: most blobs are images, already compressed, which pglz would only try and give up on.
ALTER TABLE blob_chunks ALTER COLUMN data SET STORAGE EXTERNAL;
