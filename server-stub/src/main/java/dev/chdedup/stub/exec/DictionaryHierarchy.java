package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataTypes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * The functions over a dictionary's HIERARCHICAL attribute (each entry's parent key), as ClickHouse's
 * HierarchyDictionariesUtils do: dictGetHierarchy (the key, its parent, the parent's parent... while the dictionary
 * holds the key and it is not the attribute's null value), dictIsIn (whether the ancestor is on that chain),
 * dictGetRoot (the last key of that chain, 0 when there is none),
 * dictGetChildren (the keys whose parent is the key) and dictGetDescendants (their children in turn, all of them or
 * those at one level). Only a dictionary with a simple key and a hierarchical attribute has them.
 */
final class DictionaryHierarchy {
    private DictionaryHierarchy() {
    }

    /** The guard against a cycle of parents, as the engine's limit on a hierarchy's depth. */
    private static final int MAX_DEPTH = 1000;

    static Evaluator compile(String name, IDictionary dict, List<Evaluator> args, Function<Evaluator, Function<Object[], Object[]>> keyOf) {
        int h = dict.hierarchicalAttribute();
        if (h < 0 || dict.isComplexKey() || dict.rangeType() != null) {
            throw new ChException(ErrorCode.UNSUPPORTED_METHOD, "Dictionary " + dict.getFullName() + " does not support hierarchy");
        }
        int min = name.equals("dictIsIn") ? 3 : 2;
        int max = name.equals("dictGetDescendants") ? 3 : min;
        if (args.size() < min || args.size() > max) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Number of arguments for function " + name
                + " doesn't match: passed " + args.size() + ", should be " + min);
        }
        Function<Object[], Object[]> key = keyOf.apply(args.get(1));
        Object nullValue = dict.nullValue(h);
        boolean nullable = args.get(1).type().isNullable();
        switch (name) {
            case "dictGetHierarchy":
                return Evaluator.of(DataTypes.array(DataTypes.UINT64), r -> {
                    Object[] k = key.apply(r);
                    if (k == null) {
                        return List.of();
                    }
                    List<Object> chain = chain(dict, h, nullValue, k[0]);
                    dict.addQuery(!chain.isEmpty());
                    return Collections.unmodifiableList(chain);
                });
            case "dictGetRoot":
                return Evaluator.of(nullable ? DataTypes.nullable(DataTypes.UINT64) : DataTypes.UINT64, r -> {
                    Object[] k = key.apply(r);
                    if (k == null) {
                        return null;
                    }
                    List<Object> chain = chain(dict, h, nullValue, k[0]);
                    dict.addQuery(!chain.isEmpty());
                    return chain.isEmpty() ? 0L : chain.get(chain.size() - 1);
                });
            case "dictIsIn": {
                Function<Object[], Object[]> ancestor = keyOf.apply(args.get(2));
                return Evaluator.of(nullable || args.get(2).type().isNullable() ? DataTypes.nullable(DataTypes.UINT8) : DataTypes.UINT8, r -> {
                    Object[] k = key.apply(r);
                    Object[] a = ancestor.apply(r);
                    if (k == null || a == null) {
                        return null;
                    }
                    boolean in = chain(dict, h, nullValue, k[0]).contains(a[0]);
                    dict.addQuery(in);
                    return in ? 1L : 0L;
                });
            }
            default: {
                long level = name.equals("dictGetChildren") ? 1 : args.size() > 2 ? Functions.constLong(args.get(2)) : 0;
                Map<Object, List<Object>> children = children(dict, h);
                return Evaluator.of(DataTypes.array(DataTypes.UINT64), r -> {
                    Object[] k = key.apply(r);
                    return k == null ? List.of() : Collections.unmodifiableList(descendants(children, k[0], level));
                });
            }
        }
    }

    /** The key and its ancestors, nearest first. */
    private static List<Object> chain(IDictionary dict, int h, Object nullValue, Object key) {
        List<Object> out = new ArrayList<>();
        Object current = key;
        // the key itself counts even when it is the null value, as long as the dictionary holds it
        while (out.size() < MAX_DEPTH && (out.isEmpty() || !Objects.equals(current, nullValue))) {
            Object[] entry = dict.getEntry(new Object[] {current}, null);
            if (entry == null) {
                break;
            }
            out.add(current);
            current = entry[h];
        }
        return out;
    }

    /** Each parent key with its children, in the order the dictionary reads its entries. */
    private static Map<Object, List<Object>> children(IDictionary dict, int h) {
        Map<Object, List<Object>> children = new LinkedHashMap<>();
        Iterator<Block> blocks = dict.read(65536, false);
        while (blocks.hasNext()) {
            for (Object[] row : blocks.next().rows()) {
                children.computeIfAbsent(row[1 + h], p -> new ArrayList<>()).add(row[0]);
            }
        }
        return children;
    }

    /**
     * The descendants of {@code key}, as ClickHouse's getDescendants walks them: each key's children once (a key met
     * again is not walked again), in the order the dictionary reads them. All of them ({@code level} 0): depth first,
     * the last child pushed walked first; those at one level: that level's children, each level's keys walked from the
     * last.
     */
    private static List<Object> descendants(Map<Object, List<Object>> children, Object key, long level) {
        List<Object> out = new ArrayList<>();
        java.util.Set<Object> walked = new java.util.HashSet<>();
        if (level <= 0) {
            java.util.ArrayDeque<Object> stack = new java.util.ArrayDeque<>();
            stack.push(key);
            while (!stack.isEmpty() && out.size() < MAX_DEPTH * 1000) {
                Object k = stack.pop();
                if (!walked.add(k)) {
                    continue;
                }
                for (Object c : children.getOrDefault(k, List.of())) {
                    out.add(c);
                    stack.push(c);
                }
            }
            return out;
        }
        List<Object> current = List.of(key);
        for (int depth = 1; !current.isEmpty() && depth <= Math.min(level, MAX_DEPTH); depth++) {
            List<Object> next = new ArrayList<>();
            for (int i = current.size() - 1; i >= 0; i--) {
                if (walked.add(current.get(i))) {
                    next.addAll(children.getOrDefault(current.get(i), List.of()));
                }
            }
            if (depth == level) {
                out.addAll(next);
            }
            current = next;
        }
        return out;
    }
}
