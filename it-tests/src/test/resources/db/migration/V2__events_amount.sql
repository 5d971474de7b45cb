-- Purchases carry an amount; the parts written before read it as 0.
ALTER TABLE events ADD COLUMN amount Decimal(18, 2) DEFAULT 0 AFTER kind;
