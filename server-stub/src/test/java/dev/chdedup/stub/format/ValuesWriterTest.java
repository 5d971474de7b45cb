package dev.chdedup.stub.format;

import static dev.chdedup.stub.format.FormatFixtures.cols;
import static dev.chdedup.stub.format.FormatFixtures.list;
import static dev.chdedup.stub.format.FormatFixtures.map;
import static dev.chdedup.stub.format.FormatFixtures.writeText;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.data.Column;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Values output, byte for byte as ClickHouse writes it. */
class ValuesWriterTest {

    @Test
    void rowsAreCommaSeparatedWithoutNewlines() throws IOException {
        List<Column> c = cols("i UInt8", "s String");
        assertEquals("(1,'a'),(2,'b')", writeText("Values", c, List.of(new Object[] {1L, "a"}, new Object[] {2L, "b"})));
        assertEquals("", writeText("Values", c, List.of()));
    }

    @Test
    void literalsOfEveryKind() throws IOException {
        List<Column> c = cols("s String", "n Nullable(Int8)", "d Date", "dt DateTime64(3, 'UTC')", "u UUID",
            "dec Decimal(38, 10)", "a Array(Nullable(String))", "m Map(String, UInt64)", "t Tuple(Int8, String)",
            "b Bool", "f Float64", "e Enum8('x' = 1)");
        Object[] row = {"it's\t\\", null, 1L, 1L, new UUID(0, 1), new BigDecimal("0.5000000000"), list("a", null),
            map("k", -1L), list(-1L, "q"), false, Double.NEGATIVE_INFINITY, 1L};
        assertEquals("('it\\'s\\t\\\\',NULL,'1970-01-02','1970-01-01 00:00:00.001',"
            + "'00000000-0000-0000-0000-000000000001',0.5,['a',NULL],{'k':18446744073709551615},(-1,'q'),false,-inf,'x')",
            writeText("Values", c, List.<Object[]>of(row)));
    }
}
