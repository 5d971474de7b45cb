package dev.chdedup.stub.exec;

/**
 * joinGet and joinGetOrNull over a table of the Join engine, held to the engine's answers: the first row of a key
 * under ANY, a missing key's default or NULL, a Nullable column, the table named by identifier or string, keys from a
 * column, and the engine's errors (key types, key count, unknown column, table and database).
 */
class FunctionJoinGetCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"CREATE TABLE jt (id1 UInt32, id2 UInt32, name String, n Nullable(UInt8)) ENGINE = Join(ANY, LEFT, id1, id2)", ""},
            {"INSERT INTO jt VALUES (1, 11, 'a', 1) (2, 12, 'b', NULL) (1, 11, 'c', 3)", ""},
            {"SELECT joinGet(jt, 'name', toUInt32(1), toUInt32(11)), joinGet('jt', 'name', toUInt32(2), toUInt32(12)), joinGet(jt, 'name', toUInt32(3), toUInt32(12)), joinGetOrNull(jt, 'name', toUInt32(3), toUInt32(12)), toTypeName(joinGetOrNull(jt, 'name', toUInt32(3), toUInt32(12))), joinGet(jt, 'n', toUInt32(2), toUInt32(12)), toTypeName(joinGet(jt, 'n', toUInt32(2), toUInt32(12)))", "a\tb\t\t\\N\tNullable(String)\t\\N\tNullable(UInt8)"},
            {"SELECT joinGet(jt, 'name', 1, 11)", "Code: 53 TYPE_MISMATCH"},
            {"SELECT joinGet(jt, 'nope', toUInt32(1), toUInt32(11))", "Code: 16 NO_SUCH_COLUMN_IN_TABLE"},
            {"SELECT joinGet(jt, 'name', toUInt32(1))", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT joinGet(nosuch, 'name', 1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT joinGet(nodb.jt, 'name', 1)", "Code: 81 UNKNOWN_DATABASE"},
            {"SELECT joinGet(jt, 'id1', toUInt32(1), toUInt32(11))", "Code: 16 NO_SUCH_COLUMN_IN_TABLE"},
            {"SELECT joinGet(currentDatabase() || '.jt', 'name', toUInt32(1), toUInt32(11))", "a"},
            {"SELECT number, joinGet(jt, 'name', toUInt32(number), toUInt32(number + 10)), joinGetOrNull(jt, 'n', toUInt32(number), toUInt32(number + 10)) FROM numbers(3)", "0\t\t\\N\n1\ta\t1\n2\tb\t\\N"},
            {"DROP TABLE jt", ""},
        };
    }
}
