-- A shop's first schema: one row per user action, partitioned by month, and the users,
-- of whom ReplacingMergeTree keeps the row with the latest updated_at.
CREATE TABLE events
(
    id UInt64,
    ts DateTime('UTC'),
    user_id UInt32,
    kind LowCardinality(String),
    payload String
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(ts)
ORDER BY (kind, ts, id);

CREATE TABLE users
(
    user_id UInt32,
    name String,
    email String,
    visits UInt32,
    updated_at DateTime('UTC')
)
ENGINE = ReplacingMergeTree(updated_at)
ORDER BY user_id;
