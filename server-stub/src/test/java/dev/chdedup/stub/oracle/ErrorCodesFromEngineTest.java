package dev.chdedup.stub.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.error.ErrorCode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every error code the stub raises has the number and name the real ClickHouse 26.7 gives it: the engine's
 * {@code errorCodeToName(N)} for each, recorded in {@code oracle/error_codes_26_7.tsv}.
 */
class ErrorCodesFromEngineTest {
    static Map<Integer, String> engineNames() throws IOException {
        Map<Integer, String> names = new HashMap<>();
        try (InputStream in = ErrorCodesFromEngineTest.class.getResourceAsStream("/oracle/error_codes_26_7.tsv")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    String[] f = line.split("\t");
                    names.put(Integer.parseInt(f[0]), f[1].strip());
                }
            }
        }
        return names;
    }

    @Test
    void everyCodeHasTheEnginesName() throws IOException {
        Map<Integer, String> engine = engineNames();
        List<String> wrong = new ArrayList<>();
        for (ErrorCode c : ErrorCode.values()) {
            if (!c.name().equals(engine.get(c.code))) {
                wrong.add(c.name() + "(" + c.code + "): ClickHouse calls " + c.code + " " + engine.get(c.code));
            }
        }
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
        assertEquals("DEDUPLICATION_IS_NOT_POSSIBLE", engine.get(ErrorCode.DEDUPLICATION_IS_NOT_POSSIBLE.code));
    }
}
