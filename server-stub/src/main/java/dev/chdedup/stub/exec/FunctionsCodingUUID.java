package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.TimeZones;
import dev.chdedup.stub.types.UuidType;
import dev.chdedup.stub.types.Values;
import java.util.List;
import java.util.UUID;

/**
 * The UUID functions of ClickHouse's FunctionsCodingUUID and the Snowflake ID conversions: UUIDNumToString,
 * UUIDStringToNum and UUIDToNum between a UUID (or its text) and its 16 bytes, in the standard order (variant 1) or
 * Microsoft's with the first three groups little-endian (variant 2); UUIDv7ToDateTime (the millisecond timestamp of a
 * version 7 UUID); dateTimeToSnowflakeID, dateTime64ToSnowflakeID, snowflakeIDToDateTime and snowflakeIDToDateTime64
 * (a Snowflake ID holds milliseconds since an epoch in its bits above the 22 lowest); the generators generateUUIDv4,
 * generateUUIDv7, dateTimeToUUIDv7 and generateSnowflakeID; toUUIDOrDefault.
 */
final class FunctionsCodingUUID {
    static final String CATEGORY = "UUID";
    private static final DataType FIXED16 = DataTypes.parse("FixedString(16)");
    private static final int SNOWFLAKE_SHIFT = 22;

    private FunctionsCodingUUID() {
    }

    static void register(FunctionFactory f) {
        f.register("UUIDNumToString", CATEGORY, (args, ctx) -> uuidNumToString(args));
        f.register("UUIDStringToNum", CATEGORY, (args, ctx) -> uuidStringToNum(args));
        f.register("UUIDToNum", CATEGORY, (args, ctx) -> uuidToNum(args));
        f.register("UUIDv7ToDateTime", CATEGORY, (args, ctx) -> uuidV7ToDateTime(args));
        f.register("dateTimeToSnowflakeID", CATEGORY, (args, ctx) -> toSnowflake("dateTimeToSnowflakeID", args, false));
        f.register("dateTime64ToSnowflakeID", CATEGORY, (args, ctx) -> toSnowflake("dateTime64ToSnowflakeID", args, true));
        f.register("snowflakeIDToDateTime", CATEGORY, (args, ctx) -> fromSnowflake("snowflakeIDToDateTime", args, false));
        f.register("snowflakeIDToDateTime64", CATEGORY, (args, ctx) -> fromSnowflake("snowflakeIDToDateTime64", args, true));
        f.register("generateUUIDv4", CATEGORY, (args, ctx) -> {
            Functions.argumentCount("generateUUIDv4", args, 0, 1);
            return Evaluator.of(DataTypes.UUID, r -> UUID.randomUUID());
        });
        f.register("generateUUIDv7", CATEGORY, (args, ctx) -> {
            Functions.argumentCount("generateUUIDv7", args, 0, 1);
            return Evaluator.of(DataTypes.UUID, r -> uuidV7(System.currentTimeMillis()));
        });
        f.register("dateTimeToUUIDv7", CATEGORY, (args, ctx) -> {
            Functions.arity("dateTimeToUUIDv7", args, 1);
            if (!(args.get(0).type() instanceof DateTimeType)) {
                throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "value", "dateTimeToUUIDv7", "DateTime", args.get(0).type());
            }
            Evaluator a = args.get(0);
            return Evaluator.of(DataTypes.UUID, r -> uuidV7((Long) a.eval(r) * 1000));
        });
        f.register("generateSnowflakeID", CATEGORY, (args, ctx) -> generateSnowflakeID(args));
        f.register("toUUIDOrDefault", CATEGORY, (args, ctx) -> FunctionsCodingIP.orDefault("toUUIDOrDefault", args, DataTypes.UUID,
            FunctionsCodingUUID::tryParse));
    }

    /** The counter of the last UUIDv7 or Snowflake ID made, and the millisecond it belongs to. */
    private static long lastMillis;
    private static long counter;

    /**
     * The next counter value for {@code ms}: a fresh random start (its top bit clear) in a new millisecond, else one more,
     * so that the values one process makes in one millisecond increase, as ClickHouse's generators keep them.
     */
    private static synchronized long next(long ms, int bits) {
        if (ms != lastMillis) {
            lastMillis = ms;
            counter = java.util.concurrent.ThreadLocalRandom.current().nextLong() >>> (65 - bits);
        } else {
            counter++;
        }
        return counter & ((1L << bits) - 1);
    }

    /** A version 7 UUID of {@code ms}: the 48-bit time, then a 42-bit counter around the version and variant bits, then 32 random bits. */
    private static UUID uuidV7(long ms) {
        long c = next(ms, 42);
        long hi = (ms & 0xFFFFFFFFFFFFL) << 16 | 0x7000L | c >>> 30;
        long lo = 0x8000000000000000L | (c & 0x3FFFFFFFL) << 32 | java.util.concurrent.ThreadLocalRandom.current().nextInt() & 0xFFFFFFFFL;
        return new UUID(hi, lo);
    }

    /** generateSnowflakeID([expr[, machine_id]]): the milliseconds since 1970 above a 10-bit machine id and a 12-bit counter. */
    private static Evaluator generateSnowflakeID(List<Evaluator> args) {
        Functions.argumentCount("generateSnowflakeID", args, 0, 2);
        long machine = 0;
        if (args.size() == 2) {
            Evaluator e = args.get(1);
            DataType t = e.type().unwrap();
            if (!(t instanceof IntType && !((IntType) t).signed)) {
                throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 2, "machine_id", "generateSnowflakeID", "const UInt*", e.type());
            }
            if (!e.constant()) {
                throw Functions.illegalArgument(ErrorCode.ILLEGAL_COLUMN, 2, "machine_id", "generateSnowflakeID", "const UInt*", e.type());
            }
            machine = Values.toLong(Values.toNumber(e.eval(new Object[0]), t)) & 0x3FF;
        }
        long m = machine;
        return Evaluator.of(DataTypes.UINT64, r -> {
            long ms = System.currentTimeMillis();
            return ms << SNOWFLAKE_SHIFT | m << 12 | next(ms, 12);
        });
    }

    /** The optional variant argument (1 or 2, an Int8 or UInt8 constant), 1 when absent. */
    private static int variant(String name, List<Evaluator> args) {
        if (args.size() < 2) {
            return 1;
        }
        Evaluator e = args.get(1);
        DataType t = e.type().unwrap();
        if (!(t instanceof IntType && ((IntType) t).bits == 8)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + e.type().name() + " of second argument of function " + name
                + ", expected Int8 or UInt8 type");
        }
        long v = Functions.constLong(e);
        if (v != 1 && v != 2) {
            throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "Expected UUID variant, got " + v);
        }
        return (int) v;
    }

    /** The index of each byte of the standard layout in Microsoft's (variant 2); the same permutation undoes itself. */
    private static final int[] MICROSOFT = {3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15};

    private static byte[] reorder(byte[] b, int variant) {
        if (variant == 1) {
            return b;
        }
        byte[] out = new byte[16];
        for (int i = 0; i < 16; i++) {
            out[i] = b[MICROSOFT[i]];
        }
        return out;
    }

    private static byte[] bytes(UUID u) {
        byte[] b = new byte[16];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (u.getMostSignificantBits() >>> (56 - 8 * i));
            b[8 + i] = (byte) (u.getLeastSignificantBits() >>> (56 - 8 * i));
        }
        return b;
    }

    private static Evaluator uuidNumToString(List<Evaluator> args) {
        Functions.argumentCount("UUIDNumToString", args, 1, 1);
        DataType t = args.get(0).type().unwrap();
        if (!(t instanceof StringType && ((StringType) t).fixedLength == 16) && !Functions.isNothing(args.get(0))) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(0).type().name()
                + " of argument of function UUIDNumToString, expected FixedString(16)");
        }
        int variant = variant("UUIDNumToString", args);
        return Functions.defaultForNulls(DataTypes.STRING, args.subList(0, 1), v -> {
            byte[] b = reorder(ByteStrings.bytes((String) v[0]), variant);
            long hi = 0;
            long lo = 0;
            for (int i = 0; i < 8; i++) {
                hi = hi << 8 | (b[i] & 0xFF);
                lo = lo << 8 | (b[8 + i] & 0xFF);
            }
            return new UUID(hi, lo).toString();
        });
    }

    private static Evaluator uuidStringToNum(List<Evaluator> args) {
        Functions.argumentCount("UUIDStringToNum", args, 1, 1);
        DataType t = args.get(0).type().unwrap();
        boolean ok = t instanceof StringType && (((StringType) t).fixedLength == 0 || ((StringType) t).fixedLength == 36);
        if (!ok && !Functions.isNothing(args.get(0))) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(0).type().name()
                + " of first argument of function UUIDStringToNum, expected FixedString(36)");
        }
        int variant = variant("UUIDStringToNum", args);
        return Functions.defaultForNulls(FIXED16, args.subList(0, 1), v -> {
            String s = (String) v[0];
            byte[] b = new byte[16];
            if (s.length() == 36) {
                int pos = 0;
                for (int i = 0; i < 16; i++) {
                    if (pos == 8 || pos == 13 || pos == 18 || pos == 23) {
                        pos++;
                    }
                    b[i] = (byte) (unhex(s.charAt(pos)) * 16 + unhex(s.charAt(pos + 1)));
                    pos += 2;
                }
            }
            return ByteStrings.of(reorder(b, variant));
        });
    }

    /** A UUID's text, 36 characters with dashes or 32 hex digits, or null. */
    static UUID tryParse(String s) {
        String hex;
        if (s.length() == 36) {
            if (s.charAt(8) != '-' || s.charAt(13) != '-' || s.charAt(18) != '-' || s.charAt(23) != '-') {
                return null;
            }
            hex = s.substring(0, 8) + s.substring(9, 13) + s.substring(14, 18) + s.substring(19, 23) + s.substring(24);
        } else if (s.length() == 32) {
            hex = s;
        } else {
            return null;
        }
        long hi = 0;
        long lo = 0;
        for (int i = 0; i < 32; i++) {
            int d = hex.charAt(i) < 128 ? Character.digit(hex.charAt(i), 16) : -1;
            if (d < 0) {
                return null;
            }
            if (i < 16) {
                hi = hi << 4 | d;
            } else {
                lo = lo << 4 | d;
            }
        }
        return new UUID(hi, lo);
    }

    /** A hex digit's value; any other character counts as 0xFF, as ClickHouse's unhex table has it. */
    private static int unhex(char c) {
        int d = Character.digit(c, 16);
        return d >= 0 && c < 128 ? d : 0xFF;
    }

    private static Evaluator uuidToNum(List<Evaluator> args) {
        Functions.argumentCount("UUIDToNum", args, 1, 1);
        DataType t = args.get(0).type().unwrap();
        if (!(t instanceof UuidType) && !Functions.isNothing(args.get(0))) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(0).type().name()
                + " of first argument of function UUIDToNum, expected UUID");
        }
        int variant = variant("UUIDToNum", args);
        return Functions.defaultForNulls(FIXED16, args.subList(0, 1), v -> ByteStrings.of(reorder(bytes((UUID) v[0]), variant)));
    }

    /** The optional constant time zone argument at {@code index}, or null. */
    private static String zone(String name, List<Evaluator> args, int index) {
        if (args.size() <= index) {
            return null;
        }
        Evaluator e = args.get(index);
        if (!Functions.isString(e.type()) && name.equals("UUIDv7ToDateTime")) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Illegal column of time zone argument of function, must be a constant string");
        }
        if (!Functions.isString(e.type())) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, index + 1, "time_zone", name, "String", e.type());
        }
        if (!e.constant()) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_COLUMN, index + 1, "time_zone", name, "String", e.type());
        }
        String tz = Functions.constString(e);
        TimeZones.load(tz);
        return tz;
    }

    private static Evaluator uuidV7ToDateTime(List<Evaluator> args) {
        Functions.argumentCount("UUIDv7ToDateTime", args, 1, 1);
        DataType t = args.get(0).type().unwrap();
        if (!(t instanceof UuidType) && !Functions.isNothing(args.get(0))) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(0).type().name()
                + " of first argument of function UUIDv7ToDateTime, expected UUID");
        }
        String tz = zone("UUIDv7ToDateTime", args, 1);
        return Functions.defaultForNulls(DataTypes.dateTime64(3, tz), args.subList(0, 1), v -> {
            UUID u = (UUID) v[0];
            return u.version() == 7 ? u.getMostSignificantBits() >>> 16 : 0L;
        });
    }

    /** The optional constant epoch argument (milliseconds, an unsigned integer), 0 when absent. */
    private static long epoch(String name, List<Evaluator> args) {
        if (args.size() < 2) {
            return 0;
        }
        Evaluator e = args.get(1);
        DataType t = e.type().unwrap();
        if (!(t instanceof IntType && !((IntType) t).signed)) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 2, "epoch", name, "const UInt*", e.type());
        }
        if (!e.constant()) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_COLUMN, 2, "epoch", name, "const UInt*", e.type());
        }
        return Values.toLong(Values.toNumber(e.eval(new Object[0]), t));
    }

    private static Evaluator toSnowflake(String name, List<Evaluator> args, boolean is64) {
        Functions.argumentCount(name, args, 1, 1);
        DataType t = args.get(0).type().unwrap();
        boolean ok = is64 ? t instanceof DateTime64Type : t instanceof DateTimeType;
        if (!ok && !Functions.isNothing(args.get(0))) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "value", name, is64 ? "DateTime64" : "DateTime", args.get(0).type());
        }
        long epoch = epoch(name, args);
        return Functions.defaultForNulls(DataTypes.UINT64, args.subList(0, 1), v -> {
            long ms;
            if (is64) {
                DateTime64Type d = (DateTime64Type) t;
                long ticks = (Long) v[0];
                ms = d.precision >= 3 ? Math.floorDiv(ticks, Functions.pow10(d.precision - 3)) : ticks * Functions.pow10(3 - d.precision);
            } else {
                ms = (Long) v[0] * 1000;
            }
            return (ms - epoch) << SNOWFLAKE_SHIFT;
        });
    }

    private static Evaluator fromSnowflake(String name, List<Evaluator> args, boolean is64) {
        Functions.argumentCount(name, args, 1, 2);
        DataType t = args.get(0).type().unwrap();
        if (!t.equals(DataTypes.UINT64) && !Functions.isNothing(args.get(0))) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "value", name, "UInt64", args.get(0).type());
        }
        long epoch = epoch(name, args);
        String tz = zone(name, args, 2);
        DataType result = is64 ? DataTypes.dateTime64(3, tz) : DataTypes.dateTime(tz);
        return Functions.defaultForNulls(result, args.subList(0, 1), v -> {
            long ms = ((Long) v[0] >>> SNOWFLAKE_SHIFT) + epoch;
            return is64 ? ms : Long.divideUnsigned(ms, 1000) & 0xFFFFFFFFL;
        });
    }
}
