package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.BinaryOut;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.util.List;

/**
 * estimateCompressionRatio([codec][, block_size_bytes])(x), after ClickHouse's AggregateFunctionEstimateCompressionRatio:
 * the values' binary serialization goes through a compressed write buffer, cut into blocks of block_size_bytes
 * (1 MiB by default), each block compressed by the codec (LZ4 by default: the size LZ4 1.9's LZ4_compress_default, which ClickHouse
 * links, gives, computed by {@link #lz4Size}; NONE) and
 * counted with its 9-byte header and 16-byte checksum; the result is the uncompressed bytes over the compressed ones
 * (0 for none). Other codecs are not implemented.
 */
final class AggregateFunctionEstimateCompressionRatio {
    private static final int DEFAULT_BLOCK = 1 << 20;
    private static final int BLOCK_OVERHEAD = 9 + 16;

    private AggregateFunctionEstimateCompressionRatio() {
    }

    static void register() {
        AggregateFunctionFactory.register("estimateCompressionRatio", AggregateFunctionEstimateCompressionRatio::create);
    }

    private static Aggregates.Aggregate create(String name, List<DataType> args, AggregateParameters p) {
        if (args.size() != 1) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + name + " requires exactly one argument");
        }
        if (p.size() > 2) {
            throw new ChException(ErrorCode.UNKNOWN_QUERY_PARAMETER, "Aggregate function " + name + " accepts at most two parameters");
        }
        String codec = null;
        long block = -1;
        for (int i = 0; i < p.size(); i++) {
            String s = p.asString(i);
            if (s != null) {
                if (codec != null) {
                    throw new ChException(ErrorCode.BAD_QUERY_PARAMETER, "Multiple string type parameters specified for " + name
                        + ". Expected at most one string type (codec) parameter");
                }
                codec = s.trim();
            } else if (p.isInteger(i) && p.asLong(i) >= 0) {
                if (block >= 0) {
                    throw new ChException(ErrorCode.BAD_QUERY_PARAMETER, "Multiple numeric type parameters specified for " + name
                        + ". Expected at most one numeric type (block_size_bytes) parameter");
                }
                block = p.asLong(i);
                if (block == 0) {
                    throw new ChException(ErrorCode.BAD_QUERY_PARAMETER, "block_size_bytes should be greater then 0");
                }
            } else {
                throw new ChException(ErrorCode.UNKNOWN_QUERY_PARAMETER, "Invalid parameter type for " + name
                    + ". Expected String (codec) and/or UInt64 (block_size_bytes)");
            }
        }
        boolean none = codec != null && codec.equalsIgnoreCase("NONE");
        if (codec != null && !none && !codec.equalsIgnoreCase("LZ4")) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "Codec " + codec + " is not supported by the stub's " + name);
        }
        DataType t = args.get(0);
        int blockSize = block < 0 ? DEFAULT_BLOCK : (int) Math.min(block, Integer.MAX_VALUE - 64);
        return new Aggregates.Aggregate(DataTypes.FLOAT64, () -> new Aggregates.State() {
            final BinaryOut out = new BinaryOut(1024);

            @Override
            public void add(Object[] row) {
                t.writeBinary(row[0], out);
            }

            @Override
            public Object result() {
                byte[] data = out.toByteArray();
                long compressed = 0;
                for (int from = 0; from < data.length; from += blockSize) {
                    int len = Math.min(blockSize, data.length - from);
                    if (none) {
                        compressed += len + BLOCK_OVERHEAD;
                    } else {
                        compressed += lz4Size(data, from, len) + BLOCK_OVERHEAD;
                    }
                }
                return compressed == 0 ? 0.0 : (double) data.length / compressed;
            }
        });
    }

    private static final int MINMATCH = 4;
    private static final int MFLIMIT = 12;
    private static final int LASTLITERALS = 5;
    private static final int RUN_MASK = 15;
    private static final int LZ4_64K_LIMIT = 65536 + MFLIMIT - 1;

    /**
     * The size of LZ4 1.9's LZ4_compress_default output for {@code d[from, from + n)} (acceleration 1): its greedy
     * parse with a 4096-entry table of 5-byte hashes (8192 entries of 4-byte hashes below 64 KiB), the skip step
     * growing every 64 misses, matches extended backwards, the position two before a match's end and the match's end
     * put in the table, and the last 5 bytes always literals; only the sizes of tokens, lengths, offsets and literals
     * are counted.
     */
    static long lz4Size(byte[] d, int from, int n) {
        int end = from + n;
        long out = 0;
        int anchor = from;
        boolean small = n < LZ4_64K_LIMIT;
        int[] table = new int[small ? 1 << 13 : 1 << 12];
        if (n >= MFLIMIT + 1) {
            int mflimitPlusOne = end - MFLIMIT + 1;
            int matchLimit = end - LASTLITERALS;
            int ip = from;
            table[hash(d, ip, small)] = ip - from;
            ip++;
            int forwardH = hash(d, ip, small);
            outer:
            for (;;) {
                int match;
                int forwardIp = ip;
                int step = 1;
                int searchMatchNb = 1 << 6;
                for (;;) {
                    int h = forwardH;
                    int current = forwardIp - from;
                    int matchIndex = table[h];
                    ip = forwardIp;
                    forwardIp += step;
                    step = searchMatchNb++ >> 6;
                    if (forwardIp > mflimitPlusOne) {
                        break outer;
                    }
                    match = from + matchIndex;
                    forwardH = hash(d, forwardIp, small);
                    table[h] = current;
                    if (!small && matchIndex + 65535 < current) {
                        continue;
                    }
                    if (read32(d, match) == read32(d, ip)) {
                        break;
                    }
                }
                while (ip > anchor && match > from && d[ip - 1] == d[match - 1]) {
                    ip--;
                    match--;
                }
                int lit = ip - anchor;
                out += 1 + lit + (lit >= RUN_MASK ? 1 + (lit - RUN_MASK) / 255 : 0);
                for (;;) {
                    out += 2; // the offset
                    int code = 0;
                    int a = ip + MINMATCH;
                    int b = match + MINMATCH;
                    while (a < matchLimit && d[a] == d[b]) {
                        a++;
                        b++;
                        code++;
                    }
                    ip += code + MINMATCH;
                    if (code >= 15) {
                        out += 1 + (code - 15) / 255;
                    }
                    anchor = ip;
                    if (ip >= mflimitPlusOne) {
                        break outer;
                    }
                    table[hash(d, ip - 2, small)] = ip - 2 - from;
                    int h = hash(d, ip, small);
                    int current = ip - from;
                    int matchIndex = table[h];
                    match = from + matchIndex;
                    table[h] = current;
                    if ((small || matchIndex + 65535 >= current) && read32(d, match) == read32(d, ip)) {
                        out += 1; // a token without literals
                        continue;
                    }
                    break;
                }
                forwardH = hash(d, ++ip, small);
            }
        }
        int last = end - anchor;
        return out + 1 + last + (last >= RUN_MASK ? 1 + (last - RUN_MASK) / 255 : 0);
    }

    private static int read32(byte[] d, int at) {
        return (d[at] & 0xFF) | (d[at + 1] & 0xFF) << 8 | (d[at + 2] & 0xFF) << 16 | (d[at + 3] & 0xFF) << 24;
    }

    /** LZ4_hashPosition: of 4 bytes into 13 bits below 64 KiB, else of 5 bytes (of the 8 read) into 12 bits. */
    private static int hash(byte[] d, int at, boolean small) {
        if (small) {
            return (int) (((read32(d, at) & 0xFFFFFFFFL) * 2654435761L & 0xFFFFFFFFL) >>> (32 - 13));
        }
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = v << 8 | (at + i < d.length ? d[at + i] & 0xFF : 0);
        }
        return (int) (((v << 24) * 889523592379L) >>> (64 - 12));
    }
}
