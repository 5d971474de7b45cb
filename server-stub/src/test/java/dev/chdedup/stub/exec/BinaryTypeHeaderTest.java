package dev.chdedup.stub.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.server.StubServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * RowBinaryWithNamesAndTypes with {@code output_format_binary_encode_types_in_binary_format = 1}, given in the query's
 * SETTINGS clause: the header names each column's type in ClickHouse's binary type encoding (the numbers, String and
 * FixedString, dates and times, Time and Time64, Decimal, UUID, IPv4, Enum8 and Enum16 with their elements, Nullable,
 * LowCardinality, Array, Map, plain and named Tuple, Nothing), byte for byte as ClickHouse 26.7 wrote it.
 */
class BinaryTypeHeaderTest {
    private static final String QUERY = "SELECT 1 AS a, 'x' AS b, [toNullable(1)] AS c, toDateTime64(0, 3, 'UTC') AS d, map('a', 1) AS e,"
        + " (1, 'x') AS f, toDecimal64(1, 2) AS g, CAST(1 AS Enum8('a' = 1, 'b' = -2)) AS h, CAST('x' AS LowCardinality(String)) AS i,"
        + " CAST((1, 2) AS Tuple(x UInt8, y UInt8)) AS j, toDate(0) k, toUUID('00000000-0000-0000-0000-000000000001') l,"
        + " CAST(1000 AS Enum16('q' = 1000)) m, toTime('01:00:00') n, toTime64('-01:00:00.5', 3) n2, toIPv4('1.2.3.4') o, 1.5 p,"
        + " toFixedString('ab', 2) q, NULL r, toDateTime(0) s, toInt128(5) t, toBool(1) u"
        + " FORMAT RowBinaryWithNamesAndTypes SETTINGS output_format_binary_encode_types_in_binary_format = 1";
    /** The engine's answer to {@link #QUERY}, through the oracle (shared/oracle). */
    private static final String ENGINE = "16016101620163016401650166016701680169016a016b016c016d016e026e32016f01700171017201730174017501151e23011403035554432715011f0201151a120217020162fe016101261520020178010179010f1d18010171e803323403280e16022300110b2d01017801000100000000000000000101610101017864000000000000000101780102000000000000000000000100000000000000e803100e00008c0fc9ffffffffff04030201000000000000f83f616201000000000500000000000000000000000000000001";

    /** The geo types and Geometry are custom types, named in the header (0x2C and the name). */
    private static final String GEO_QUERY = "SELECT CAST(CAST((1.5, 2) AS Point) AS Geometry) AS g, CAST((1.5,2) AS Point) AS p, CAST([(1, 2)] AS Ring) r"
        + " FORMAT RowBinaryWithNamesAndTypes SETTINGS output_format_binary_encode_types_in_binary_format=1";
    private static final String GEO_ENGINE = "030167017001722c0847656f6d657472792c05506f696e742c0452696e6703000000000000f83f0000000000000040000000000000f83f000000000000004001000000000000f03f0000000000000040";

    /** QBit(T, N) is 0x36, T's encoding and N; its values are an array's. */
    private static final String QBIT_QUERY = "SELECT CAST([1, 2, 3, 4] AS QBit(Float32, 4)) AS q, CAST([1.5, 2] AS QBit(Float64, 2)) AS r"
        + " FORMAT RowBinaryWithNamesAndTypes SETTINGS output_format_binary_encode_types_in_binary_format=1";
    private static final String QBIT_ENGINE = "0201710172360d04360e02040000803f00000040000040400000804002000000000000f83f0000000000000040";

    @Test
    void qbitIsItsElementAndDimension() throws Exception {
        try (StubServer s = StubServer.builder().port(0).build().start()) {
            HttpResponse<byte[]> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(s.httpUrl() + "/"))
                .POST(HttpRequest.BodyPublishers.ofString(QBIT_QUERY)).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(QBIT_ENGINE, HexFormat.of().formatHex(r.body()));
        }
    }

    @Test
    void geoTypesAreCustomTypesByName() throws Exception {
        try (StubServer s = StubServer.builder().port(0).build().start()) {
            HttpResponse<byte[]> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(s.httpUrl() + "/"))
                .POST(HttpRequest.BodyPublishers.ofString(GEO_QUERY)).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(GEO_ENGINE, HexFormat.of().formatHex(r.body()));
        }
    }

    @Test
    void theHeaderEncodesTypesAsTheEngineDoes() throws Exception {
        try (StubServer s = StubServer.builder().port(0).build().start()) {
            HttpResponse<byte[]> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(s.httpUrl() + "/"))
                .POST(HttpRequest.BodyPublishers.ofString(QUERY)).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(ENGINE, HexFormat.of().formatHex(r.body()));
        }
    }
}
