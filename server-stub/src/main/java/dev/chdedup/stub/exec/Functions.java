package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.BoolType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.TupleType;
import dev.chdedup.stub.types.Values;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The scalar functions: operators, conditionals, casts and conversions, date and string basics and the
 * server-information functions. {@link #compile} picks an implementation by name and argument types and returns
 * an {@link Evaluator} whose result type follows ClickHouse's; functions of constants are folded by the caller.
 * Null handling is ClickHouse's default: a function of a Nullable argument is Nullable and NULL when any
 * argument is NULL, except the null-aware ones (isNull, coalesce, if, and/or, ...).
 */
public final class Functions {
    private Functions() {
    }

    /**
     * Functions whose result differs between calls with the same arguments or with the block they are computed over, and
     * materialize (a column by design): never folded.
     */
    public static boolean isNonDeterministic(String name) {
        switch (name.toLowerCase(Locale.ROOT)) {
            case "generateuuidv4": case "generateuuidv7": case "generatesnowflakeid": case "datetimetouuidv7": case "rand": case "rand64": case "randcanonical": case "throwif": case "rownumberinblock":
            case "rownumberinallblocks": case "blocknumber": case "blocksize": case "neighbor": case "runningdifference":
            case "runningdifferencestartingwithfirstvalue": case "runningaccumulate": case "lowcardinalityindices":
            case "lowcardinalitykeys": case "dumpcolumnstructure": case "blockserializedsize": case "sleep": case "sleepeachrow":
            case "randomstring": case "randomfixedstring": case "randomprintableascii": case "materialize":
                return true;
            default:
                return false;
        }
    }

    /** A function's name as system.functions lists it: an alias names the function it stands for. */
    public record Listed(String name, String aliasTo, boolean caseInsensitive) {
    }

    /** The functions of the families that keep their own registry (dates and times, maps), with their aliases. */
    public static List<Listed> familyFunctions() {
        List<Listed> out = new ArrayList<>();
        for (String f : FunctionsDateTime.FUNCTIONS) {
            out.add(new Listed(f, "", FunctionsDateTime.CASE_INSENSITIVE.contains(f)));
        }
        for (String f : MapFunctions.FUNCTIONS) {
            out.add(new Listed(f, "", false));
        }
        List<FunctionsDateTime.Alias> aliases = new ArrayList<>(FunctionsDateTime.ALIASES);
        aliases.addAll(MapFunctions.ALIASES);
        for (FunctionsDateTime.Alias a : aliases) {
            out.add(new Listed(a.name(), a.function(), a.caseInsensitive()));
        }
        return out;
    }

    /** The functions the engine calls when a query names them without parentheses (SELECT today, CURRENT_DATE), in any case. */
    static boolean callableWithoutParentheses(String name) {
        switch (name.toLowerCase(Locale.ROOT)) {
            case "now": case "today": case "curdate": case "current_date": case "current_timestamp": case "localtime": case "localtimestamp":
            case "current_user": case "currentdatabase": case "current_database": case "user":
                return true;
            default:
                return false;
        }
    }

    public static Evaluator compile(String rawName, List<Evaluator> args, QueryContext ctx) {
        String name = canonical(rawName);
        if (!ctx.compat().knowsFunction(name) || !ctx.compat().knowsFunction(rawName)) {
            throw ctx.compat().unknownFunction(rawName);
        }
        FunctionFactory.Registered registered = FunctionFactory.instance().get(rawName);
        if (registered != null) {
            return registered.builder().build(args, ctx);
        }
        switch (name) {
            // ---- null-aware and conditional ----
            case "isNull": return nullTest(args, true);
            case "isNotNull": return nullTest(args, false);
            case "coalesce": case "ifNull": return coalesce(args);
            case "assumeNotNull": {
                arity(name, args, 1);
                Evaluator a = args.get(0);
                return Evaluator.of(TypeRules.stripNullable(a.type()), r -> {
                    Object v = a.eval(r);
                    return v == null ? TypeRules.stripNullable(a.type()).defaultValue() : v;
                });
            }
            case "toNullable": {
                arity(name, args, 1);
                Evaluator a = args.get(0);
                return Evaluator.of(DataTypes.nullable(a.type()), a::eval);
            }
            case "if": return ifFn(args);
            case "multiIf": return multiIf(args);
            case "and": return logical(args, true);
            case "or": return logical(args, false);
            case "not": {
                arity(name, args, 1);
                Evaluator a = args.get(0);
                // the negation of a Bool is a Bool, Nullable or LowCardinality aside
                boolean bool = a.type().unwrap() instanceof BoolType;
                return Evaluator.of(nullIf(a.type(), bool ? DataTypes.BOOL : DataTypes.UINT8), r -> {
                    Object v = a.eval(r);
                    return v == null ? null : logicalValue(!Values.isTrue(v), bool);
                });
            }
            case "xor": return xor(args);
            case "in": case "notIn": return in(args, name.equals("notIn"));
            case "toTypeName": {
                arity(name, args, 1);
                DataType t = args.get(0).type();
                return Evaluator.constant(DataTypes.STRING, ByteStrings.fromText(ctx.settings().getBool("print_pretty_type_names")
                    ? DataTypes.prettyName(t, 0) : t.name()));
            }
            case "finalizeAggregation": { // the function's result of one state, as fMerge of that state alone
                arity(name, args, 1);
                Evaluator a = args.get(0);
                if (!(a.type().unwrap() instanceof dev.chdedup.stub.types.AggregateFunctionType)) {
                    throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + a.type().name() + " of argument for function"
                        + " finalizeAggregation, expected AggregateFunction");
                }
                dev.chdedup.stub.types.AggregateFunctionType t = (dev.chdedup.stub.types.AggregateFunctionType) a.type().unwrap();
                Aggregates.Aggregate merge = AggregateFunctionCombinators.finalizing(t);
                return Evaluator.of(merge.type(), r -> {
                    Aggregates.State st = merge.factory().get();
                    st.add(new Object[] {a.eval(r)});
                    return st.result();
                });
            }
            case "throwIf": {
                Evaluator c = args.get(0);
                String msg = args.size() > 1 ? constString(args.get(1)) : null;
                return Evaluator.of(DataTypes.UINT8, r -> {
                    if (Values.isTrue(c.eval(r))) {
                        throw new ChException(ErrorCode.FUNCTION_THROW_IF_VALUE_IS_NON_ZERO,
                            msg != null ? msg : "Value passed to 'throwIf' function is non-zero");
                    }
                    return 0L;
                });
            }
            // ---- server information ----
            case "currentDatabase": return Evaluator.constant(DataTypes.STRING, ByteStrings.fromText(ctx.database()));
            case "currentUser": case "user": return Evaluator.constant(DataTypes.STRING, ByteStrings.fromText(ctx.user()));
            case "currentRoles": case "defaultRoles": case "enabledRoles": {
                arity(name, args, 0);
                QueryContext.Roles roles = ctx.roles();
                List<String> names = name.equals("enabledRoles") ? roles.enabled() : name.equals("defaultRoles") ? roles.defaults() : roles.current();
                return Evaluator.constant(DataTypes.array(DataTypes.STRING), names.stream().map(ByteStrings::fromText).toList());
            }
            case "version": return Evaluator.constant(DataTypes.STRING, ByteStrings.fromText(ctx.compat().serverVersion(ServerInfo.VERSION)));
            case "timezone": case "timeZone": {
                String session = ctx.settings().get("session_timezone");
                return Evaluator.constant(DataTypes.STRING, session.isEmpty() ? ServerInfo.TIMEZONE : session);
            }
            case "serverTimezone": case "serverTimeZone":
                return Evaluator.constant(DataTypes.STRING, ServerInfo.TIMEZONE);
            case "hostName": case "hostname": return Evaluator.constant(DataTypes.STRING, ByteStrings.fromText(ServerInfo.hostName()));
            case "uptime": return Evaluator.constant(DataTypes.UINT32, ServerInfo.uptimeSeconds());
            case "queryID": case "queryId": case "initialQueryID":
                return Evaluator.constant(DataTypes.STRING, ByteStrings.fromText(ctx.queryId()));
            case "rand": case "rand32": return Evaluator.of(DataTypes.UINT32, r -> (long) (java.util.concurrent.ThreadLocalRandom.current().nextInt() & 0xFFFFFFFFL));
            case "rand64": return Evaluator.of(DataTypes.UINT64, r -> java.util.concurrent.ThreadLocalRandom.current().nextLong());
            case "now": {
                DataType t = args.isEmpty() ? DataTypes.DATETIME : DataTypes.dateTime(constString(args.get(0)));
                return Evaluator.constant(t, ctx.now().getEpochSecond());
            }
            case "now64": {
                int p = args.isEmpty() ? 3 : (int) constLong(args.get(0));
                DataType t = DataTypes.dateTime64(p, args.size() > 1 ? constString(args.get(1)) : null);
                long ticks = ctx.now().getEpochSecond() * pow10(p) + ctx.now().getNano() / pow10(9 - p);
                return Evaluator.constant(t, ticks);
            }
            case "today": return Evaluator.constant(DataTypes.DATE, Math.floorDiv(ctx.now().getEpochSecond(), 86400L));
            case "yesterday": return Evaluator.constant(DataTypes.DATE, Math.floorDiv(ctx.now().getEpochSecond(), 86400L) - 1);
            default: break;
        }
        if (FunctionsDateTime.handles(name)) {
            return FunctionsDateTime.compile(name, args, ctx);
        }
        if (MapFunctions.handles(name)) {
            return MapFunctions.compile(name, args);
        }
        if (ArithmeticFunctions.handles(name)) {
            return ArithmeticFunctions.compile(name, args);
        }
        if (DateOrDateTimeAddInterval.unitOf(name) != null) {
            return DateOrDateTimeAddInterval.compile(name, args);
        }
        if (BitmapFunctions.handles(name)) {
            return BitmapFunctions.compile(name, args);
        }
        if (RandomStrings.handles(name)) {
            return RandomStrings.compile(name, args);
        }
        if (DateOrDateTimeAddInterval.isTupleFunction(name)) {
            return DateOrDateTimeAddInterval.compileTupleFunction(name, args);
        }
        if (ReinterpretFunctions.handles(name)) {
            return ReinterpretFunctions.compile(name, args);
        }
        if (ConversionFunctions.handles(name)) {
            return ConversionFunctions.compile(name, args);
        }
        if (StringFunctions.handles(name)) {
            return StringFunctions.compile(name, args);
        }
        if (Utf8Functions.handles(name)) {
            return Utf8Functions.compile(name, args);
        }
        if (RegexpFunctions.handles(name)) {
            return RegexpFunctions.compile(name, args);
        }
        if (MiscFunctions.handles(name)) {
            return MiscFunctions.compile(name, args, ctx);
        }
        if (DynamicFunctions.handles(name)) {
            return DynamicFunctions.compile(name, args, ctx);
        }
        throw new ChException(ErrorCode.UNKNOWN_FUNCTION, "Function with name `" + rawName + "` does not exist. In scope " + rawName + "()");
    }

    /** Maps case-insensitive aliases to ClickHouse's canonical function names. */
    static String canonical(String n) {
        switch (n.toLowerCase(Locale.ROOT)) {
            case "if": return "if";
            case "multiif": return "multiIf";
            case "isnull": return "isNull";
            case "isnotnull": return "isNotNull";
            case "coalesce": return "coalesce";
            case "ifnull": return "ifNull";
            case "and": return "and";
            case "or": return "or";
            case "not": return "not";
            case "concat": return "concat";
            case "length": return "length";
            case "lower": case "lcase": return "lower";
            case "upper": case "ucase": return "upper";
            case "substring": case "substr": case "mid": return "substring";
            case "version": return "version";
            case "timezone": return "timezone";
            case "now": case "current_timestamp": return "now";
            case "today": case "current_date": return "today";
            case "currentdatabase": case "database": case "current_database": return "currentDatabase";
            case "currentuser": case "current_user": case "user": return "currentUser";
            case "cast": return "CAST";
            case "abs": return "abs";
            case "round": return "round";
            case "pow": case "power": return "pow";
            case "mod": return "modulo";
            // the parser rewrites these three whatever their case, to the functions they stand for (trim is trimBoth)
            case "trim": return "trimBoth";
            case "ltrim": return "trimLeft";
            case "rtrim": return "trimRight";
            case "curdate": return "today";
            case "date": return "toDate";
            default: {
                String own = FunctionsDateTime.canonical(n);
                if (own == null) {
                    own = MapFunctions.canonical(n);
                }
                return own != null ? own : n;
            }
        }
    }

    public static void arity(String name, List<Evaluator> args, int n) {
        if (args.size() != n) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Number of arguments for function " + name
                + " doesn't match: passed " + args.size() + ", should be " + n);
        }
    }

    /**
     * Checks the argument count as ClickHouse's validateFunctionArguments does, with its message ("Expected 1 mandatory
     * argument and 1 optional argument, got 0 arguments").
     */
    public static void argumentCount(String name, List<Evaluator> args, int mandatory, int optional) {
        if (args.size() >= mandatory && args.size() <= mandatory + optional) {
            return;
        }
        String expected = mandatory > 0 && optional > 0 ? mandatory + " mandatory " + arguments(mandatory) + " and " + optional + " optional "
            + arguments(optional) : optional > 0 ? optional + " optional " + arguments(optional) : mandatory + " " + arguments(mandatory);
        throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "An incorrect number of arguments was specified for function '"
            + name + "'. Expected " + expected + ", got " + args.size() + " " + arguments(args.size()));
    }

    private static String arguments(int n) {
        return n == 1 ? "argument" : "arguments";
    }

    /**
     * ClickHouse's error for an argument validateFunctionArguments refuses: ILLEGAL_TYPE_OF_ARGUMENT, or ILLEGAL_COLUMN
     * when the type is right but the value is not the constant the function needs.
     */
    public static ChException illegalArgument(ErrorCode code, int position, String argument, String name, String expected, DataType got) {
        String ordinal = position == 1 ? "1st" : position == 2 ? "2nd" : position == 3 ? "3rd" : position + "th";
        return new ChException(code, "A value of illegal type was provided as " + ordinal + " argument '" + argument + "' to function '"
            + name + "'. Expected: " + expected + ", got: " + got.name());
    }

    /** Whether {@code e} is NULL's own type, Nothing (the literal NULL is Nullable(Nothing)). */
    public static boolean isNothing(Evaluator e) {
        return e.type().unwrap() instanceof NothingType;
    }

    /**
     * {@link #strict}, typed as ClickHouse's default implementation for nulls types it: when an argument is the literal
     * NULL (Nothing), the result is Nullable(Nothing), always NULL, whatever the function returns otherwise.
     */
    public static Evaluator defaultForNulls(DataType unwrappedResult, List<Evaluator> args, java.util.function.Function<Object[], Object> fn) {
        if (args.stream().anyMatch(Functions::isNothing)) {
            return Evaluator.of(DataTypes.nullable(DataTypes.NOTHING), r -> null);
        }
        return strict(unwrappedResult, args, fn);
    }

    static DataType nullIf(DataType arg, DataType result) {
        return arg.isNullable() ? DataTypes.nullable(result) : result;
    }

    static String constString(Evaluator e) {
        if (!e.constant()) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Argument must be a constant string");
        }
        Object v = e.eval(new Object[0]);
        return v instanceof String ? ByteStrings.toText((String) v) : String.valueOf(v);
    }

    static long constLong(Evaluator e) {
        if (!e.constant()) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Argument must be a constant");
        }
        return Values.toLong(Values.toNumber(e.eval(new Object[0]), e.type()));
    }

    static long pow10(int p) {
        long s = 1;
        for (int i = 0; i < p; i++) {
            s *= 10;
        }
        return s;
    }

    private static Evaluator nullTest(List<Evaluator> args, boolean isNull) {
        arity(isNull ? "isNull" : "isNotNull", args, 1);
        Evaluator a = args.get(0);
        return Evaluator.of(DataTypes.UINT8, r -> (a.eval(r) == null) == isNull ? 1L : 0L);
    }

    private static Evaluator coalesce(List<Evaluator> args) {
        List<DataType> ts = new ArrayList<>();
        for (Evaluator e : args) {
            ts.add(e.type());
        }
        DataType common = TypeRules.common(ts);
        boolean lastNullable = args.get(args.size() - 1).type().isNullable();
        DataType result = lastNullable ? common : TypeRules.stripNullable(common);
        List<Evaluator> conv = casts(args, TypeRules.stripNullable(common));
        return Evaluator.of(result, r -> {
            for (Evaluator e : conv) {
                Object v = e.eval(r);
                if (v != null) {
                    return v;
                }
            }
            return null;
        });
    }

    /** Each argument converted to {@code target} (nulls kept). */
    static List<Evaluator> casts(List<Evaluator> args, DataType target) {
        List<Evaluator> out = new ArrayList<>();
        for (Evaluator e : args) {
            if (TypeRules.stripNullable(e.type()).equals(target) || e.type().unwrap() instanceof NothingType) {
                out.add(e);
            } else {
                DataType from = e.type();
                out.add(Evaluator.of(target, r -> {
                    Object v = e.eval(r);
                    return v == null ? null : target.convert(v, from);
                }));
            }
        }
        return out;
    }

    private static Evaluator ifFn(List<Evaluator> args) {
        arity("if", args, 3);
        Evaluator c = args.get(0);
        DataType t = TypeRules.common(List.of(args.get(1).type(), args.get(2).type()));
        List<Evaluator> br = casts(args.subList(1, 3), TypeRules.stripNullable(t));
        Evaluator a = br.get(0);
        Evaluator b = br.get(1);
        return Evaluator.of(t, r -> Values.isTrue(c.eval(r)) ? a.eval(r) : b.eval(r));
    }

    private static Evaluator multiIf(List<Evaluator> args) {
        if (args.size() < 3 || args.size() % 2 == 0) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Invalid number of arguments for function multiIf");
        }
        List<Evaluator> branches = new ArrayList<>();
        List<DataType> ts = new ArrayList<>();
        for (int i = 1; i < args.size(); i += 2) {
            branches.add(args.get(i));
            ts.add(args.get(i).type());
        }
        branches.add(args.get(args.size() - 1));
        ts.add(args.get(args.size() - 1).type());
        DataType t = TypeRules.common(ts);
        List<Evaluator> conv = casts(branches, TypeRules.stripNullable(t));
        int n = args.size() / 2;
        return Evaluator.of(t, r -> {
            for (int i = 0; i < n; i++) {
                if (Values.isTrue(args.get(2 * i).eval(r))) {
                    return conv.get(i).eval(r);
                }
            }
            return conv.get(n).eval(r);
        });
    }

    /**
     * AND and OR: a Bool when an argument is a Bool (LowCardinality aside, but not a Nullable(Bool): these functions
     * take NULLs themselves, and ClickHouse looks at the argument's own type), else a UInt8; Nullable when an argument is.
     */
    private static Evaluator logical(List<Evaluator> args, boolean and) {
        boolean nullable = args.stream().anyMatch(e -> e.type().isNullable());
        boolean bool = args.stream().anyMatch(e -> withoutLowCardinality(e.type()) instanceof BoolType);
        DataType result = bool ? DataTypes.BOOL : DataTypes.UINT8;
        Evaluator rowwise = Evaluator.of(nullable ? DataTypes.nullable(result) : result, r -> {
            boolean sawNull = false;
            for (Evaluator e : args) {
                Object v = e.eval(r);
                if (v == null) {
                    sawNull = true;
                } else if (Values.isTrue(v) != and) {
                    return logicalValue(!and, bool);
                }
            }
            return sawNull ? null : logicalValue(and, bool);
        });
        return bool ? rowwise : ColumnFunctions.logical(rowwise, args, and);
    }

    /** xor(a, b, ...): whether an odd number of the arguments are true; NULL if one is NULL; a Bool as {@link #logical}. */
    private static Evaluator xor(List<Evaluator> args) {
        if (args.size() < 2) {
            throw new ChException(ErrorCode.TOO_FEW_ARGUMENTS_FOR_FUNCTION, "Number of arguments for function \"xor\" should be at least 2: passed "
                + args.size());
        }
        if (args.stream().anyMatch(e -> e.type().unwrap() instanceof NothingType)) {
            return Evaluator.constant(DataTypes.nullable(DataTypes.NOTHING), null);
        }
        for (int i = 0; i < args.size(); i++) {
            DataType t = args.get(i).type().unwrap();
            if (!(t instanceof BoolType || t instanceof NothingType || TypeRules.isNumeric(t))) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type (" + t.name() + ") of " + (i + 1)
                    + " argument of function xor");
            }
        }
        boolean nullable = args.stream().anyMatch(e -> e.type().isNullable());
        boolean bool = args.stream().anyMatch(e -> e.type().unwrap() instanceof BoolType);
        DataType result = bool ? DataTypes.BOOL : DataTypes.UINT8;
        return Evaluator.of(nullable ? DataTypes.nullable(result) : result, r -> {
            boolean odd = false;
            for (Evaluator e : args) {
                Object v = e.eval(r);
                if (v == null) {
                    return null;
                }
                odd ^= Values.isTrue(v);
            }
            return logicalValue(odd, bool);
        });
    }

    private static Object logicalValue(boolean v, boolean bool) {
        return bool ? (Object) v : (Object) (v ? 1L : 0L);
    }

    private static DataType withoutLowCardinality(DataType t) {
        return t instanceof dev.chdedup.stub.types.LowCardinalityType lc ? lc.inner : t;
    }

    /** How many columns a value of the type stands for in IN: a tuple's elements, else one. */
    private static int width(DataType t) {
        DataType u = t.unwrap();
        return u instanceof TupleType ? ((TupleType) u).elements.size() : 1;
    }

    private static boolean allTuples(TupleType t) {
        return !t.elements.isEmpty() && t.elements.stream().allMatch(e -> e.unwrap() instanceof TupleType);
    }

    static Evaluator in(List<Evaluator> args, boolean negate) {
        arity("in", args, 2);
        Evaluator l = args.get(0);
        Evaluator set = args.get(1);
        if (!set.constant()) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "The second argument of IN must be a constant set or a subquery");
        }
        DataType st = set.type().unwrap();
        List<Object> values = new ArrayList<>();
        List<DataType> types = new ArrayList<>();
        Object sv = set.eval(new Object[0]);
        // a tuple on the right is a list of elements, unless the left side is a tuple and the right one is not a
        // tuple of tuples: then it is the one element, as in ClickHouse ((a, b) IN (1, 2) vs (a, b) IN ((1, 2), (3, 4)))
        if (st instanceof TupleType && (!(l.type().unwrap() instanceof TupleType) || allTuples((TupleType) st))) {
            List<?> items = (List<?>) sv;
            for (int i = 0; i < items.size(); i++) {
                values.add(items.get(i));
                types.add(((TupleType) st).elements.get(i));
            }
        } else if (st instanceof ArrayType && !(l.type().unwrap() instanceof ArrayType)) {
            for (Object o : (List<?>) sv) {
                values.add(o);
                types.add(((ArrayType) st).element);
            }
        } else {
            values.add(sv);
            types.add(set.type());
        }
        int leftColumns = width(l.type());
        for (DataType t : types) {
            if (width(t) != leftColumns && !(t.unwrap() instanceof NothingType)) {
                throw new ChException(ErrorCode.NUMBER_OF_COLUMNS_DOESNT_MATCH, "Number of columns in section IN doesn't match. "
                    + leftColumns + " at left, " + width(t) + " at right.");
            }
        }
        return Evaluator.of(nullIf(l.type(), DataTypes.UINT8), r -> {
            Object v = l.eval(r);
            if (v == null) {
                return null;
            }
            boolean found = false;
            for (int i = 0; i < values.size() && !found; i++) {
                Object c = values.get(i);
                found = c != null && TypeRules.compare(v, l.type(), c, types.get(i)) == 0;
            }
            return found != negate ? 1L : 0L;
        });
    }

    /** Evaluates with ClickHouse null propagation: NULL when any argument is NULL. */
    public static Evaluator strict(DataType unwrappedResult, List<Evaluator> args, java.util.function.Function<Object[], Object> fn) {
        boolean nullable = args.stream().anyMatch(e -> e.type().isNullable() || e.type().unwrap() instanceof NothingType);
        DataType t = nullable ? DataTypes.nullable(unwrappedResult) : unwrappedResult;
        int n = args.size();
        return ColumnFunctions.strict(Evaluator.of(t, r -> {
            Object[] vals = new Object[n];
            for (int i = 0; i < n; i++) {
                Object v = args.get(i).eval(r);
                if (v == null) {
                    return null;
                }
                vals[i] = v;
            }
            return fn.apply(vals);
        }), args, fn);
    }

    /**
     * {@link #strict} for a function of two integers that also has a {@code long} form {@code op}, which the function
     * runs over two integer columns without boxing; {@code op} must answer as {@code fn} does for two {@code Long}s.
     */
    static Evaluator strictLongs(DataType unwrappedResult, List<Evaluator> args, java.util.function.Function<Object[], Object> fn,
                                 java.util.function.LongBinaryOperator op) {
        Evaluator rowwise = strict(unwrappedResult, args, fn);
        return args.size() == 2 ? ColumnFunctions.strictLongs(rowwise, args, fn, op) : rowwise;
    }

    static BigDecimal decimalOf(Object v, DataType t) {
        return Values.toBigDecimal(Values.toNumber(v, t));
    }

    static boolean isFloat(DataType t) {
        return t.unwrap() instanceof FloatType;
    }

    static boolean isDecimal(DataType t) {
        return t.unwrap() instanceof DecimalType;
    }

    static boolean isBig(DataType t) {
        return t.unwrap() instanceof dev.chdedup.stub.types.BigIntType;
    }

    static BigInteger bigOf(Object v, DataType t) {
        return Values.toBigInteger(Values.toNumber(v, t));
    }

    static boolean isString(DataType t) {
        return t.unwrap() instanceof StringType;
    }

    /** The bytes of a String value. */
    static byte[] bytes(Object s) {
        return ByteStrings.bytes((String) s);
    }
}
