-- Operation 1's body kept with its wallet, so that a read of a wallet nobody
-- changed since it was last read is two rows by key (the session, the wallet)
-- instead of its accounts and token accounts put together and rendered again.
-- `accounts_body` is NULL until a read renders it; `accounts_body_of` names what
-- it was rendered with (the service's version and networks: another set-up
-- renders its own). Every write to the wallet's accounts or token accounts adds
-- one to `accounts_version` and clears the body, and a read keeps its rendering
-- only while the version it read is still the wallet's.
ALTER TABLE wallets ADD COLUMN accounts_version BIGINT NOT NULL DEFAULT 0;
ALTER TABLE wallets ADD COLUMN accounts_body TEXT;
ALTER TABLE wallets ADD COLUMN accounts_body_of TEXT;
