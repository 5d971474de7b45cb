package dev.chdedup.stub.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.types.ByteStrings;
import org.junit.jupiter.api.Test;

/** The UTF-8-aware string functions, on valid UTF-8 and on bytes that are not: those pass through as they are. */
class Utf8FunctionsTest {
    private static String t(String text) {
        return ByteStrings.fromText(text);
    }

    @Test
    void caseMappingByCodePoint() {
        assertEquals(t("\u00dcBER \u0416"), Utf8Functions.changeCase(t("\u00fcber \u0436"), true));
        assertEquals(t("\u00fcber \u0436"), Utf8Functions.changeCase(t("\u00dcBER \u0416"), false));
        assertEquals("\u00ffA\u0080", Utf8Functions.changeCase("\u00ffa\u0080", true), "invalid bytes are kept");
        assertEquals(t("STRA\u00dfE"), Utf8Functions.changeCase(t("stra\u00dfe"), true), "no length-changing mapping");
        assertEquals(t("\u00fcA"), StringFunctions.asciiCase(t("\u00fca"), true), "upper maps ASCII only");
    }

    @Test
    void reverseAndSubstringByCodePoint() {
        assertEquals(t("\ud83d\ude00\u00fca"), Utf8Functions.reverse(t("a\u00fc\ud83d\ude00")));
        assertEquals("\u00fe\u00ff", Utf8Functions.reverse("\u00ff\u00fe"));
        String s = t("a\u00fc\u20acb");
        assertEquals(t("\u00fc\u20ac"), Utf8Functions.substring(s, 2, 2));
        assertEquals(t("\u20acb"), Utf8Functions.substring(s, -2, Long.MAX_VALUE));
        assertEquals("", Utf8Functions.substring(s, 5, 1));
        assertEquals(t("a"), Utf8Functions.substring(s, 0 - 5, 2));
        assertEquals("\u00ff", Utf8Functions.substring("a\u00ffb", 2, 1));
    }
}
