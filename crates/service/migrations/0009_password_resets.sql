-- Password resets by e-mail link: single use, for an hour; only the token's
-- SHA-256 is kept. Using one sets the new password, marks the address verified
-- and ends every session of the identity.
CREATE TABLE password_resets (
    token_hash   TEXT PRIMARY KEY,
    identity_id  TEXT NOT NULL REFERENCES email_identities (id) ON DELETE CASCADE,
    expires_at   BIGINT NOT NULL,
    used_at      BIGINT
);
CREATE INDEX password_resets_identity ON password_resets (identity_id);


-- A reset ends every session of its identity: found by the identity.
CREATE INDEX identity_sessions_identity ON identity_sessions (identity_id);
