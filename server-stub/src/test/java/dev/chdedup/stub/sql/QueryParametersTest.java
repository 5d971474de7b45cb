package dev.chdedup.stub.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How {@code {name:Type}} is replaced while parsing: literals, casts, names, and the two errors. */
class QueryParametersTest {
    private static Statement parse(String sql, Map<String, String> values) {
        return Parser.parseWithFormat(sql, new QueryParameters(values)).statement();
    }

    private static Expr firstItem(Statement st) {
        return ((Statement.SelectStmt) st).query().selects().get(0).items().get(0).expr();
    }

    @Test
    void stringIsAPlainByteStringLiteralAndOtherTypesAreCasts() {
        assertEquals(new Expr.Literal("a\tb"), firstItem(parse("SELECT {s:String}", Map.of("s", "a\\tb"))));
        assertEquals(new Expr.Literal("\u00c3\u00bc"), firstItem(parse("SELECT {s:String}", Map.of("s", "\u00fc"))),
            "text becomes its UTF-8 bytes");
        assertEquals(new Expr.Cast(new Expr.Literal("[1,2]"), "Array(UInt8)"),
            firstItem(parse("SELECT {a:Array(UInt8)}", Map.of("a", "[1, 2]"))));
        assertEquals(new Expr.Cast(new Expr.Literal(null), "Nullable(UInt8)"),
            firstItem(parse("SELECT {n:Nullable(UInt8)}", Map.of())), "a missing Nullable parameter is NULL");
    }

    @Test
    void identifierBecomesANameAnywhereANameGoes() {
        Statement st = parse("SELECT {c:Identifier} FROM {t:Identifier}", Map.of("c", "x", "t", "db1.t1"));
        assertEquals(new Expr.Ident(List.of("x")), firstItem(st));
        Query.TableRef from = (Query.TableRef) ((Statement.SelectStmt) st).query().selects().get(0).from();
        assertEquals("db1", from.database());
        assertEquals("t1", from.table());
        ChException e = assertThrows(ChException.class, () -> parse("SELECT 1 FROM {t:Identifier}", Map.of("t", "")));
        assertEquals(ErrorCode.BAD_QUERY_PARAMETER, e.code());
    }

    @Test
    void missingAndUnparsableValuesAreRefused() {
        ChException e = assertThrows(ChException.class, () -> parse("SELECT {x:UInt64}", Map.of()));
        assertEquals(ErrorCode.UNKNOWN_QUERY_PARAMETER, e.code());
        assertEquals("Substitution `x` is not set", e.getMessage());
        e = assertThrows(ChException.class, () -> parse("SELECT {x:Array(UInt8)}", Map.of("x", "[1] junk")));
        assertEquals(ErrorCode.BAD_QUERY_PARAMETER, e.code());
        assertTrue(e.getMessage().contains("only 3 of 8 bytes was parsed: [1]"), e.getMessage());
        e = assertThrows(ChException.class, () -> parse("SELECT {x:Int8}", Map.of("x", "abc")));
        assertEquals(ErrorCode.BAD_QUERY_PARAMETER, e.code());
        assertTrue(e.getMessage().contains("only 0 of 3 bytes was parsed: "), e.getMessage());
    }
}
