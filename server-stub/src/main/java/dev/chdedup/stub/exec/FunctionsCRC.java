package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.util.List;

/**
 * CRC32, CRC32IEEE and CRC64 of a String or FixedString's bytes (ClickHouse's CRC.cpp): CRC32 is zlib's (initial and
 * final value all ones), CRC32IEEE and CRC64 (ECMA-182) the reflected table CRCs starting from zero with no final XOR.
 */
final class FunctionsCRC {
    private static final long[] CRC32_IEEE = table(0xEDB88320L);
    private static final long[] CRC64_ECMA = table(0xC96C5795D7870F42L);

    private FunctionsCRC() {
    }

    static void register(FunctionFactory f) {
        f.registerCaseInsensitive("CRC32", FunctionsString.CATEGORY, (args, ctx) -> build("CRC32", args, DataTypes.UINT32, b -> {
            java.util.zip.CRC32 crc = new java.util.zip.CRC32();
            crc.update(b);
            return crc.getValue();
        }));
        f.registerCaseInsensitive("CRC32IEEE", FunctionsString.CATEGORY, (args, ctx) -> build("CRC32IEEE", args, DataTypes.UINT32,
            b -> reflected(CRC32_IEEE, b)));
        f.registerCaseInsensitive("CRC64", FunctionsString.CATEGORY, (args, ctx) -> build("CRC64", args, DataTypes.UINT64,
            b -> reflected(CRC64_ECMA, b)));
    }

    /** The table of a reflected CRC of {@code polynomial} (bit-reversed), byte by byte. */
    static long[] table(long polynomial) {
        long[] t = new long[256];
        for (int i = 0; i < 256; i++) {
            long c = i;
            for (int j = 0; j < 8; j++) {
                c = (c & 1) != 0 ? polynomial ^ (c >>> 1) : c >>> 1;
            }
            t[i] = c;
        }
        return t;
    }

    private static long reflected(long[] table, byte[] b) {
        long crc = 0;
        for (byte x : b) {
            crc = table[(int) ((crc ^ x) & 0xFF)] ^ (crc >>> 8);
        }
        return crc;
    }

    private static Evaluator build(String name, List<Evaluator> args, DataType result, java.util.function.ToLongFunction<byte[]> crc) {
        Functions.arity(name, args, 1);
        DataType t = TypeRules.stripNullable(args.get(0).type());
        if (t instanceof ArrayType) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Cannot apply function " + name + " to Array argument");
        }
        if (!Functions.isString(t) && !StringArguments.isNull(t)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of argument of function " + name);
        }
        return Functions.strict(result, args, v -> crc.applyAsLong(Functions.bytes(v[0])));
    }
}
