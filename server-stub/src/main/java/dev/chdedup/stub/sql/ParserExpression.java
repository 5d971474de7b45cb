package dev.chdedup.stub.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Parses expressions, as ClickHouse's ParserExpression does with the parsers of ExpressionListParsers.cpp (the
 * operators) and ExpressionElementParsers.cpp (the elements): one method per precedence level, from lambda down to
 * postfix, then the primary elements: number and string literals, arrays, tuples, identifiers, function calls (with
 * parametric aggregates), CASE, CAST, INTERVAL, DATE and TIMESTAMP literals, {@code {name:Type}} parameters and
 * subqueries. The subqueries are parsed by {@link #select}, so that they see the common table expressions in scope.
 */
final class ParserExpression {
    final TokenIterator pos;
    /** The statement's one SELECT parser, for subqueries (it holds the common table expressions in scope). */
    final ParserSelectQuery select;
    /** OVER clauses and the WINDOW clause. */
    final ParserWindow windows;

    ParserExpression(TokenIterator pos) {
        this.pos = pos;
        this.windows = new ParserWindow(this);
        this.select = new ParserSelectQuery(this);
    }

    /**
     * The aliases defined inside expressions ({@code f(x AS a)}, {@code [1, 2] AS arr} as an argument or element), in
     * the order met: the SELECT being parsed takes those of its own clauses as aliases of its scope, as ClickHouse lets
     * an alias be defined anywhere in an expression.
     */
    final List<Query.SelectItem> innerAliases = new ArrayList<>();

    List<Expr> exprList() {
        List<Expr> l = new ArrayList<>();
        do {
            l.add(expr());
        } while (pos.readOp(","));
        return l;
    }

    /** A list of arguments or elements, each of which may carry an alias ({@code expr AS name}). */
    private List<Expr> aliasedExprList() {
        List<Expr> l = new ArrayList<>();
        do {
            l.add(aliased(expr()));
        } while (pos.readOp(","));
        return l;
    }

    /** {@code e}, recording {@code AS name} after it as an alias defined inside an expression. */
    private Expr aliased(Expr e) {
        if (pos.tok.is("AS") && pos.peekKind() != null && (pos.peekKind() == Token.Kind.IDENT || pos.peekKind() == Token.Kind.QUOTED_IDENT)) {
            pos.advance();
            int st = pos.tok.pos();
            String alias = pos.identifier();
            innerAliases.add(new Query.SelectItem(e, alias, pos.sql.substring(st, pos.prev.end())));
        }
        return e;
    }

    Expr expr() {
        return lambda();
    }

    private Expr lambda() {
        if (pos.isIdent()) {
            Token save = pos.tok;
            Token savePrev = pos.prev;
            String name = pos.tok.text();
            pos.advance();
            if (pos.readOp("->")) {
                return new Expr.Lambda(List.of(name), lambda());
            }
            pos.tok = save;
            pos.prev = savePrev;
        }
        return ternary();
    }

    private Expr ternary() {
        Expr c = or();
        if (pos.readOp("?")) {
            Expr a = ternary();
            pos.expectOp(":");
            Expr b = ternary();
            return new Expr.Call("if", c, a, b);
        }
        return c;
    }

    private Expr or() {
        Expr l = and();
        while (pos.readIf("OR")) {
            l = new Expr.Call("or", l, and());
        }
        return l;
    }

    private Expr and() {
        Expr l = not();
        while (pos.readIf("AND")) {
            l = new Expr.Call("and", l, not());
        }
        return l;
    }

    private Expr not() {
        if (pos.tok.is("NOT")) {
            Token save = pos.tok;
            Token savePrev = pos.prev;
            pos.advance();
            // NOT binds looser than comparisons and LIKE: NOT a LIKE b is NOT (a LIKE b)
            if (startsOperand(pos.tok)) {
                return new Expr.Call("not", not());
            }
            pos.tok = save;
            pos.prev = savePrev;
        }
        return comparison();
    }

    /** Whether {@code t} can begin an operand (so a NOT before it is the operator, not a name). */
    private static boolean startsOperand(Token t) {
        if (t.kind() == Token.Kind.EOF) {
            return false;
        }
        if (t.kind() == Token.Kind.OP) {
            return t.isOp("(") || t.isOp("[") || t.isOp("-") || t.isOp("{");
        }
        return !isClauseKeyword(t) || t.is("NOT");
    }

    private static final String[] CLAUSE_KEYWORDS = {"FROM", "WHERE", "PREWHERE", "GROUP", "HAVING", "ORDER", "LIMIT",
        "OFFSET", "SETTINGS", "FORMAT", "UNION", "INTO", "FINAL", "SAMPLE", "ARRAY", "JOIN", "LEFT", "RIGHT", "INNER",
        "OUTER", "CROSS", "FULL", "ANY", "ALL", "GLOBAL", "USING", "ON", "WINDOW", "QUALIFY", "FETCH", "AS", "ASC", "DESC",
        "INTERSECT", "EXCEPT", "WITH", "BY", "NULLS", "COLLATE", "TO", "POPULATE", "AND", "OR", "NOT", "LIKE", "ILIKE",
        "IN", "BETWEEN", "IS", "SELECT", "ASOF", "SEMI", "ANTI", "PASTE"};

    static boolean isClauseKeyword(Token t) {
        if (t.kind() != Token.Kind.IDENT) {
            return false;
        }
        for (String k : CLAUSE_KEYWORDS) {
            if (t.text().equalsIgnoreCase(k)) {
                return true;
            }
        }
        return false;
    }

    private Expr comparison() {
        Expr l = concat();
        while (true) {
            String op = null;
            if (pos.tok.kind() == Token.Kind.OP) {
                switch (pos.tok.text()) {
                    case "=": case "==": op = "equals"; break;
                    case "!=": case "<>": op = "notEquals"; break;
                    case "<": op = "less"; break;
                    case ">": op = "greater"; break;
                    case "<=": op = "lessOrEquals"; break;
                    case ">=": op = "greaterOrEquals"; break;
                    default: break;
                }
            }
            if (op != null) {
                pos.advance();
                l = new Expr.Call(op, l, concat());
                continue;
            }
            boolean negate = false;
            Token save = pos.tok;
            Token savePrev = pos.prev;
            boolean global = pos.readIf("GLOBAL"); // GLOBAL [NOT] IN
            if (pos.readIf("NOT")) {
                negate = true;
            }
            global |= !global && pos.readIf("GLOBAL");
            if (pos.readIf("LIKE")) {
                l = likeCall(negate ? "notLike" : "like", l);
            } else if (pos.readIf("ILIKE")) {
                l = likeCall(negate ? "notILike" : "ilike", l);
            } else if (pos.readIf("IN")) {
                l = new Expr.Call(global ? (negate ? "globalNotIn" : "globalIn") : negate ? "notIn" : "in", l, inRight());
            } else if (pos.readIf("BETWEEN")) {
                Expr lo = concat();
                pos.expect("AND");
                Expr hi = concat();
                Expr b = new Expr.Call("and", new Expr.Call("greaterOrEquals", l, lo), new Expr.Call("lessOrEquals", l, hi));
                l = negate ? new Expr.Call("not", b) : b;
            } else if (!negate && pos.readIf("IS")) {
                boolean n = pos.readIf("NOT");
                pos.expect("NULL");
                l = new Expr.Call(n ? "isNotNull" : "isNull", l);
            } else {
                pos.tok = save;
                pos.prev = savePrev;
                return l;
            }
        }
    }

    private Expr inRight() {
        if (pos.tok.isOp("(")) {
            Token save = pos.tok;
            Token savePrev = pos.prev;
            pos.advance();
            if (pos.tok.is("SELECT") || pos.tok.is("WITH")) {
                Query q = select.query();
                pos.expectOp(")");
                return new Expr.Subquery(q);
            }
            pos.tok = save;
            pos.prev = savePrev;
        }
        return concat();
    }

    private Expr concat() {
        Expr l = additive();
        while (pos.readOp("||")) {
            l = new Expr.Call("concat", l, additive());
        }
        return l;
    }

    private Expr additive() {
        Expr l = multiplicative();
        while (true) {
            if (pos.readOp("+")) {
                l = new Expr.Call("plus", l, multiplicative());
            } else if (pos.readOp("-")) {
                l = new Expr.Call("minus", l, multiplicative());
            } else {
                return l;
            }
        }
    }

    private Expr multiplicative() {
        Expr l = unary();
        while (true) {
            if (pos.readOp("*")) {
                l = new Expr.Call("multiply", l, unary());
            } else if (pos.readOp("/")) {
                l = new Expr.Call("divide", l, unary());
            } else if (pos.readOp("%") || pos.readIf("MOD")) {
                l = new Expr.Call("modulo", l, unary());
            } else if (pos.readIf("DIV")) {
                l = new Expr.Call("intDiv", l, unary());
            } else {
                return l;
            }
        }
    }

    private Expr unary() {
        if (pos.readOp("-")) {
            Expr e = unary();
            if (e instanceof Expr.Literal && ((Expr.Literal) e).value() instanceof Number) {
                return new Expr.Literal(negate((Number) ((Expr.Literal) e).value()));
            }
            return new Expr.Call("negate", e);
        }
        if (pos.readOp("+")) {
            return unary();
        }
        return postfix();
    }

    private static Object negate(Number n) {
        if (n instanceof Long) {
            return -(Long) n;
        }
        if (n instanceof java.math.BigInteger) {
            // beyond Int64 a negative integer is a Float64, as ClickHouse reads it
            java.math.BigInteger b = ((java.math.BigInteger) n).negate();
            return b.bitLength() < 64 ? (Object) b.longValue() : (Object) b.doubleValue();
        }
        return -n.doubleValue();
    }

    private Expr postfix() {
        Expr e = primary();
        while (true) {
            if (pos.readOp("[")) {
                Expr idx = expr();
                pos.expectOp("]");
                e = new Expr.Call("arrayElement", e, idx);
            } else if (pos.readOp("::")) {
                e = new Expr.Cast(e, pos.typeText());
            } else if (pos.tok.isOp(".") && (!(e instanceof Expr.Ident) || pos.peekKind() == Token.Kind.NUMBER)) {
                pos.advance();
                if (pos.tok.kind() == Token.Kind.NUMBER) {
                    Expr idx = new Expr.Literal(Long.parseLong(pos.tok.text()));
                    pos.advance();
                    e = new Expr.Call("tupleElement", e, idx);
                } else {
                    e = new Expr.Call("tupleElement", e, new Expr.Literal(pos.identifier()));
                }
            } else {
                return e;
            }
        }
    }

    private Expr primary() {
        Token t = pos.tok;
        switch (t.kind()) {
            case NUMBER:
                pos.advance();
                return new Expr.Literal(number(t.text()));
            case STRING:
                pos.advance();
                return new Expr.Literal(Lexer.stringValue(pos.sql, t.pos(), t.end()));
            case OP:
                if (pos.readOp("(")) {
                    if (pos.tok.is("SELECT") || pos.tok.is("WITH")) {
                        Query q = select.query();
                        pos.expectOp(")");
                        return new Expr.Subquery(q);
                    }
                    if (pos.readOp(")")) {
                        return new Expr.Call("tuple", List.of(), false);
                    }
                    List<Expr> l = new ArrayList<>();
                    boolean trailingComma = false;
                    l.add(aliased(expr()));
                    while (!trailingComma && pos.readOp(",")) {
                        trailingComma = pos.tok.isOp(")");
                        if (!trailingComma) {
                            l.add(aliased(expr()));
                        }
                    }
                    pos.expectOp(")");
                    if (trailingComma) {
                        return new Expr.Call("tuple", l, false); // (1,) and (1, 2,) are tuples, as in ClickHouse
                    }
                    if (pos.tok.isOp("->") && l.stream().allMatch(x -> x instanceof Expr.Ident && ((Expr.Ident) x).parts().size() == 1)) {
                        pos.advance();
                        List<String> params = new ArrayList<>();
                        for (Expr x : l) {
                            params.add(((Expr.Ident) x).last());
                        }
                        return new Expr.Lambda(params, lambda());
                    }
                    return l.size() == 1 ? l.get(0) : new Expr.Call("tuple", l, false);
                }
                if (pos.readOp("[")) {
                    List<Expr> l = pos.tok.isOp("]") ? List.of() : aliasedExprList();
                    pos.expectOp("]");
                    return new Expr.Call("array", l, false);
                }
                if (pos.readOp("*")) {
                    return new Expr.Star(null);
                }
                if (pos.tok.isOp("{")) {
                    String[] p = pos.parameter();
                    if (p[1].equals("Identifier")) {
                        return new Expr.Ident(QueryParameters.identifierParts(pos.params.identifier(p[0])));
                    }
                    return pos.params.literal(p[0], p[1]);
                }
                throw pos.error("expression");
            case IDENT:
            case QUOTED_IDENT:
                return identOrCall();
            default:
                throw pos.error("expression");
        }
    }

    /**
     * {@code INTERVAL '1 day 2 hours'}: each number and unit of the string an interval, several a tuple of them, as
     * ClickHouse's ParserIntervalOperatorExpression reads a string argument.
     */
    private Expr intervalOfString(String text) {
        String[] words = text.trim().split("\\s+");
        List<Expr> intervals = new ArrayList<>();
        for (int i = 0; i + 1 < words.length && words.length % 2 == 0; i += 2) {
            String unit = intervalUnit(words[i + 1]);
            if (unit == null || !words[i].matches("[-+]?[0-9]+(\\.[0-9]*)?")) {
                break;
            }
            Object n = number(words[i].replace("+", ""));
            intervals.add(new Expr.Interval(new Expr.Literal(n), unit));
        }
        if (intervals.size() * 2 != words.length) {
            throw pos.error("one of: SECOND, MINUTE, HOUR, DAY, WEEK, MONTH, QUARTER, YEAR, ...");
        }
        return intervals.size() == 1 ? intervals.get(0) : new Expr.Call("tuple", intervals, false);
    }

    /** The interval unit a word names (day for DAY, DAYS, SQL_TSI_DAY, DD and D), or null; ClickHouse's IntervalKind. */
    static String intervalUnit(String word) {
        String w = word.toUpperCase(Locale.ROOT);
        w = w.startsWith("SQL_TSI_") ? w.substring(8) : w;
        switch (w) {
            case "NANOSECOND": case "NANOSECONDS": case "NS": return "nanosecond";
            case "MICROSECOND": case "MICROSECONDS": return "microsecond";
            case "MILLISECOND": case "MILLISECONDS": case "MS": return "millisecond";
            case "SECOND": case "SECONDS": case "SS": case "S": return "second";
            case "MINUTE": case "MINUTES": case "MI": case "N": return "minute";
            case "HOUR": case "HOURS": case "HH": case "H": return "hour";
            case "DAY": case "DAYS": case "DD": case "D": return "day";
            case "WEEK": case "WEEKS": case "WK": case "WW": return "week";
            case "MONTH": case "MONTHS": case "MM": case "M": return "month";
            case "QUARTER": case "QUARTERS": case "QQ": case "Q": return "quarter";
            case "YEAR": case "YEARS": case "YYYY": case "YY": return "year";
            default: return null;
        }
    }

    /** A number literal: a Long, a BigInteger from 2^63 to UInt64's maximum, a Double for a float or (as ClickHouse reads it) a larger integer. */
    private static Object number(String s) {
        String t = s.replace("_", "");
        java.math.BigInteger b;
        if (t.startsWith("0x") || t.startsWith("0X")) {
            b = new java.math.BigInteger(t.substring(2), 16);
        } else if (t.indexOf('.') >= 0 || t.indexOf('e') >= 0 || t.indexOf('E') >= 0) {
            return Double.parseDouble(t);
        } else {
            b = new java.math.BigInteger(t);
        }
        return b.bitLength() < 64 ? (Object) b.longValue() : b.bitLength() == 64 ? (Object) b : (Object) b.doubleValue();
    }

    /** The right side of [NOT] [I]LIKE and its ESCAPE character, the function's third argument. */
    private Expr likeCall(String function, Expr l) {
        Expr pattern = concat();
        if (pos.readIf("ESCAPE")) {
            return new Expr.Call(function, l, pattern, concat());
        }
        return new Expr.Call(function, l, pattern);
    }

    private Expr identOrCall() {
        Token t = pos.tok;
        boolean quoted = t.kind() == Token.Kind.QUOTED_IDENT;
        if (!quoted) {
            if (t.is("NULL")) {
                pos.advance();
                return new Expr.Literal(null);
            }
            if (t.is("TRUE") || t.is("FALSE")) {
                pos.advance();
                return new Expr.Literal(t.is("TRUE"));
            }
            if (t.is("INF") || t.is("INFINITY") || t.is("NAN")) {
                // numbers to ClickHouse's ParserNumber, in any case: Float64 infinity and NaN
                pos.advance();
                return new Expr.Literal(t.is("NAN") ? Double.NaN : Double.POSITIVE_INFINITY);
            }
            if (t.is("CASE")) {
                pos.advance();
                return caseExpr();
            }
            if (t.is("CAST") && pos.peekIsOpenParen()) {
                pos.advance();
                pos.expectOp("(");
                Expr e = expr();
                String type;
                if (pos.readIf("AS")) {
                    type = pos.typeText();
                } else {
                    pos.expectOp(",");
                    type = pos.stringLiteral();
                }
                pos.expectOp(")");
                return new Expr.Cast(e, type);
            }
            if (t.is("INTERVAL")) {
                pos.advance();
                // the amount is an expression up to the unit, as in ClickHouse (INTERVAL (n % 100) * 900 MILLISECOND); a
                // string is the interval itself (INTERVAL '1 day' + d)
                Expr amount = pos.tok.kind() == Token.Kind.STRING ? unary() : expr();
                if (amount instanceof Expr.Literal && ((Expr.Literal) amount).value() instanceof String
                    && ((String) ((Expr.Literal) amount).value()).trim().contains(" ")) {
                    return intervalOfString((String) ((Expr.Literal) amount).value());
                }
                String unit = intervalUnit(pos.tok.text());
                if (pos.tok.kind() != Token.Kind.IDENT || unit == null) {
                    throw pos.error("one of: SECOND, MINUTE, HOUR, DAY, WEEK, MONTH, QUARTER, YEAR, ...");
                }
                pos.advance();
                return new Expr.Interval(amount, unit);
            }
            if (t.is("DATE") && pos.peekKind() == Token.Kind.STRING) {
                pos.advance();
                return new Expr.Cast(new Expr.Literal(pos.stringLiteral()), "Date");
            }
            if (t.is("TIMESTAMP") && pos.peekKind() == Token.Kind.STRING) {
                pos.advance();
                return new Expr.Cast(new Expr.Literal(pos.stringLiteral()), "DateTime");
            }
        }
        pos.advance();
        if (pos.tok.isOp("(")) { // a quoted name may name a function too: `toDate`(x)
            pos.advance();
            String name = t.text();
            String dateFunction = quoted ? null : dateFunctionOf(name);
            if (dateFunction != null) {
                return dateAddOrDiff(dateFunction);
            }
            boolean distinct = pos.readIf("DISTINCT");
            List<Expr> args = pos.tok.isOp(")") ? List.of() : lambdaOfLeadingNames(aliasedExprList());
            pos.expectOp(")");
            if (pos.tok.isOp("(")) {
                // parametric aggregate: name(params)(args) -> params first
                pos.advance();
                List<Expr> args2 = pos.tok.isOp(")") ? List.of() : exprList();
                pos.expectOp(")");
                List<Expr> all = new ArrayList<>(args2);
                all.addAll(args);
                return overWindow(new Expr.Call(name, all, distinct, args.size()));
            }
            if (name.equalsIgnoreCase("position") && args.size() == 1 && args.get(0) instanceof Expr.Call in && in.name().equals("in")
                && in.args().size() == 2) {
                // position(needle IN haystack) is position(haystack, needle), as ClickHouse's parser reads it
                args = List.of(in.args().get(1), in.args().get(0));
            }
            if (name.equalsIgnoreCase("count") && args.size() == 1 && args.get(0) instanceof Expr.Star && !pos.keepSyntax) {
                args = List.of();
            }
            return overWindow(new Expr.Call(name, args, distinct));
        }
        List<String> parts = new ArrayList<>();
        parts.add(t.text());
        while (pos.tok.isOp(".")) {
            Token save = pos.tok;
            pos.advance();
            if (pos.tok.isOp("*")) {
                pos.advance();
                return new Expr.Star(String.join(".", parts));
            }
            if (pos.isIdent()) {
                parts.add(pos.tok.text());
                pos.advance();
            } else if (pos.tok.isOp("^") || pos.tok.isOp(":")) {
                // JSON sub-paths: j.^a (a sub-object), j.a.:Int64 (a typed path)
                boolean typed = pos.tok.isOp(":");
                pos.advance();
                if (!pos.isIdent()) {
                    throw pos.error("an identifier");
                }
                parts.add((typed ? Expr.Ident.TYPED : Expr.Ident.SUB_OBJECT) + pos.tok.text());
                pos.advance();
            } else {
                pos.tok = save;
                break;
            }
            if (pos.tok.isOp("[") && Lexer.next(pos.sql, pos.tok.end(), pos.end, pos.tok).isOp("]")) {
                // j.a[].b: the paths of the objects in an array at a path
                pos.advance();
                pos.advance();
                parts.add(Expr.Ident.TYPED + "Array(JSON)");
            }
        }
        return new Expr.Ident(List.copyOf(parts));
    }

    /** {@code f}, or {@code f OVER window} when an OVER clause follows it. */
    private Expr overWindow(Expr.Call f) {
        return windows.atOver() ? windows.over(f) : f;
    }

    /**
     * The arguments of a call with {@code x, y -> body} read as one lambda of the names before the arrow, as ClickHouse's
     * FunctionLayer reads an arrow: {@code arrayMap(x, y -> x + y, a, b)} is {@code arrayMap((x, y) -> x + y, a, b)}.
     */
    private static List<Expr> lambdaOfLeadingNames(List<Expr> args) {
        int k = 0;
        while (k < args.size() && args.get(k) instanceof Expr.Ident id && id.parts().size() == 1) {
            k++;
        }
        if (k == 0 || k >= args.size() || !(args.get(k) instanceof Expr.Lambda lambda)) {
            return args;
        }
        List<String> params = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            params.add(((Expr.Ident) args.get(i)).last());
        }
        params.addAll(lambda.params());
        List<Expr> out = new ArrayList<>();
        out.add(new Expr.Lambda(params, lambda.body()));
        out.addAll(args.subList(k + 1, args.size()));
        return out;
    }

    /**
     * The function the parser makes of dateAdd, dateSub and dateDiff and their aliases (plus, minus, dateDiff), as
     * ClickHouse's DateAddLayer and DateDiffLayer do, or null for another name.
     */
    private static String dateFunctionOf(String name) {
        switch (name.toLowerCase(Locale.ROOT)) {
            case "dateadd": case "date_add": case "timestampadd": case "timestamp_add": return "plus";
            case "datesub": case "date_sub": case "timestampsub": case "timestamp_sub": return "minus";
            case "datediff": case "date_diff": case "timestampdiff": case "timestamp_diff": return "dateDiff";
            default: return null;
        }
    }

    /**
     * The arguments of dateAdd, dateSub or dateDiff after the parenthesis: a leading interval unit keyword and a comma
     * make {@code dateAdd(DAY, n, d)} plus(d, INTERVAL n DAY) and {@code dateDiff(DAY, a, b)} dateDiff('day', a, b);
     * otherwise the arguments as written go to the function.
     */
    private Expr dateAddOrDiff(String function) {
        String unit = pos.tok.kind() == Token.Kind.IDENT ? intervalUnit(pos.tok.text()) : null;
        if (unit != null && pos.peekIsOp(",")) {
            pos.advance();
            pos.advance();
            List<Expr> args = exprList();
            pos.expectOp(")");
            if (function.equals("dateDiff")) {
                if (args.size() != 2 && args.size() != 3) {
                    throw pos.error("two or three arguments after the unit of dateDiff");
                }
                List<Expr> all = new ArrayList<>();
                all.add(new Expr.Literal(unit));
                all.addAll(args);
                return new Expr.Call("dateDiff", all, false);
            }
            if (args.size() < 2) {
                throw pos.error("an amount and a date after the unit of " + (function.equals("plus") ? "dateAdd" : "dateSub"));
            }
            return new Expr.Call(function, List.of(args.get(1), new Expr.Interval(args.get(0), unit)), false);
        }
        List<Expr> args = pos.tok.isOp(")") ? List.of() : exprList();
        pos.expectOp(")");
        return new Expr.Call(function, args, false);
    }

    private Expr caseExpr() {
        Expr subject = null;
        if (!pos.tok.is("WHEN")) {
            subject = expr();
        }
        List<Expr> args = new ArrayList<>();
        while (pos.readIf("WHEN")) {
            Expr w = expr();
            pos.expect("THEN");
            Expr th = expr();
            args.add(subject == null || pos.keepSyntax ? w : new Expr.Call("equals", subject, w));
            args.add(th);
        }
        Expr otherwise = pos.readIf("ELSE") ? expr() : new Expr.Literal(null);
        pos.expect("END");
        args.add(otherwise);
        if (subject != null && pos.keepSyntax) {
            args.add(0, subject);
            return new Expr.Call("caseWithExpression", args, false);
        }
        return new Expr.Call("multiIf", args, false);
    }
}
