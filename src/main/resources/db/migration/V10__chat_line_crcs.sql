-- chat_lines.hash is now the line's CRC-32C and CRC-32, 8 bytes (PgChatStore.lineHash), computed by the CPU's own
-- instructions. Lines stored with the MurmurHash3 of V7 keep it until their chat's next save, which finds no line
-- equal and writes them anew.
COMMENT ON COLUMN chat_lines.hash IS 'CRC-32C then CRC-32 of the line, to find the first changed line on a save';
