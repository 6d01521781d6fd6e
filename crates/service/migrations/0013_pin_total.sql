-- Wrong PIN proofs since the last right one (or the last reset by the recovery
-- phrase). The e-mailed unlock link lifts a lock but not this count: past
-- PIN_TRIES_BEFORE_RECOVERY only the recovery phrase lets the wallet go on, so
-- whoever holds the mailbox cannot keep guessing ten at a time.
ALTER TABLE wallet_keys ADD COLUMN wrong_total BIGINT NOT NULL DEFAULT 0;
