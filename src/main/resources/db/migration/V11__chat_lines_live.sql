-- A chat's live lines in order with their hashes, for a whole-chat save's comparison (PgChatStore.save): an
-- index-only scan of the chat's lines. Without it, once the statistics show chat_lines holding a few large chats,
-- the planner reads the whole table and sorts (82-196 ms for a chat of 20,000 lines beside five backups of it,
-- 2.7-9.7 ms with it).
CREATE INDEX chat_lines_live ON chat_lines (user_handle, chat_id, byte_offset) INCLUDE (hash) WHERE replaced_in IS NULL;
