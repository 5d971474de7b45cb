package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.Values;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;

/**
 * Iceberg's partition transforms (the Iceberg specification's "Partition Transforms"), of ClickHouse's "Other"
 * category: icebergBucket(N, value), the value's icebergHash made non-negative modulo N, and icebergTruncate(W, value),
 * an integer or decimal rounded down to a multiple of W (in the integer a size wider, a decimal's unscaled value) or a
 * string cut to W code points. N and W are positive constants.
 */
final class FunctionsIcebergTransform {
    private static final String CATEGORY = "Other";

    private FunctionsIcebergTransform() {
    }

    static void register(FunctionFactory f) {
        f.register("icebergBucket", CATEGORY, (args, ctx) -> bucket(args));
        f.register("icebergTruncate", CATEGORY, (args, ctx) -> truncate(args));
    }

    private static Evaluator bucket(List<Evaluator> args) {
        Functions.arity("icebergBucket", args, 2);
        Evaluator n = args.get(0);
        if (!(n.type() instanceof IntType)) {
            throw new ChException(ErrorCode.BAD_GET, "Bad get: has " + (n.type().unwrap() instanceof StringType ? "String" : "Float64")
                + ", requested Int64");
        }
        if (!n.constant()) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Argument at index 0 for function icebergBucket must be constant");
        }
        long buckets = Functions.constLong(n);
        if (buckets <= 0 || buckets > Integer.MAX_VALUE) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS,
                "Function IcebergBucket accepts only positive bucket size which is suitable to Int32");
        }
        Evaluator hash = FunctionIcebergHash.compile(args.subList(1, 2));
        DataType t = hash.type().isNullable() ? DataTypes.nullable(DataTypes.UINT32) : DataTypes.UINT32;
        if (Functions.isNothing(hash)) {
            return hash;
        }
        return Evaluator.of(t, r -> {
            Object h = hash.eval(r);
            return h == null ? null : (((Long) h) & Integer.MAX_VALUE) % buckets;
        });
    }

    private static Evaluator truncate(List<Evaluator> args) {
        Functions.arity("icebergTruncate", args, 2);
        Evaluator w = args.get(0);
        if (!(w.type() instanceof IntType wt) || wt.signed) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "First argument should be UInt data type");
        }
        if (!w.constant()) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Argument at index 0 for function icebergTruncate must be constant");
        }
        long width = Functions.constLong(w);
        if (width == 0) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Function icebergTruncate accepts only positive width");
        }
        Evaluator a = args.get(1);
        DataType t = a.type().unwrap();
        List<Evaluator> value = args.subList(1, 2);
        if (t instanceof StringType) {
            return Functions.defaultForNulls(DataTypes.STRING, value, v -> cutCodePoints((String) v[0], width));
        }
        if (t instanceof IntType it && it.bits <= 64) {
            DataType result = it.bits <= 8 ? DataTypes.INT16 : it.bits <= 16 ? DataTypes.INT32 : DataTypes.INT64;
            return Functions.defaultForNulls(result, value, v -> {
                long x = Values.toLong(Values.toNumber(v[0], t));
                return x - Math.floorMod(x, width);
            });
        }
        if (t instanceof DecimalType dt && dt.precision <= 18) {
            BigInteger bw = BigInteger.valueOf(width);
            return Functions.defaultForNulls(t, value, v -> {
                BigInteger u = ((BigDecimal) v[0]).unscaledValue();
                return new BigDecimal(u.subtract(u.mod(bw)), dt.scale);
            });
        }
        if (Functions.isNothing(a)) {
            return Functions.defaultForNulls(DataTypes.STRING, value, v -> null);
        }
        throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT,
            "Second argument must be of native integer type, String/FixedString, Decimal");
    }

    /** The first {@code n} UTF-8 code points of byte string {@code s} (a code point starts at each non-continuation byte). */
    private static String cutCodePoints(String s, long n) {
        long seen = 0;
        for (int i = 0; i < s.length(); i++) {
            if ((s.charAt(i) & 0xC0) != 0x80 && seen++ == n) {
                return s.substring(0, i);
            }
        }
        return s;
    }
}
