-- Vector Storage's indexes: what the file store keeps as vectors/<source>/<collection>[/<model scope>]/index.json,
-- a Vectra index (ST: src/endpoints/vectors.js, vectra's LocalIndex). Similarity is computed in Tankard, on the
-- items loaded into memory (tankard.vector.store.PgVectorStore); the database keeps them and says when they changed.

-- One row per index: source, collection and scope are the folder names the file store gives it (ST's cleaning).
-- The file is head, the items joined (see vector_items.gap) and tail: head is its bytes through the '[' of "items"
-- (what Vectra writes before the items: {"version":1,"metadata_config":{},"items":[), tail its bytes from the end of
-- the last item (]}), so that an imported index.json is exported byte for byte. original is set only for a file
-- that could not be cut into items (not a readable Vectra index): export writes it as it came until the index's
-- first change, and the index answers as empty meanwhile. version counts the changes (each insert or delete that
-- changed something adds one): a node answers from its copy in memory only while its version is the row's.
-- reset_version is the version of the last change that removed items: a copy at least that recent takes only the
-- items after its last seq, an older one loads the index anew. next_seq is the seq of the next item added.
-- modified_ms is the file's mtime in Node's units: the time of the last change, or the one an import gave.
CREATE TABLE vector_collections (
    handle        text             NOT NULL,
    collection_id bigserial        NOT NULL,
    source        text             NOT NULL,
    collection    text             NOT NULL,
    scope         text             NOT NULL,
    head          bytea            NOT NULL,
    tail          bytea            NOT NULL,
    original      bytea,
    version       bigint           NOT NULL,
    reset_version bigint           NOT NULL,
    next_seq      bigint           NOT NULL,
    modified_ms   double precision NOT NULL,
    PRIMARY KEY (handle, collection_id),
    UNIQUE (handle, source, collection, scope)
);

-- One row per item, in the index's order (seq). item is the item's JSON exactly as index.json holds it
-- ({"id","metadata","vector","norm"}), its vector's array text at [vector_from, vector_to) of its bytes, so a load
-- reads the item without that text: vector holds the same numbers as float32 (little-endian), what a query scores.
-- gap is what index.json holds between the item before (or the '[') and this one when it is not Vectra's plain
-- comma (null): the spacing of a pretty-printed file. hash is metadata.hash when it is a number, what a delete
-- matches (Vectra's $in on metadata.hash).
CREATE TABLE vector_items (
    handle        text             NOT NULL,
    collection_id bigint           NOT NULL,
    seq           bigint           NOT NULL,
    gap           bytea,
    item          bytea            NOT NULL,
    vector_from   integer          NOT NULL,
    vector_to     integer          NOT NULL,
    vector        bytea            NOT NULL,
    norm          double precision NOT NULL,
    hash          double precision,
    PRIMARY KEY (handle, collection_id, seq),
    FOREIGN KEY (handle, collection_id) REFERENCES vector_collections (handle, collection_id) ON DELETE CASCADE
);

CREATE INDEX vector_items_hash ON vector_items (handle, collection_id, hash);
