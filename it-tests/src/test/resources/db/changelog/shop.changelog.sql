--liquibase formatted sql

-- The same shop schema as db/migration's Flyway scripts, one changeset per version; the label names the version.

--changeset shop:1-create-events-and-users labels:v1
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

--changeset shop:2-events-amount labels:v2
ALTER TABLE events ADD COLUMN amount Decimal(18, 2) DEFAULT 0 AFTER kind;

--changeset shop:3-evolve-columns labels:v3
ALTER TABLE events ADD COLUMN IF NOT EXISTS day Date MATERIALIZED toDate(ts);
ALTER TABLE events ADD COLUMN IF NOT EXISTS amount Decimal(18, 2) DEFAULT 0;
ALTER TABLE users MODIFY COLUMN visits UInt64;
ALTER TABLE events RENAME COLUMN payload TO details;
ALTER TABLE users DROP COLUMN email;
ALTER TABLE events COMMENT COLUMN amount 'order total in EUR', MODIFY COMMENT 'user activity, one row per event';

--changeset shop:4-customers-and-revenue labels:v4
RENAME TABLE users TO customers;

CREATE VIEW revenue_by_month AS
SELECT toStartOfMonth(day) AS month, countIf(kind = 'purchase') AS purchases, sum(amount) AS revenue
FROM events
GROUP BY month;

--changeset shop:5-customer-names-dictionary labels:v5
-- Customers' names for reports, from the customers table, kept in memory and reloaded every 5 to 10 minutes;
-- an id it does not hold reads as 'unknown'.
CREATE DICTIONARY customer_names
(
    user_id UInt64,
    name String DEFAULT 'unknown'
)
PRIMARY KEY user_id
SOURCE(CLICKHOUSE(TABLE 'customers'))
LIFETIME(MIN 300 MAX 600)
LAYOUT(HASHED());

CREATE VIEW revenue_by_customer AS
SELECT user_id, dictGet('customer_names', 'name', toUInt64(user_id)) AS name, sum(amount) AS revenue
FROM events
WHERE kind = 'purchase'
GROUP BY user_id;
