-- Which instance's receipt follower follows a pending transaction: it reads it
-- again on each pass; another instance takes it over only after the claim has
-- gone unrenewed for a lease's time (its claimant stopped).
ALTER TABLE transactions ADD COLUMN claimed_by TEXT;
