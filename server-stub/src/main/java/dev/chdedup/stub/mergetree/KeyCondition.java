package dev.chdedup.stub.mergetree;

import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.StringType;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * What a query's WHERE (PREWHERE joined in) says of the first primary key column, as ClickHouse's
 * {@code KeyCondition}: a union of ranges of its values, so that a granule whose first and last keys lie outside every
 * range holds no row the WHERE accepts and is not read. Understood are comparisons of the column with a constant
 * ({@code =}, {@code <}, {@code <=}, {@code >}, {@code >=}, also with the constant first; BETWEEN, which parses as two),
 * {@code IN} a list of constants, and AND and OR of those; anything else says nothing, so the granule stays. The column
 * is an integer (to 64 bits), a Date or DateTime with integer constants (days and seconds), or a String with constants
 * of ASCII characters. Values are compared exactly (an integer constant with any integer column); the WHERE still
 * filters every row read, so the ranges only need to hold each row the WHERE accepts.
 */
final class KeyCondition {
    private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

    /** One range; a null bound is none. */
    private record Range(Comparable<Object> lo, boolean loIncluded, Comparable<Object> hi, boolean hiIncluded) {
    }

    private final DataType type;
    private final List<Range> ranges;

    private KeyCondition(DataType type, List<Range> ranges) {
        this.type = type;
        this.ranges = ranges;
    }

    /** The condition {@code where} puts on {@code column} of type {@code type}, or null when it restricts nothing. */
    static KeyCondition of(Expr where, String column, DataType type) {
        if (where == null || !supported(type)) {
            return null;
        }
        List<Range> r = new KeyCondition(type, List.of()).analyze(where, column);
        return r == null ? null : new KeyCondition(type, r);
    }

    private static boolean supported(DataType t) {
        return t instanceof IntType || t instanceof DateType || t instanceof DateTimeType
            || t instanceof StringType && t.name().equals("String");
    }

    /** Whether a granule whose key values lie from {@code low} to {@code high} (both included) may hold a row the WHERE accepts. */
    boolean mayBeTrueInRange(Object low, Object high) {
        Comparable<Object> lo = value(low);
        Comparable<Object> hi = value(high);
        for (Range r : ranges) {
            boolean aboveLow = r.lo == null || (r.loIncluded ? hi.compareTo(r.lo) >= 0 : hi.compareTo(r.lo) > 0);
            boolean belowHigh = r.hi == null || (r.hiIncluded ? lo.compareTo(r.hi) <= 0 : lo.compareTo(r.hi) < 0);
            if (aboveLow && belowHigh) {
                return true;
            }
        }
        return false;
    }

    /**
     * The granules of {@code index} that may hold rows the WHERE accepts, as [from, to) pairs of granule numbers, adjacent
     * ones joined (ClickHouse's mark ranges).
     */
    int[] granuleRanges(PrimaryIndex index) {
        List<Integer> out = new ArrayList<>();
        int from = -1;
        for (int g = 0; g < index.granules(); g++) {
            boolean may = mayBeTrueInRange(index.low(g), index.high(g));
            if (may && from < 0) {
                from = g;
            } else if (!may && from >= 0) {
                out.add(from);
                out.add(g);
                from = -1;
            }
        }
        if (from >= 0) {
            out.add(from);
            out.add(index.granules());
        }
        int[] a = new int[out.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = out.get(i);
        }
        return a;
    }

    /** The ranges {@code e} allows, or null when it says nothing of the column. */
    private List<Range> analyze(Expr e, String column) {
        if (!(e instanceof Expr.Call)) {
            return null;
        }
        Expr.Call c = (Expr.Call) e;
        List<Expr> a = c.args();
        switch (c.name()) {
            case "and": {
                List<Range> all = null;
                for (Expr x : a) {
                    List<Range> r = analyze(x, column);
                    if (r != null) {
                        all = all == null ? r : intersect(all, r);
                    }
                }
                return all;
            }
            case "or": {
                List<Range> any = new ArrayList<>();
                for (Expr x : a) {
                    List<Range> r = analyze(x, column);
                    if (r == null) {
                        return null;
                    }
                    any.addAll(r);
                }
                return a.isEmpty() ? null : any;
            }
            case "in": {
                if (a.size() != 2 || !isColumn(a.get(0), column)) {
                    return null;
                }
                List<Expr> items = a.get(1) instanceof Expr.Call && ((Expr.Call) a.get(1)).name().equals("tuple")
                    ? ((Expr.Call) a.get(1)).args() : List.of(a.get(1));
                List<Range> points = new ArrayList<>();
                for (Expr item : items) {
                    Comparable<Object> v = constant(item);
                    if (v == null) {
                        return null;
                    }
                    points.add(new Range(v, true, v, true));
                }
                return points;
            }
            case "equals", "less", "lessOrEquals", "greater", "greaterOrEquals": {
                if (a.size() != 2) {
                    return null;
                }
                String op = c.name();
                Expr constant;
                if (isColumn(a.get(0), column)) {
                    constant = a.get(1);
                } else if (isColumn(a.get(1), column)) {
                    constant = a.get(0);
                    op = switch (op) {
                        case "less" -> "greater";
                        case "lessOrEquals" -> "greaterOrEquals";
                        case "greater" -> "less";
                        case "greaterOrEquals" -> "lessOrEquals";
                        default -> op;
                    };
                } else {
                    return null;
                }
                Comparable<Object> v = constant(constant);
                if (v == null) {
                    return null;
                }
                return List.of(switch (op) {
                    case "equals" -> new Range(v, true, v, true);
                    case "less" -> new Range(null, false, v, false);
                    case "lessOrEquals" -> new Range(null, false, v, true);
                    case "greater" -> new Range(v, false, null, false);
                    default -> new Range(v, true, null, false);
                });
            }
            default:
                return null;
        }
    }

    private static boolean isColumn(Expr e, String column) {
        return e instanceof Expr.Ident && ((Expr.Ident) e).parts().size() == 1 && ((Expr.Ident) e).parts().get(0).equals(column);
    }

    /** A constant's value in the column's domain, or null when it is not one this class compares exactly. */
    @SuppressWarnings("unchecked")
    private Comparable<Object> constant(Expr e) {
        boolean negative = false;
        if (e instanceof Expr.Call && ((Expr.Call) e).name().equals("negate") && ((Expr.Call) e).args().size() == 1) {
            negative = true;
            e = ((Expr.Call) e).args().get(0);
        }
        if (!(e instanceof Expr.Literal)) {
            return null;
        }
        Object v = ((Expr.Literal) e).value();
        if (type instanceof StringType) {
            if (negative || !(v instanceof String) || !((String) v).chars().allMatch(ch -> ch < 0x80)) {
                return null;
            }
            return (Comparable<Object>) (Comparable<?>) v;
        }
        BigInteger n = v instanceof Long ? BigInteger.valueOf((Long) v) : v instanceof BigInteger ? (BigInteger) v : null;
        if (n == null) {
            return null;
        }
        return (Comparable<Object>) (Comparable<?>) (negative ? n.negate() : n);
    }

    /** A key value read from the index in the domain of the constants. */
    @SuppressWarnings("unchecked")
    private Comparable<Object> value(Object v) {
        if (type instanceof StringType) {
            return (Comparable<Object>) v;
        }
        long x = (Long) v;
        BigInteger n = BigInteger.valueOf(x);
        if (x < 0 && type instanceof IntType && !((IntType) type).signed) {
            n = n.add(TWO_64);
        }
        return (Comparable<Object>) (Comparable<?>) n;
    }

    private static List<Range> intersect(List<Range> a, List<Range> b) {
        List<Range> out = new ArrayList<>();
        for (Range x : a) {
            for (Range y : b) {
                Range r = intersect(x, y);
                if (r != null) {
                    out.add(r);
                }
            }
        }
        return out;
    }

    /** The intersection of two ranges, or null when it is empty. */
    private static Range intersect(Range x, Range y) {
        Comparable<Object> lo;
        boolean loIn;
        if (x.lo == null || y.lo != null && y.lo.compareTo(x.lo) > 0) {
            lo = y.lo;
            loIn = y.loIncluded;
        } else if (y.lo == null || x.lo.compareTo(y.lo) > 0) {
            lo = x.lo;
            loIn = x.loIncluded;
        } else {
            lo = x.lo;
            loIn = x.loIncluded && y.loIncluded;
        }
        Comparable<Object> hi;
        boolean hiIn;
        if (x.hi == null || y.hi != null && y.hi.compareTo(x.hi) < 0) {
            hi = y.hi;
            hiIn = y.hiIncluded;
        } else if (y.hi == null || x.hi.compareTo(y.hi) < 0) {
            hi = x.hi;
            hiIn = x.hiIncluded;
        } else {
            hi = x.hi;
            hiIn = x.hiIncluded && y.hiIncluded;
        }
        if (lo != null && hi != null) {
            int c = lo.compareTo(hi);
            if (c > 0 || c == 0 && !(loIn && hiIn)) {
                return null;
            }
        }
        return new Range(lo, loIn, hi, hiIn);
    }
}
