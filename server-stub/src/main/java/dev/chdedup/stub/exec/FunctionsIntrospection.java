package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.StringType;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The "Introspection" functions that need no trace or symbols: mergeTreePartInfo (a part name's partition, detached
 * prefix, {@code _tryN} suffix, blocks, level and mutation), isMergeTreePartCoveredBy (whether a part's range, level and
 * mutation lie within another's of the same partition) and logTrace (writes nothing here; 0). A part name parses as
 * ClickHouse's MergeTreePartInfo reads one: {@code partition_min_max_level[_mutation]}, min at most max, the level a
 * UInt32; a name of five fields or more that does not parse is read as a detached part's prefix and the rest.
 */
final class FunctionsIntrospection {
    private static final String CATEGORY = "Introspection";
    private static final DataType INFO = DataTypes.parse("Tuple(partition_id String, prefix String, suffix String, "
        + "min_block Int64, max_block Int64, level Int64, mutation Int64)");
    private static final Pattern SUFFIX = Pattern.compile("^(.*)_(try\\d+)$");

    private record PartName(String partition, String prefix, String suffix, long min, long max, long level, long mutation) {
        boolean contains(PartName p) {
            return partition.equals(p.partition) && min <= p.min && p.max <= max && level >= p.level && mutation >= p.mutation;
        }
    }

    private FunctionsIntrospection() {
    }

    static void register(FunctionFactory f) {
        f.register("mergeTreePartInfo", CATEGORY, (args, ctx) -> {
            Functions.arity("mergeTreePartInfo", args, 1);
            requireString("mergeTreePartInfo", "part_name", "1st", args.get(0));
            return Functions.strict(INFO, args, v -> {
                PartName p = parse((String) v[0]);
                return List.of(p.partition(), p.prefix(), p.suffix(), p.min(), p.max(), p.level(), p.mutation());
            });
        });
        f.register("isMergeTreePartCoveredBy", CATEGORY, (args, ctx) -> {
            Functions.arity("isMergeTreePartCoveredBy", args, 2);
            requireString("isMergeTreePartCoveredBy", "nested_part", "1st", args.get(0));
            requireString("isMergeTreePartCoveredBy", "covering_part", "2nd", args.get(1));
            return Functions.strict(DataTypes.UINT8, args, v -> parse((String) v[1]).contains(parse((String) v[0])) ? 1L : 0L);
        });
        f.register("logTrace", CATEGORY, (args, ctx) -> {
            Functions.arity("logTrace", args, 1);
            if (!(args.get(0).type().unwrap() instanceof StringType)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(0).type().name()
                    + " of argument of function logTrace");
            }
            return Evaluator.constant(DataTypes.UINT8, 0L);
        });
    }

    private static void requireString(String fn, String argument, String ordinal, Evaluator e) {
        if (!(e.type().unwrap() instanceof StringType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "A value of illegal type was provided as " + ordinal
                + " argument '" + argument + "' to function '" + fn + "'. Expected: String or FixedString or LowCardinality String, got: "
                + e.type().name());
        }
    }

    private static PartName parse(String name) {
        String suffix = "";
        Matcher m = SUFFIX.matcher(name);
        String rest = name;
        if (m.matches()) {
            rest = m.group(1);
            suffix = m.group(2);
        }
        PartName p = parseStrict(rest, "", suffix);
        if (p != null) {
            return p;
        }
        String[] fields = rest.split("_", -1);
        int cut = rest.indexOf('_');
        if (fields.length >= 5 && cut > 0) {
            p = parseStrict(rest.substring(cut + 1), rest.substring(0, cut), suffix);
            if (p != null) {
                return p;
            }
            throw invalid(rest.substring(cut + 1));
        }
        throw invalid(name);
    }

    private static ChException invalid(String name) {
        return new ChException(ErrorCode.BAD_ARGUMENTS, "Invalid MergeTree part name: '" + name + "'");
    }

    /** {@code partition_min_max_level[_mutation]}, or null. */
    private static PartName parseStrict(String s, String prefix, String suffix) {
        String[] f = s.split("_", -1);
        if (f.length != 4 && f.length != 5 || f[0].isEmpty()) {
            return null;
        }
        try {
            long min = number(f[1]);
            long max = number(f[2]);
            long level = number(f[3]);
            long mutation = f.length == 5 ? number(f[4]) : 0;
            if (min > max || level > 0xFFFFFFFFL) {
                return null;
            }
            return new PartName(f[0], prefix, suffix, min, max, level, mutation);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static long number(String s) {
        if (s.isEmpty() || !s.chars().allMatch(Character::isDigit)) {
            throw new NumberFormatException(s);
        }
        return Long.parseLong(s);
    }
}
