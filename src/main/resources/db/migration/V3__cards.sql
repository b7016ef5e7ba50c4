-- Character cards: what ST keeps as characters/<name>.png. content is the PNG's bytes exactly (an exported card is
-- the same file); card_text the card's JSON text from its ccv3 or chara chunk, taken out once at write so that a
-- list of the library reads no images (null when the PNG holds no readable card). modified_ms and changed_ms are
-- the times the card index and ST's date_added read, in Node's units; every write moves them on, even two writes
-- in the same millisecond, so that a cache keyed by them sees every change.
CREATE TABLE cards (
    handle      text             NOT NULL,
    name        text             NOT NULL,
    content     bytea            NOT NULL,
    card_text   bytea,
    modified_ms double precision NOT NULL,
    changed_ms  double precision NOT NULL,
    PRIMARY KEY (handle, name)
);
