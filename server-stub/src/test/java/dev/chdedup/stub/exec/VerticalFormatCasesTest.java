package dev.chdedup.stub.exec;

/**
 * The Vertical format's readable tip after a large number and its cut of a long column name, held to the engine's
 * answers: the threshold, NULL, Bool, the 64-bit hash range without a tip, the units, names that are identifiers or
 * not, wide and non-ASCII names.
 */
class VerticalFormatCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT 1234567 AS a, 123456 AS b, -1234567.5 AS c, toNullable(12345678) AS d, NULL::Nullable(Int64) AS e, true AS f, 1e30 AS g, 2e19 AS h, 5e17 AS i, toUInt64(18446744073709551615) AS j, inf AS k FORMAT Vertical", "Row 1:\n──────\na: 1234567 -- 1.23 million\nb: 123456\nc: -1234567.5 -- -1.23 million\nd: 12345678 -- 12.35 million\ne: ᴺᵁᴸᴸ\nf: true\ng: 1e30 -- 1.00 nonillion\nh: 20000000000000000000 -- 20.00 quintillion\ni: 500000000000000000\nj: 18446744073709551615\nk: inf"},
            {"SELECT 1 AS abcdefghijklmnopqrstuvwxyzab, 2 AS `abcdefghijklmnopqrst uvwxyza`, 3 AS `abcdefghijklmnopqrs uvwxyza`, 4 AS `абвгдежзийклмнопрстуфхцчшщыэюя` FORMAT Vertical", "Row 1:\n──────\nabcdefghijklmnopqrstuvwxyzab: 1\nabcdefghijklmnopqrst uvwxyza: 2\nabcdefghijklmnopqrs uvwxyza:  3\nабвгдежзийкл⋯уфхцчшщыэюя:     4"},
            {"SELECT number * 1000001 AS n, toString(number) || 'looooooooooooooooooooooooong' FROM numbers(2) FORMAT Vertical", "Row 1:\n──────\nn:                        0\nconcat(toStr⋯ooooooong'): 0looooooooooooooooooooooooong\n\nRow 2:\n──────\nn:                        1000001 -- 1.00 million\nconcat(toStr⋯ooooooong'): 1looooooooooooooooooooooooong"},
        };
    }
}
