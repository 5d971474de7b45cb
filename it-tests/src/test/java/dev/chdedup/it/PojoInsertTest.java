package dev.chdedup.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.metadata.TableSchema;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * POJOs inserted through the official Java client (client-v2 0.10.0: {@code register} then {@code insert(table, list)}),
 * which writes RowBinaryWithDefaults when the table has a DEFAULT (a marker byte before each value: 1 = take the
 * column's DEFAULT) and RowBinary otherwise, and read back as POJOs: primitive, boxed-nullable and defaulted fields, Decimal,
 * Int128, UUID, IPv4, LowCardinality, Array, Map, Nested (flattened), Enum8, DateTime, DateTime64 and Date32. The stub once reported no defaults for a Memory
 * table's DESCRIBE (so the client refused a null for a column with a DEFAULT) and rejected an Enum code outside the
 * enum in binary input, which ClickHouse keeps (only showing it as text fails, Code 691).
 */
class PojoInsertTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.create();

    private static Client client;

    @BeforeAll
    static void connect() {
        client = STUB.newClient();
    }

    @AfterAll
    static void close() {
        if (client != null) {
            client.close();
        }
    }

    private static final String COLUMNS = "(id Int32, int32_default Int32 DEFAULT 7, answer Int32 DEFAULT id * 2,"
        + " note String DEFAULT 'none', nullable Nullable(Int64), amount Decimal(10, 2), big Int128, uid UUID, ip IPv4,"
        + " label LowCardinality(String), tags Array(String), attrs Map(String, Int32),"
        + " nested Nested(innerInt Int32, innerString String), kind Enum8('a' = 1, 'b' = 2), ts DateTime,"
        + " ts64 DateTime64(3), day Date32)";

    @Test
    void pojosWithDefaultsRoundTripThroughMergeTree() throws Exception {
        roundTrip("pojo_mt", "ENGINE = MergeTree ORDER BY id");
    }

    @Test
    void pojosWithDefaultsRoundTripThroughMemory() throws Exception {
        roundTrip("pojo_mem", "ENGINE = Memory");
    }

    @Test
    void pojosOfATableWithoutDefaultsGoAsRowBinary() throws Exception {
        String columns = COLUMNS.replace(" DEFAULT 7", "").replace(" DEFAULT id * 2", "").replace(" DEFAULT 'none'", "");
        client.queryAll("CREATE TABLE pojo_plain " + columns + " ENGINE = MergeTree ORDER BY id");
        TableSchema schema = client.getTableSchema("pojo_plain");
        client.register(Row.class, schema);
        Row one = Row.sample(1);
        Row two = Row.sample(2);
        two.nullable = null;
        two.kind = 9; // outside the enum
        client.insert("pojo_plain", List.of(one, two)).get();
        assertEquals(List.of(one, two), client.queryAll("SELECT * FROM pojo_plain ORDER BY id", Row.class, schema));
        assertEquals("1\t2\n2\t9", STUB.scalar("SELECT id, CAST(kind AS Int8) FROM pojo_plain ORDER BY id"));
    }

    private static void roundTrip(String table, String engine) throws Exception {
        client.queryAll("CREATE TABLE " + table + " " + COLUMNS + " " + engine);
        TableSchema schema = client.getTableSchema(table);
        client.register(Row.class, schema);
        Row full = Row.sample(1);
        Row defaults = Row.sample(2);
        defaults.answer = null;
        defaults.note = null;
        defaults.nullable = null;
        defaults.tags = List.of();
        defaults.attrs = Map.of();
        defaults.nestedInnerInt = List.of();
        defaults.nestedInnerString = List.of();
        defaults.kind = 0; // outside the enum: binary input keeps it
        client.insert(table, List.of(full, defaults)).get();

        List<Row> back = client.queryAll("SELECT * FROM " + table + " ORDER BY id", Row.class, schema);
        assertEquals(2, back.size());
        assertEquals(full, back.get(0));
        Row expected = Row.sample(2);
        expected.answer = 4;
        expected.note = "none";
        expected.nullable = null;
        expected.tags = List.of();
        expected.attrs = Map.of();
        expected.nestedInnerInt = List.of();
        expected.nestedInnerString = List.of();
        expected.kind = 0;
        assertEquals(expected, back.get(1));
    }

    /** One row of the table; the getters and setters are what client-v2 matches to the columns (names without '_' and '.'). */
    public static final class Row {
        int id;
        int int32Default;
        Integer answer;
        String note;
        Long nullable;
        BigDecimal amount;
        BigInteger big;
        UUID uid;
        Inet4Address ip;
        String label;
        List<String> tags;
        Map<String, Integer> attrs;
        List<Integer> nestedInnerInt;
        List<String> nestedInnerString;
        byte kind;
        LocalDateTime ts;
        LocalDateTime ts64;
        LocalDate day;

        static Row sample(int id) throws Exception {
            Row r = new Row();
            r.id = id;
            r.int32Default = 100 + id;
            r.answer = 10 * id;
            r.note = "note " + id;
            r.nullable = -5L * id;
            r.amount = new BigDecimal("1234.5" + id);
            r.big = BigInteger.ONE.shiftLeft(100).negate().add(BigInteger.valueOf(id));
            r.uid = new UUID(0x0123456789abcdefL, id);
            r.ip = (Inet4Address) InetAddress.getByAddress(new byte[] {10, 0, 0, (byte) id});
            r.label = "lc" + id;
            r.tags = List.of("x" + id, "y");
            r.attrs = Map.of("k" + id, id, "z", -1);
            r.nestedInnerInt = List.of(id, 2 * id);
            r.nestedInnerString = List.of("u", "v" + id);
            r.kind = (byte) (id == 1 ? 2 : 1);
            r.ts = LocalDateTime.of(2024, 1, 2, 3, 4, 5 + id);
            r.ts64 = LocalDateTime.of(2024, 1, 2, 3, 4, 5, 678_000_000 + id * 1_000_000);
            r.day = LocalDate.of(1900 + id, 2, 3);
            return r;
        }

        private List<Object> fields() {
            return Arrays.asList(id, int32Default, answer, note, nullable, amount, big, uid, ip, label, tags, attrs,
                nestedInnerInt, nestedInnerString, kind, ts, ts64, day);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Row && fields().equals(((Row) o).fields());
        }

        @Override
        public int hashCode() {
            return Objects.hash(fields().toArray());
        }

        @Override
        public String toString() {
            return fields().toString();
        }

        public int getId() { return id; }
        public void setId(int v) { id = v; }
        public int getInt32Default() { return int32Default; }
        public void setInt32Default(int v) { int32Default = v; }
        public Integer getAnswer() { return answer; }
        public void setAnswer(Integer v) { answer = v; }
        public String getNote() { return note; }
        public void setNote(String v) { note = v; }
        public Long getNullable() { return nullable; }
        public void setNullable(Long v) { nullable = v; }
        public BigDecimal getAmount() { return amount; }
        public void setAmount(BigDecimal v) { amount = v; }
        public BigInteger getBig() { return big; }
        public void setBig(BigInteger v) { big = v; }
        public UUID getUid() { return uid; }
        public void setUid(UUID v) { uid = v; }
        public Inet4Address getIp() { return ip; }
        public void setIp(Inet4Address v) { ip = v; }
        public String getLabel() { return label; }
        public void setLabel(String v) { label = v; }
        public List<String> getTags() { return tags; }
        public void setTags(List<String> v) { tags = v; }
        public Map<String, Integer> getAttrs() { return attrs; }
        public void setAttrs(Map<String, Integer> v) { attrs = v; }
        public List<Integer> getNestedInnerInt() { return nestedInnerInt; }
        public void setNestedInnerInt(List<Integer> v) { nestedInnerInt = v; }
        public List<String> getNestedInnerString() { return nestedInnerString; }
        public void setNestedInnerString(List<String> v) { nestedInnerString = v; }
        public byte getKind() { return kind; }
        public void setKind(byte v) { kind = v; }
        public LocalDateTime getTs() { return ts; }
        public void setTs(LocalDateTime v) { ts = v; }
        public LocalDateTime getTs64() { return ts64; }
        public void setTs64(LocalDateTime v) { ts64 = v; }
        public LocalDate getDay() { return day; }
        public void setDay(LocalDate v) { day = v; }
    }
}
