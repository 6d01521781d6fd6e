-- When an identity session last renewed its tokens: one idle for longer than the
-- refresh-token lifetime has ended (NULL: not since it was made).
ALTER TABLE identity_sessions ADD COLUMN last_used_at BIGINT;
