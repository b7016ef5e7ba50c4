-- chat_lines.hash is now the line's 128-bit MurmurHash3 (PgChatStore.lineHash), some ten times cheaper to
-- compute than SHA-256 where the JVM runs C1 only. It tells a changed line from an unchanged one and nothing
-- more. Lines written before this hold a SHA-256, which never equals a new hash: the next save of such a chat
-- rewrites it from its first line, once.
COMMENT ON COLUMN chat_lines.hash IS 'MurmurHash3 x64 128 of the line, to find the first changed line on a save';
