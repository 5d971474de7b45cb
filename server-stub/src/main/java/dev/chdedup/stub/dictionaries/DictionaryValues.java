package dev.chdedup.stub.dictionaries;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.exec.ExprCompiler;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.Settings;
import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.IntType;
import java.util.List;
import java.util.Map;

/**
 * Values a dictionary makes of what it is given: an attribute's DEFAULT literal in the attribute's type, a source's
 * value in the dictionary's type (a NULL for a column that cannot hold one becomes the attribute's DEFAULT, as the
 * engine fills it), and the open ends of a range (a NULL bound is the type's least or greatest value).
 */
final class DictionaryValues {
    private DictionaryValues() {
    }

    /** A DEFAULT literal of an attribute of type {@code type}. */
    static Object literal(Expr e, DataType type) {
        QueryContext ctx = new QueryContext("default", "default", "", Settings.DEFAULTS);
        Evaluator ev = new ExprCompiler(ctx, List.of(), Map.of(), null).compile(e);
        Object v = ev.eval(new Object[0]);
        if (v == null) {
            if (!type.isNullable()) {
                throw new ChException(ErrorCode.CANNOT_CONVERT_TYPE, "Cannot convert NULL to a non-nullable type");
            }
            return null;
        }
        return ev.type().equals(type) ? v : type.convert(v, ev.type());
    }

    /** {@code v} (of type {@code from}) as a value of {@code to}, converted as CAST converts it. */
    static Object convert(Object v, DataType from, DataType to) {
        if (v == null) {
            return null;
        }
        return from.equals(to) ? v : to.convert(v, from);
    }

    /** The least value of a range bound's type, which an open lower bound is. */
    static Object least(DataType t) {
        DataType u = t.unwrap();
        if (u instanceof IntType i && i.signed) {
            return i.bits == 64 ? Long.MIN_VALUE : -(1L << (i.bits - 1));
        }
        if (u instanceof DateType d && d.is32) {
            return -25567L; // 1900-01-01
        }
        return 0L;
    }

    /** The greatest value of a range bound's type, which an open upper bound is. */
    static Object greatest(DataType t) {
        DataType u = t.unwrap();
        if (u instanceof IntType i) {
            return i.bits == 64 ? (i.signed ? Long.MAX_VALUE : -1L) : i.signed ? (1L << (i.bits - 1)) - 1 : (1L << i.bits) - 1;
        }
        if (u instanceof DateType d) {
            return d.is32 ? 120529L : 65535L; // 2299-12-31, 2149-06-06
        }
        if (u instanceof DateTimeType) {
            return 0xFFFFFFFFL;
        }
        throw new ChException(ErrorCode.BAD_ARGUMENTS, "Unsupported type " + t.name() + " for the range of a dictionary: an integer,"
            + " Date or DateTime");
    }
}
