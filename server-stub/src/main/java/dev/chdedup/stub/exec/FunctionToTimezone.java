package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.TimeZones;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;

/**
 * The functions of a time's zone, after ClickHouse's toTimezone.cpp, timezoneOf.cpp, timezoneOffset and
 * UTCTimestampTransform.cpp: toTimezone (toTimeZone) gives the same instant in a DateTime or DateTime64 of another zone;
 * timezoneOf names a value's zone (the session's or the server's when its type names none); timezoneOffset is the Int32 seconds
 * its zone is ahead of UTC at that instant; toUTCTimestamp reads a time's UTC wall clock as a time in the given zone and
 * fromUTCTimestamp the other way round (a DateTime clamped to its range); toTimeWithFixedDate keeps a time of day on
 * 1970-01-02 of the same zone.
 */
final class FunctionToTimezone {
    private FunctionToTimezone() {
    }

    static boolean handles(String n) {
        switch (n) {
            case "toTimezone": case "timezoneOf": case "timezoneOffset": case "toUTCTimestamp": case "fromUTCTimestamp": case "toTimeWithFixedDate":
                return true;
            default:
                return false;
        }
    }

    static Evaluator compile(String name, List<Evaluator> args) {
        switch (name) {
            case "toTimezone": {
                Functions.argumentCount(name, args, 2, 0);
                DataType u = dateTime(name, args.get(0));
                String tz = zone(name, args.get(1));
                DataType t = u instanceof DateTime64Type ? DataTypes.dateTime64(((DateTime64Type) u).precision, tz) : DataTypes.dateTime(tz);
                return Functions.defaultForNulls(t, args.subList(0, 1), v -> v[0]);
            }
            case "timezoneOf": {
                Functions.argumentCount(name, args, 1, 0);
                DataType u = args.get(0).type().unwrap();
                if (!(u instanceof DateTimeType || u instanceof DateTime64Type)) {
                    throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "datetime", name, "DateTime or DateTime64", args.get(0).type());
                }
                return Evaluator.constant(DataTypes.STRING, ByteStrings.fromText(zoneName(DateLUT.zoneOf(u), DateLUT.tzName(u))));
            }
            case "timezoneOffset": {
                return DateTimeTransforms.transform(name, args, DateTimeTransforms.Accepts.TIMES, 1, DataTypes.INT32,
                    (v, u, z) -> DateLUT.timezoneOffset(DateTimeTransforms.wholeSeconds(v, u), z, DateLUT.outOfTable(v, u)));
            }
            case "toUTCTimestamp": case "fromUTCTimestamp": {
                Functions.argumentCount(name, args, 2, 0);
                DataType u = args.get(0).type().unwrap();
                if (!(u instanceof DateTimeType || u instanceof DateTime64Type) && !(u instanceof NothingType)) {
                    throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "datetime", name, "DateTime or DateTime64", args.get(0).type());
                }
                if (DateLUT.tzName(u) != null) {
                    throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Function " + name + "'s 1st argument should not have explicit time zone");
                }
                ZoneId z = TimeZones.load(zone(name, args.get(1)));
                boolean to = name.equals("toUTCTimestamp");
                long scale = u instanceof DateTime64Type ? ((DateTime64Type) u).scale() : 1;
                return Functions.defaultForNulls(u, args.subList(0, 1), v -> {
                    long x = (Long) v[0];
                    long sec = Math.floorDiv(x, scale);
                    long r = to ? DateLUT.fromLocal(sec, z) : DateLUT.toLocal(sec, z);
                    if (u instanceof DateTimeType) {
                        return Math.max(0, Math.min(r, 0xFFFFFFFFL));
                    }
                    return r * scale + Math.floorMod(x, scale);
                });
            }
            default: {
                // toTimeWithFixedDate: the time of day on 1970-01-02, as ClickHouse's ToTimeImpl keeps it
                DataType t = DateTimeTransforms.dateTimeResult(name, args, 1);
                return DateTimeTransforms.transform(name, args, DateTimeTransforms.Accepts.TIMES, 1, t,
                    (v, u, z) -> {
                        if (DateLUT.outOfTable(v, u)) {
                            // outside its table the engine takes the seconds since the day started, less the offset at the epoch
                            long sec = DateLUT.seconds(v, u, z);
                            long start = DateLUT.fromDayNum(DateLUT.dayNum(v, u, z), z);
                            return 86400 + sec - start - z.getRules().getOffset(java.time.Instant.EPOCH).getTotalSeconds();
                        }
                        return DateLUT.fromLocal(86400 + Math.floorMod(DateLUT.localSeconds(v, u, z), 86400L), z);
                    });
            }
        }
    }

    private static DataType dateTime(String name, Evaluator e) {
        DataType u = e.type().unwrap();
        if (!(u instanceof DateTimeType || u instanceof DateTime64Type || u instanceof NothingType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + e.type().name() + " of argument of function " + name
                + ". Should be DateTime or DateTime64");
        }
        return u instanceof NothingType ? DataTypes.DATETIME : u;
    }

    private static String zone(String name, Evaluator e) {
        if (!Functions.isString(e.type())) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + e.type().name() + " of time zone argument of function "
                + name + ", must be a constant string");
        }
        if (!e.constant()) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Illegal column of time zone argument of function, must be a constant string");
        }
        String tz = Functions.constString(e);
        TimeZones.load(tz);
        return tz;
    }

    /** The name of a zone: the one a type names, else the session's, else the server's ({@link ServerInfo#TIMEZONE}). */
    static String zoneName(ZoneId z, String named) {
        if (named != null) {
            return named;
        }
        return z == ZoneOffset.UTC || z.getId().equals("Z") ? ServerInfo.TIMEZONE : z.getId();
    }
}
