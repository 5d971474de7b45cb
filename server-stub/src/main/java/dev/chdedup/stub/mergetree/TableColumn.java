package dev.chdedup.stub.mergetree;

import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.types.DataType;

/** A table column's definition: name, type, and its DEFAULT or MATERIALIZED expression (with the SQL text). */
public record TableColumn(String name, DataType type, String defaultKind, Expr defaultExpr, String defaultSql) {
    public boolean isMaterialized() {
        return "MATERIALIZED".equals(defaultKind);
    }

    /** An EPHEMERAL column: an INSERT may give it, DEFAULT expressions may read it, it is never stored. */
    public boolean isEphemeral() {
        return "EPHEMERAL".equals(defaultKind);
    }

    public boolean hasDefault() {
        return defaultExpr != null;
    }
}
