package dev.chdedup.stub.exec;

/**
 * The functions of the {@link FunctionFactory} as system.functions lists them (name, case, alias, category) and as
 * queries call them (a case-insensitive name in any case, a case-sensitive one only as written), held to the engine.
 */
class FunctionFactoryTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT name, is_aggregate, case_insensitive, alias_to, categories FROM system.functions WHERE name IN ('nullIf','isNullable','firstNonDefault','isZeroOrNull') ORDER BY name", "firstNonDefault\t0\t1\t\tNull\nisNullable\t0\t0\t\tNull\nisZeroOrNull\t0\t0\t\tNull\nnullIf\t0\t1\t\tNull"},
            {"SELECT NULLIF(1, 1), nullif(2, 1), FIRSTNONDEFAULT(0, 3)", "\\N\t2\t3"},
            {"SELECT ISNULLABLE(1)", "Code: 46 UNKNOWN_FUNCTION"},
            {"SELECT isZeroOrNull('a')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT firstNonDefault(1, 'a')", "Code: 386 NO_COMMON_TYPE"},
            {"SELECT toTypeName(firstNonDefault(NULL, NULL)), firstNonDefault(NULL, NULL), toTypeName(firstNonDefault(1, 2.5)), firstNonDefault(0, 0)", "Nullable(Nothing)\t\\N\tFloat64\t0"},
            {"SELECT nullIf(NULL, 1), toTypeName(nullIf(1, 2))", "\\N\tNullable(UInt8)"},
        };
    }
}
