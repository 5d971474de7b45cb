package dev.chdedup.stub.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Unit tests of {@link QueryString}'s form-urlencoded decoding. */
class QueryStringTest {

    private static String pairs(String raw) throws HttpException {
        return QueryString.decode(raw).stream().map(p -> p[0] + "=" + p[1]).collect(Collectors.joining("|"));
    }

    @Test
    void decodesPlusPercentAndUtf8() throws HttpException {
        assertEquals("query=SELECT 1+1", pairs("query=SELECT+1%2B1"));
        assertEquals("u=\u20ac\u00e9", pairs("u=%E2%82%AC%c3%a9"));
        assertEquals("a=b=c", pairs("a=b%3Dc"));
        assertEquals("a=b=c", pairs("a=b=c"));
        // raw UTF-8 bytes seen through ISO-8859-1 are reassembled
        assertEquals("n=\u20ac", pairs("n=" + new String("\u20ac".getBytes(java.nio.charset.StandardCharsets.UTF_8),
                java.nio.charset.StandardCharsets.ISO_8859_1)));
    }

    @Test
    void keepsOrderRepeatsAndEmptyValues() throws HttpException {
        assertEquals("role=a|x=|role=b|=v|y=", pairs("role=a&x&&role=b&=v&y="));
        assertEquals(List.of(), QueryString.decode(null));
        assertEquals(List.of(), QueryString.decode(""));
        assertEquals("", pairs("&&&"));
    }

    @Test
    void rejectsMalformedEscapes() {
        assertThrows(HttpException.class, () -> QueryString.decode("a=%"));
        assertThrows(HttpException.class, () -> QueryString.decode("a=%4"));
        assertThrows(HttpException.class, () -> QueryString.decode("a=%G1"));
        assertEquals(400, assertThrows(HttpException.class, () -> QueryString.decode("%zz=1")).status());
    }
}
