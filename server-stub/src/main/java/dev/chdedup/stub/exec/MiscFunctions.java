package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.ColumnConst;
import dev.chdedup.stub.data.IColumn;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.Values;
import java.util.List;

/**
 * Functions about the query rather than its data: {@code sleep} (once per block) and {@code sleepEachRow}, both
 * bounded per block by {@code function_sleep_max_microseconds_per_block} and woken by KILL QUERY; {@code getSetting} (the value in force, typed as the setting is); and MySQL's {@code timestamp(expr[,
 * time])} as a DateTime64(6). Mirrors ClickHouse's sleep.h, getSetting.cpp and timestamp.cpp.
 */
final class MiscFunctions {
    private MiscFunctions() {
    }

    static boolean handles(String n) {
        switch (n) {
            case "sleep": case "sleepEachRow": case "getSetting": case "timestamp":
                return true;
            default:
                return false;
        }
    }

    static Evaluator compile(String name, List<Evaluator> args, QueryContext ctx) {
        switch (name) {
            case "sleep": case "sleepEachRow": {
                Functions.arity(name, args, 1);
                Evaluator a = args.get(0);
                if (!a.constant() || !TypeRules.isNumeric(a.type())) {
                    throw new ChException(ErrorCode.ILLEGAL_COLUMN, "The argument of function " + name + " must be constant.");
                }
                double seconds = Values.toNumber(a.eval(new Object[0]), a.type()).doubleValue();
                if (seconds < 0 || Double.isNaN(seconds)) {
                    throw new ChException(ErrorCode.BAD_ARGUMENTS, "The argument of function " + name + " must be non-negative");
                }
                long micros = (long) (seconds * 1e6);
                long max = ctx.settings().getLong("function_sleep_max_microseconds_per_block");
                if (max > 0 && micros > max) {
                    throw new ChException(ErrorCode.TOO_SLOW, "The maximum sleep time is " + max + " microseconds. Requested: "
                        + micros + " microseconds");
                }
                return sleeper(name.equals("sleepEachRow"), micros, max, ctx);
            }
            case "getSetting": {
                Functions.arity(name, args, 1);
                String setting = Functions.constString(args.get(0));
                KnownSettings.Def def = KnownSettings.get(setting);
                if (def == null && setting.startsWith("custom_") && ctx.settings().isChanged(setting)) {
                    return customSetting(ctx.settings().get(setting));
                }
                if (def == null) {
                    throw new ChException(ErrorCode.UNKNOWN_SETTING, "Unknown setting '" + setting + "'");
                }
                return settingConstant(def.type(), ctx.settings().get(setting).trim());
            }
            default:
                return timestamp(args);
        }
    }

    /**
     * A custom setting's value as the Field SET gave it: a quoted string a String, a number the type of its literal
     * (5 a UInt8, -1 an Int8, 1.5 a Float64), true or false a Bool, and any other text (as a URL gives it) a String.
     */
    private static Evaluator customSetting(String text) {
        if (text.length() >= 2 && text.startsWith("'") && text.endsWith("'")) {
            StringBuilder sb = new StringBuilder();
            for (int i = 1; i < text.length() - 1; i++) {
                char c = text.charAt(i);
                sb.append(c == '\\' ? text.charAt(++i) : c);
            }
            return Evaluator.constant(DataTypes.STRING, ByteStrings.fromText(sb.toString()));
        }
        if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
            return Evaluator.constant(DataTypes.BOOL, text.equalsIgnoreCase("true"));
        }
        if (text.matches("-?[0-9]{1,18}")) {
            return settingConstant(text.startsWith("-") ? "Int64" : "UInt64", text);
        }
        if (text.matches("-?([0-9]+\\.[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?")) {
            return Evaluator.constant(DataTypes.FLOAT64, Double.parseDouble(text));
        }
        return Evaluator.constant(DataTypes.STRING, ByteStrings.fromText(text));
    }

    /**
     * getSetting's constant: the value as a literal of it would be typed (the engine returns the setting's Field), so
     * a number is the smallest integer type that holds it, a Seconds or Float a Float64, a bool a Bool, and an
     * {@code auto}, an enum or a string a String.
     */
    static Evaluator settingConstant(String type, String value) {
        switch (type) {
            case "Bool":
                return Evaluator.constant(DataTypes.BOOL, SettingFields.parseBool(value));
            case "BoolAuto":
                return value.equals("auto") ? Evaluator.constant(DataTypes.STRING, ByteStrings.fromText(value))
                    : Evaluator.constant(DataTypes.BOOL, SettingFields.parseBool(value));
            case "UInt64": case "UInt32": case "NonZeroUInt64": case "Milliseconds": case "MaxThreads": case "UInt64Auto": {
                if (value.regionMatches(true, 0, "auto", 0, 4)) { // max_threads = auto is the number of cores, as in the engine
                    return type.equals("MaxThreads") ? settingConstant("UInt64", Integer.toString(Runtime.getRuntime().availableProcessors()))
                        : Evaluator.constant(DataTypes.STRING, ByteStrings.fromText(value));
                }
                long v = SettingFields.parseNumber(value, false); // 10k is 10000
                DataType t = Long.compareUnsigned(v, 0xFF) <= 0 ? DataTypes.UINT8 : Long.compareUnsigned(v, 0xFFFF) <= 0 ? DataTypes.UINT16
                    : Long.compareUnsigned(v, 0xFFFF_FFFFL) <= 0 ? DataTypes.UINT32 : DataTypes.UINT64;
                return Evaluator.constant(t, v);
            }
            case "Int64": case "Int32": {
                long v = SettingFields.parseNumber(value, true);
                DataType t = v == (byte) v ? DataTypes.INT8 : v == (short) v ? DataTypes.INT16 : v == (int) v ? DataTypes.INT32 : DataTypes.INT64;
                return Evaluator.constant(t, v);
            }
            case "Seconds": case "Double":
                return Evaluator.constant(DataTypes.FLOAT64, SettingFields.parseFloat(value));
            case "Float": // held as a float32, and widened: 0.1 is 0.10000000149011612
                return Evaluator.constant(DataTypes.FLOAT64, (double) (float) SettingFields.parseFloat(value));
            case "FloatAuto":
                return value.equals("auto") ? Evaluator.constant(DataTypes.STRING, ByteStrings.fromText(value))
                    : Evaluator.constant(DataTypes.FLOAT64, (double) (float) SettingFields.parseFloat(value));
            default:
                return Evaluator.constant(DataTypes.STRING, ByteStrings.fromText(value));
        }
    }

    private static Evaluator timestamp(List<Evaluator> args) {
        if (args.isEmpty() || args.size() > 2) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Number of arguments for function timestamp"
                + " doesn't match: passed " + args.size() + ", should be 1 or 2");
        }
        DataType t = DataTypes.dateTime64(6, null);
        Evaluator base = ConversionFunctions.cast(args.get(0), t);
        if (args.size() == 1) {
            return base;
        }
        Evaluator time = args.get(1);
        if (!Functions.isString(time.type())) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + time.type().name()
                + " of argument 2 of function timestamp, expected String");
        }
        return Functions.strict(t.unwrap(), List.of(base, time), v -> (Long) v[0] + timeMicros(ByteStrings.toText((String) v[1])));
    }

    /** {@code [-]H[H]:MM:SS[.ffffff]} as microseconds. */
    static long timeMicros(String s) {
        String[] p = s.trim().split(":");
        try {
            boolean neg = p[0].startsWith("-");
            long h = Math.abs(Long.parseLong(p[0]));
            long m = p.length > 1 ? Long.parseLong(p[1]) : 0;
            double sec = p.length > 2 ? Double.parseDouble(p[2]) : 0;
            long micros = ((h * 60 + m) * 60) * 1_000_000L + Math.round(sec * 1e6);
            return neg ? -micros : micros;
        } catch (NumberFormatException e) {
            throw new ChException(ErrorCode.CANNOT_PARSE_DATETIME, "Cannot parse time '" + s + "' in function timestamp");
        }
    }

    /**
     * sleep (once per block that has rows) or sleepEachRow (once per row), as ClickHouse's FunctionSleep: a block
     * whose rows would sleep longer than {@code function_sleep_max_microseconds_per_block} (0: no limit) fails with
     * TOO_SLOW before sleeping. Evaluated row by row (outside a columnar block), sleep sleeps once per query.
     */
    private static Evaluator sleeper(boolean eachRow, long micros, long max, QueryContext ctx) {
        return new Evaluator() {
            private boolean slept;

            @Override
            public DataType type() {
                return DataTypes.UINT8;
            }

            @Override
            public Object eval(Object[] row) {
                if (eachRow || !slept) {
                    slept = true;
                    sleep(micros, ctx);
                }
                return 0L;
            }

            @Override
            public IColumn evalColumns(IColumn[] columns, int rows) {
                long total = rows == 0 ? 0 : !eachRow ? micros : micros > Long.MAX_VALUE / rows ? Long.MAX_VALUE : micros * rows;
                if (eachRow && max > 0 && total > max) {
                    throw new ChException(ErrorCode.TOO_SLOW, "The maximum sleep time is " + max + " microseconds. Requested: "
                        + total + " microseconds per block (of size " + rows + ")");
                }
                sleep(total, ctx);
                return new ColumnConst(DataTypes.UINT8, 0L, rows);
            }
        };
    }

    /** Sleeps in short slices, so KILL QUERY and a query's time limit end it promptly. */
    private static void sleep(long micros, QueryContext ctx) {
        long deadline = System.nanoTime() + micros * 1000;
        while (true) {
            ctx.checkCancelled();
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return;
            }
            try {
                Thread.sleep(Math.max(1, Math.min(10, left / 1_000_000)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ChException(ErrorCode.QUERY_WAS_CANCELLED, "Query was cancelled");
            }
        }
    }
}
