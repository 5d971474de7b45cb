package dev.chdedup.stub.format;

import static dev.chdedup.stub.format.FormatFixtures.cols;
import static dev.chdedup.stub.format.FormatFixtures.readText;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Values input: literals, separators, the expression fallback and arity errors. */
class ValuesReaderTest {
    private static final Object D = RowReader.DEFAULT;

    /** A stand-in for the SQL engine: records what it is asked and answers with a marker. */
    private static final class Recorder implements ValueExpressions {
        final List<String> seen = new ArrayList<>();

        @Override
        public Object evaluate(String sql, dev.chdedup.stub.types.DataType target) {
            seen.add(sql + " :: " + target.name());
            return target.defaultValue();
        }
    }

    private static RowReader open(String data, List<Column> c, ValueExpressions e, Map<String, String> settings) {
        return Formats.openInput("Values", new ByteArrayInputStream(data.getBytes(StandardCharsets.UTF_8)), c,
            FormatSettings.of(settings), e);
    }

    private static List<Object[]> all(RowReader r) throws IOException {
        List<Object[]> out = new ArrayList<>();
        for (Object[] row = r.next(); row != null; row = r.next()) {
            out.add(row);
        }
        return out;
    }

    @Test
    void literalsAndSeparators() throws IOException {
        List<Column> c = cols("i Int64", "f Float64", "s String", "n Nullable(String)", "a Array(Nullable(String))",
            "t Tuple(UInt8, String)", "m Map(String, UInt8)", "d Decimal(38, 10)", "b Bool");
        String in = "(-5, 1e300, 'it''s \\'q\\' \\n', NULL, ['x', NULL], (1, 'a'), {'k': 2}, -1.25, true) ,\n"
            + "  (0,-0.5,'',  'v',[],(0,''),{},0,false)\n(1,nan,'(,)','NULL',[],(0,''),{},1,0);  \n";
        List<Object[]> r = readText("Values", in, c);
        assertEquals(3, r.size());
        assertArrayEquals(new Object[] {-5L, 1e300, "it's 'q' \n", null, Arrays.asList("x", null), List.of(1L, "a"),
            Map.of("k", 2L), new BigDecimal("-1.2500000000"), true}, r.get(0));
        assertEquals("v", r.get(1)[3]);
        assertEquals("(,)", r.get(2)[2]);
        assertEquals("NULL", r.get(2)[3]);
        assertTrue(Double.isNaN((Double) r.get(2)[1]));
    }

    @Test
    void nonLiteralsGoToTheExpressionHook() throws IOException {
        List<Column> c = cols("a UInt64", "b String", "c DateTime64(9, 'UTC')");
        Recorder rec = new Recorder();
        String in = "(1 + 2, concat('a,b', ')'), fromUnixTimestamp64Nano(1700000000000000000)),"
            + "(toUInt64(f(1, (2, 3))), 'x' || 'y', now()), (-x, 123, '2024-01-01 00:00:00')";
        List<Object[]> r = all(open(in, c, rec, Map.of()));
        assertEquals(List.of("1 + 2 :: UInt64", "concat('a,b', ')') :: String",
            "fromUnixTimestamp64Nano(1700000000000000000) :: DateTime64(9, 'UTC')",
            "toUInt64(f(1, (2, 3))) :: UInt64", "'x' || 'y' :: String", "now() :: DateTime64(9, 'UTC')",
            "-x :: UInt64", "123 :: String"), rec.seen);
        assertEquals(1704067200000000000L, r.get(2)[2]);
    }

    @Test
    void withoutTheHookNonLiteralsAreErrors() {
        ChException e = assertThrows(ChException.class, () -> readText("Values", "(now())", cols("t DateTime")));
        assertEquals(ErrorCode.CANNOT_PARSE_TEXT, e.code());
        assertTrue(e.getMessage().startsWith("Cannot parse expression of type DateTime here: now()"), e.getMessage());
        ChException off = assertThrows(ChException.class,
            () -> all(open("(1+1)", cols("a UInt8"), new Recorder(), Map.of("input_format_values_interpret_expressions",
                "0", "input_format_values_deduce_templates_of_expressions", "0"))));
        assertEquals(ErrorCode.SUPPORT_IS_DISABLED, off.code(), "the engine evaluates them through its templates unless both are off");
    }

    @Test
    void nullForNonNullableIsDefault() throws IOException {
        assertArrayEquals(new Object[] {D, null}, readText("Values", "(NULL, null)", cols("a UInt8", "n Nullable(UInt8)"))
            .get(0));
        ChException e = assertThrows(ChException.class,
            () -> all(open("(NULL)", cols("a UInt8"), null, Map.of("input_format_null_as_default", "0"))));
        assertEquals(ErrorCode.TYPE_MISMATCH, e.code());
    }

    @Test
    void wrongArityFailsWithoutPartialRow() throws IOException {
        List<Column> c = cols("a UInt8", "b String");
        RowReader r = open("(1, 'x'), (2), (3, 'z')", c, null, Map.of());
        assertArrayEquals(new Object[] {1L, "x"}, r.next());
        ChException fewer = assertThrows(ChException.class, r::next);
        assertEquals(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED, fewer.code());
        assertTrue(fewer.getMessage().contains("fewer values than the 2 columns"), fewer.getMessage());
        assertTrue(fewer.getMessage().endsWith("(at row 2)"), fewer.getMessage());
        ChException more = assertThrows(ChException.class, () -> readText("Values", "(1, 'x', 3)", c));
        assertTrue(more.getMessage().contains("more values than the 2 columns"), more.getMessage());
        assertThrows(ChException.class, () -> readText("Values", "(1, 'x') garbage", c));
        assertThrows(ChException.class, () -> readText("Values", "(1, 'x'", c));
        assertThrows(ChException.class, () -> readText("Values", "(1, 'x'); (2, 'y')", c));
        ChException range = assertThrows(ChException.class, () -> readText("Values", "(256, 'x')", c));
        assertTrue(range.getMessage().contains("(at row 1)"), range.getMessage());
    }

    @Test
    void emptyAndSemicolonOnly() throws IOException {
        assertNull(open(" ; ", cols("a UInt8"), null, Map.of()).next());
        assertNull(open("", cols("a UInt8"), null, Map.of()).next());
    }
}
