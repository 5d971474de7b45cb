package dev.chdedup.stub.http;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;

/**
 * The RFC 2047 encoded words ClickHouse's HTTP server decodes in every request header value: Poco's
 * {@code MessageHeader::decodeWord} (base/poco/Net/src/MessageHeader.cpp), which the server's header reader applies
 * to each field. A {@code =?charset?B|Q?text?=} chunk becomes its text in UTF-8; an unterminated one loses its
 * {@code =?} and keeps the rest, so a password such as {@code S3Cr=?t} sent in X-ClickHouse-Key arrives as
 * {@code S3Crt} and is refused, as the engine refuses it. Values are the header's bytes as ISO-8859-1 characters,
 * as {@link RequestDecoder} reads them, before and after.
 */
final class MessageHeader {
    private MessageHeader() {
    }

    /** {@code value} with each encoded word decoded (the UTF-8 bytes as ISO-8859-1 characters). */
    static String decodeWord(String value) throws HttpException {
        if (value.indexOf("=?") < 0) {
            return value;
        }
        StringBuilder out = new StringBuilder(value.length());
        String rest = value;
        while (true) {
            int start = rest.indexOf("=?");
            if (start < 0) {
                out.append(rest);
                break;
            }
            out.append(rest, 0, start);
            rest = rest.substring(start + 2);
            int charsetEnd = rest.indexOf('?');
            int encodingEnd = charsetEnd < 0 ? -1 : rest.indexOf('?', charsetEnd + 1);
            int end = encodingEnd < 0 ? -1 : rest.indexOf("?=", encodingEnd + 1);
            if (end < 0) {
                // not a whole encoded word: the text after "=?" is kept as it is
                out.append(rest);
                break;
            }
            out.append(decodeRfc2047(rest.substring(0, end)));
            rest = rest.substring(end + 2);
        }
        return out.toString();
    }

    /** One encoded word without its delimiters, {@code charset?encoding?text}. */
    private static String decodeRfc2047(String word) throws HttpException {
        String[] parts = word.split("\\?", -1);
        String charset = parts[0].toUpperCase(Locale.ROOT);
        String encoding = parts[1].toUpperCase(Locale.ROOT);
        String text = parts.length > 2 ? parts[2] : "";
        byte[] bytes;
        if (encoding.equals("B")) {
            try {
                // Poco's Base64Decoder skips white space and refuses any other character outside the alphabet
                bytes = Base64.getDecoder().decode(text.replaceAll("\\s", ""));
            } catch (IllegalArgumentException e) {
                throw new HttpException(400, "Malformed base64 in an encoded header word");
            }
        } else if (encoding.equals("Q")) {
            bytes = decodeQ(text);
        } else {
            return word;
        }
        if (!charset.equals("UTF-8")) {
            try {
                bytes = new String(bytes, Charset.forName(charset)).getBytes(StandardCharsets.UTF_8);
            } catch (IllegalArgumentException unsupported) {
                // Poco keeps the bytes of a charset it cannot convert
            }
        }
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    /** The Q encoding: {@code _} a space, {@code =XX} the byte of two hex digits (as strtol reads them), else as is. */
    private static byte[] decodeQ(String text) {
        byte[] out = new byte[text.length()];
        int n = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '_') {
                out[n++] = ' ';
            } else if (c == '=') {
                String hex = text.substring(i + 1, Math.min(i + 3, text.length()));
                i += hex.length();
                int value = 0;
                for (int k = 0; k < hex.length() && Character.digit(hex.charAt(k), 16) >= 0; k++) {
                    value = value * 16 + Character.digit(hex.charAt(k), 16);
                }
                out[n++] = (byte) value;
            } else {
                out[n++] = (byte) c;
            }
        }
        return java.util.Arrays.copyOf(out, n);
    }
}
