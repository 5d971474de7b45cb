package dev.chdedup.stub.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Aggregates;
import dev.chdedup.stub.exec.Functions;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.Settings;
import dev.chdedup.stub.types.DataTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** system.functions and system.data_type_families list only what the engine implements, and all of it that matters. */
class SystemReferenceTablesTest {
    /** Dispatched before the function table: higher-order functions need a lambda, arrayJoin is a rewrite. */
    private static final Set<String> NOT_BY_NAME = Set.of("arrayMap", "arrayFilter", "arrayExists", "arrayAll",
        "arrayCount", "arrayFirst", "arraySort", "arrayJoin");

    @Test
    void everyListedFunctionIsImplemented() {
        QueryContext ctx = new QueryContext("default", "default", "q", Settings.DEFAULTS);
        List<String> missing = new ArrayList<>();
        List<String> all = new ArrayList<>(SystemReferenceTables.FUNCTIONS);
        all.addAll(SystemReferenceTables.INTERVAL_FUNCTIONS);
        for (String f : all) {
            if (NOT_BY_NAME.contains(f)) {
                continue;
            }
            try {
                Functions.compile(f, List.of(), ctx);
            } catch (ChException e) {
                if (e.code() == ErrorCode.UNKNOWN_FUNCTION) {
                    missing.add(f);
                }
            } catch (RuntimeException wrongArity) {
                // known, only called without its arguments
            }
        }
        assertEquals(List.of(), missing);
        for (String a : SystemReferenceTables.AGGREGATES) {
            assertTrue(Aggregates.isAggregate(a), a);
        }
        for (Map.Entry<String, String> alias : SystemReferenceTables.FUNCTION_ALIASES.entrySet()) {
            assertTrue(SystemReferenceTables.FUNCTIONS.contains(alias.getValue()) || alias.getValue().equals("generate_series"),
                alias.toString());
        }
    }

    @Test
    void everyListedTypeParses() {
        for (String t : SystemReferenceTables.TYPES) {
            String name = switch (t) {
                case "Array", "Nullable", "LowCardinality" -> t + "(UInt8)";
                case "Map" -> "Map(String, UInt8)";
                case "Tuple" -> "Tuple(UInt8)";
                case "FixedString" -> "FixedString(3)";
                case "Enum8", "Enum16" -> t + "('a' = 1)";
                case "Decimal" -> "Decimal(10, 2)";
                case "QBit" -> "QBit(Float32, 4)";
                case "Decimal32", "Decimal64", "Decimal128", "Decimal256" -> t + "(2)";
                default -> t;
            };
            assertTrue(DataTypes.parse(name) != null, name);
        }
        for (String target : SystemReferenceTables.TYPE_ALIASES.values()) {
            assertTrue(SystemReferenceTables.TYPES.contains(target), target);
        }
    }
}
