-- When the receipt follower last read each pending transaction: it reads the
-- least recently read first, so no account's transactions can keep others'
-- from being followed.
ALTER TABLE transactions ADD COLUMN checked_at BIGINT NOT NULL DEFAULT 0;
CREATE INDEX transactions_follow ON transactions (status, checked_at);
