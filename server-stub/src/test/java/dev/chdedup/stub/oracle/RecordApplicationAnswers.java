package dev.chdedup.stub.oracle;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Records the engine's answers to an application script (ApplicationScript) into its {@code .answers} file:
 * {@code java -cp <test classpath> dev.chdedup.stub.oracle.RecordApplicationAnswers shop
 * server-stub/src/test/resources/application/shop.answers}, with chDB installed (EngineOracle says where).
 */
public final class RecordApplicationAnswers {
    private RecordApplicationAnswers() {
    }

    public static void main(String[] args) throws Exception {
        StringBuilder out = new StringBuilder();
        try (EngineOracle engine = EngineOracle.start()) {
            for (String sql : ApplicationScript.statements(args[0])) {
                out.append(ApplicationScript.escape(ApplicationScript.recorded(engine.query(sql, Map.of(), null)))).append('\n');
            }
            System.out.println("recorded " + args[0] + " from " + engine.version());
        }
        Files.writeString(Path.of(args[1]), out.toString(), StandardCharsets.UTF_8);
    }
}
