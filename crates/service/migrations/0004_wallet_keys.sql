-- What the service keeps of a wallet's PIN (crates/api/src/keys.rs). The device
-- derives k = Argon2id(PIN, salt) and sends only proof = HMAC(k, ..) and a random
-- share; its key is HKDF(k || share). The proof is kept as a keyed hash and the
-- share encrypted, both under keys derived from `pin_secret`, which is never in
-- the database: a copy of this table alone checks no PIN guess and opens no share.

CREATE TABLE wallet_keys (
    wallet_id     TEXT PRIMARY KEY REFERENCES wallets (id) ON DELETE CASCADE,
    -- The address whose key signed the registration (lowercase hex); a PIN reset
    -- must be signed by the same key.
    address       TEXT NOT NULL,
    -- Argon2id salt (base64) and costs (memory in KiB, iterations, lanes), as the
    -- device chose them; given back to it to derive k again.
    salt          TEXT NOT NULL,
    m_cost        BIGINT NOT NULL,
    t_cost        BIGINT NOT NULL,
    p_cost        BIGINT NOT NULL,
    -- HMAC-SHA256(pepper, proof), hex.
    proof_hash    TEXT NOT NULL,
    -- base64(nonce (24 bytes) || XChaCha20-Poly1305 ciphertext of the 32-byte
    -- share), with the wallet id as associated data.
    share_sealed  TEXT NOT NULL,
    -- The mnemonic sealed by the device under its own key (opaque base64), if the
    -- person opted into a backup.
    backup        TEXT,
    -- Wrong proofs in a row. The 5th to 9th start a pause until locked_until (unix
    -- seconds); the 10th sets email_locked (0/1) until the e-mail link is opened.
    failures      BIGINT NOT NULL DEFAULT 0,
    locked_until  BIGINT NOT NULL DEFAULT 0,
    email_locked  BIGINT NOT NULL DEFAULT 0,
    updated_at    BIGINT NOT NULL
);

-- Nonces a device signs to prove it holds a wallet's key (register, PIN reset).
-- Each is used once and works for 10 minutes; a user keeps only the newest few.
CREATE TABLE wallet_challenges (
    nonce       TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- A UUIDv7 made at issue: orders a user's challenges, newest last.
    issued_id   TEXT NOT NULL,
    expires_at  BIGINT NOT NULL,
    used_at     BIGINT
);
CREATE INDEX wallet_challenges_user ON wallet_challenges (user_id, issued_id);
CREATE INDEX wallet_challenges_expiry ON wallet_challenges (expires_at);

-- Single-use links that lift a PIN lock; only the token's SHA-256 is kept.
CREATE TABLE pin_unlocks (
    token_hash  TEXT PRIMARY KEY,
    wallet_id   TEXT NOT NULL REFERENCES wallets (id) ON DELETE CASCADE,
    expires_at  BIGINT NOT NULL,
    used_at     BIGINT
);
CREATE INDEX pin_unlocks_wallet ON pin_unlocks (wallet_id);
