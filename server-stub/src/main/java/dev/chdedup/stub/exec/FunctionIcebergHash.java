package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.hash.MurmurHash;
import dev.chdedup.stub.types.BFloat16Type;
import dev.chdedup.stub.types.BigIntType;
import dev.chdedup.stub.types.BoolType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.UuidType;
import dev.chdedup.stub.types.Values;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.UUID;

/**
 * icebergHash: the 32-bit hash of Iceberg's bucket transform (the Iceberg specification's appendix B), MurmurHash3
 * x86_32 with seed 0 of the value's Iceberg form: an integer, date (days) or timestamp (DateTime64 of 6 or 9 digits,
 * in microseconds) as 8 little-endian bytes, a float as its double's bits (-0 as 0,
 * NaN as the canonical NaN), a decimal (up to 38 digits) as its unscaled
 * value's shortest big-endian two's complement bytes, a UUID's 16 bytes, a string's bytes. An Int32.
 */
final class FunctionIcebergHash {
    private FunctionIcebergHash() {
    }

    static void register(FunctionFactory f) {
        f.register("icebergHash", FunctionsHashing.CATEGORY, (args, ctx) -> compile(args));
    }

    /** icebergHash(value): the Int32 hash of Iceberg's bucket transform (icebergBucket's too). */
    static Evaluator compile(List<Evaluator> args) {
        Functions.arity("icebergHash", args, 1);
        Evaluator a = args.get(0);
        DataType t = a.type().unwrap();
        if (t instanceof BigIntType || t instanceof DecimalType && ((DecimalType) t).precision > 38) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Type `" + t.name() + "` is not supported by icebergHash: the Iceberg "
                + "specification only defines hashing for `int` (32-bit), `long` (64-bit), and `decimal(P,S)` with P <= 38");
        }
        boolean supported = t instanceof IntType || t instanceof BoolType || t instanceof FloatType || t instanceof BFloat16Type
            || t instanceof DecimalType || t instanceof DateType || t instanceof DateTime64Type || t instanceof UuidType || t instanceof StringType;
        if (!supported && !Functions.isNothing(a)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Unsupported data type `" + a.type().name() + "` for icebergHash");
        }
        if (t instanceof DateTime64Type && ((DateTime64Type) t).precision != 6 && ((DateTime64Type) t).precision != 9) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Unsupported scale for DateTime64 in IcebergHash function. Supports only "
                + "microseconds and nanoseconds");
        }
        return Functions.defaultForNulls(DataTypes.INT32, args, v -> (long) (int) MurmurHash.murmur3_32(bytes(v[0], t), 0));
    }

    private static byte[] bytes(Object v, DataType t) {
        if (t instanceof StringType) {
            return ByteStrings.bytes((String) v);
        }
        if (t instanceof UuidType) {
            UUID u = (UUID) v;
            return concat(be(u.getMostSignificantBits()), be(u.getLeastSignificantBits()));
        }
        if (t instanceof DecimalType) {
            return ((BigDecimal) v).setScale(((DecimalType) t).scale, RoundingMode.DOWN).unscaledValue().toByteArray();
        }
        if (t instanceof FloatType || t instanceof BFloat16Type) {
            double d = Values.toNumber(v, t).doubleValue();
            return le(d == 0 ? 0 : Double.doubleToLongBits(d));
        }
        if (t instanceof DateTime64Type) {
            long ticks = (Long) v;
            return le(((DateTime64Type) t).precision == 9 ? ticks / 1000 : ticks);
        }
        return le(Values.toLong(Values.toNumber(v, t)));
    }

    private static byte[] le(long x) {
        byte[] b = new byte[8];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (x >>> (8 * i));
        }
        return b;
    }

    private static byte[] be(long x) {
        byte[] b = new byte[8];
        for (int i = 0; i < 8; i++) {
            b[7 - i] = (byte) (x >>> (8 * i));
        }
        return b;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
