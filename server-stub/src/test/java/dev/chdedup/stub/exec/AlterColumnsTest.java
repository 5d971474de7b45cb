package dev.chdedup.stub.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.server.StubServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ALTER TABLE's schema commands as ClickHouse 26.7 makes them on a MergeTree table: ADD COLUMN (FIRST, AFTER, IF NOT
 * EXISTS, DEFAULT, MATERIALIZED, ALIAS), DROP, MODIFY (a type change converts the rows, a default or comment stays
 * unless replaced or removed), RENAME, CLEAR, COMMENT COLUMN, MODIFY COMMENT, indexes, MODIFY ORDER BY with a new
 * column, the engine's errors (key columns, dependent columns, unknown names), and rows written before a change read
 * as the engine reads them (a new column's DEFAULT computed from the row). The answers are the engine's, taken through
 * the oracle (shared/oracle); the table survives a restart with the same answers.
 */
class AlterColumnsTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: ClickHouse 26.7's answers, recorded from the engine (chDB 3.4.0)
        return new String[][] {
            {"DROP TABLE IF EXISTS events", ""},
            {"CREATE TABLE events (id UInt64, kind LowCardinality(String), ts DateTime, user_id UInt32) ENGINE = MergeTree PARTITION BY toYYYYMM(ts) ORDER BY (kind, id)", ""},
            {"INSERT INTO events VALUES (1, 'view', '2024-01-05 10:00:00', 7), (2, 'click', '2024-02-05 11:00:00', 8)", ""},
            {"ALTER TABLE events ADD COLUMN amount Decimal(18, 2) DEFAULT 0 AFTER kind", ""},
            {"ALTER TABLE events ADD COLUMN IF NOT EXISTS amount UInt8", ""},
            {"ALTER TABLE events ADD COLUMN amount UInt8", "Code: 15 DUPLICATE_COLUMN"},
            {"ALTER TABLE events ADD COLUMN score Float64 DEFAULT user_id * 1.5", ""},
            {"ALTER TABLE events ADD COLUMN day Date MATERIALIZED toDate(ts)", ""},
            {"ALTER TABLE events ADD COLUMN label String ALIAS concat(kind, '-', toString(id))", ""},
            {"ALTER TABLE events ADD COLUMN note Nullable(String) FIRST", ""},
            {"SELECT * FROM events ORDER BY id", "\\N\t1\tview\t0\t2024-01-05 10:00:00\t7\t10.5\n\\N\t2\tclick\t0\t2024-02-05 11:00:00\t8\t12"},
            {"SELECT id, day, label, score FROM events ORDER BY id", "1\t2024-01-05\tview-1\t10.5\n2\t2024-02-05\tclick-2\t12"},
            {"SELECT name, type, default_kind, default_expression, position FROM system.columns WHERE database = currentDatabase() AND table = 'events' ORDER BY position", "note\tNullable(String)\t\t\t1\nid\tUInt64\t\t\t2\nkind\tLowCardinality(String)\t\t\t3\namount\tDecimal(18, 2)\tDEFAULT\t0\t4\nts\tDateTime\t\t\t5\nuser_id\tUInt32\t\t\t6\nscore\tFloat64\tDEFAULT\tuser_id * 1.5\t7\nday\tDate\tMATERIALIZED\ttoDate(ts)\t8\nlabel\tString\tALIAS\tconcat(kind, \\'-\\', toString(id))\t9"},
            {"INSERT INTO events (id, kind, ts, user_id, amount) VALUES (3, 'buy', '2024-02-06 12:00:00', 9, 12.5)", ""},
            {"SELECT id, amount, score, day FROM events ORDER BY id", "1\t0\t10.5\t2024-01-05\n2\t0\t12\t2024-02-05\n3\t12.5\t13.5\t2024-02-06"},
            {"ALTER TABLE events MODIFY COLUMN user_id UInt64", ""},
            {"SELECT id, user_id, toTypeName(user_id) FROM events ORDER BY id", "1\t7\tUInt64\n2\t8\tUInt64\n3\t9\tUInt64"},
            {"ALTER TABLE events MODIFY COLUMN amount Decimal(18, 4)", ""},
            {"INSERT INTO events (id, kind, ts, user_id) VALUES (4, 'view', '2024-03-01 00:00:00', 10)", ""},
            {"SELECT id, amount, toTypeName(amount) FROM events ORDER BY id", "1\t0\tDecimal(18, 4)\n2\t0\tDecimal(18, 4)\n3\t12.5\tDecimal(18, 4)\n4\t0\tDecimal(18, 4)"},
            {"ALTER TABLE events MODIFY COLUMN amount REMOVE DEFAULT", ""},
            {"ALTER TABLE events MODIFY COLUMN note REMOVE DEFAULT", "Code: 36 BAD_ARGUMENTS"},
            {"DESCRIBE events", "note\tNullable(String)\t\t\t\t\t\nid\tUInt64\t\t\t\t\t\nkind\tLowCardinality(String)\t\t\t\t\t\namount\tDecimal(18, 4)\t\t\t\t\t\nts\tDateTime\t\t\t\t\t\nuser_id\tUInt64\t\t\t\t\t\nscore\tFloat64\tDEFAULT\tuser_id * 1.5\t\t\t\nday\tDate\tMATERIALIZED\ttoDate(ts)\t\t\t\nlabel\tString\tALIAS\tconcat(kind, \\'-\\', toString(id))\t\t\t"},
            {"ALTER TABLE events RENAME COLUMN score TO rating", ""},
            {"SELECT id, rating FROM events ORDER BY id", "1\t10.5\n2\t12\n3\t13.5\n4\t15"},
            {"ALTER TABLE events RENAME COLUMN IF EXISTS nothing TO other", ""},
            {"ALTER TABLE events RENAME COLUMN rating TO amount", "Code: 15 DUPLICATE_COLUMN"},
            {"ALTER TABLE events RENAME COLUMN kind TO type", "Code: 524 ALTER_OF_COLUMN_IS_FORBIDDEN"},
            {"ALTER TABLE events COMMENT COLUMN amount 'money'", ""},
            {"ALTER TABLE events MODIFY COLUMN rating COMMENT 'stars'", ""},
            {"SELECT name, comment FROM system.columns WHERE database = currentDatabase() AND table = 'events' AND comment != '' ORDER BY name", "amount\tmoney\nrating\tstars"},
            {"ALTER TABLE events CLEAR COLUMN rating", ""},
            {"SELECT id, rating FROM events ORDER BY id", "1\t10.5\n2\t12\n3\t13.5\n4\t15"},
            {"ALTER TABLE events CLEAR COLUMN rating IN PARTITION 202402", ""},
            {"ALTER TABLE events DROP COLUMN note", ""},
            {"ALTER TABLE events DROP COLUMN IF EXISTS note", ""},
            {"ALTER TABLE events DROP COLUMN note", "Code: 10 NOT_FOUND_COLUMN_IN_BLOCK"},
            {"ALTER TABLE events DROP COLUMN id", "Code: 44 ILLEGAL_COLUMN"},
            {"ALTER TABLE events DROP COLUMN ts", "Code: 44 ILLEGAL_COLUMN"},
            {"ALTER TABLE events ADD COLUMN note UInt8 DEFAULT 5", ""},
            {"SELECT id, note FROM events ORDER BY id", "1\t5\n2\t5\n3\t5\n4\t5"},
            {"ALTER TABLE events MODIFY COMMENT 'app events'", ""},
            {"SELECT comment FROM system.tables WHERE database = currentDatabase() AND name = 'events'", "app events"},
            {"ALTER TABLE events ADD INDEX ix_user user_id TYPE minmax GRANULARITY 4", ""},
            {"ALTER TABLE events ADD INDEX ix_user user_id TYPE minmax GRANULARITY 4", "Code: 44 ILLEGAL_COLUMN"},
            {"ALTER TABLE events ADD INDEX IF NOT EXISTS ix_user user_id TYPE minmax GRANULARITY 4", ""},
            {"ALTER TABLE events MATERIALIZE INDEX ix_user", ""},
            {"ALTER TABLE events DROP INDEX ix_user", ""},
            {"ALTER TABLE events DROP INDEX ix_user", "Code: 36 BAD_ARGUMENTS"},
            {"ALTER TABLE events DROP INDEX IF EXISTS ix_user", ""},
            {"ALTER TABLE events ADD COLUMN region String, MODIFY ORDER BY (kind, id, region)", ""},
            {"ALTER TABLE events ADD COLUMN region2 String, MODIFY ORDER BY (kind, id, user_id)", "Code: 36 BAD_ARGUMENTS"},
            {"ALTER TABLE events MODIFY ORDER BY kind", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT sorting_key, primary_key FROM system.tables WHERE database = currentDatabase() AND name = 'events'", "kind, id, region\tkind, id"},
            {"SHOW CREATE TABLE events", "CREATE TABLE default.events\\n(\\n    `id` UInt64,\\n    `kind` LowCardinality(String),\\n    `amount` Decimal(18, 4) COMMENT \\'money\\',\\n    `ts` DateTime,\\n    `user_id` UInt64,\\n    `rating` Float64 DEFAULT user_id * 1.5 COMMENT \\'stars\\',\\n    `day` Date MATERIALIZED toDate(ts),\\n    `label` String ALIAS concat(kind, \\'-\\', toString(id)),\\n    `note` UInt8 DEFAULT 5,\\n    `region` String\\n)\\nENGINE = MergeTree\\nPARTITION BY toYYYYMM(ts)\\nPRIMARY KEY (kind, id)\\nORDER BY (kind, id, region)\\nSETTINGS index_granularity = 8192\\nCOMMENT \\'app events\\'"},
            {"SELECT count(), sum(user_id), sum(amount), sum(note) FROM events", "4\t34\t12.5\t20"},
            {"ALTER TABLE events ADD COLUMN x UInt8, DROP COLUMN x", ""},
            {"ALTER TABLE events ADD COLUMN x UInt8 DEFAULT 1", ""},
            {"SELECT x, toTypeName(x) FROM events ORDER BY id", "1\tUInt8\n1\tUInt8\n1\tUInt8\n1\tUInt8"},
            {"ALTER TABLE events MODIFY COLUMN kind String", ""},
            {"ALTER TABLE nonexistent ADD COLUMN a UInt8", "Code: 60 UNKNOWN_TABLE"},
            {"ALTER TABLE events ADD COLUMN bad NoSuchType", "Code: 50 UNKNOWN_TYPE"},
            {"ALTER TABLE events MODIFY COLUMN x String", ""},
            {"SELECT x, toTypeName(x) FROM events ORDER BY id", "1\tString\n1\tString\n1\tString\n1\tString"},
            {"ALTER TABLE events DELETE WHERE id = 2", ""},
            {"SELECT id, x FROM events ORDER BY id", "1\t1\n3\t1\n4\t1"},
            {"ALTER TABLE events MODIFY COLUMN x UInt16", ""},
            {"SELECT x, toTypeName(x) FROM events ORDER BY id", "1\tUInt16\n1\tUInt16\n1\tUInt16"},
        };
    }

    /** The altered table's metadata and parts load again after a restart, and read as before it. */
    @Test
    void anAlteredTableReadsTheSameAfterARestart(@TempDir Path dataDir) throws Exception {
        String[][] all = cases();
        List<String[]> reads = new ArrayList<>();
        try (StubServer s = StubServer.builder().port(0).dataDir(dataDir).build().start()) {
            assertAnswers(s, all);
            for (String q : new String[] {"SHOW CREATE TABLE events", "SELECT * FROM events ORDER BY id",
                "SELECT id, day, label, amount, rating, note, region, x FROM events ORDER BY id", "DESCRIBE events"}) {
                reads.add(new String[] {q, answer(s, q)});
            }
        }
        try (StubServer s = StubServer.builder().port(0).dataDir(dataDir).build().start()) {
            assertAnswers(s, reads.toArray(new String[0][]));
            assertEquals("3", answer(s, "SELECT count() FROM events"));
        }
    }
}
