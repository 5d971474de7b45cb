package dev.chdedup.stub.exec.timeseries;

import static dev.chdedup.stub.exec.timeseries.TimeSeriesTagsArguments.checkGroup;
import static dev.chdedup.stub.exec.timeseries.TimeSeriesTagsArguments.checkTags;
import static dev.chdedup.stub.exec.timeseries.TimeSeriesTagsArguments.collector;
import static dev.chdedup.stub.exec.timeseries.TimeSeriesTagsArguments.constString;
import static dev.chdedup.stub.exec.timeseries.TimeSeriesTagsArguments.constTagName;
import static dev.chdedup.stub.exec.timeseries.TimeSeriesTagsArguments.constTagNames;
import static dev.chdedup.stub.exec.timeseries.TimeSeriesTagsArguments.withNulls;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.exec.FunctionFactory;
import dev.chdedup.stub.exec.Functions;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.TypeRules;
import dev.chdedup.stub.exec.timeseries.TimeSeriesTagsCollector.Tag;
import dev.chdedup.stub.types.BigIntType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.UuidType;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The time series tag functions (ClickHouse's src/Functions/TimeSeries): tags to a group and back
 * (timeSeriesTagsToGroup, timeSeriesGroupToTags, timeSeriesGroupToSamplingKey, timeSeriesExtractTag), identifiers
 * (timeSeriesStoreTags, timeSeriesIdToTags, timeSeriesIdToGroup), the changes of a group that make another
 * (timeSeriesCopyTag(s), timeSeriesRemoveTag(s), timeSeriesRemoveAllTagsExcept, timeSeriesJoinTags,
 * timeSeriesReplaceTag) and timeSeriesThrowDuplicateSeriesIf. Groups are the query's ({@link TimeSeriesTagsCollector}).
 */
public final class FunctionsTimeSeriesTags {
    static final String CATEGORY = "Time Series";
    private static final DataType TAGS = DataTypes.array(DataTypes.tuple(List.of(DataTypes.STRING, DataTypes.STRING)));

    private FunctionsTimeSeriesTags() {
    }

    public static void register(FunctionFactory f) {
        f.register("timeSeriesTagsToGroup", CATEGORY, FunctionsTimeSeriesTags::tagsToGroup);
        f.register("timeSeriesStoreTags", CATEGORY, FunctionsTimeSeriesTags::storeTags);
        f.register("timeSeriesIdToTags", CATEGORY, (args, ctx) -> idTo("timeSeriesIdToTags", TAGS, args, ctx, true));
        f.register("timeSeriesIdToGroup", CATEGORY, (args, ctx) -> idTo("timeSeriesIdToGroup", DataTypes.UINT64, args, ctx, false));
        f.register("timeSeriesGroupToTags", CATEGORY, (args, ctx) -> {
            Functions.arity("timeSeriesGroupToTags", args, 1);
            checkGroup("timeSeriesGroupToTags", args, 0);
            TimeSeriesTagsCollector c = collector(ctx);
            return withNulls(TAGS, args, v -> tagsValue(c.tags((Long) v[0])));
        });
        f.register("timeSeriesGroupToSamplingKey", CATEGORY, (args, ctx) -> {
            Functions.arity("timeSeriesGroupToSamplingKey", args, 1);
            checkGroup("timeSeriesGroupToSamplingKey", args, 0);
            TimeSeriesTagsCollector c = collector(ctx);
            return withNulls(DataTypes.UINT64, args, v -> c.samplingKey((Long) v[0]));
        });
        f.register("timeSeriesExtractTag", CATEGORY, (args, ctx) -> {
            String fn = "timeSeriesExtractTag";
            Functions.arity(fn, args, 2);
            checkGroup(fn, args, 0);
            String name = constTagName(fn, args, 1);
            TimeSeriesTagsCollector c = collector(ctx);
            return withNulls(DataTypes.nullable(DataTypes.STRING), args, v -> {
                for (Tag t : c.tags((Long) v[0])) {
                    if (t.name().equals(name)) {
                        return t.value();
                    }
                }
                return null;
            });
        });
        f.register("timeSeriesCopyTag", CATEGORY, (args, ctx) -> {
            String fn = "timeSeriesCopyTag";
            Functions.arity(fn, args, 3);
            checkGroup(fn, args, 0);
            checkGroup(fn, args, 1);
            String name = constTagName(fn, args, 2);
            return copyTags(args, ctx, List.of(name));
        });
        f.register("timeSeriesCopyTags", CATEGORY, (args, ctx) -> {
            String fn = "timeSeriesCopyTags";
            Functions.arity(fn, args, 3);
            checkGroup(fn, args, 0);
            checkGroup(fn, args, 1);
            return copyTags(args, ctx, constTagNames(fn, args, 2));
        });
        f.register("timeSeriesRemoveTag", CATEGORY, (args, ctx) -> {
            String fn = "timeSeriesRemoveTag";
            Functions.arity(fn, args, 2);
            checkGroup(fn, args, 0);
            String name = constTagName(fn, args, 1);
            return transform(args, ctx, tags -> tags.stream().filter(t -> !t.name().equals(name)).toList());
        });
        f.register("timeSeriesRemoveTags", CATEGORY, (args, ctx) -> {
            String fn = "timeSeriesRemoveTags";
            Functions.arity(fn, args, 2);
            checkGroup(fn, args, 0);
            Set<String> names = new TreeSet<>(constTagNames(fn, args, 1));
            return transform(args, ctx, tags -> tags.stream().filter(t -> !names.contains(t.name())).toList());
        });
        f.register("timeSeriesRemoveAllTagsExcept", CATEGORY, (args, ctx) -> {
            String fn = "timeSeriesRemoveAllTagsExcept";
            Functions.arity(fn, args, 2);
            checkGroup(fn, args, 0);
            Set<String> names = new TreeSet<>(constTagNames(fn, args, 1));
            return transform(args, ctx, tags -> tags.stream().filter(t -> names.contains(t.name())).toList());
        });
        f.register("timeSeriesJoinTags", CATEGORY, FunctionsTimeSeriesTags::joinTags);
        f.register("timeSeriesReplaceTag", CATEGORY, FunctionsTimeSeriesTags::replaceTag);
        f.register("timeSeriesThrowDuplicateSeriesIf", CATEGORY, FunctionsTimeSeriesTags::throwDuplicateSeriesIf);
    }

    static List<Object> tagsValue(List<Tag> tags) {
        List<Object> out = new ArrayList<>(tags.size());
        for (Tag t : tags) {
            out.add(List.of(t.name(), t.value()));
        }
        return out;
    }

    private static Evaluator tagsToGroup(List<Evaluator> args, QueryContext ctx) {
        String fn = "timeSeriesTagsToGroup";
        checkTags(fn, args, 0, "timeSeriesTagsToGroup([('tag_name_1', 'tag_value_1), ...], 'tag_name_2', 'tag_value_2', ...)");
        TimeSeriesTagsCollector c = collector(ctx);
        return Evaluator.of(DataTypes.UINT64, r -> c.groupOf(TimeSeriesTagsArguments.tags(fn, values(args, r), args, 0)));
    }

    private static Object[] values(List<Evaluator> args, Object[] row) {
        Object[] v = new Object[args.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = args.get(i).eval(row);
        }
        return v;
    }

    /** Whether {@code t} can be an identifier: UInt64, UInt128 or UUID. */
    private static void checkId(String fn, List<Evaluator> args) {
        DataType t = args.get(0).type();
        DataType u = t.unwrap();
        boolean ok = u instanceof IntType it && it.bits == 64 && !it.signed || u instanceof BigIntType bt && bt.bits == 128 && !bt.signed
            || u instanceof UuidType;
        if (!ok) {
            throw TimeSeriesTagsArguments.wrongType(fn, 0, u, "UInt64 or UInt128 or UUID");
        }
    }

    private static String idText(Object id, DataType t) {
        StringBuilder sb = new StringBuilder();
        if (t.unwrap() instanceof UuidType) {
            // the engine shows a UUID identifier as its UInt128 number
            java.util.UUID u = (java.util.UUID) id;
            java.math.BigInteger hi = new java.math.BigInteger(Long.toUnsignedString(u.getMostSignificantBits()));
            java.math.BigInteger lo = new java.math.BigInteger(Long.toUnsignedString(u.getLeastSignificantBits()));
            return lo.shiftLeft(64).add(hi).toString();
        }
        t.unwrap().formatText(id, sb);
        return sb.toString();
    }

    private static Evaluator storeTags(List<Evaluator> args, QueryContext ctx) {
        String fn = "timeSeriesStoreTags";
        checkTags(fn, args, 1, "timeSeriesStoreTags(id, [('tag_name_1', 'tag_value_1), ...], 'tag_name_2', 'tag_value_2', ...)");
        checkId(fn, args);
        TimeSeriesTagsCollector c = collector(ctx);
        DataType idType = args.get(0).type();
        return Evaluator.of(idType, r -> {
            Object[] v = values(args, r);
            List<Tag> tags = TimeSeriesTagsArguments.tags(fn, v, args, 1);
            if (v[0] != null) {
                c.store(v[0], idText(v[0], idType), tags);
            }
            return v[0];
        });
    }

    private static Evaluator idTo(String fn, DataType result, List<Evaluator> args, QueryContext ctx, boolean tags) {
        Functions.arity(fn, args, 1);
        if (!(args.get(0).type().unwrap() instanceof dev.chdedup.stub.types.NothingType)) {
            checkId(fn, args);
        }
        TimeSeriesTagsCollector c = collector(ctx);
        DataType idType = args.get(0).type();
        return withNulls(result, args, v -> {
            long g = c.groupOfId(v[0], idText(v[0], idType));
            return tags ? tagsValue(c.tags(g)) : (Object) g;
        });
    }

    /** The group of each row's group changed by {@code change}. */
    private static Evaluator transform(List<Evaluator> args, QueryContext ctx, java.util.function.UnaryOperator<List<Tag>> change) {
        TimeSeriesTagsCollector c = collector(ctx);
        return withNulls(DataTypes.UINT64, args, v -> c.groupOf(change.apply(c.tags((Long) v[0]))));
    }

    /** {@code tags} with {@code name} set to {@code value} (left out when empty), sorted by name. */
    static List<Tag> with(List<Tag> tags, String name, String value) {
        List<Tag> out = new ArrayList<>(tags.size() + 1);
        for (Tag t : tags) {
            if (!t.name().equals(name)) {
                out.add(t);
            }
        }
        if (!value.isEmpty()) {
            out.add(new Tag(name, value));
            out.sort(java.util.Comparator.comparing(Tag::name));
        }
        return out;
    }

    private static String valueOf(List<Tag> tags, String name) {
        for (Tag t : tags) {
            if (t.name().equals(name)) {
                return t.value();
            }
        }
        return "";
    }

    private static Evaluator copyTags(List<Evaluator> args, QueryContext ctx, List<String> names) {
        TimeSeriesTagsCollector c = collector(ctx);
        return withNulls(DataTypes.UINT64, args, v -> {
            List<Tag> dest = c.tags((Long) v[0]);
            List<Tag> src = c.tags((Long) v[1]);
            for (String n : names) {
                dest = with(dest, n, valueOf(src, n));
            }
            return c.groupOf(dest);
        });
    }

    private static Evaluator joinTags(List<Evaluator> args, QueryContext ctx) {
        String fn = "timeSeriesJoinTags";
        Functions.arity(fn, args, 4);
        checkGroup(fn, args, 0);
        String dest = constTagName(fn, args, 1);
        String separator = constString(fn, args, 2);
        List<String> sources = constTagNames(fn, args, 3);
        return transform(args, ctx, tags -> {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < sources.size(); i++) {
                if (i > 0) {
                    sb.append(separator);
                }
                sb.append(valueOf(tags, sources.get(i)));
            }
            return with(tags, dest, sb.toString());
        });
    }

    private static Evaluator replaceTag(List<Evaluator> args, QueryContext ctx) {
        String fn = "timeSeriesReplaceTag";
        Functions.arity(fn, args, 5);
        checkGroup(fn, args, 0);
        String dest = constTagName(fn, args, 1);
        String replacement = constString(fn, args, 2);
        String src = constTagName(fn, args, 3);
        String regex = constString(fn, args, 4);
        TimeSeriesReplacement r = TimeSeriesReplacement.compile(regex, replacement);
        return transform(args, ctx, tags -> {
            String value = r.replace(valueOf(tags, src));
            return value == null ? tags : with(tags, dest, value);
        });
    }

    private static Evaluator throwDuplicateSeriesIf(List<Evaluator> args, QueryContext ctx) {
        String fn = "timeSeriesThrowDuplicateSeriesIf";
        Functions.arity(fn, args, 2);
        DataType cond = args.get(0).type();
        if (!TypeRules.isNumeric(cond.unwrap()) && !(cond.unwrap() instanceof dev.chdedup.stub.types.NothingType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "First argument of function " + fn
                + " must be a number (passed: " + cond.name() + ")");
        }
        checkGroup(fn, args, 1);
        TimeSeriesTagsCollector c = collector(ctx);
        return withNulls(DataTypes.UINT8, args, v -> {
            if (((Number) v[0]).doubleValue() != 0) {
                throw new ChException(ErrorCode.CANNOT_EXECUTE_PROMQL_QUERY, "Multiple series have the same tags "
                    + TimeSeriesTagsCollector.text(c.tags((Long) v[1])) + ", duplicate series in the same result set are not allowed");
            }
            return 0L;
        });
    }
}
