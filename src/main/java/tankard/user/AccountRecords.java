package tankard.user;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.json.JsJson;

/** An account's JSON as ST's node-persist store holds it (ST: src/users.js), for every account store. */
final class AccountRecords {
    private AccountRecords() {
    }

    static JsonNode toJson(User user) {
        return JsJson.tree(user);
    }

    static User fromJson(JsonNode v) {
        return new User(v.path("handle").asText(null), v.path("name").asText(""), v.path("created").asLong(0),
                v.path("password").asText(""), v.path("salt").asText(""), v.path("admin").asBoolean(false),
                v.path("enabled").asBoolean(false));
    }

    /** Whether the record names an account: ST skips entries without a handle. */
    static boolean named(User user) {
        return user.handle() != null && !user.handle().isEmpty();
    }
}
