package dev.chdedup.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The bytes each column type's encoder writes, against RowBinary as ClickHouse reads it (little-endian integers, varint
 * lengths, Nullable markers, UUID halves, IPv4 as UInt32), the conversions it shares with the official writer (Decimal
 * digits beyond the scale cut, ranges checked), and the types it leaves to the text path.
 */
class RowBinaryEncoderTest {
    private static final ZoneId UTC = ZoneId.of("UTC");

    private static String hex(String type, Object v) throws Exception {
        RowBinaryEncoder e = RowBinaryEncoder.of(type, UTC);
        assertNotNull(e, type);
        RowBinaryBatch b = new RowBinaryBatch();
        e.encode(v, b);
        return HexFormat.of().formatHex(b.toByteArray());
    }

    @Test
    void integersOfEveryWidth() throws Exception {
        assertEquals("ff", hex("Int8", (byte) -1));
        assertEquals("3412", hex("UInt16", 0x1234));
        assertEquals("78563412", hex("Int32", 0x12345678));
        assertEquals("ffffffffffffffff", hex("UInt64", new BigInteger("18446744073709551615")));
        assertEquals("feffffffffffffffffffffffffffffff", hex("Int128", BigInteger.valueOf(-2)));
        assertEquals("01" + "00".repeat(31), hex("UInt256", 1L));
        assertEquals("2a000000", hex("UInt32", "42"));
        assertThrows(RowBinaryEncoder.Unencodable.class, () -> hex("UInt8", 256));
        assertThrows(RowBinaryEncoder.Unencodable.class, () -> hex("UInt64", -1L));
        assertThrows(RowBinaryEncoder.Unencodable.class, () -> hex("Int8", "x"));
    }

    @Test
    void decimalsCutDigitsBeyondTheScaleAndCheckThePrecision() throws Exception {
        assertEquals("d2040000", hex("Decimal(9, 2)", new BigDecimal("12.349")));
        assertEquals("2efbffff", hex("Decimal(9, 2)", new BigDecimal("-12.349")));
        assertEquals("d204000000000000", hex("Decimal64(2)", 12.34));
        assertEquals(32, hex("Decimal(76, 10)", BigDecimal.ONE).length() / 2);
        assertThrows(RowBinaryEncoder.Unencodable.class, () -> hex("Decimal(3, 1)", new BigDecimal("100")));
    }

    @Test
    void stringsNullablesAndLowCardinality() throws Exception {
        assertEquals("03616263", hex("String", "abc"));
        assertEquals("02c3a9", hex("LowCardinality(String)", "é"));
        assertEquals("6162000000", hex("FixedString(5)", "ab"));
        assertThrows(RowBinaryEncoder.Unencodable.class, () -> hex("FixedString(1)", "ab"));
        assertEquals("01", hex("Nullable(String)", null));
        assertEquals("000161", hex("LowCardinality(Nullable(String))", "a"));
        assertThrows(RowBinaryEncoder.Unencodable.class, () -> hex("String", null));
    }

    @Test
    void datesAndTimesNameTheSameInstantAsTheTextPath() throws Exception {
        assertEquals("0100", hex("Date", LocalDate.of(1970, 1, 2)));
        assertEquals("ffffffff", hex("Date32", LocalDate.of(1969, 12, 31)));
        assertEquals("01000000", hex("DateTime", Timestamp.from(Instant.ofEpochSecond(1))));
        // a local value is a wall-clock time of the column's zone: 09:00 in Tokyo is midnight UTC
        assertEquals("00000000", hex("DateTime('Asia/Tokyo')", LocalDateTime.of(1970, 1, 1, 9, 0)));
        assertEquals(hex("DateTime64(3)", Instant.ofEpochMilli(1_700_000_000_123L)), hex("DateTime64(3)", "2023-11-14 22:13:20.123999"));
        assertEquals("7b00000000000000", hex("DateTime64(3)", Instant.ofEpochSecond(0, 123_999_999)));
    }

    @Test
    void uuidsAddressesEnumsAndContainers() throws Exception {
        assertEquals("0100000000000000" + "0200000000000000", hex("UUID", new UUID(1, 2)));
        assertEquals("04030201", hex("IPv4", InetAddress.getByName("1.2.3.4")));
        assertEquals("00000000000000000000ffff01020304", hex("IPv6", "1.2.3.4"));
        assertEquals("02", hex("Enum8('a' = 1, 'b' = 2)", "b"));
        assertEquals("e803", hex("Enum16('x' = 1000, 'y,z' = -5)", 1000));
        assertThrows(RowBinaryEncoder.Unencodable.class, () -> hex("Enum8('a' = 1)", "c"));
        assertEquals("0201000000ffffffff", hex("Array(Int32)", new int[] {1, -1}));
        assertEquals("02010001", hex("Array(Nullable(UInt8))", java.util.Arrays.asList(null, 1)));
        Map<String, Integer> m = new LinkedHashMap<>();
        m.put("k", 7);
        assertEquals("01016b07", hex("Map(String, UInt8)", m));
        assertEquals("01610500", hex("Tuple(a String, b UInt16)", List.of("a", 5)));
    }

    /** Rows across many chunks come back in order; a row that fails half-way, even across a chunk's end, is cut away. */
    @Test
    void aBatchSpansChunksAndCutsAFailedRow() throws Exception {
        RowBinaryBatch b = new RowBinaryBatch();
        java.io.ByteArrayOutputStream expected = new java.io.ByteArrayOutputStream();
        RowBinaryEncoder s = RowBinaryEncoder.of("String", UTC);
        RowBinaryEncoder u8 = RowBinaryEncoder.of("UInt8", UTC);
        for (int i = 0; i < 20_000; i++) {
            String v = "v".repeat(i % 97) + i;
            b.beginRow();
            s.encode(v, b);
            if (i % 7 == 0) {
                assertThrows(RowBinaryEncoder.Unencodable.class, () -> u8.encode(300, b));
                b.rollback();
                continue;
            }
            u8.encode(i % 256, b);
            b.endRow();
            expected.write(v.length());
            expected.write(v.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            expected.write(i % 256);
        }
        byte[] big = new byte[RowBinaryBatch.CHUNK * 2 + 5];
        b.beginRow();
        b.writeBytes(big, 0, big.length);
        b.rollback();
        assertEquals(expected.size(), b.size());
        assertEquals(HexFormat.of().formatHex(expected.toByteArray()), HexFormat.of().formatHex(b.toByteArray()));
        java.io.ByteArrayOutputStream written = new java.io.ByteArrayOutputStream();
        b.writeTo(written);
        assertEquals(HexFormat.of().formatHex(expected.toByteArray()), HexFormat.of().formatHex(written.toByteArray()));
    }

    @Test
    void typesTheWriterDoesNotTakeHaveNoEncoder() {
        for (String t : new String[] {"JSON", "Dynamic", "Variant(String, UInt8)", "AggregateFunction(sum, UInt64)", "Nothing", "Nested(a UInt8)",
            "DateTime('No/Such_Zone')", "Object('json')"}) {
            assertNull(RowBinaryEncoder.of(t, UTC), t);
        }
    }

    @Test
    void onlyTheSimpleInsertFormHasAShape() {
        RowBinaryInsert s = RowBinaryInsert.of("insert into `my db`.\"t\" ( a, `b c` ) values (?, ?);");
        assertEquals(new RowBinaryInsert("my db", "t", List.of("a", "b c"), 2), s);
        assertEquals("`my db`.`t`", s.quotedTable());
        assertEquals(new RowBinaryInsert(null, "t", null, 1), RowBinaryInsert.of("/* c */ INSERT INTO TABLE t VALUES (?) -- end"));
        for (String sql : new String[] {"INSERT INTO t (a) VALUES (toDate(?))", "INSERT INTO t (a, b) VALUES (?, 1)",
            "INSERT INTO t SETTINGS x = 1 VALUES (?)", "INSERT INTO t (a) SELECT ?", "INSERT INTO FUNCTION remote('h', t) VALUES (?)",
            "INSERT INTO t (a, b) VALUES (?)", "INSERT INTO t VALUES (?), (?)", "INSERT INTO t FORMAT Values (?)"}) {
            assertNull(RowBinaryInsert.of(sql), sql);
        }
    }
}
