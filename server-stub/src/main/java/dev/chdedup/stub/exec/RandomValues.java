package dev.chdedup.stub.exec;

import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.BigIntType;
import dev.chdedup.stub.types.BoolType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.MapType;
import dev.chdedup.stub.types.NullableType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.TupleType;
import dev.chdedup.stub.types.UuidType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;

/**
 * Random values of any column type for {@code generateRandom}: the same seed gives the same values, in the same
 * order; integers cover their whole range, strings are random bytes up to {@code maxStringLength}, arrays and maps
 * have up to {@code maxArrayLength} elements, a Nullable value is NULL one time in eight. A type it does not know
 * gets its default value. (The values are not ClickHouse's for the same seed: only the distribution's shape is.)
 */
final class RandomValues {
    private final SplittableRandom random;
    private final int maxStringLength;
    private final int maxArrayLength;

    RandomValues(long seed, int maxStringLength, int maxArrayLength) {
        this.random = new SplittableRandom(seed);
        this.maxStringLength = Math.max(0, maxStringLength);
        this.maxArrayLength = Math.max(0, maxArrayLength);
    }

    Object value(DataType t) {
        if (t instanceof NullableType) {
            return random.nextInt(8) == 0 ? null : value(t.unwrap());
        }
        t = t.unwrap();
        if (t instanceof IntType) {
            IntType it = (IntType) t;
            long v = random.nextLong();
            if (it.bits == 64) {
                return v;
            }
            long mask = (1L << it.bits) - 1;
            v &= mask;
            if (it.signed && v >= 1L << (it.bits - 1)) {
                v -= 1L << it.bits;
            }
            return v;
        }
        if (t instanceof BoolType) {
            return random.nextBoolean();
        }
        if (t instanceof FloatType) {
            double d = (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(12));
            return ((FloatType) t).is64 ? (Object) d : (Object) (float) d;
        }
        if (t instanceof BigIntType) {
            BigIntType b = (BigIntType) t;
            BigInteger v = new BigInteger(b.bits, new java.util.Random(random.nextLong()));
            return b.signed && v.testBit(b.bits - 1) ? v.subtract(BigInteger.ONE.shiftLeft(b.bits)) : v;
        }
        if (t instanceof DecimalType) {
            DecimalType d = (DecimalType) t;
            int digits = Math.min(d.precision, 18);
            long bound = 1;
            for (int i = 0; i < digits; i++) {
                bound *= 10;
            }
            return BigDecimal.valueOf(random.nextLong(-bound + 1, bound), d.scale);
        }
        if (t instanceof StringType) {
            int fixed = ((StringType) t).fixedLength;
            int n = fixed > 0 ? fixed : random.nextInt(maxStringLength + 1);
            StringBuilder sb = new StringBuilder(n);
            for (int i = 0; i < n; i++) {
                sb.append((char) random.nextInt(256));
            }
            return sb.toString();
        }
        if (t instanceof DateType) {
            return (long) random.nextInt(((DateType) t).is32 ? 120_000 : 65_536) - (((DateType) t).is32 ? 25_567 : 0);
        }
        if (t instanceof DateTimeType) {
            return random.nextLong(1L << 32);
        }
        if (t instanceof DateTime64Type) {
            return random.nextLong(1L << 40) * 1000;
        }
        if (t instanceof UuidType) {
            return new UUID(random.nextLong(), random.nextLong());
        }
        if (t instanceof ArrayType) {
            int n = random.nextInt(maxArrayLength + 1);
            List<Object> l = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                l.add(value(((ArrayType) t).element));
            }
            return Collections.unmodifiableList(l);
        }
        if (t instanceof TupleType) {
            List<Object> l = new ArrayList<>();
            for (DataType e : ((TupleType) t).elements) {
                l.add(value(e));
            }
            return Collections.unmodifiableList(l);
        }
        if (t instanceof MapType) {
            int n = random.nextInt(maxArrayLength + 1);
            Map<Object, Object> m = new LinkedHashMap<>();
            for (int i = 0; i < n; i++) {
                m.put(value(((MapType) t).key), value(((MapType) t).value));
            }
            return Collections.unmodifiableMap(m);
        }
        return t.defaultValue();
    }
}
