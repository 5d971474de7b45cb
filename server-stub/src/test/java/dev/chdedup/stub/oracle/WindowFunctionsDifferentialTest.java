package dev.chdedup.stub.oracle;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.server.StubServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random window queries on the stub and on ClickHouse 26.7 (chDB, {@link EngineOracle}), which must answer alike: for
 * each seed a table of random rows (integers with ties, NULLs, strings, dates) and queries of one to three window
 * functions (ranks, lags, values, aggregates) over random PARTITION BY, ORDER BY and frames (ROWS and RANGE, offsets
 * included). Where a function's value depends on the order of ties (row_number, lag, any frame of ROWS), the window's
 * ORDER BY ends with the unique id, so that both engines have one answer. The rows are compared in the order of id.
 * ({@code count} of a Nullable column over a window is left out: 26.7 answers NOT_FOUND_COLUMN_IN_BLOCK, its rewrite to
 * the column's null map failing.) Skipped when chDB is not installed. Run more with {@code -Dwindow.seed=N -Dwindow.queries=N -Dwindow.seconds=N}.
 */
class WindowFunctionsDifferentialTest {
    private static final String[] ORDER_INSENSITIVE = {"sum(v)", "count()", "count(nullIf(v, 0))", "min(v)", "max(n)", "avg(v)", "sum(n)",
        "max(g)", "min(d)", "uniqExact(k)", "rank()", "dense_rank()", "percent_rank()", "cume_dist()"};
    private static final String[] ORDER_SENSITIVE = {"row_number()", "lagInFrame(v)", "leadInFrame(n, 2)", "lagInFrame(g, 1, 'none')",
        "lag(v)", "lead(k, 2, -1)", "nth_value(v, 2)", "nth_value(n, 1)", "first_value(n)", "last_value(g)", "any(v)", "anyLast(n)",
        "groupArray(v)", "ntile(3)", "first_value_respect_nulls(n)", "argMax(g, id)"};
    private static final String[] KEYS = {"k", "v", "g", "d", "n", "k % 2", "toString(v)"};

    @Test
    void randomWindowQueriesAnswerAsTheEngine() throws Exception {
        EngineOracle oracle;
        try {
            oracle = EngineOracle.start();
        } catch (EngineOracle.Unavailable e) {
            System.out.println("WindowFunctionsDifferentialTest skipped: " + e.getMessage());
            org.junit.jupiter.api.Assumptions.abort(e.getMessage());
            return;
        }
        long seed = Long.getLong("window.seed", 20261206L);
        int queries = Integer.getInteger("window.queries", 300);
        long deadline = System.nanoTime() + Long.getLong("window.seconds", 50L) * 1_000_000_000L;
        List<String> failures = new ArrayList<>();
        int run = 0;
        int errors = 0;
        try (oracle; StubServer server = StubServer.builder().port(0).build().start()) {
            DeduplicationDifferentialTest.Target stub = DeduplicationDifferentialTest.http(server);
            long tableSeed = -1;
            for (; run < queries && System.nanoTime() < deadline && failures.size() < 5; run++) {
                long s = seed + run;
                Random r = new Random(s);
                if (run % 25 == 0) { // a new table every 25 queries
                    tableSeed = s;
                    for (String ddl : table(new Random(s))) {
                        EngineOracle.Answer a = stub.run(ddl, Map.of(), null);
                        EngineOracle.Answer b = oracle.query(ddl, Map.of(), null);
                        if (!a.ok() || !b.ok()) {
                            throw new AssertionError(ddl + "\nstub: " + a + "\nengine: " + b);
                        }
                    }
                }
                String sql = query(r);
                EngineOracle.Answer a = stub.run(sql, Map.of(), null);
                EngineOracle.Answer b = oracle.query(sql, Map.of(), null);
                errors += b.ok() ? 0 : 1;
                String sa = a.ok() ? a.output() : "error " + a.errorName();
                String sb = b.ok() ? b.output() : "error " + b.errorName();
                if (!sa.equals(sb)) {
                    failures.add("# seed " + s + " (table of seed " + tableSeed + "): " + sql + "\n  engine: " + sb.replace("\n", " | ")
                        + "\n  stub:   " + sa.replace("\n", " | "));
                }
            }
        }
        System.out.println("WindowFunctionsDifferentialTest: " + run + " queries from seed " + seed + " against ClickHouse "
            + oracle.version() + " (" + errors + " of them errors), " + failures.size() + " with a difference");
        assertTrue(failures.isEmpty(), () -> String.join("\n", failures));
    }

    /** The statements making table w: 0 to 40 rows, few distinct values so that there are ties. */
    static List<String> table(Random r) {
        List<String> s = new ArrayList<>();
        s.add("DROP TABLE IF EXISTS w");
        s.add("CREATE TABLE w (id UInt32, k Int32, v Int64, n Nullable(Int64), g String, d Date) ENGINE = Memory");
        int rows = r.nextInt(41);
        if (rows > 0) {
            StringBuilder ins = new StringBuilder("INSERT INTO w VALUES ");
            for (int i = 0; i < rows; i++) {
                ins.append(i > 0 ? ", " : "").append('(').append(i).append(", ").append(r.nextInt(7) - 3).append(", ")
                    .append(r.nextInt(12) - 4).append(", ").append(r.nextInt(4) == 0 ? "NULL" : String.valueOf(r.nextInt(9)))
                    .append(", '").append((char) ('a' + r.nextInt(4))).append("', '2024-01-").append(String.format("%02d", 1 + r.nextInt(20)))
                    .append("')");
            }
            s.add(ins.toString());
        }
        return s;
    }

    private static final String[] GROUP_KEYS = {"k", "g", "d", "k % 2", "n"};
    private static final String[] OVER_AGGREGATES = {"sum(sum(v))", "max(count())", "row_number()", "rank()", "dense_rank()",
        "lagInFrame(sum(v))", "avg(min(v))", "groupArray(count())", "sum(count())", "first_value(max(n))"};

    /**
     * A query of one to three window functions over random windows, its rows in the order of id; or, one time in five,
     * window functions over the aggregates of a GROUP BY, its rows in the order of the key.
     */
    static String query(Random r) {
        if (r.nextInt(5) == 0) {
            return groupedQuery(r);
        }
        StringBuilder sql = new StringBuilder("SELECT id");
        int functions = 1 + r.nextInt(3);
        for (int i = 0; i < functions; i++) {
            String f = windowFunction(r);
            sql.append(", ").append(r.nextInt(5) == 0 ? "toString(" + f + ")" : r.nextInt(5) == 0 ? "(" + f + ") IS NULL" : f);
        }
        sql.append(" FROM w");
        if (r.nextInt(5) == 0) {
            sql.append(" WHERE v > ").append(r.nextInt(6) - 3);
        }
        return sql.append(" ORDER BY id").toString();
    }

    private static String groupedQuery(Random r) {
        String key = GROUP_KEYS[r.nextInt(GROUP_KEYS.length)];
        StringBuilder sql = new StringBuilder("SELECT ").append(key).append(" AS key, sum(v), ");
        String f = OVER_AGGREGATES[r.nextInt(OVER_AGGREGATES.length)];
        sql.append(f).append(" OVER (");
        if (r.nextBoolean()) {
            sql.append("PARTITION BY min(v) > 0 ");
        }
        sql.append("ORDER BY ").append(r.nextBoolean() ? "key" : "count() DESC, key");
        if (!f.startsWith("r") && !f.startsWith("d") && !f.startsWith("lag") && r.nextBoolean()) {
            sql.append(" ROWS BETWEEN ").append(bound(r, true)).append(" AND ").append(bound(r, false));
        }
        sql.append(") FROM w");
        if (r.nextInt(3) == 0) {
            sql.append(" WHERE v > ").append(r.nextInt(6) - 3);
        }
        sql.append(" GROUP BY key");
        if (r.nextInt(4) == 0) {
            sql.append(" HAVING count() > 1");
        }
        return sql.append(" ORDER BY key").toString();
    }

    private static String windowFunction(Random r) {
        boolean orderedFunction = r.nextBoolean();
        String f = orderedFunction ? ORDER_SENSITIVE[r.nextInt(ORDER_SENSITIVE.length)] : ORDER_INSENSITIVE[r.nextInt(ORDER_INSENSITIVE.length)];
        boolean ranking = f.startsWith("rank") || f.startsWith("dense") || f.startsWith("percent") || f.startsWith("cume")
            || f.startsWith("row_number") || f.startsWith("ntile") || f.startsWith("lag(") || f.startsWith("lead(");
        StringBuilder w = new StringBuilder();
        if (r.nextInt(3) > 0) {
            w.append("PARTITION BY ").append(KEYS[r.nextInt(KEYS.length)]);
            if (r.nextInt(4) == 0) {
                w.append(", ").append(KEYS[r.nextInt(KEYS.length)]);
            }
        }
        String frame = ranking ? "" : frame(r, orderedFunction);
        boolean sensitive = orderedFunction || frame.startsWith("ROWS"); // a ROWS frame's rows depend on the order of ties
        boolean rangeOffset = frame.startsWith("RANGE") && frame.matches(".*\\d.*");
        boolean ordered = sensitive || f.startsWith("ntile") || rangeOffset || r.nextInt(4) > 0;
        if (ordered) {
            w.append(w.isEmpty() ? "" : " ").append("ORDER BY ");
            if (rangeOffset) {
                w.append(new String[] {"v", "d", "n", "k"}[r.nextInt(4)]).append(r.nextBoolean() ? " DESC" : "").append(r.nextInt(4) == 0 ? " NULLS FIRST" : "");
            } else {
                int keys = 1 + r.nextInt(2);
                for (int i = 0; i < keys; i++) {
                    w.append(i > 0 ? ", " : "").append(KEYS[r.nextInt(KEYS.length)]).append(r.nextInt(3) == 0 ? " DESC" : "")
                        .append(r.nextInt(5) == 0 ? " NULLS FIRST" : "");
                }
                if (sensitive) {
                    w.append(", id");
                }
            }
        }
        if (!frame.isEmpty()) {
            w.append(w.isEmpty() ? "" : " ").append(frame);
        }
        return f + " OVER (" + w + ")";
    }

    /** A frame, or none; with offsets over rows for a function that reads the order of ties (its ORDER BY ends in id). */
    private static String frame(Random r, boolean sensitive) {
        switch (r.nextInt(6)) {
            case 0:
                return "";
            case 1:
                return "ROWS BETWEEN " + bound(r, true) + " AND " + bound(r, false);
            case 2:
                return "ROWS " + bound(r, true);
            case 3:
                return sensitive ? "ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING"
                    : "RANGE BETWEEN " + bound(r, true) + " AND " + bound(r, false);
            case 4:
                return "RANGE BETWEEN " + (r.nextBoolean() ? "UNBOUNDED PRECEDING" : "CURRENT ROW") + " AND "
                    + (r.nextBoolean() ? "UNBOUNDED FOLLOWING" : "CURRENT ROW");
            default:
                return "ROWS BETWEEN CURRENT ROW AND " + bound(r, false);
        }
    }

    private static String bound(Random r, boolean start) {
        switch (r.nextInt(4)) {
            case 0:
                return start ? "UNBOUNDED PRECEDING" : "UNBOUNDED FOLLOWING";
            case 1:
                return "CURRENT ROW";
            case 2:
                return r.nextInt(4) + " PRECEDING";
            default:
                return r.nextInt(4) + " FOLLOWING";
        }
    }
}
