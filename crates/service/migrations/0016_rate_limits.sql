-- Rate limits shared by the instances on one PostgreSQL database: per key, the
-- time (Unix milliseconds) at which its allowance is full again (GCRA's
-- "theoretical arrival time"). A row whose time has passed is at its full
-- allowance and may be deleted.
CREATE TABLE rate_limits (
    key     TEXT PRIMARY KEY,
    tat_ms  BIGINT NOT NULL
);
