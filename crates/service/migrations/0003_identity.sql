-- The service as the identity provider of e-mail users, and rotating refresh tokens.

-- What an app allows: comma-separated providers and e-mail domains ('' = any).
ALTER TABLE apps ADD COLUMN providers TEXT NOT NULL DEFAULT 'email';
ALTER TABLE apps ADD COLUMN email_verification BIGINT NOT NULL DEFAULT 1;
ALTER TABLE apps ADD COLUMN email_domains TEXT NOT NULL DEFAULT '';

CREATE TABLE email_identities (
    id             TEXT PRIMARY KEY,
    app_id         TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    -- Normalised: trimmed, lowercase.
    email          TEXT NOT NULL,
    -- argon2id PHC string, with its own salt.
    password_hash  TEXT NOT NULL,
    verified_at    BIGINT,
    created_at     BIGINT NOT NULL,
    UNIQUE (app_id, email)
);

-- Single-use links of verification e-mails; only the token's SHA-256 is kept.
CREATE TABLE email_verifications (
    token_hash   TEXT PRIMARY KEY,
    identity_id  TEXT NOT NULL REFERENCES email_identities (id) ON DELETE CASCADE,
    expires_at   BIGINT NOT NULL,
    used_at      BIGINT
);

-- One login of an e-mail identity; its id tokens and refresh tokens belong to it.
CREATE TABLE identity_sessions (
    id           TEXT PRIMARY KEY,
    identity_id  TEXT NOT NULL REFERENCES email_identities (id) ON DELETE CASCADE,
    created_at   BIGINT NOT NULL,
    revoked_at   BIGINT
);

-- A service session may come from an identity session; logging out ends both.
ALTER TABLE sessions ADD COLUMN identity_session_id TEXT;

-- Refresh tokens, identity and service alike. Each is used once: using it marks it
-- and issues the next of its family (the session it belongs to). Presenting a token
-- that was used already revokes the family, so a stolen token dies with its use.
CREATE TABLE refresh_tokens (
    token_hash  TEXT PRIMARY KEY,
    -- 'identity' (family = identity_sessions.id) or 'service' (family = sessions.id).
    purpose     TEXT NOT NULL,
    family_id   TEXT NOT NULL,
    issued_at   BIGINT NOT NULL,
    expires_at  BIGINT NOT NULL,
    used_at     BIGINT
);
CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);
