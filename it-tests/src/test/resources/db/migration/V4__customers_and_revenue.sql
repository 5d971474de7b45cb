RENAME TABLE users TO customers;

CREATE VIEW revenue_by_month AS
SELECT toStartOfMonth(day) AS month, countIf(kind = 'purchase') AS purchases, sum(amount) AS revenue
FROM events
GROUP BY month;
