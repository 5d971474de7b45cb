package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.SessionTimeZone;
import dev.chdedup.stub.types.TimeZones;
import java.time.ZoneId;
import java.util.List;

/**
 * The parsers of text into a DateTime or DateTime64, after ClickHouse's parseDateTime.cpp and the BestEffort conversions
 * of FunctionsConversion: parseDateTime and parseDateTime64 (MySQL format, by default {@code %Y-%m-%d %H:%i:%s}, with {@code .%f} for parseDateTime64),
 * parseDateTimeInJodaSyntax and parseDateTime64InJodaSyntax (read by {@link DateTimeFormatParser}), and
 * parseDateTime[32|64]BestEffort[US] (read by {@link ParseDateTimeBestEffort}), each with OrZero (the type's zero) and
 * OrNull (Nullable) forms. A DateTime is clamped to its range by the BestEffort parsers; the format parsers refuse a
 * year out of it. The format parsers' result names its zone: the one given, else the session's or the server's.
 */
final class FunctionParseDateTime {
    private FunctionParseDateTime() {
    }

    static boolean handles(String n) {
        String base = base(n);
        switch (base) {
            case "parseDateTime": case "parseDateTime64": case "parseDateTimeInJodaSyntax": case "parseDateTime64InJodaSyntax":
            case "parseDateTimeBestEffort": case "parseDateTime32BestEffort": case "parseDateTime64BestEffort": case "parseDateTimeBestEffortUS":
            case "parseDateTime64BestEffortUS":
                return true;
            default:
                return false;
        }
    }

    private static String base(String n) {
        return n.endsWith("OrZero") || n.endsWith("OrNull") ? n.substring(0, n.length() - 6) : n;
    }

    static Evaluator compile(String name, List<Evaluator> args) {
        String base = base(name);
        boolean orNull = name.endsWith("OrNull");
        boolean orZero = name.endsWith("OrZero");
        boolean bestEffort = base.contains("BestEffort");
        boolean is64 = base.startsWith("parseDateTime64");
        Evaluator a = args.isEmpty() ? null : args.get(0);
        if (a == null) {
            Functions.argumentCount(name, args, 1, 2);
        }
        DataType at = a.type().unwrap();
        if (!Functions.isString(at) && !(at instanceof NothingType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + a.type().name() + " of first argument of function " + name);
        }
        DataType result;
        Parser parser;
        if (bestEffort) {
            boolean us = base.endsWith("US");
            int precision = 3;
            int tzAt = 1;
            if (is64) {
                Functions.argumentCount(name, args, 1, 2);
                if (args.size() > 1) {
                    precision = (int) Functions.constLong(args.get(1));
                }
                tzAt = 2;
            } else {
                Functions.argumentCount(name, args, 1, 1);
            }
            String tz = DateLUT.zoneArgument(name, args, tzAt);
            result = is64 ? DataTypes.dateTime64(precision, tz) : DataTypes.dateTime(tz);
            int p = precision;
            parser = (s, z) -> {
                ParseDateTimeBestEffort.Result r = ParseDateTimeBestEffort.parse(s, z, us);
                return is64 ? r.ticks(p) : Math.max(0, Math.min(r.seconds(), 0xFFFFFFFFL));
            };
        } else {
            boolean joda = base.endsWith("JodaSyntax");
            Functions.argumentCount(name, args, is64 && !joda ? 1 : 2, is64 && !joda ? 2 : 1);
            String format = is64 ? "%Y-%m-%d %H:%i:%s.%f" : "%Y-%m-%d %H:%i:%s";
            if (args.size() > 1) {
                Evaluator f = args.get(1);
                if (!Functions.isString(f.type())) {
                    throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 2, "format", name, "String", f.type());
                }
                if (!f.constant()) {
                    throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Argument at index 1 for function " + name + " must be constant");
                }
                format = Functions.constString(f);
            }
            String tz = DateLUT.zoneArgument(name, args, 2);
            String named = tz != null ? tz : FunctionToTimezone.zoneName(SessionTimeZone.current(), null);
            DateTimeFormatParser formatParser = joda ? DateTimeFormatParser.joda(format) : DateTimeFormatParser.mysql(format);
            int precision = !is64 ? 0 : joda ? formatParser.fractionDigits() : 6;
            result = is64 ? DataTypes.dateTime64(precision, named) : DataTypes.dateTime(named);
            parser = (s, z) -> formatParser.parse(s, z, is64, precision);
        }
        String tz = DateLUT.tzName(result);
        DataType rt = result;
        if (orNull) {
            return Evaluator.of(DataTypes.nullable(result), r -> {
                Object v = a.eval(r);
                if (v == null) {
                    return null;
                }
                try {
                    return parser.parse(ByteStrings.toText((String) v), zone(tz));
                } catch (ChException | ArithmeticException e) {
                    return null;
                }
            });
        }
        return Functions.defaultForNulls(result, List.of(a), v -> {
            try {
                return parser.parse(ByteStrings.toText((String) v[0]), zone(tz));
            } catch (ChException | ArithmeticException e) {
                if (orZero) {
                    return rt.defaultValue();
                }
                throw e;
            }
        });
    }

    private static ZoneId zone(String tz) {
        return tz != null ? TimeZones.load(tz) : SessionTimeZone.current();
    }

    interface Parser {
        Object parse(String s, ZoneId z);
    }
}
