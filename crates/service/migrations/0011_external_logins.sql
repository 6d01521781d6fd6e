-- Logins through someone else's identity: OAuth providers, and id or access tokens
-- an app's backend vouches for with `sign`.

-- The OAuth providers an app has registered: its client at the provider and the
-- provider's endpoints. The client secret is sealed under the service's secret.
CREATE TABLE oauth_providers (
    app_id                TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    provider              TEXT NOT NULL,
    client_id             TEXT NOT NULL,
    client_secret_sealed  TEXT NOT NULL,
    authorize_url         TEXT NOT NULL,
    token_url             TEXT NOT NULL,
    -- OpenID providers: the id token's issuer and the keys it is signed with.
    issuer                TEXT NOT NULL DEFAULT '',
    jwks_url              TEXT NOT NULL DEFAULT '',
    -- OAuth2 providers: where an access token tells who it is for.
    userinfo_url          TEXT NOT NULL DEFAULT '',
    scopes                TEXT NOT NULL,
    PRIMARY KEY (app_id, provider)
);

-- External tokens: the public key of the app's authentication key (for `sign`),
-- and the issuer, audience and keys of the id tokens its backend issues.
ALTER TABLE apps ADD COLUMN login_public_key TEXT NOT NULL DEFAULT '';
ALTER TABLE apps ADD COLUMN token_issuer TEXT NOT NULL DEFAULT '';
ALTER TABLE apps ADD COLUMN token_audience TEXT NOT NULL DEFAULT '';
ALTER TABLE apps ADD COLUMN token_jwks_url TEXT NOT NULL DEFAULT '';

-- A person as an OAuth provider or an app's backend knows them. `email` is NULL
-- until the provider gave a verified one or the person registered one.
CREATE TABLE external_identities (
    id          TEXT PRIMARY KEY,
    app_id      TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    -- google, apple, line, naver, discord, facebook, or external_token.
    provider    TEXT NOT NULL,
    subject     TEXT NOT NULL,
    email       TEXT,
    created_at  BIGINT NOT NULL,
    UNIQUE (app_id, provider, subject)
);

-- A login refused for want of an e-mail: the refused token (its SHA-256) may
-- register an e-mail (sendVerifyEmail) and, once it is verified, log in.
CREATE TABLE email_registration_tickets (
    token_hash      TEXT PRIMARY KEY,
    identity_id     TEXT NOT NULL REFERENCES external_identities (id) ON DELETE CASCADE,
    -- The provider of the LoginResult the ticket logs in as.
    login_provider  TEXT NOT NULL,
    expires_at      BIGINT NOT NULL
);
CREATE INDEX email_registration_tickets_identity ON email_registration_tickets (identity_id);

-- The single-use links of sendVerifyEmail.
CREATE TABLE email_registrations (
    token_hash   TEXT PRIMARY KEY,
    identity_id  TEXT NOT NULL REFERENCES external_identities (id) ON DELETE CASCADE,
    email        TEXT NOT NULL,
    expires_at   BIGINT NOT NULL,
    used_at      BIGINT
);

-- Identity sessions now belong to an e-mail identity or an external one: the
-- table is made again without its reference to email_identities (the code
-- deletes an e-mail identity's sessions with it).
CREATE TABLE identity_sessions_new (
    id            TEXT PRIMARY KEY,
    identity_id   TEXT NOT NULL,
    created_at    BIGINT NOT NULL,
    revoked_at    BIGINT,
    last_used_at  BIGINT,
    -- The provider of the login's LoginResult (and its id tokens' `provider`).
    login_provider TEXT NOT NULL DEFAULT 'email'
);
INSERT INTO identity_sessions_new (id, identity_id, created_at, revoked_at, last_used_at)
    SELECT id, identity_id, created_at, revoked_at, last_used_at FROM identity_sessions;
DROP TABLE identity_sessions;
ALTER TABLE identity_sessions_new RENAME TO identity_sessions;
CREATE INDEX identity_sessions_identity ON identity_sessions (identity_id);
