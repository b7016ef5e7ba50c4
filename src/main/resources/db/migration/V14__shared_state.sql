-- What every node of one database shares beyond the users' data (docs/operations.md, several nodes).

-- Values of the server as a whole that every node must use alike, made once by the first node that needs one: the
-- session cookies' signing key (which ST keeps in cookie-secret.txt) and their name (ST names them after the host),
-- so that every node reads and signs the same cookies. Not a user's data.
CREATE TABLE server_values (
    name  text PRIMARY KEY,
    value text NOT NULL
);

-- Short-lived values of a user's that another node may be asked to continue with: a password recovery or account
-- reset code, a Data Maid report's token and files. One of each kind per user; expires_ms is when it lapses.
CREATE TABLE user_tickets (
    handle     text   NOT NULL,
    kind       text   NOT NULL,
    value      text   NOT NULL,
    expires_ms bigint NOT NULL,
    PRIMARY KEY (handle, kind)
);
