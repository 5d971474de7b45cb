package dev.chdedup.stub.exec.window;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.exec.ExprCompiler;
import dev.chdedup.stub.exec.TypeRules;
import dev.chdedup.stub.sql.ColumnNames;
import dev.chdedup.stub.sql.WindowDefinition;
import dev.chdedup.stub.sql.WindowDefinition.Bound;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.Values;
import java.math.BigDecimal;
import java.util.List;

/**
 * A window's frame, as ClickHouse's WindowFrame: ROWS or RANGE, from its begin to its end (UNBOUNDED, CURRENT ROW or
 * an offset PRECEDING or FOLLOWING); the default (none written) RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW.
 * Checked as the engine checks it, and found for each row of a partition as WindowTransform moves it: a RANGE
 * offset's bounds are the ORDER BY key's value minus or plus the offset, and the frame's start (end) moves forward
 * from the row before's while the key compares before the bound (not after it), a NULL key before every value.
 */
final class WindowFrame {
    final boolean rows;
    final Bound begin;
    final Bound end;
    /** Whether the query wrote no frame. */
    final boolean isDefault;
    private long beginRows;
    private long endRows;
    private BigDecimal beginRange;
    private BigDecimal endRange;
    private Evaluator rangeKey;
    private int direction = 1;

    WindowFrame(WindowDefinition.Frame f) {
        this.isDefault = f == null;
        this.rows = f != null && f.rows();
        this.begin = f == null ? new Bound(Bound.Kind.UNBOUNDED, null, true) : f.begin();
        this.end = f == null ? new Bound(Bound.Kind.CURRENT, null, false) : f.end();
    }

    boolean unboundedBoth() {
        return begin.kind() == Bound.Kind.UNBOUNDED && end.kind() == Bound.Kind.UNBOUNDED;
    }

    /**
     * Checks the frame as the engine does when it resolves the window (before the query's aggregates are checked):
     * UNBOUNDED FOLLOWING cannot begin it nor UNBOUNDED PRECEDING end it, its offsets are constant nonnegative integers
     * and its start does not come after its end. Returns the offsets (null for a bound without one).
     */
    Object[] validate(ExprCompiler comp) {
        String text = WindowDefinition.frameText(new WindowDefinition.Frame(rows, begin, end), new ColumnNames(i -> null));
        if (begin.kind() == Bound.Kind.UNBOUNDED && !begin.preceding()) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Frame start cannot be UNBOUNDED FOLLOWING");
        }
        if (end.kind() == Bound.Kind.UNBOUNDED && end.preceding()) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Frame end cannot be UNBOUNDED PRECEDING");
        }
        Object beginOffset = begin.kind() == Bound.Kind.OFFSET ? offset(comp, begin, "start", "begin") : null;
        Object endOffset = end.kind() == Bound.Kind.OFFSET ? offset(comp, end, "end", "end") : null;
        if (begin.kind() == Bound.Kind.OFFSET && end.kind() == Bound.Kind.OFFSET) {
            BigDecimal b = new BigDecimal(beginOffset.toString());
            BigDecimal e = new BigDecimal(endOffset.toString());
            if (!begin.preceding() && end.preceding() || (begin.preceding() ? b.negate() : b).compareTo(end.preceding() ? e.negate() : e) > 0) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Frame start offset " + beginOffset + (begin.preceding() ? " PRECEDING" : " FOLLOWING")
                    + " does not precede the frame end offset " + endOffset + (end.preceding() ? " PRECEDING" : " FOLLOWING"));
            }
        } else if (begin.kind() == Bound.Kind.OFFSET && !begin.preceding() && end.kind() == Bound.Kind.CURRENT
            || begin.kind() == Bound.Kind.CURRENT && end.kind() == Bound.Kind.OFFSET && end.preceding()) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Window frame '" + text + "' is invalid");
        }
        return new Object[] {beginOffset, endOffset};
    }

    /** Checks the frame and reads its offsets; {@code order} the window's ORDER BY keys, {@code desc} the first's direction. */
    void prepare(ExprCompiler comp, List<Evaluator> order, boolean desc) {
        Object[] offsets = validate(comp);
        Object beginOffset = offsets[0];
        Object endOffset = offsets[1];
        if (rows) {
            beginRows = beginOffset == null ? 0 : ((Number) beginOffset).longValue();
            endRows = endOffset == null ? 0 : ((Number) endOffset).longValue();
            return;
        }
        if (beginOffset == null && endOffset == null) {
            return;
        }
        if (order.size() != 1) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "The RANGE OFFSET window frame requires exactly one ORDER BY column, "
                + order.size() + " given");
        }
        rangeKey = order.get(0);
        direction = desc ? -1 : 1;
        DataType t = TypeRules.stripNullable(rangeKey.type()).unwrap();
        if (!(t instanceof IntType || t instanceof FloatType || t instanceof DateType || t instanceof DateTimeType)) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "The RANGE OFFSET frame for '" + t.name() + "' ORDER BY column is not implemented");
        }
        beginRange = beginOffset == null ? null : rangeOffset(beginOffset, t);
        endRange = endOffset == null ? null : rangeOffset(endOffset, t);
    }

    /** The offset of a bound: a constant nonnegative integer below 2^32 (a float for a RANGE over floats). */
    private Object offset(ExprCompiler comp, Bound b, String name, String clause) {
        Evaluator ev = comp.compile(b.offset());
        DataType t = TypeRules.stripNullable(ev.type()).unwrap();
        if (!ev.constant() || !(t instanceof IntType || t instanceof FloatType)) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Window frame " + clause + " OFFSET expression must be constant with numeric type. Actual: '"
                + ColumnNames.of(b.offset()) + "'");
        }
        Object v = ev.eval(new Object[0]);
        Number n = v == null ? null : Values.toNumber(v, ev.type());
        boolean integral = n != null && !(n instanceof Double) && !(n instanceof Float);
        if (n == null || !integral || new BigDecimal(n.toString()).signum() < 0 || new BigDecimal(n.toString()).compareTo(BigDecimal.valueOf(4294967295L)) > 0) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Frame " + name + " offset for '" + (rows ? "ROWS" : "RANGE")
                + "' frame must be a nonnegative 32-bit integer, '" + ColumnNames.of(b.offset()) + "' of type '" + ev.type().name() + "' given");
        }
        return n;
    }

    /** A RANGE offset as a value of the ORDER BY key's type (ARGUMENT_OUT_OF_BOUND when the type cannot hold it). */
    private static BigDecimal rangeOffset(Object offset, DataType t) {
        BigDecimal o = new BigDecimal(offset.toString());
        BigDecimal max;
        if (t instanceof IntType i) {
            max = i.bits == 64 ? new BigDecimal(i.signed ? Long.MAX_VALUE + "" : "18446744073709551615")
                : BigDecimal.valueOf((1L << (i.bits - (i.signed ? 1 : 0))) - 1);
        } else if (t instanceof DateType d) {
            max = BigDecimal.valueOf(d.is32 ? Integer.MAX_VALUE : 65535);
        } else if (t instanceof DateTimeType) {
            max = BigDecimal.valueOf(4294967295L);
        } else {
            return o;
        }
        if (o.compareTo(max) > 0) {
            throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "Cannot convert value '" + offset + "': it cannot be represented as " + t.name());
        }
        return o;
    }

    /**
     * The frame of each row of the partition {@code [ps, pe)} of {@code sorted}: {@code frameStart[r]} its first row,
     * {@code frameEnd[r]} the row after its last (not after start: an empty frame); {@code peerStart} and {@code peerEnd}
     * each row's peer group (the rows of its ORDER BY keys).
     */
    void frames(List<Object[]> sorted, int ps, int pe, int[] peerStart, int[] peerEnd, int[] frameStart, int[] frameEnd) {
        int s = ps;
        int e = ps;
        for (int r = ps; r < pe; r++) {
            switch (begin.kind()) {
                case UNBOUNDED: s = ps; break;
                case CURRENT: s = rows ? r : peerStart[r]; break;
                default:
                    if (rows) {
                        s = (int) Math.max(ps, Math.min(pe, begin.preceding() ? r - beginRows : r + beginRows));
                    } else {
                        BigDecimal bound = bound(sorted.get(r), beginRange, begin.preceding());
                        while (s < pe && compare(sorted.get(s), bound) * direction < 0) {
                            s++;
                        }
                    }
            }
            switch (end.kind()) {
                case UNBOUNDED: e = pe; break;
                case CURRENT: e = rows ? r + 1 : peerEnd[r]; break;
                default:
                    if (rows) {
                        e = (int) Math.max(ps, Math.min(pe, (end.preceding() ? r - endRows : r + endRows) + 1));
                    } else {
                        BigDecimal bound = bound(sorted.get(r), endRange, end.preceding());
                        while (e < pe && compare(sorted.get(e), bound) * direction <= 0) {
                            e++;
                        }
                    }
            }
            frameStart[r] = s;
            frameEnd[r] = Math.max(s, e);
        }
    }

    /** The key of {@code row} minus (preceding, ascending) or plus the offset; null for a NULL key. */
    private BigDecimal bound(Object[] row, BigDecimal offset, boolean preceding) {
        BigDecimal v = key(row);
        if (v == null) {
            return null;
        }
        return preceding == (direction > 0) ? v.subtract(offset) : v.add(offset);
    }

    /** The key of {@code row} against {@code bound}: a NULL before every value, two NULLs equal. */
    private int compare(Object[] row, BigDecimal bound) {
        BigDecimal v = key(row);
        if (v == null || bound == null) {
            return v == null && bound == null ? 0 : v == null ? -1 : 1;
        }
        return v.compareTo(bound);
    }

    private BigDecimal key(Object[] row) {
        Object v = rangeKey.eval(row);
        if (v == null) {
            return null;
        }
        Number n = Values.toNumber(v, rangeKey.type());
        if (n instanceof Double d) {
            return d.isNaN() ? null : d.isInfinite() ? BigDecimal.valueOf(d > 0 ? Double.MAX_VALUE : -Double.MAX_VALUE) : BigDecimal.valueOf(d);
        }
        if (n instanceof Float f) {
            return BigDecimal.valueOf(f.doubleValue());
        }
        return new BigDecimal(n.toString());
    }
}
