package dev.chdedup.stub.sql;

import java.util.List;

/**
 * A window as written after OVER or in the WINDOW clause, as ClickHouse's ASTWindowDefinition holds it: the name of
 * the window it derives from ({@code OVER (w ORDER BY x)}; null for none), its PARTITION BY and ORDER BY, and its
 * frame (null for the default frame: RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW); {@code bare} for
 * {@code OVER w}, the name without parentheses (which is the named window itself, its frame included).
 */
public record WindowDefinition(String parent, List<Expr> partitionBy, List<Query.OrderItem> orderBy, Frame frame, boolean bare) {
    public WindowDefinition(String parent, List<Expr> partitionBy, List<Query.OrderItem> orderBy, Frame frame) {
        this(parent, partitionBy, orderBy, frame, false);
    }


    /** {@code ROWS|RANGE BETWEEN begin AND end}; {@code rows} false for RANGE. */
    public record Frame(boolean rows, Bound begin, Bound end) {
    }

    /** One end of a frame: UNBOUNDED PRECEDING or FOLLOWING, CURRENT ROW, or {@code offset} PRECEDING or FOLLOWING. */
    public record Bound(Kind kind, Expr offset, boolean preceding) {
        public enum Kind { UNBOUNDED, CURRENT, OFFSET }

        static final Bound CURRENT_ROW = new Bound(Kind.CURRENT, null, false);
    }

    /** {@code OVER name}: a window that is the named one as it is. */
    public static WindowDefinition named(String name) {
        return new WindowDefinition(name, List.of(), List.of(), null, true);
    }

    /** The definition's text as ClickHouse's column names write it, inside the parentheses of OVER. */
    public String text(ColumnNames names) {
        StringBuilder sb = new StringBuilder();
        if (parent != null) {
            sb.append(parent);
        }
        if (!partitionBy.isEmpty()) {
            sb.append(sb.isEmpty() ? "" : " ").append("PARTITION BY ");
            for (int i = 0; i < partitionBy.size(); i++) {
                sb.append(i > 0 ? ", " : "").append(names.name(partitionBy.get(i)));
            }
        }
        if (!orderBy.isEmpty()) {
            sb.append(sb.isEmpty() ? "" : " ").append("ORDER BY ");
            for (int i = 0; i < orderBy.size(); i++) {
                Query.OrderItem o = orderBy.get(i);
                sb.append(i > 0 ? ", " : "").append(names.name(o.expr())).append(o.desc() ? " DESC" : " ASC");
                if (o.nullsFirst() != null) {
                    sb.append(o.nullsFirst() ? " NULLS FIRST" : " NULLS LAST");
                }
            }
        }
        if (frame != null) {
            sb.append(sb.isEmpty() ? "" : " ").append(frameText(frame, names));
        }
        return sb.toString();
    }

    /** {@code ROWS BETWEEN 1 PRECEDING AND CURRENT ROW}: a frame as ClickHouse writes it. */
    public static String frameText(Frame f, ColumnNames names) {
        return (f.rows() ? "ROWS" : "RANGE") + " BETWEEN " + boundText(f.begin(), names) + " AND " + boundText(f.end(), names);
    }

    private static String boundText(Bound b, ColumnNames names) {
        switch (b.kind()) {
            case CURRENT: return "CURRENT ROW";
            case UNBOUNDED: return "UNBOUNDED " + (b.preceding() ? "PRECEDING" : "FOLLOWING");
            default: return names.name(b.offset()) + (b.preceding() ? " PRECEDING" : " FOLLOWING");
        }
    }
}
