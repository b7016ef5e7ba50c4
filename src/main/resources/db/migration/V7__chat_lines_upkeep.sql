-- chat_lines.hash is now the line's 128-bit MurmurHash3 (PgChatStore.lineHash), some ten times cheaper to
-- compute than SHA-256 where the JVM runs C1 only. It tells a changed line from an unchanged one and nothing
-- more. Lines written before this hold a SHA-256, which never equals a new hash: the next save of such a chat
-- rewrites it from its first line, once.
COMMENT ON COLUMN chat_lines.hash IS 'MurmurHash3 x64 128 of the line, to find the first changed line on a save';

-- Each save deletes the chat's lines replaced more than ten minutes before; without this index that looked at
-- every line of the chat (a 20,000-message chat: some 20 ms a save). Live lines are not in it.
CREATE INDEX chat_lines_replaced ON chat_lines (user_handle, chat_id, replaced_at) WHERE replaced_in IS NOT NULL;
