package dev.chdedup.stub.sql;

/**
 * The {@code ON CLUSTER} clause that makes a CREATE or DROP distributed DDL, which ClickHouse parses with
 * ASTQueryWithOnCluster::parse (src/Parsers/ASTQueryWithOnCluster.cpp): {@link #parse} reads it where it stands,
 * remembering its text span, and {@link #wrap} turns the finished statement into a {@link Statement.OnCluster}, which
 * also needs where an unqualified table name starts (to qualify it with the database for the other hosts).
 */
final class QueryWithOnCluster {
    private final TokenIterator pos;
    /** The ON CLUSTER clause of a CREATE/DROP (null: none), its text span, and where an unqualified table name starts (-1). */
    private String onClusterName;
    private int onClusterStart = -1;
    private int onClusterEnd = -1;
    int unqualifiedNameAt = -1;

    QueryWithOnCluster(TokenIterator pos) {
        this.pos = pos;
    }

    /** {@code ON CLUSTER name} (an identifier or a string, which may hold macros) after a CREATE/DROP name: remembered for {@link #wrap}. */
    void parse() {
        if (!pos.tok.is("ON")) {
            return;
        }
        int st = pos.tok.pos();
        pos.advance();
        pos.expect("CLUSTER");
        onClusterName = pos.tok.kind() == Token.Kind.STRING ? pos.stringLiteral() : pos.identifier();
        onClusterStart = st;
        onClusterEnd = pos.prev.end();
    }

    /**
     * A table's {@code [db.]name} and the {@code ON CLUSTER} clause after it, remembering where an unqualified name
     * starts (for {@link #wrap}).
     */
    String[] tableName() {
        int nameAt = pos.tok.pos();
        String[] n = pos.qualifiedName();
        if (n[0] == null) {
            unqualifiedNameAt = nameAt;
        }
        parse();
        return n;
    }

    /** Wraps a CREATE/DROP that named {@code ON CLUSTER} into a {@link Statement.OnCluster} (distributed DDL). */
    Statement wrap(Statement st) {
        if (onClusterName == null) {
            return st;
        }
        return new Statement.OnCluster(onClusterName, st, pos.sql, onClusterStart, onClusterEnd, unqualifiedNameAt);
    }
}
