-- An online shop's schema as its migrations grow it, with the queries its services run, in the order they run.
-- One statement per line; `--` lines are comments. ApplicationMigrationsTest replays it on the stub and holds each
-- answer to the engine's (shop.answers, recorded from ClickHouse 26.7; re-record with RecordApplicationAnswers).
CREATE DATABASE IF NOT EXISTS shop
CREATE TABLE shop.users (id UInt64, email String, created DateTime, country LowCardinality(String) DEFAULT 'unknown') ENGINE = ReplacingMergeTree ORDER BY id
CREATE TABLE shop.orders (id UInt64, user_id UInt64, created DateTime, status Enum8('new' = 1, 'paid' = 2, 'shipped' = 3), total Decimal(12, 2)) ENGINE = MergeTree PARTITION BY toYYYYMM(created) ORDER BY (user_id, id)
CREATE TABLE shop.events (ts DateTime64(3), user_id UInt64, kind String, props Map(String, String)) ENGINE = MergeTree PARTITION BY toDate(ts) ORDER BY (kind, ts) TTL toDateTime(ts) + INTERVAL 10 YEAR
INSERT INTO shop.users VALUES (1, 'ann@example.com', '2024-01-03 10:00:00', 'DE'), (2, 'bob@example.com', '2024-01-05 11:30:00', 'FR'), (3, 'cid@example.com', '2024-02-01 09:15:00', DEFAULT)
INSERT INTO shop.orders VALUES (10, 1, '2024-01-04 12:00:00', 'paid', 19.99), (11, 1, '2024-02-10 08:00:00', 'shipped', 5.50), (12, 2, '2024-02-11 09:00:00', 'new', 100.00), (13, 3, '2024-03-01 10:00:00', 'paid', 42.00)
INSERT INTO shop.events VALUES ('2024-01-04 12:00:00.125', 1, 'view', {'page': 'home'}), ('2024-01-04 12:00:01.500', 1, 'cart', {'sku': 'A1'}), ('2024-02-11 09:00:00.000', 2, 'view', {'page': 'sale'})
SELECT count() FROM shop.users
SELECT country, count() FROM shop.users GROUP BY country ORDER BY country
SELECT status, count(), sum(total) FROM shop.orders GROUP BY status ORDER BY status
SELECT toStartOfMonth(created) AS m, sum(total) FROM shop.orders GROUP BY m ORDER BY m
ALTER TABLE shop.orders ADD COLUMN currency LowCardinality(String) DEFAULT 'EUR' AFTER total
ALTER TABLE shop.orders ADD COLUMN IF NOT EXISTS discount Decimal(12, 2) DEFAULT 0
ALTER TABLE shop.users ADD COLUMN name String DEFAULT splitByChar('@', email)[1] AFTER email
SELECT id, name FROM shop.users ORDER BY id
SELECT id, currency, discount FROM shop.orders ORDER BY id
INSERT INTO shop.orders (id, user_id, created, status, total, currency) VALUES (14, 2, '2024-03-05 16:45:00', 'new', 7.25, 'USD')
SELECT currency, sum(total - discount) FROM shop.orders GROUP BY currency ORDER BY currency
ALTER TABLE shop.orders MODIFY COLUMN user_id UInt64 COMMENT 'the buyer'
ALTER TABLE shop.orders MODIFY COLUMN total Decimal(18, 4)
SELECT id, total, toTypeName(total) FROM shop.orders ORDER BY id
ALTER TABLE shop.orders RENAME COLUMN discount TO rebate
ALTER TABLE shop.orders COMMENT COLUMN rebate 'voucher amount'
ALTER TABLE shop.orders MODIFY COMMENT 'one row per order'
SELECT name, type, default_kind, default_expression, comment FROM system.columns WHERE database = 'shop' AND table = 'orders' ORDER BY position
SELECT comment FROM system.tables WHERE database = 'shop' AND name = 'orders'
ALTER TABLE shop.events ADD COLUMN session String DEFAULT props['session']
ALTER TABLE shop.events DROP COLUMN session
ALTER TABLE shop.events ADD INDEX ix_user user_id TYPE minmax GRANULARITY 1
ALTER TABLE shop.users ADD COLUMN age UInt8, DROP COLUMN age
ALTER TABLE shop.users MODIFY COLUMN country LowCardinality(String) DEFAULT 'n/a'
INSERT INTO shop.users (id, email, created) VALUES (4, 'dan@example.com', '2024-03-10 07:00:00')
INSERT INTO shop.users VALUES (2, 'bob@example.org', 'bob', '2024-01-05 11:30:00', 'FR')
SELECT id, email, name, country FROM shop.users FINAL ORDER BY id
CREATE VIEW shop.paid_orders AS SELECT id, user_id, total FROM shop.orders WHERE status = 'paid'
SELECT * FROM shop.paid_orders ORDER BY id
CREATE TABLE shop.daily_revenue (day Date, revenue Decimal(38, 4)) ENGINE = SummingMergeTree ORDER BY day
CREATE MATERIALIZED VIEW shop.daily_revenue_mv TO shop.daily_revenue AS SELECT toDate(created) AS day, sum(total) AS revenue FROM shop.orders GROUP BY day
INSERT INTO shop.orders (id, user_id, created, status, total) VALUES (15, 4, '2024-03-10 08:00:00', 'paid', 12.00), (16, 4, '2024-03-10 09:00:00', 'paid', 3.00)
SELECT day, sum(revenue) FROM shop.daily_revenue GROUP BY day ORDER BY day
SELECT u.email, count() AS n, sum(o.total) AS spent FROM shop.orders AS o INNER JOIN shop.users AS u ON o.user_id = u.id GROUP BY u.email ORDER BY spent DESC, u.email
SELECT u.id, count(o.id) FROM shop.users AS u LEFT JOIN shop.orders AS o ON o.user_id = u.id GROUP BY u.id ORDER BY u.id
SELECT kind, count(), min(ts), max(ts) FROM shop.events GROUP BY kind ORDER BY kind
SELECT props['page'] AS page, count() FROM shop.events WHERE mapContains(props, 'page') GROUP BY page ORDER BY page
SELECT user_id, groupArray(id) FROM (SELECT user_id, id FROM shop.orders ORDER BY id) GROUP BY user_id ORDER BY user_id
SELECT user_id, argMax(status, created) FROM shop.orders GROUP BY user_id ORDER BY user_id
SELECT toYYYYMM(created) AS m, uniqExact(user_id) FROM shop.orders GROUP BY m ORDER BY m
SELECT id, formatDateTime(created, '%Y-%m-%d') FROM shop.orders ORDER BY id LIMIT 3
SELECT id, dateDiff('day', toDate('2024-01-01'), toDate(created)) FROM shop.orders ORDER BY id
SELECT if(total > 20, 'big', 'small') AS size, count() FROM shop.orders GROUP BY size ORDER BY size
SELECT id, multiIf(status = 'new', 0, status = 'paid', 1, 2) FROM shop.orders ORDER BY id
SELECT count() FROM shop.orders WHERE created >= '2024-02-01' AND created < '2024-03-01'
SELECT round(avg(total), 2), max(total), min(total) FROM shop.orders
SELECT user_id, sum(total) AS s FROM shop.orders GROUP BY user_id HAVING s > 20 ORDER BY user_id
SELECT id, lower(email), length(email), position(email, '@') FROM shop.users FINAL ORDER BY id
SELECT DISTINCT status FROM shop.orders ORDER BY status
SELECT id FROM shop.orders ORDER BY total DESC, id LIMIT 2 OFFSET 1
ALTER TABLE shop.orders UPDATE status = 'shipped' WHERE id = 12 SETTINGS mutations_sync = 2
ALTER TABLE shop.orders DELETE WHERE id = 14 SETTINGS mutations_sync = 2
SELECT id, status FROM shop.orders ORDER BY id
DELETE FROM shop.orders WHERE id = 16
SELECT count() FROM shop.orders
RENAME TABLE shop.paid_orders TO shop.paid
RENAME TABLE shop.events TO shop.events_v1
CREATE TABLE shop.events (ts DateTime64(3), user_id UInt64, kind String, props Map(String, String), source LowCardinality(String) DEFAULT 'web') ENGINE = MergeTree PARTITION BY toDate(ts) ORDER BY (kind, ts)
INSERT INTO shop.events (ts, user_id, kind, props) SELECT ts, user_id, kind, props FROM shop.events_v1
SELECT kind, source, count() FROM shop.events GROUP BY kind, source ORDER BY kind
EXCHANGE TABLES shop.events AND shop.events_v1
SELECT name FROM system.columns WHERE database = 'shop' AND table = 'events' ORDER BY position
DROP TABLE shop.events_v1
OPTIMIZE TABLE shop.users FINAL
SELECT id, email FROM shop.users ORDER BY id
TRUNCATE TABLE shop.daily_revenue
SELECT count() FROM shop.daily_revenue
SHOW TABLES FROM shop
EXISTS TABLE shop.orders
DROP VIEW shop.daily_revenue_mv
DROP DATABASE shop
