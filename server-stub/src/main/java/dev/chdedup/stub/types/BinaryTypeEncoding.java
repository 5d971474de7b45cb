package dev.chdedup.stub.types;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * ClickHouse's binary encoding of data types, which RowBinary writes in front of each Dynamic value (and each
 * path value of JSON): one tag byte per type, followed by its parameters (0x15 String, 0x1E Array(T) then T,
 * 0x23 Nullable(T) then T, 0x13 DateTime64(P) then P, ...). Covers the numeric, string, date and time, UUID, IP,
 * Bool, Decimal, Array, Tuple, Map, Nullable, LowCardinality, Variant, Dynamic and JSON types; others are
 * NOT_IMPLEMENTED. JSON is 0x30, its serialization version, max_dynamic_paths, max_dynamic_types, the typed paths
 * with their types, the SKIP paths and the SKIP REGEXPs. Mirrors ClickHouse's {@code DataTypesBinaryEncoding}.
 */
public final class BinaryTypeEncoding {
    private BinaryTypeEncoding() {
    }

    public static void encode(DataType t, BinaryOut out) {
        if (DataTypes.isGeo(t)) {
            // a custom type: its name (Point, Ring, ..., Geometry)
            out.write(0x2C);
            out.writeString(t.name());
            return;
        }
        if (t instanceof IntType) {
            IntType i = (IntType) t;
            int k = Integer.numberOfTrailingZeros(i.bits / 8);
            out.write((i.signed ? 0x07 : 0x01) + k);
        } else if (t instanceof BigIntType) {
            BigIntType b = (BigIntType) t;
            out.write((b.signed ? 0x0B : 0x05) + (b.bits == 256 ? 1 : 0));
        } else if (t instanceof FloatType) {
            out.write(((FloatType) t).is64 ? 0x0E : 0x0D);
        } else if (t instanceof BFloat16Type) {
            out.write(0x31);
        } else if (t instanceof BoolType) {
            out.write(0x2D);
        } else if (t instanceof StringType) {
            StringType s = (StringType) t;
            if (s.fixedLength == 0) {
                out.write(0x15);
            } else {
                out.write(0x16);
                out.writeVarUInt(s.fixedLength);
            }
        } else if (t instanceof DateType) {
            out.write(t == DataTypes.DATE32 ? 0x10 : 0x0F);
        } else if (t instanceof DateTimeType) {
            String tz = ((DateTimeType) t).tz;
            out.write(tz == null ? 0x11 : 0x12);
            if (tz != null) {
                out.writeString(tz);
            }
        } else if (t instanceof DateTime64Type) {
            DateTime64Type d = (DateTime64Type) t;
            out.write(d.tz == null ? 0x13 : 0x14);
            out.write(d.precision);
            if (d.tz != null) {
                out.writeString(d.tz);
            }
        } else if (t instanceof DataTypeInterval) {
            out.write(0x22);
            out.write(((DataTypeInterval) t).kind());
        } else if (t instanceof TimeType) {
            TimeType tt = (TimeType) t;
            out.write(tt.is64() ? 0x34 : 0x32);
            if (tt.is64()) {
                out.write(tt.precision);
            }
        } else if (t instanceof DecimalType) {
            DecimalType d = (DecimalType) t;
            out.write(d.precision <= 9 ? 0x19 : d.precision <= 18 ? 0x1A : d.precision <= 38 ? 0x1B : 0x1C);
            out.write(d.precision);
            out.write(d.scale);
        } else if (t instanceof UuidType) {
            out.write(0x1D);
        } else if (t instanceof IPv4Type) {
            out.write(0x28);
        } else if (t instanceof IPv6Type) {
            out.write(0x29);
        } else if (t instanceof ArrayType && ((ArrayType) t).size() >= 0) {
            out.write(0x36);
            encode(((ArrayType) t).element, out);
            out.writeVarUInt(((ArrayType) t).size());
        } else if (t instanceof ArrayType) {
            out.write(0x1E);
            encode(((ArrayType) t).element, out);
        } else if (t instanceof TupleType) {
            TupleType tt = (TupleType) t;
            out.write(tt.names == null ? 0x1F : 0x20);
            out.writeVarUInt(tt.elements.size());
            for (int i = 0; i < tt.elements.size(); i++) {
                if (tt.names != null) {
                    out.writeString(tt.names.get(i));
                }
                encode(tt.elements.get(i), out);
            }
        } else if (t instanceof MapType) {
            out.write(0x27);
            encode(((MapType) t).key, out);
            encode(((MapType) t).value, out);
        } else if (t instanceof NullableType) {
            out.write(0x23);
            encode(((NullableType) t).inner, out);
        } else if (t instanceof LowCardinalityType) {
            out.write(0x26);
            encode(((LowCardinalityType) t).inner, out);
        } else if (t instanceof NothingType) {
            out.write(0x00);
        } else if (t instanceof VariantType) {
            out.write(0x2A);
            out.writeVarUInt(((VariantType) t).variants.size());
            for (DataType v : ((VariantType) t).variants) {
                encode(v, out);
            }
        } else if (t instanceof DynamicType) {
            out.write(0x2B);
            out.write(((DynamicType) t).maxTypes);
        } else if (t instanceof JsonType) {
            JsonType j = (JsonType) t;
            out.write(0x30);
            out.write(0); // serialization version
            out.writeVarUInt(j.maxDynamicPaths);
            out.write(j.maxDynamicTypes);
            out.writeVarUInt(j.typedPaths.size());
            for (java.util.Map.Entry<String, DataType> e : j.typedPaths.entrySet()) {
                out.writeString(ByteStrings.fromText(e.getKey()));
                encode(e.getValue(), out);
            }
            out.writeVarUInt(j.skipPaths.size());
            for (String p : j.skipPaths) {
                out.writeString(ByteStrings.fromText(p));
            }
            out.writeVarUInt(j.skipRegexps.size());
            for (String r : j.skipRegexps) {
                out.writeString(ByteStrings.fromText(r));
            }
        } else if (t instanceof EnumType) {
            EnumType e = (EnumType) t;
            out.write(e.bits == 8 ? 0x17 : 0x18);
            out.writeVarUInt(e.elements().size());
            for (java.util.Map.Entry<String, Long> el : e.elements().entrySet()) {
                out.writeString(el.getKey());
                out.writeLongLE(el.getValue(), e.bits / 8);
            }
        } else {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "The stub cannot encode type " + t.name() + " in binary form");
        }
    }

    public static DataType decode(BinaryIn in) throws IOException {
        int tag = in.readByte();
        switch (tag) {
            case 0x00: return DataTypes.NOTHING;
            case 0x01: return DataTypes.UINT8;
            case 0x02: return DataTypes.UINT16;
            case 0x03: return DataTypes.UINT32;
            case 0x04: return DataTypes.UINT64;
            case 0x05: return DataTypes.parse("UInt128");
            case 0x06: return DataTypes.parse("UInt256");
            case 0x07: return DataTypes.INT8;
            case 0x08: return DataTypes.INT16;
            case 0x09: return DataTypes.INT32;
            case 0x0A: return DataTypes.INT64;
            case 0x0B: return DataTypes.parse("Int128");
            case 0x0C: return DataTypes.parse("Int256");
            case 0x0D: return DataTypes.FLOAT32;
            case 0x0E: return DataTypes.FLOAT64;
            case 0x0F: return DataTypes.DATE;
            case 0x10: return DataTypes.DATE32;
            case 0x11: return DataTypes.DATETIME;
            case 0x12: return DataTypes.dateTime(in.readString());
            case 0x13: return DataTypes.dateTime64(in.readByte(), null);
            case 0x14: {
                int p = in.readByte();
                return DataTypes.dateTime64(p, in.readString());
            }
            case 0x22: {
                int kind = in.readByte();
                if (kind < 0 || kind >= DataTypeInterval.UNITS.size()) {
                    throw new ChException(ErrorCode.INCORRECT_DATA, "Unknown interval kind " + kind);
                }
                return new DataTypeInterval(DataTypeInterval.UNITS.get(kind));
            }
            case 0x32: return DataTypes.TIME;
            case 0x34: {
                int p = in.readByte();
                return p <= 9 ? new TimeType(p) : DataTypes.parse("Time64(" + p + ")");
            }
            case 0x17: case 0x18: {
                long n = in.readVarUInt();
                StringBuilder name = new StringBuilder(tag == 0x17 ? "Enum8(" : "Enum16(");
                for (long i = 0; i < n; i++) {
                    if (i > 0) {
                        name.append(", ");
                    }
                    StringType.quote(in.readString(), name);
                    long code = in.readLongLE(tag == 0x17 ? 1 : 2);
                    name.append(" = ").append(tag == 0x17 ? (byte) code : (short) code);
                }
                return DataTypes.parse(name.append(')').toString());
            }
            case 0x2C: return DataTypes.parse(in.readString());
            case 0x36: {
                DataType element = decode(in);
                return DataTypes.qbit(element, (int) in.readVarUInt());
            }
            case 0x15: return DataTypes.STRING;
            case 0x16: return DataTypes.parse("FixedString(" + in.readVarUInt() + ")");
            case 0x19: case 0x1A: case 0x1B: case 0x1C: {
                int p = in.readByte();
                int s = in.readByte();
                return DataTypes.decimal(p, s);
            }
            case 0x1D: return DataTypes.UUID;
            case 0x1E: return DataTypes.array(decode(in));
            case 0x1F: case 0x20: {
                long n = in.readVarUInt();
                if (n > 10_000) {
                    throw new ChException(ErrorCode.INCORRECT_DATA, "Too many tuple elements in a binary type: " + n);
                }
                List<DataType> ts = new ArrayList<>();
                List<String> names = tag == 0x20 ? new ArrayList<>() : null;
                for (long i = 0; i < n; i++) {
                    if (names != null) {
                        names.add(in.readString());
                    }
                    ts.add(decode(in));
                }
                return new TupleType(ts, names);
            }
            case 0x23: return DataTypes.nullable(decode(in));
            case 0x26: return new LowCardinalityType(decode(in));
            case 0x27: {
                DataType k = decode(in);
                return DataTypes.map(k, decode(in));
            }
            case 0x28: return DataTypes.IPV4;
            case 0x29: return DataTypes.IPV6;
            case 0x2D: return DataTypes.BOOL;
            case 0x2A: {
                long n = in.readVarUInt();
                if (n > 255) {
                    throw new ChException(ErrorCode.INCORRECT_DATA, "Too many variants in a binary type: " + n);
                }
                List<DataType> vs = new ArrayList<>();
                for (long i = 0; i < n; i++) {
                    vs.add(decode(in));
                }
                return new VariantType(vs);
            }
            case 0x2B: return DynamicType.of(in.readByte());
            case 0x30: {
                in.readByte(); // serialization version
                int paths = (int) in.readVarUInt();
                int types = in.readByte();
                java.util.SortedMap<String, DataType> typed = new java.util.TreeMap<>();
                for (long i = 0, n = in.readVarUInt(); i < n; i++) {
                    String p = ByteStrings.toText(in.readString());
                    typed.put(p, decode(in));
                }
                List<String> skip = new ArrayList<>();
                for (long i = 0, n = in.readVarUInt(); i < n; i++) {
                    skip.add(ByteStrings.toText(in.readString()));
                }
                List<String> regexps = new ArrayList<>();
                for (long i = 0, n = in.readVarUInt(); i < n; i++) {
                    regexps.add(ByteStrings.toText(in.readString()));
                }
                return new JsonType(types, paths, typed, skip, regexps);
            }
            case 0x31: return DataTypes.BFLOAT16;
            default:
                throw new ChException(ErrorCode.INCORRECT_DATA, "The stub cannot read a type with binary tag 0x" + Integer.toHexString(tag));
        }
    }
}
