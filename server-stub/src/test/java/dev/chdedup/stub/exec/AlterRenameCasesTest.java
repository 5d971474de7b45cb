package dev.chdedup.stub.exec;

/**
 * The rules ClickHouse sets on the renames of one ALTER: no transitive renames, no column renamed twice, no column
 * renamed and modified; a rename and a comment of the new name go together, and every command sees the columns as the
 * commands before it left them. The answers are ClickHouse 26.7's, recorded through the oracle (shared/oracle).
 */
class AlterRenameCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        return new String[][] {
            {"DROP TABLE IF EXISTS arv", ""},
            {"CREATE TABLE arv (k UInt64, v UInt32, s String) ENGINE = MergeTree ORDER BY k", ""},
            {"INSERT INTO arv VALUES (1, 2, 'a')", ""},
            {"ALTER TABLE arv MODIFY COLUMN v UInt64, RENAME COLUMN v TO w", "Code: 48 NOT_IMPLEMENTED"},
            {"ALTER TABLE arv MODIFY COLUMN v COMMENT 'c', RENAME COLUMN v TO w", "Code: 48 NOT_IMPLEMENTED"},
            {"ALTER TABLE arv RENAME COLUMN v TO w, MODIFY COLUMN w UInt64", "Code: 48 NOT_IMPLEMENTED"},
            {"ALTER TABLE arv RENAME COLUMN v TO a, RENAME COLUMN v TO b", "Code: 36 BAD_ARGUMENTS"},
            {"ALTER TABLE arv RENAME COLUMN v TO a, RENAME COLUMN a TO b", "Code: 48 NOT_IMPLEMENTED"},
            {"ALTER TABLE arv RENAME COLUMN v TO w, MODIFY COLUMN v UInt64", "Code: 10 NOT_FOUND_COLUMN_IN_BLOCK"},
            {"ALTER TABLE arv RENAME COLUMN v TO w, COMMENT COLUMN w 'x'", ""},
            {"SELECT name, type, comment FROM system.columns WHERE database = currentDatabase() AND table = 'arv' ORDER BY position", "k\tUInt64\t\nw\tUInt32\tx\ns\tString\t"},
            {"ALTER TABLE arv RENAME COLUMN w TO v, RENAME COLUMN s TO t", ""},
            {"SELECT * FROM arv", "1\t2\ta"},
        };
    }
}
