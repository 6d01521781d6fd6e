-- An account's token accounts in their order, found by the index: operations 1
-- and 2 read them `ORDER BY position`, which without it sorted the rows each time
-- (SQLite in a temporary b-tree). The unique (account_id, contract) index stays
-- for lookups by contract.
CREATE INDEX token_accounts_order ON token_accounts (account_id, position);
