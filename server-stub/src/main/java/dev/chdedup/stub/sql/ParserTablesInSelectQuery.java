package dev.chdedup.stub.sql;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.sql.Query.From;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Parses a SELECT's FROM, as ClickHouse's ParserTablesInSelectQuery does (src/Parsers/ParserTablesInSelectQuery.cpp):
 * tables ({@code [db.]t [AS alias] [FINAL]}, a common table expression's name, a table function, a subquery) joined
 * by commas, CROSS, INNER, LEFT, RIGHT and FULL JOINs with ON or USING, and [LEFT] ARRAY JOINs.
 */
final class ParserTablesInSelectQuery {
    private final TokenIterator pos;
    private final ParserExpression exp;
    /** The SELECT parser whose FROM this is: it parses subqueries and knows the common table expressions in scope. */
    private final ParserSelectQuery select;

    ParserTablesInSelectQuery(ParserExpression exp, ParserSelectQuery select) {
        this.pos = exp.pos;
        this.exp = exp;
        this.select = select;
    }

    From from() {
        From f = fromItem();
        while (true) {
            String kind;
            if (pos.tok.is("ALL") && (pos.peekIs("INNER") || pos.peekIs("LEFT") || pos.peekIs("RIGHT") || pos.peekIs("FULL")
                || pos.peekIs("JOIN"))) {
                pos.advance(); // ALL before the kind: the default strictness
            }
            if (pos.readIf("CROSS")) {
                pos.expect("JOIN");
                kind = "CROSS";
            } else if (pos.tok.isOp(",")) {
                pos.advance();
                kind = pos.keepSyntax ? "COMMA" : "CROSS";
            } else if (pos.tok.is("ARRAY") || pos.tok.is("LEFT") && pos.peekIs("ARRAY")) {
                boolean leftArray = pos.readIf("LEFT");
                pos.expect("ARRAY");
                pos.expect("JOIN");
                List<Expr> arrays = new ArrayList<>();
                List<String> names = new ArrayList<>();
                do {
                    arrays.add(exp.expr());
                    names.add(pos.readIf("AS") ? pos.identifier() : null);
                } while (pos.readOp(","));
                f = new Query.ArrayJoin(f, arrays, names, leftArray);
                continue;
            } else if (pos.readIf("LEFT")) {
                pos.readIf("OUTER");
                pos.readIf("ANY");
                pos.readIf("ALL");
                pos.expect("JOIN");
                kind = "LEFT";
            } else if (pos.readIf("INNER")) {
                pos.readIf("ANY");
                pos.readIf("ALL");
                pos.expect("JOIN");
                kind = "INNER";
            } else if (pos.readIf("JOIN")) {
                kind = "INNER";
            } else if (pos.readIf("RIGHT")) {
                pos.readIf("OUTER");
                pos.readIf("ANY");
                pos.readIf("ALL");
                pos.expect("JOIN");
                kind = "RIGHT";
            } else if (pos.readIf("FULL")) {
                pos.readIf("OUTER");
                pos.readIf("ALL");
                pos.expect("JOIN");
                kind = "FULL";
            } else if (pos.tok.is("GLOBAL") || pos.tok.is("ASOF") || pos.tok.is("SEMI") || pos.tok.is("ANTI") || pos.tok.is("PASTE")) {
                throw new ChException(ErrorCode.NOT_IMPLEMENTED, "Only INNER, LEFT, RIGHT, FULL and CROSS JOIN are supported by the stub");
            } else {
                return f;
            }
            From right = fromItem();
            Expr on = null;
            List<String> using = null;
            if (!kind.equals("CROSS") && !kind.equals("COMMA")) {
                if (pos.readIf("ON")) {
                    on = exp.expr();
                } else if (pos.readIf("USING")) {
                    using = new ArrayList<>();
                    boolean paren = pos.readOp("(");
                    do {
                        using.add(pos.identifier());
                    } while (pos.readOp(","));
                    if (paren) {
                        pos.expectOp(")");
                    }
                } else {
                    throw pos.error("ON or USING");
                }
            }
            f = new Query.Join(f, right, kind, on, using);
        }
    }

    private From fromItem() {
        From f;
        if (pos.readOp("(")) {
            Query q = select.query();
            pos.expectOp(")");
            f = new Query.SubqueryRef(q, alias());
        } else {
            boolean fromParameter = pos.tok.isOp("{");
            String a = pos.identifier();
            if (fromParameter && !pos.tok.isOp(".") && a.indexOf('.') > 0) {
                String alias = alias();
                return new Query.TableRef(a.substring(0, a.indexOf('.')), a.substring(a.indexOf('.') + 1), alias, pos.readIf("FINAL"));
            }
            if (pos.readOp("(")) {
                List<Expr> args = pos.tok.isOp(")") ? List.of() : exp.exprList();
                pos.expectOp(")");
                f = new Query.TableFunction(a.toLowerCase(Locale.ROOT), args, alias());
            } else {
                String db = null;
                String t = a;
                if (pos.readOp(".")) {
                    db = a;
                    t = pos.identifier();
                }
                String alias = alias();
                boolean fin = pos.readIf("FINAL");
                From recursive = db == null ? select.recursiveCte(t, alias) : null;
                Query cte = db == null && recursive == null ? select.cte(t) : null;
                f = recursive != null ? recursive : cte != null ? new Query.SubqueryRef(cte, alias == null ? t : alias)
                    : new Query.TableRef(db, t, alias, fin);
            }
        }
        return f;
    }

    private String alias() {
        if (pos.readIf("AS")) {
            return pos.identifier();
        }
        if (pos.isIdent() && !ParserExpression.isClauseKeyword(pos.tok)) {
            return pos.identifier();
        }
        return null;
    }
}
