package dev.chdedup.stub.mergetree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.chdedup.stub.data.ColumnRows;
import dev.chdedup.stub.data.Columns;
import dev.chdedup.stub.data.IColumn;
import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The sort of a columnar piece is the stable sort of its rows by the key: unsigned UInt64 above 2^63, negative
 * integers, strings, ties kept in input order, and a key that is an expression over the row.
 */
class SortPermutationTest {
    @Test
    void itIsTheStableSortOfTheRows() {
        Random rnd = new Random(7);
        for (String type : new String[] {"UInt64", "Int32", "String", "DateTime"}) {
            DataType t = DataTypes.parse(type);
            for (int round = 0; round < 10; round++) {
                int n = 1 + rnd.nextInt(2000);
                List<Object> keys = new ArrayList<>();
                List<Object> seq = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    long x = rnd.nextInt(50) - (type.equals("Int32") ? 25 : 0);
                    keys.add(switch (type) {
                        case "UInt64" -> rnd.nextBoolean() ? x : x | Long.MIN_VALUE;
                        case "String" -> "k" + x;
                        default -> x;
                    });
                    seq.add((long) i);
                }
                IColumn[] cols = {Columns.of(t, keys), Columns.of(DataTypes.parse("UInt32"), seq)};
                ColumnRows rows = new ColumnRows(cols, n);
                List<Object[]> expected = new ArrayList<>(rows);
                expected.sort(Comparator.comparing(r -> r[0], t::compare)); // List.sort is stable
                for (Evaluator key : new Evaluator[] {Evaluator.column(t, 0), Evaluator.of(t, r -> r[0])}) {
                    int[] perm = SortPermutation.of(rows, key);
                    for (int i = 0; i < n; i++) {
                        int at = perm == null ? i : perm[i];
                        assertEquals(expected.get(i)[1], cols[1].get(at), type + " row " + i + " of " + n);
                    }
                }
            }
        }
    }

    @Test
    void rowsInOrderNeedNoPermutation() {
        DataType t = DataTypes.parse("UInt64");
        ColumnRows rows = new ColumnRows(new IColumn[] {Columns.of(t, List.of(1L, 1L, 2L, -1L))}, 4);
        assertNull(SortPermutation.of(rows, Evaluator.column(t, 0)));
    }
}
