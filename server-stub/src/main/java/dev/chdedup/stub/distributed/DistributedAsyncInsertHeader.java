package dev.chdedup.stub.distributed;

import dev.chdedup.stub.compress.CityHash128;
import dev.chdedup.stub.compress.CompressedBlockInputStream;
import dev.chdedup.stub.compress.CompressedBlockOutputStream;
import dev.chdedup.stub.compress.CorruptedDataException;
import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.BinaryIn;
import dev.chdedup.stub.types.BinaryOut;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One file of a background insert, laid out as ClickHouse's DistributedSink writes it and {@code
 * DistributedAsyncInsertHeader} reads it: the signature, then the header as one string (the protocol revision, the
 * INSERT query sent to the shard, the insert's changed settings as name, flags and value ended by an empty name, the
 * block's rows, bytes and structure, the shard number, the cluster, the Distributed table and the remote table), the
 * header's CityHash128, then the block in Native, LZ4-compressed in checksummed frames. A damaged file fails to read with
 * the engine's codes (CHECKSUM_DOESNT_MATCH, CANNOT_READ_ALL_DATA, ATTEMPT_TO_READ_AFTER_EOF), which set it aside as broken.
 * The client info the engine also writes is not: the stub's shards take the settings, which carry the token.
 */
record DistributedAsyncInsertHeader(long revision, String insertQuery, Map<String, String> settings, long rows, long bytes,
                                    String structure, int shardNum, String cluster, String distributedTable, String remoteTable) {
    /** ClickHouse's {@code DBMS_DISTRIBUTED_SIGNATURE_HEADER}. */
    static final long SIGNATURE = 0xCAFEDACEL;
    /** The protocol revision the block's Native serialization follows. */
    static final long REVISION = 54479;

    /** The file: this header and {@code nativeBlock} (one block in Native, with its header). */
    byte[] write(byte[] nativeBlock) throws IOException {
        BinaryOut h = new BinaryOut(256);
        h.writeVarUInt(revision);
        h.writeString(insertQuery);
        for (Map.Entry<String, String> e : settings.entrySet()) {
            h.writeString(e.getKey());
            h.writeVarUInt(0); // flags: not important
            h.writeString(e.getValue());
        }
        h.writeString("");
        h.writeVarUInt(rows);
        h.writeVarUInt(bytes);
        h.writeString(structure);
        h.writeVarUInt(shardNum);
        h.writeString(cluster);
        h.writeString(distributedTable);
        h.writeString(remoteTable);
        byte[] header = h.toByteArray();
        BinaryOut out = new BinaryOut(header.length + nativeBlock.length / 2 + 64);
        out.writeVarUInt(SIGNATURE);
        out.writeVarUInt(header.length);
        out.write(header, 0, header.length);
        long[] hash = CityHash128.hash128(header);
        out.writeLongLE(hash[0], 8);
        out.writeLongLE(hash[1], 8);
        ByteArrayOutputStream body = new ByteArrayOutputStream(nativeBlock.length / 2 + 64);
        try (CompressedBlockOutputStream c = new CompressedBlockOutputStream(body)) {
            c.write(nativeBlock);
        }
        byte[] b = body.toByteArray();
        out.write(b, 0, b.length);
        return out.toByteArray();
    }

    /** A file read back: its header and its block's Native bytes. */
    record File(DistributedAsyncInsertHeader header, byte[] nativeBlock) {
    }

    /** Reads a file whole; a damaged one fails with the engine's code for it. */
    static File read(byte[] file, String name) {
        try {
            BinaryIn in = new BinaryIn(file);
            long signature = in.readVarUInt();
            if (signature != SIGNATURE) {
                throw new ChException(ErrorCode.CANNOT_READ_ALL_DATA, "Unknown signature of the file " + name + " (not a file of a Distributed table)");
            }
            long length = in.readVarUInt();
            if (length > file.length) {
                throw new ChException(ErrorCode.CANNOT_READ_ALL_DATA, "Cannot read all data of the header of " + name);
            }
            byte[] header = in.readBytes((int) length);
            long[] expected = {in.readLongLE(8), in.readLongLE(8)};
            long[] actual = CityHash128.hash128(header);
            if (expected[0] != actual[0] || expected[1] != actual[1]) {
                throw new ChException(ErrorCode.CHECKSUM_DOESNT_MATCH, "Checksum of extra info doesn't match: corrupted data. Reference: "
                    + hex(expected) + ". Actual: " + hex(actual) + ".");
            }
            BinaryIn h = new BinaryIn(header);
            long revision = h.readVarUInt();
            String query = h.readString();
            Map<String, String> settings = new LinkedHashMap<>();
            for (String n = h.readString(); !n.isEmpty(); n = h.readString()) {
                h.readVarUInt();
                settings.put(n, h.readString());
            }
            DistributedAsyncInsertHeader parsed = new DistributedAsyncInsertHeader(revision, query, settings, h.readVarUInt(), h.readVarUInt(),
                h.readString(), (int) h.readVarUInt(), h.readString(), h.readString(), h.readString());
            int at = (int) in.position();
            try (CompressedBlockInputStream body = new CompressedBlockInputStream(new ByteArrayInputStream(file, at, file.length - at))) {
                byte[] nativeBlock = body.readAllBytes();
                if (nativeBlock.length == 0) {
                    throw new ChException(ErrorCode.EMPTY_DATA_PASSED, "The file " + name + " has no block");
                }
                return new File(parsed, nativeBlock);
            }
        } catch (CorruptedDataException e) {
            throw new ChException(ErrorCode.CHECKSUM_DOESNT_MATCH, e.getMessage() + " (file " + name + ")", e);
        } catch (EOFException e) {
            throw new ChException(ErrorCode.ATTEMPT_TO_READ_AFTER_EOF, "Attempt to read after eof: " + name, e);
        } catch (IOException e) {
            throw new ChException(ErrorCode.CANNOT_READ_ALL_DATA, "Cannot read " + name + ": " + e.getMessage(), e);
        }
    }

    /** The block's structure as the header keeps it (obsolete in the engine, kept for reading by eye). */
    static String structure(List<Column> columns) {
        StringBuilder sb = new StringBuilder();
        for (Column c : columns) {
            sb.append(sb.length() == 0 ? "" : ", ").append(c.name()).append(' ').append(c.type().name());
        }
        return sb.toString();
    }

    private static String hex(long[] h) {
        return String.format("%016x%016x", h[1], h[0]);
    }
}
