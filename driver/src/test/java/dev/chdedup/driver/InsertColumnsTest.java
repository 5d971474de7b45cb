package dev.chdedup.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which column each placeholder of an INSERT fills. */
class InsertColumnsTest {
    private static final Map<String, String> TABLE = new LinkedHashMap<>();

    static {
        TABLE.put("id", "UInt64");
        TABLE.put("d", "Date");
        TABLE.put("weird name", "DateTime('Asia/Tokyo')");
        TABLE.put("t", "DateTime64(3)");
    }

    private static List<String> types(String sql) {
        int n = SqlText.splitPlaceholders(sql).size() - 1;
        InsertColumns c = InsertColumns.of(sql, n);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(String.valueOf(c.typeOf(i, TABLE)));
        }
        return out;
    }

    @Test
    void aNamedListMapsByPosition() {
        assertEquals(List.of("DateTime64(3)", "UInt64", "DateTime('Asia/Tokyo')"),
            types("INSERT INTO db.t (t, id, `weird name`) VALUES (?, ?, ?)"));
        assertEquals(List.of("Date", "DateTime64(3)", "Date", "DateTime64(3)"), types("insert into t(d,t) values (?, ?), ( ? , ?)"));
    }

    @Test
    void withoutAListTheTableOrderCounts() {
        assertEquals(List.of("UInt64", "Date", "DateTime('Asia/Tokyo')", "DateTime64(3)"), types("INSERT INTO t VALUES (?,?,?,?)"));
    }

    @Test
    void placeholdersInExpressionsQuotesOrCommentsFillNoKnownColumn() {
        assertEquals(List.of("UInt64", "null", "null"), types("INSERT INTO t (id, d, t) VALUES (?, toDate(?), addHours(?, 1))"));
        assertEquals(List.of("Date", "DateTime64(3)"), types("INSERT INTO t (d, t) VALUES (/* ? */ ?, -- ?\n ?) -- '?'"));
        assertEquals(List.of("null", "DateTime64(3)"), types("INSERT INTO t (id, t) VALUES (concat('?', ?), ?)"));
        assertEquals(List.of("null"), types("INSERT INTO t (id) SELECT ? FROM numbers(1)"));
        assertEquals(List.of("null", "Date"), types("INSERT INTO t (nosuch, id, d) VALUES (?, [1, 2], ?)"), "an unknown name");
    }

    @Test
    void moreElementsThanColumnsFillNothing() {
        assertEquals(List.of("UInt64", "null"), types("INSERT INTO t (id) VALUES (?, ?)"));
    }
}
