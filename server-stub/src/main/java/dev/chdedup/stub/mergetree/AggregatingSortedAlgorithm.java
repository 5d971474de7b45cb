package dev.chdedup.stub.mergetree;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Aggregates;
import dev.chdedup.stub.types.AggregateFunctionType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.SimpleAggregateFunctionType;
import java.util.ArrayList;
import java.util.List;

/**
 * What AggregatingMergeTree does to the rows of one sorting key when parts merge (and when a SELECT reads with
 * FINAL): one row is left, whose AggregateFunction columns hold the merge of the group's states (as
 * {@code fMergeState} would), whose SimpleAggregateFunction(f, T) columns hold f over the group's values, and whose
 * other columns keep the first row's values. Mirrors ClickHouse's AggregatingSortedAlgorithm.
 */
final class AggregatingSortedAlgorithm {
    private AggregatingSortedAlgorithm() {
    }

    static MergeTreeDataMergerMutator.MergingMode mode(TableDefinition def) {
        if (!def.engineArgs().isEmpty()) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                "AggregatingMergeTree storage requires no parameters (" + def.engineArgs().size() + " given)");
        }
        List<TableColumn> cols = def.columns();
        List<Integer> states = new ArrayList<>();
        List<AggregateFunctionType> stateTypes = new ArrayList<>();
        List<Integer> simple = new ArrayList<>();
        List<Aggregates.Aggregate> simpleFunctions = new ArrayList<>();
        for (int i = 0; i < cols.size(); i++) {
            DataType t = cols.get(i).type();
            if (t.unwrap() instanceof AggregateFunctionType) {
                states.add(i);
                stateTypes.add((AggregateFunctionType) t.unwrap());
            } else if (t instanceof SimpleAggregateFunctionType) {
                SimpleAggregateFunctionType s = (SimpleAggregateFunctionType) t;
                simple.add(i);
                simpleFunctions.add(Aggregates.create(s.function, List.of(s.inner), false)); // an unknown function fails CREATE
            }
        }
        return (rows, order) -> MergingModes.groups(rows, order, g -> List.<Object[]>of(merge(g, states, stateTypes, simple, simpleFunctions)));
    }

    private static Object[] merge(List<Object[]> g, List<Integer> states, List<AggregateFunctionType> stateTypes, List<Integer> simple, List<Aggregates.Aggregate> functions) {
        Object[] out = g.get(0).clone();
        if (g.size() == 1) {
            return out;
        }
        for (int k = 0; k < states.size(); k++) {
            int i = states.get(k);
            Object acc = out[i];
            for (int r = 1; r < g.size(); r++) {
                acc = stateTypes.get(k).mergeStates(acc, g.get(r)[i]);
            }
            out[i] = acc;
        }
        for (int k = 0; k < simple.size(); k++) {
            int i = simple.get(k);
            Aggregates.State state = functions.get(k).factory().get();
            for (Object[] r : g) {
                state.add(new Object[] {r[i]});
            }
            out[i] = state.result();
        }
        return out;
    }
}
