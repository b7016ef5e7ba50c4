package tankard.group;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import tankard.json.JsJson;
import tankard.json.JsonFiles;
import tankard.store.pg.PgDatabase;
import tankard.util.FileNames;
import tankard.util.SafeNames;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Groups in the {@code groups} table (V2__groups.sql), one row per group file of ST's layout, under the file name
 * the file store would give it and with its bytes, so that both stores list, find and refuse the same.
 */
public final class PgGroupStore implements GroupStore {
    private final PgDatabase db;

    public PgGroupStore(PgDatabase db) {
        this.db = db;
    }

    @Override
    public List<StoredGroup> list(String user) {
        List<Row> rows = db.call(c -> c.preparedQuery("SELECT name, content, created_ms FROM groups WHERE handle = $1")
                .execute(Tuple.of(user)).map(found -> {
                    List<Row> all = new ArrayList<>();
                    found.forEach(all::add);
                    return all;
                }));
        rows.sort(Comparator.comparing(row -> row.getString("name"), FileNames.BYTE_ORDER)); // Node's readdir order
        List<StoredGroup> groups = new ArrayList<>();
        for (Row row : rows) {
            if (parse(row.getBuffer("content")) instanceof ObjectNode group) {
                groups.add(new StoredGroup(group, row.getDouble("created_ms")));
            }
        }
        return groups;
    }

    @Override
    public void save(String user, String id, ObjectNode group) {
        putFile(user, new GroupFile(fileName(id), JsJson.prettyBytes(group)));
    }

    @Override
    public boolean create(String user, String id, ObjectNode group) {
        Tuple row = Tuple.of(user, fileName(id), Buffer.buffer(JsJson.prettyBytes(group)),
                (double) System.currentTimeMillis());
        return db.call(c -> c.preparedQuery("INSERT INTO groups (handle, name, content, created_ms)"
                + " VALUES ($1, $2, $3, $4) ON CONFLICT (handle, name) DO NOTHING").execute(row)
                .map(rows -> rows.rowCount() == 1));
    }

    @Override
    public List<GroupFile> files(String user) {
        List<GroupFile> files = db.call(c -> c.preparedQuery("SELECT name, content FROM groups WHERE handle = $1")
                .execute(Tuple.of(user)).map(rows -> {
                    List<GroupFile> found = new ArrayList<>();
                    rows.forEach(row -> found.add(new GroupFile(row.getString(0), row.getBuffer(1).getBytes())));
                    return found;
                }));
        files.sort(Comparator.comparing(GroupFile::name, FileNames.BYTE_ORDER));
        return files;
    }

    @Override
    public void putFile(String user, GroupFile file) {
        Tuple row = Tuple.of(user, file.name(), Buffer.buffer(file.content()), (double) System.currentTimeMillis());
        db.call(c -> c.preparedQuery("INSERT INTO groups (handle, name, content, created_ms) VALUES ($1, $2, $3, $4)"
                + " ON CONFLICT (handle, name) DO UPDATE SET content = excluded.content, created_ms = excluded.created_ms")
                .execute(row));
    }

    @Override
    public void deleteAll(String user) {
        db.call(c -> c.preparedQuery("DELETE FROM groups WHERE handle = $1").execute(Tuple.of(user)).mapEmpty());
    }

    @Override
    public Optional<ObjectNode> find(String user, String id) {
        String name = fileName(id);
        return db.call(c -> c.preparedQuery("SELECT content FROM groups WHERE handle = $1 AND name = $2")
                .execute(Tuple.of(user, name)).map(rows -> rows.size() > 0
                        && parse(rows.iterator().next().getBuffer(0)) instanceof ObjectNode group
                        ? Optional.of(group) : Optional.empty()));
    }

    @Override
    public void delete(String user, String id) {
        String name = fileName(id);
        db.call(c -> c.preparedQuery("DELETE FROM groups WHERE handle = $1 AND name = $2").execute(Tuple.of(user, name)));
    }

    /**
     * The file name the file store gives the group (the same cleaning, the same refusals): no control character
     * (so no U+0000, which PostgreSQL's text cannot hold) is left in it.
     */
    private static String fileName(String id) {
        return SafeNames.sanitizedFile(Path.of("groups"), id + ".json", "group id").getFileName().toString();
    }

    /** The group's object as JSON.parse reads its file, or null when it does not parse. */
    private static Object parse(Buffer content) {
        return JsonFiles.tryParse(new String(content.getBytes(), StandardCharsets.UTF_8));
    }
}
