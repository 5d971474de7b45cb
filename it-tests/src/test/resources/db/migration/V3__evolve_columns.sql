-- A day to group by, computed from ts; parts written before compute it when read.
ALTER TABLE events ADD COLUMN IF NOT EXISTS day Date MATERIALIZED toDate(ts);
-- V2's column again, as a hot-fix branch had it: IF NOT EXISTS leaves the one there alone.
ALTER TABLE events ADD COLUMN IF NOT EXISTS amount Decimal(18, 2) DEFAULT 0;
ALTER TABLE users MODIFY COLUMN visits UInt64;
ALTER TABLE events RENAME COLUMN payload TO details;
ALTER TABLE users DROP COLUMN email;
ALTER TABLE events COMMENT COLUMN amount 'order total in EUR', MODIFY COMMENT 'user activity, one row per event';
