package dev.chdedup.stub.dictionaries;

import dev.chdedup.stub.sql.ColumnNames;
import dev.chdedup.stub.sql.Statement;
import dev.chdedup.stub.types.DataTypes;
import java.util.List;
import java.util.Map;

/**
 * A CREATE DICTIONARY statement written as ClickHouse formats its ASTCreateQuery: on several lines for SHOW CREATE
 * (the attributes one a line, each clause on its own line), on one for system.tables, with the clauses in the engine's
 * order (PRIMARY KEY, SOURCE, LIFETIME, LAYOUT, RANGE, SETTINGS, COMMENT), names back-quoted where they need it, the
 * source's PASSWORD as {@code '[HIDDEN]'} when shown. The metadata file keeps the statement so written, unhidden.
 */
final class CreateDictionaryFormat {

    private CreateDictionaryFormat() {
    }

    /** {@code cd} as dictionary {@code db.name}: on several lines unless {@code oneLine}, its password hidden if {@code hide}. */
    static String format(Statement.CreateDictionary cd, String db, String name, boolean oneLine, boolean hide) {
        String nl = oneLine ? " " : "\n";
        StringBuilder sb = new StringBuilder("CREATE DICTIONARY ").append(quoteIfNeed(db)).append('.').append(quoteIfNeed(name));
        sb.append(oneLine ? " (" : "\n(\n");
        List<Statement.DictionaryAttributeDeclaration> attributes = cd.attributes();
        for (int i = 0; i < attributes.size(); i++) {
            Statement.DictionaryAttributeDeclaration a = attributes.get(i);
            sb.append(oneLine ? "" : "    ").append('`').append(a.name().replace("\\", "\\\\").replace("`", "\\`")).append("` ")
                .append(DataTypes.parse(a.type()).name());
            if (a.defaultValue() != null) {
                sb.append(" DEFAULT ").append(ColumnNames.of(a.defaultValue()));
            }
            if (a.expression() != null) {
                sb.append(" EXPRESSION ").append(a.expressionSql());
            }
            sb.append(a.hierarchical() ? " HIERARCHICAL" : "").append(a.bidirectional() ? " BIDIRECTIONAL" : "")
                .append(a.injective() ? " INJECTIVE" : "").append(a.isObjectId() ? " IS_OBJECT_ID" : "");
            sb.append(i + 1 < attributes.size() ? (oneLine ? ", " : ",\n") : (oneLine ? ")" : "\n)"));
        }
        if (!cd.primaryKey().isEmpty()) {
            sb.append(nl).append("PRIMARY KEY ");
            for (int i = 0; i < cd.primaryKey().size(); i++) {
                sb.append(i == 0 ? "" : ", ").append(quoteIfNeed(cd.primaryKey().get(i)));
            }
        }
        if (cd.source() != null) {
            sb.append(nl).append("SOURCE(");
            function(cd.source(), hide, sb);
            sb.append(')');
        }
        if (cd.lifetimeMax() != null) {
            sb.append(nl).append("LIFETIME(MIN ").append(cd.lifetimeMin() == null ? 0 : cd.lifetimeMin()).append(" MAX ")
                .append(cd.lifetimeMax()).append(')');
        }
        if (cd.layout() != null) {
            sb.append(nl).append("LAYOUT(");
            function(cd.layout(), false, sb);
            sb.append(')');
        }
        if (cd.rangeMin() != null && cd.rangeMax() != null) {
            sb.append(nl).append("RANGE(MIN ").append(quoteIfNeed(cd.rangeMin())).append(" MAX ").append(quoteIfNeed(cd.rangeMax())).append(')');
        }
        if (!cd.settings().isEmpty()) {
            sb.append(nl).append("SETTINGS(");
            int i = 0;
            for (Map.Entry<String, String> e : cd.settings().entrySet()) {
                sb.append(i++ == 0 ? "" : ", ").append(e.getKey()).append(" = ").append(e.getValue());
            }
            sb.append(')');
        }
        if (cd.comment() != null) {
            sb.append(nl).append("COMMENT ").append(quoteString(cd.comment()));
        }
        return sb.toString();
    }

    private static void function(Statement.KeyValueFunction f, boolean hide, StringBuilder sb) {
        sb.append(f.name());
        if (!f.hasBrackets()) {
            return;
        }
        sb.append('(');
        int i = 0;
        for (Map.Entry<String, String> e : f.arguments().entrySet()) {
            sb.append(i++ == 0 ? "" : " ").append(e.getKey()).append(' ')
                .append(hide && e.getKey().equals("PASSWORD") ? "'[HIDDEN]'" : e.getValue());
        }
        sb.append(')');
    }

    static String quoteIfNeed(String name) {
        return dev.chdedup.stub.sql.ExpressionFormatter.backQuoteIfNeed(name);
    }

    private static String quoteString(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }
}
