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
