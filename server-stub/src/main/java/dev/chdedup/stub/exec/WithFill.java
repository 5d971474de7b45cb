package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.sql.Query;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.Values;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * {@code ORDER BY k WITH FILL [FROM a] [TO b] [STEP s]}: after sorting, rows are added for the values of {@code k}
 * the result lacks, from {@code a} (else the first value) in steps of {@code s} (1, or an INTERVAL for dates; negative
 * for DESC) up to {@code b} exclusive (else the last value), with the other columns at their defaults; within the
 * runs of equal values of the ORDER BY keys before {@code k}. One WITH FILL key per query, on a numeric, Date or
 * DateTime column of the result. Mirrors ClickHouse's FillingTransform.
 */
final class WithFill {
    private WithFill() {
    }

    static boolean present(Query.Select s) {
        return s.orderBy().stream().anyMatch(o -> o.fill() != null);
    }

    /**
     * Fills sorted {@code rows} (the result columns, then one value per ORDER BY key at {@code width + k}) of result
     * {@code header}, whose columns the select list {@code exprs} with {@code names} computes.
     */
    static List<Object[]> apply(List<Object[]> rows, Query.Select s, List<Expr> exprs, List<String> names, List<Column> header,
                                int width, ExprCompiler comp) {
        int f = -1;
        for (int k = 0; k < s.orderBy().size(); k++) {
            if (s.orderBy().get(k).fill() != null) {
                if (f >= 0) {
                    throw new ChException(ErrorCode.NOT_IMPLEMENTED, "The stub fills one ORDER BY key WITH FILL per query");
                }
                f = k;
            }
        }
        Query.OrderItem item = s.orderBy().get(f);
        int column = resultColumn(item.expr(), exprs, names);
        DataType type = header.get(column).type().unwrap();
        if (!(type instanceof IntType || type instanceof FloatType || type instanceof DateType || type instanceof DateTimeType
            || type instanceof DateTime64Type)) {
            throw new ChException(ErrorCode.INVALID_WITH_FILL_EXPRESSION, "Invalid with fill expression: the column "
                + names.get(column) + " has type " + type.name() + ", not a number, Date or DateTime");
        }
        boolean desc = item.desc();
        double step = step(item.fill().step(), type, desc, comp);
        Double from = bound(item.fill().from(), type, comp);
        Double to = bound(item.fill().to(), type, comp);
        int[] prefix = new int[f];
        for (int j = 0; j < f; j++) {
            prefix[j] = width + j;
        }
        List<Object[]> out = new ArrayList<>(rows.size());
        int i = 0;
        while (i < rows.size() || i == 0 && rows.isEmpty() && from != null && to != null) {
            int end = i;
            while (end < rows.size() && samePrefix(rows.get(i), rows.get(end), prefix)) {
                end++;
            }
            List<Object[]> group = rows.subList(i, end);
            Object[] template = group.isEmpty() ? null : group.get(0);
            Double cur = from != null ? from : group.isEmpty() ? null : number(group.get(0)[width + f]);
            for (Object[] r : group) {
                Double k = number(r[width + f]);
                while (cur != null && k != null && (desc ? cur > k : cur < k) && (to == null || (desc ? cur > to : cur < to))) {
                    out.add(filled(cur, template, header, width, f, column, prefix, type, s.orderBy().size()));
                    cur += step;
                }
                out.add(r);
                if (k != null && (cur == null || (desc ? k <= cur : k >= cur))) {
                    cur = k + step;
                }
            }
            while (to != null && cur != null && (desc ? cur > to : cur < to)) {
                out.add(filled(cur, template, header, width, f, column, prefix, type, s.orderBy().size()));
                cur += step;
            }
            if (end == i) {
                break;
            }
            i = end;
        }
        return out;
    }

    private static int resultColumn(Expr e, List<Expr> exprs, List<String> names) {
        for (int i = 0; i < exprs.size(); i++) {
            if (exprs.get(i).equals(e) || e instanceof Expr.Ident && ((Expr.Ident) e).joined().equals(names.get(i))) {
                return i;
            }
        }
        throw new ChException(ErrorCode.NOT_IMPLEMENTED, "The stub fills WITH FILL only a column of the result");
    }

    private static boolean samePrefix(Object[] a, Object[] b, int[] prefix) {
        for (int p : prefix) {
            if (!Objects.equals(a[p], b[p])) {
                return false;
            }
        }
        return true;
    }

    private static Double number(Object v) {
        return v == null ? null : ((Number) v).doubleValue();
    }

    private static Object[] filled(double value, Object[] template, List<Column> header, int width, int f, int column,
                                   int[] prefix, DataType type, int keys) {
        Object[] r = new Object[width + keys];
        for (int i = 0; i < width; i++) {
            r[i] = header.get(i).type().defaultValue();
        }
        if (template != null) {
            for (int p : prefix) {
                r[p] = template[p];
            }
        }
        Object v = type instanceof FloatType ? (((FloatType) type).is64 ? (Object) value : (Object) (float) value) : (Object) (long) value;
        r[column] = v;
        r[width + f] = v;
        return r;
    }

    private static double step(Expr e, DataType type, boolean desc, ExprCompiler comp) {
        double step;
        if (e == null) {
            step = desc ? -1 : 1;
            return step * unitScale(type, "second", "day");
        }
        if (e instanceof Expr.Interval) {
            Expr.Interval iv = (Expr.Interval) e;
            double n = Values.toNumber(comp.compile(iv.amount()).eval(new Object[0]), comp.compile(iv.amount()).type()).doubleValue();
            step = n * unitScale(type, iv.unit(), iv.unit());
        } else {
            Evaluator ev = comp.compile(e);
            Object v = ev.eval(new Object[0]);
            // an Interval value (toIntervalDay(1)) steps by its unit as INTERVAL 1 DAY does
            step = ev.type().unwrap() instanceof dev.chdedup.stub.types.DataTypeInterval
                ? ((Number) v).doubleValue() * unitScale(type, ((dev.chdedup.stub.types.DataTypeInterval) ev.type().unwrap()).unit,
                    ((dev.chdedup.stub.types.DataTypeInterval) ev.type().unwrap()).unit)
                : Values.toNumber(v, ev.type()).doubleValue();
        }
        if (step == 0 || desc && step > 0 || !desc && step < 0) {
            throw new ChException(ErrorCode.INVALID_WITH_FILL_EXPRESSION, "WITH FILL STEP value cannot be "
                + (step == 0 ? "zero" : desc ? "positive for sorting in descending direction" : "negative for sorting in ascending direction"));
        }
        return step;
    }

    /** How many units of a Date (days), DateTime (seconds) or DateTime64 (ticks) one {@code unit} is. */
    private static double unitScale(DataType type, String unitForTime, String unitForDate) {
        if (type instanceof DateType) {
            switch (unitForDate) {
                case "day": return 1;
                case "week": return 7;
                default: throw new ChException(ErrorCode.NOT_IMPLEMENTED, "WITH FILL STEP INTERVAL " + unitForDate + " is not supported by the stub for Date");
            }
        }
        if (type instanceof DateTimeType || type instanceof DateTime64Type) {
            double ticks = type instanceof DateTime64Type ? Math.pow(10, ((DateTime64Type) type).precision) : 1;
            switch (unitForTime) {
                case "second": return ticks;
                case "minute": return 60 * ticks;
                case "hour": return 3600 * ticks;
                case "day": return 86400 * ticks;
                case "week": return 604800 * ticks;
                default: throw new ChException(ErrorCode.NOT_IMPLEMENTED, "WITH FILL STEP INTERVAL " + unitForTime + " is not supported by the stub for DateTime");
            }
        }
        return 1;
    }

    private static Double bound(Expr e, DataType type, ExprCompiler comp) {
        if (e == null) {
            return null;
        }
        Evaluator ev = comp.compile(e);
        Object v = ev.eval(new Object[0]);
        if (v == null) {
            return null;
        }
        Object converted = ev.type().unwrap().equals(type) ? v : type.convert(v, ev.type());
        return ((Number) converted).doubleValue();
    }
}
