package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.IPv4Type;
import dev.chdedup.stub.types.IPv6Type;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.Values;
import java.util.List;

/**
 * The IP address functions of ClickHouse's FunctionsCodingIP: IPv4 numbers to and from text (IPv4NumToString,
 * IPv4NumToStringClassC, IPv4StringToNum with its OrDefault and OrNull forms), IPv6 as FixedString(16) or IPv6 to and
 * from text (IPv6NumToString, IPv6StringToNum...), IPv4ToIPv6, cutIPv6, the CIDR ranges IPv4CIDRToRange and
 * IPv6CIDRToRange, isIPv4String, isIPv6String, isIPAddressInRange and toIPv4OrDefault, toIPv6OrDefault. IPv4 values are
 * numbers, IPv6 values and FixedString(16) the 16 bytes in network order. toIPv4 and toIPv6 are conversions
 * ({@link ConversionFunctions}).
 */
final class FunctionsCodingIP {
    static final String CATEGORY = "IP Address";
    private static final DataType FIXED16 = DataTypes.parse("FixedString(16)");

    private FunctionsCodingIP() {
    }

    static void register(FunctionFactory f) {
        f.register("IPv4NumToString", CATEGORY, (args, ctx) -> ipv4NumToString("IPv4NumToString", args, false));
        f.registerAlias("INET_NTOA", "IPv4NumToString", true);
        f.register("IPv4NumToStringClassC", CATEGORY, (args, ctx) -> ipv4NumToString("IPv4NumToStringClassC", args, true));
        f.register("IPv4StringToNum", CATEGORY, (args, ctx) -> stringToNum("IPv4StringToNum", args, 4, Mode.THROW));
        f.registerAlias("INET_ATON", "IPv4StringToNum", true);
        f.register("IPv4StringToNumOrDefault", CATEGORY, (args, ctx) -> stringToNum("IPv4StringToNumOrDefault", args, 4, Mode.DEFAULT));
        f.register("IPv4StringToNumOrNull", CATEGORY, (args, ctx) -> stringToNum("IPv4StringToNumOrNull", args, 4, Mode.NULL));
        f.register("IPv6StringToNum", CATEGORY, (args, ctx) -> stringToNum("IPv6StringToNum", args, 6, Mode.THROW));
        f.registerAlias("INET6_ATON", "IPv6StringToNum", true);
        f.register("IPv6StringToNumOrDefault", CATEGORY, (args, ctx) -> stringToNum("IPv6StringToNumOrDefault", args, 6, Mode.DEFAULT));
        f.register("IPv6StringToNumOrNull", CATEGORY, (args, ctx) -> stringToNum("IPv6StringToNumOrNull", args, 6, Mode.NULL));
        f.register("IPv6NumToString", CATEGORY, (args, ctx) -> ipv6NumToString(args));
        f.registerAlias("INET6_NTOA", "IPv6NumToString", true);
        f.register("IPv4ToIPv6", CATEGORY, (args, ctx) -> ipv4ToIPv6(args));
        f.register("cutIPv6", CATEGORY, (args, ctx) -> cutIPv6(args));
        f.register("IPv4CIDRToRange", CATEGORY, (args, ctx) -> cidrToRange("IPv4CIDRToRange", args, true));
        f.register("IPv6CIDRToRange", CATEGORY, (args, ctx) -> cidrToRange("IPv6CIDRToRange", args, false));
        f.register("isIPv4String", CATEGORY, (args, ctx) -> isString("isIPv4String", args, true));
        f.register("isIPv6String", CATEGORY, (args, ctx) -> isString("isIPv6String", args, false));
        f.register("isIPAddressInRange", CATEGORY, (args, ctx) -> isIPAddressInRange(args));
        f.register("toIPv4OrDefault", CATEGORY, (args, ctx) -> orDefault("toIPv4OrDefault", args, DataTypes.IPV4, s -> {
            long v = IPv4Type.tryParse(s);
            return v < 0 ? null : v;
        }));
        f.register("toIPv6OrDefault", CATEGORY, (args, ctx) -> orDefault("toIPv6OrDefault", args, DataTypes.IPV6, IPv6Type::tryParse));
    }

    private enum Mode { THROW, DEFAULT, NULL }

    private static boolean isIPv4Number(DataType t) {
        return t instanceof IPv4Type || t instanceof IntType && !((IntType) t).signed && ((IntType) t).bits <= 32;
    }

    private static boolean isIPv6Bytes(DataType t) {
        return t instanceof IPv6Type || t instanceof StringType && ((StringType) t).fixedLength == 16;
    }

    private static Evaluator ipv4NumToString(String name, List<Evaluator> args, boolean classC) {
        Functions.arity(name, args, 1);
        DataType t = args.get(0).type().unwrap();
        if (!isIPv4Number(t) && !Functions.isNothing(args.get(0))) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of first argument of function " + name
                + ", expected IPv4 or UInt8 or UInt16 or UInt32");
        }
        return Functions.defaultForNulls(DataTypes.STRING, args, v -> {
            StringBuilder sb = new StringBuilder();
            long a = ((Number) v[0]).longValue();
            IPv4Type.format(classC ? a & ~0xFFL : a, sb);
            if (classC) {
                sb.setLength(sb.length() - 1);
                sb.append("xxx");
            }
            return sb.toString();
        });
    }

    private static Evaluator stringToNum(String name, List<Evaluator> args, int version, Mode mode) {
        Functions.arity(name, args, 1);
        Evaluator a = args.get(0);
        DataType t = a.type().unwrap();
        boolean ok = version == 4 ? t instanceof StringType && ((StringType) t).fixedLength == 0 : t instanceof StringType;
        if (!ok) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + a.type().name() + " of argument of function " + name);
        }
        DataType result = version == 4 ? DataTypes.UINT32 : FIXED16;
        DataType type = mode == Mode.NULL || a.type().isNullable() ? DataTypes.nullable(result) : result;
        return Evaluator.of(type, r -> {
            Object v = a.eval(r);
            if (v == null) {
                return null;
            }
            String s = ByteStrings.toText(trimZeros((String) v));
            Object parsed = version == 4 ? (Object) IPv4Type.tryParse(s) : IPv6Type.tryParse(s);
            boolean bad = version == 4 ? (Long) parsed < 0 : parsed == null;
            if (!bad) {
                return parsed;
            }
            if (mode == Mode.THROW) {
                throw new ChException(version == 4 ? ErrorCode.CANNOT_PARSE_IPV4 : ErrorCode.CANNOT_PARSE_IPV6,
                    "Invalid IPv" + version + " value");
            }
            return mode == Mode.NULL ? null : result.defaultValue();
        });
    }

    /** A FixedString's text without the zero bytes that pad it. */
    private static String trimZeros(String s) {
        int n = s.length();
        while (n > 0 && s.charAt(n - 1) == 0) {
            n--;
        }
        return s.substring(0, n);
    }

    private static Evaluator ipv6NumToString(List<Evaluator> args) {
        Functions.arity("IPv6NumToString", args, 1);
        DataType t = args.get(0).type().unwrap();
        if (!isIPv6Bytes(t) && !Functions.isNothing(args.get(0))) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name()
                + " of argument of function IPv6NumToString, expected IPv6 or FixedString(16)");
        }
        return Functions.defaultForNulls(DataTypes.STRING, args, v -> format((String) v[0]));
    }

    private static String format(String bytes) {
        StringBuilder sb = new StringBuilder();
        DataTypes.IPV6.formatText(bytes, sb);
        return sb.toString();
    }

    private static Evaluator ipv4ToIPv6(List<Evaluator> args) {
        Functions.arity("IPv4ToIPv6", args, 1);
        DataType t = args.get(0).type().unwrap();
        boolean ipv4 = t instanceof IPv4Type;
        if (!ipv4 && !t.equals(DataTypes.UINT32) && !Functions.isNothing(args.get(0))) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(0).type().name() + " of argument of function IPv4ToIPv6");
        }
        return Functions.defaultForNulls(ipv4 ? DataTypes.IPV6 : FIXED16, args, v -> IPv6Type.mapped(((Number) v[0]).longValue()));
    }

    private static long constUInt8(String name, Evaluator e, int position, int max) {
        DataType t = e.type().unwrap();
        if (!t.equals(DataTypes.UINT8)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + e.type().name() + " of argument " + position + " of function " + name);
        }
        if (!e.constant()) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Argument at index " + (position - 1) + " for function " + name + " must be constant");
        }
        long n = Values.toLong(Values.toNumber(e.eval(new Object[0]), t));
        if (n > max) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal value for argument " + position + " " + t.name() + " of function " + name);
        }
        return n;
    }

    /** cutIPv6(address, bytes of an IPv6 address to zero, bytes of an IPv4-mapped one to zero): the text of the rest. */
    private static Evaluator cutIPv6(List<Evaluator> args) {
        Functions.arity("cutIPv6", args, 3);
        DataType t = args.get(0).type().unwrap();
        if (!isIPv6Bytes(t) && !Functions.isNothing(args.get(0))) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(0).type().name()
                + " of argument 1 of function cutIPv6, expected FixedString(16)");
        }
        int cut6 = (int) constUInt8("cutIPv6", args.get(1), 2, 16);
        int cut4 = (int) constUInt8("cutIPv6", args.get(2), 3, 16);
        return Functions.defaultForNulls(DataTypes.STRING, args, v -> {
            String b = (String) v[0];
            int cut = IPv6Type.isIPv4Mapped(b) ? cut4 : cut6;
            return format(b.substring(0, 16 - cut) + "\0".repeat(cut));
        });
    }

    private static Evaluator cidrToRange(String name, List<Evaluator> args, boolean v4) {
        Functions.arity(name, args, 2);
        DataType t = args.get(0).type().unwrap();
        if (!(v4 ? isIPv4Number(t) : isIPv6Bytes(t)) && !Functions.isNothing(args.get(0))) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(0).type().name() + " of first argument of function "
                + name + (v4 ? ", expected IPv4 or UInt8 or UInt16 or UInt32" : ", expected IPv6 or FixedString(16)"));
        }
        DataType c = args.get(1).type().unwrap();
        if (!c.equals(DataTypes.UINT8) && !Functions.isNothing(args.get(1))) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(1).type().name() + " of second argument of function "
                + name + ", expected UInt8");
        }
        DataType address = v4 ? DataTypes.IPV4 : DataTypes.IPV6;
        return Functions.defaultForNulls(DataTypes.tuple(List.of(address, address)), args, v -> {
            int bits = (int) Math.min(((Number) v[1]).longValue(), v4 ? 32 : 128);
            if (v4) {
                long a = ((Number) v[0]).longValue();
                long mask = bits == 0 ? 0 : 0xFFFFFFFFL << (32 - bits) & 0xFFFFFFFFL;
                return List.of(a & mask, a & mask | ~mask & 0xFFFFFFFFL);
            }
            String b = (String) v[0];
            char[] low = new char[16];
            char[] high = new char[16];
            for (int i = 0; i < 16; i++) {
                int keep = Math.max(0, Math.min(8, bits - 8 * i));
                int mask = 0xFF << (8 - keep) & 0xFF;
                low[i] = (char) (b.charAt(i) & mask);
                high[i] = (char) (b.charAt(i) & mask | ~mask & 0xFF);
            }
            return List.of(new String(low), new String(high));
        });
    }

    private static Evaluator isString(String name, List<Evaluator> args, boolean v4) {
        Functions.arity(name, args, 1);
        Evaluator a = args.get(0);
        DataType t = a.type().unwrap();
        if (!(t instanceof StringType && ((StringType) t).fixedLength == 0) && !Functions.isNothing(a)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + a.type().name() + " of argument of function " + name);
        }
        return Functions.defaultForNulls(DataTypes.UINT8, args, v -> {
            String s = ByteStrings.toText((String) v[0]);
            boolean ok = v4 ? isStrictIPv4(s) : IPv4Type.tryParse(s) < 0 && IPv6Type.tryParse(s) != null;
            return ok ? 1L : 0L;
        });
    }

    /** A dotted quad whose parts have no leading zeros, as isIPv4String accepts. */
    private static boolean isStrictIPv4(String s) {
        if (IPv4Type.tryParse(s) < 0) {
            return false;
        }
        for (String part : s.split("\\.")) {
            if (part.length() > 1 && part.charAt(0) == '0') {
                return false;
            }
        }
        return true;
    }

    /** isIPAddressInRange(address, cidr): whether the address (text, IPv4 or IPv6) is in the CIDR range of the same family. */
    private static Evaluator isIPAddressInRange(List<Evaluator> args) {
        Functions.arity("isIPAddressInRange", args, 2);
        DataType t = args.get(0).type();
        DataType u = t.unwrap();
        boolean okFirst = (u instanceof StringType && ((StringType) u).fixedLength == 0 || u instanceof IPv4Type || u instanceof IPv6Type)
            && !(u instanceof NothingType);
        DataType c = args.get(1).type();
        if (!okFirst || !(c instanceof StringType && ((StringType) c).fixedLength == 0)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "The first argument of function isIPAddressInRange must be one of: String, IPv4, "
                + "IPv6, Nullable(String), Nullable(IPv4), or Nullable(IPv6) and the second argument must be String. Type of the first argument: "
                + t.name() + ", type of the second argument: " + c.name());
        }
        Evaluator a = args.get(0);
        Evaluator cidr = args.get(1);
        return Evaluator.of(DataTypes.UINT8, r -> {
            Object v = a.eval(r);
            if (v == null) {
                return 0L;
            }
            String range = ByteStrings.toText((String) cidr.eval(r));
            int slash = range.indexOf('/');
            if (slash < 0) {
                throw new ChException(ErrorCode.CANNOT_PARSE_TEXT, "The text does not contain '/': " + range);
            }
            Object[] net = address(range.substring(0, slash));
            int bits;
            try {
                bits = Integer.parseInt(range.substring(slash + 1));
            } catch (NumberFormatException e) {
                bits = -1;
            }
            if (bits < 0 || bits > ((String) net[1]).length() * 8) {
                throw new ChException(ErrorCode.CANNOT_PARSE_TEXT, "The CIDR has a malformed prefix bits: " + range);
            }
            Object[] ip = u instanceof IPv4Type ? new Object[] {4, bytes4((Long) v)} : u instanceof IPv6Type ? new Object[] {6, v}
                : address(ByteStrings.toText((String) v));
            if (!ip[0].equals(net[0])) {
                return 0L;
            }
            String x = (String) ip[1];
            String y = (String) net[1];
            for (int i = 0; i < bits; i++) {
                int bit = 7 - i % 8;
                if ((x.charAt(i / 8) >> bit & 1) != (y.charAt(i / 8) >> bit & 1)) {
                    return 0L;
                }
            }
            return 1L;
        });
    }

    /** {family, bytes} of an address in text, IPv4 (4 bytes) or IPv6 (16 bytes). */
    private static Object[] address(String s) {
        long v4 = IPv4Type.tryParse(s);
        if (v4 >= 0) {
            return new Object[] {4, bytes4(v4)};
        }
        String v6 = IPv6Type.tryParse(s);
        if (v6 == null) {
            throw new ChException(ErrorCode.CANNOT_PARSE_TEXT, "Neither IPv4 nor IPv6 address: '" + s + "'");
        }
        return new Object[] {6, v6};
    }

    private static String bytes4(long a) {
        return new String(new char[] {(char) (a >>> 24 & 0xFF), (char) (a >>> 16 & 0xFF), (char) (a >>> 8 & 0xFF), (char) (a & 0xFF)});
    }

    /** An address of the other family converted to {@code target} (an IPv6 one only if it maps an IPv4 one), else null. */
    private static Object address(DataType target, Object v, DataType from) {
        if (!(from instanceof IPv4Type || from instanceof IPv6Type) || !(target instanceof IPv4Type || target instanceof IPv6Type)) {
            return null;
        }
        try {
            return target.convert(v, from);
        } catch (ChException e) {
            return null;
        }
    }

    /**
     * toIPv4OrDefault and toIPv6OrDefault (and toUUIDOrDefault): a string parsed, a value of the type itself, an address
     * of the other family converted, else (NULL, a text that is no address, another type) the default, the second
     * argument which must be of the type, or the type's zero.
     */
    static Evaluator orDefault(String name, List<Evaluator> args, DataType target, java.util.function.Function<String, Object> parse) {
        Functions.argumentCount(name, args, 1, 1);
        if (args.size() == 2 && !args.get(1).type().equals(target)) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Default value type should be same as cast type. Expected " + target.name()
                + ". Actual " + args.get(1).type().name());
        }
        Evaluator a = args.get(0);
        DataType from = a.type().unwrap();
        Evaluator dflt = args.size() == 2 ? args.get(1) : null;
        return Evaluator.of(target, r -> {
            Object v = a.eval(r);
            Object parsed = v == null ? null : from.equals(target) ? v
                : from instanceof StringType ? parse.apply(ByteStrings.toText(trimZeros((String) v))) : address(target, v, from);
            if (parsed != null) {
                return parsed;
            }
            return dflt != null ? dflt.eval(r) : target.defaultValue();
        });
    }
}
