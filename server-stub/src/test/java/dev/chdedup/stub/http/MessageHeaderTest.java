package dev.chdedup.stub.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Header values decoded as Poco's MessageHeader::decodeWord decodes them (ClickHouse's readHeaders calls it on every
 * request header): the expectations follow that function's steps, base/poco/Net/src/MessageHeader.cpp.
 */
class MessageHeaderTest {

    private static String utf8(String s) {
        return new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
    }

    @Test
    void anUnterminatedWordLosesItsOpeningOnly() throws HttpException {
        assertEquals("S3Crt", MessageHeader.decodeWord("S3Cr=?t"));
        assertEquals("S3Cr?=t", MessageHeader.decodeWord("S3Cr?=t"));
        assertEquals("ab?c", MessageHeader.decodeWord("a=?b?c"));
        assertEquals("plain value", MessageHeader.decodeWord("plain value"));
    }

    @Test
    void base64AndQuotedWordsBecomeUtf8() throws HttpException {
        assertEquals(utf8("123\u00a7"), MessageHeader.decodeWord("=?UTF-8?B?MTIzwqc=?="));
        assertEquals(utf8("x a b= y"), MessageHeader.decodeWord("x =?utf-8?q?a_b=3D?= y"));
        assertEquals(utf8("\u00e9t\u00e9"), MessageHeader.decodeWord("=?ISO-8859-1?Q?=E9t=E9?="));
        assertEquals(utf8("ab"), MessageHeader.decodeWord("=?UTF-8?Q?a?==?UTF-8?Q?b?="));
        // an unknown encoding keeps the word's inside
        assertEquals("UTF-8?X?abc", MessageHeader.decodeWord("=?UTF-8?X?abc?="));
    }

    @Test
    void malformedBase64IsABadRequest() {
        assertEquals(400, assertThrows(HttpException.class, () -> MessageHeader.decodeWord("=?UTF-8?B?*?=")).status());
    }
}
