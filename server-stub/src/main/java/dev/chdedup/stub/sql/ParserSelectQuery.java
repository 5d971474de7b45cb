package dev.chdedup.stub.sql;

import dev.chdedup.stub.sql.Query.From;
import dev.chdedup.stub.sql.Query.OrderItem;
import dev.chdedup.stub.sql.Query.Select;
import dev.chdedup.stub.sql.Query.SelectItem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Parses queries: a UNION [ALL] of SELECTs and parenthesized queries with its SETTINGS and FORMAT, as ClickHouse's
 * ParserSelectWithUnionQuery and ParserQueryWithOutput do, and each SELECT from WITH to LIMIT, OFFSET and FETCH, as
 * ParserSelectQuery does (src/Parsers/ParserSelectQuery.cpp), its FROM through {@link ParserTablesInSelectQuery}.
 * Common table expressions ({@code WITH name AS (subquery)}) are resolved while parsing, so one ParserSelectQuery,
 * {@link ParserExpression#select}, serves a whole statement: its queries and the subqueries in its expressions see
 * the same {@link #ctes}.
 */
final class ParserSelectQuery {
    private final TokenIterator pos;
    private final ParserExpression exp;
    private final ParserSetQuery parserSettings;
    private final ParserTablesInSelectQuery tables;

    /** Made by {@code exp}, whose subqueries it parses. */
    ParserSelectQuery(ParserExpression exp) {
        this.pos = exp.pos;
        this.exp = exp;
        this.parserSettings = new ParserSetQuery(pos);
        this.tables = new ParserTablesInSelectQuery(exp, this);
    }

    Query query() {
        List<Select> selects = new ArrayList<>();
        List<Query> nested = new ArrayList<>();
        do {
            if (pos.tok.isOp("(")) {
                pos.advance();
                Query inner = query();
                pos.expectOp(")");
                selects.addAll(inner.selects());
                nested.add(inner);
            } else {
                selects.add(select());
            }
        } while (pos.readIf("UNION") && (pos.readIf("ALL") || true));
        Map<String, String> settings = Map.of();
        String format = null;
        for (int i = 0; i < 2; i++) {
            if (pos.readIf("SETTINGS")) {
                settings = parserSettings.settingList();
            }
            if (pos.readIf("FORMAT")) {
                format = pos.identifier();
            }
        }
        return new Query(selects, settings, format);
    }

    private Select select() {
        int ctesBefore = ctes.size();
        int recursiveBefore = recursiveCtes.size();
        try {
            return selectBody();
        } finally {
            while (ctes.size() > ctesBefore) {
                ctes.remove(ctes.size() - 1);
            }
            while (recursiveCtes.size() > recursiveBefore) {
                recursiveCtes.remove(recursiveCtes.size() - 1);
            }
        }
    }

    /**
     * The common table expressions in scope, innermost last: {@code WITH name AS (subquery)} makes {@code name} a
     * table of the rest of its SELECT and of the subqueries in it.
     */
    private final List<Map.Entry<String, Query>> ctes = new ArrayList<>();

    /**
     * The WITH aliases ({@code WITH expr AS name}) of the enclosing SELECTs being parsed: a CTE's query and a WITH item
     * see the aliases defined before them ({@code WITH 1 AS x, y AS (SELECT x + 1) ...}), the subqueries of the rest of
     * the SELECT (select list, FROM, WHERE...) all of them, as in ClickHouse. Innermost last.
     */
    private final List<SelectItem> withInScope = new ArrayList<>();

    /** The recursive common table expressions in scope, innermost last, each as the FROM that reads it. */
    private final List<Query.RecursiveCte> recursiveCtes = new ArrayList<>();
    /** The names of the recursive CTEs whose definitions are being parsed: a FROM of one reads its working table. */
    private final List<String> workingTables = new ArrayList<>();

    /** The FROM for {@code name} read as a table (aliased {@code alias}), when it names a recursive CTE in scope. */
    From recursiveCte(String name, String alias) {
        if (workingTables.contains(name)) {
            return new Query.WorkingTable(name, alias == null ? name : alias);
        }
        for (int i = recursiveCtes.size() - 1; i >= 0; i--) {
            Query.RecursiveCte r = recursiveCtes.get(i);
            if (r.name().equals(name)) {
                return new Query.RecursiveCte(r.name(), r.columns(), r.base(), r.recursive(), alias == null ? name : alias);
            }
        }
        return null;
    }

    Query cte(String name) {
        for (int i = ctes.size() - 1; i >= 0; i--) {
            if (ctes.get(i).getKey().equals(name)) {
                return ctes.get(i).getValue();
            }
        }
        return null;
    }

    /**
     * {@code name [(columns)] AS (SELECT ...)} at the current token: registers the CTE and returns true, or reads
     * nothing. Under WITH RECURSIVE a CTE whose query reads its own name is recursive.
     */
    private boolean readCte(boolean recursive) {
        if (!pos.isIdent()) {
            return false;
        }
        Token save = pos.tok;
        Token savePrev = pos.prev;
        String name = pos.identifier();
        List<String> columns = null;
        if (recursive && pos.tok.isOp("(")) {
            pos.advance();
            columns = new ArrayList<>();
            do {
                columns.add(pos.identifier());
            } while (pos.readOp(","));
            pos.expectOp(")");
        }
        if (pos.readIf("AS") && opensSubquery()) {
            pos.advance();
            if (recursive) {
                workingTables.add(name);
            }
            Query q;
            try {
                q = query();
            } finally {
                if (recursive) {
                    workingTables.remove(workingTables.size() - 1);
                }
            }
            pos.expectOp(")");
            int firstRecursive = 0;
            while (firstRecursive < q.selects().size() && !readsWorkingTable(q.selects().get(firstRecursive).from())) {
                firstRecursive++;
            }
            if (recursive && firstRecursive < q.selects().size()) {
                recursiveCtes.add(new Query.RecursiveCte(name, columns == null ? null : List.copyOf(columns),
                    new Query(q.selects().subList(0, firstRecursive), Map.of(), null),
                    new Query(q.selects().subList(firstRecursive, q.selects().size()), Map.of(), null), name));
                return true;
            }
            if (columns != null) {
                throw new dev.chdedup.stub.error.ChException(dev.chdedup.stub.error.ErrorCode.NOT_IMPLEMENTED,
                    "A column list of a CTE that is not recursive is not supported by the stub");
            }
            ctes.add(Map.entry(name, q));
            return true;
        }
        pos.tok = save;
        pos.prev = savePrev;
        return false;
    }

    /**
     * Whether the current token opens a CTE's subquery: a "(" whose first token past any further "(" is SELECT or
     * WITH, since ParserSubquery reads a parenthesized SELECT too ({@code WITH d AS ((SELECT ...)) ...}).
     */
    private boolean opensSubquery() {
        Token t = pos.tok;
        if (!t.isOp("(")) {
            return false;
        }
        while (t.isOp("(")) {
            t = Lexer.next(pos.sql, t.end(), pos.end, t);
        }
        return t.is("SELECT") || t.is("WITH");
    }

    private static boolean readsWorkingTable(From f) {
        if (f instanceof Query.WorkingTable) {
            return true;
        }
        if (f instanceof Query.Join) {
            return readsWorkingTable(((Query.Join) f).left()) || readsWorkingTable(((Query.Join) f).right());
        }
        if (f instanceof Query.ArrayJoin) {
            return readsWorkingTable(((Query.ArrayJoin) f).source());
        }
        return false;
    }

    private Select selectBody() {
        int innerAliases = exp.innerAliases.size();
        List<SelectItem> withItems = new ArrayList<>();
        if (pos.readIf("WITH")) {
            boolean recursive = pos.readIf("RECURSIVE");
            do {
                int scope = withInScope.size();
                withInScope.addAll(withItems);
                boolean cte;
                try {
                    cte = readCte(recursive);
                } finally {
                    withInScope.subList(scope, withInScope.size()).clear();
                }
                if (cte) {
                    continue;
                }
                int st = pos.tok.pos();
                Expr e;
                withInScope.addAll(withItems); // a subquery in this item sees the aliases defined before it
                try {
                    e = exp.expr();
                } finally {
                    withInScope.subList(scope, withInScope.size()).clear();
                }
                pos.expect("AS");
                String alias = pos.identifier();
                withItems.add(new SelectItem(e, alias, pos.sql.substring(st, pos.prev.end())));
            } while (pos.readOp(",") && !pos.tok.is("SELECT")); // WITH 1 AS x, SELECT x: a trailing comma is allowed
        }
        // this SELECT's WITH aliases are visible in the subqueries of the rest of it, as in ClickHouse
        int outerScope = withInScope.size();
        withInScope.addAll(withItems);
        try {
            return selectRest(withItems, innerAliases);
        } finally {
            withInScope.subList(outerScope, withInScope.size()).clear();
        }
    }

    /** The SELECT after its WITH clause; {@code withItems} are its WITH aliases, in scope of its subqueries meanwhile. */
    private Select selectRest(List<SelectItem> withItems, int innerAliases) {
        int ownScope = withInScope.size() - withItems.size();
        pos.expect("SELECT");
        boolean distinct = pos.readIf("DISTINCT");
        pos.readIf("ALL");
        List<SelectItem> items = new ArrayList<>(withItems.size());
        do {
            int st = pos.tok.pos();
            Expr e = exp.expr();
            String text = pos.sql.substring(st, pos.prev.end());
            String alias = null;
            if (pos.readIf("AS")) {
                alias = pos.identifier();
            } else if (pos.isIdent() && !ParserExpression.isClauseKeyword(pos.tok)) {
                alias = pos.identifier();
            }
            items.add(new SelectItem(e, alias, text));
        } while (pos.readOp(",") && !endsSelectList(pos.tok));
        From from = null;
        if (pos.readIf("FROM")) {
            from = tables.from(); // its subqueries see this SELECT's WITH aliases (in withInScope, see selectBody)
        }
        Expr prewhere = pos.readIf("PREWHERE") ? exp.expr() : null;
        Expr where = pos.readIf("WHERE") ? exp.expr() : null;
        if (prewhere != null) {
            where = where == null ? prewhere : new Expr.Call("and", prewhere, where);
        }
        List<Expr> groupBy = List.of();
        if (pos.readIf("GROUP")) {
            pos.expect("BY");
            groupBy = exp.exprList();
            pos.readIf("WITH", "TOTALS");
        }
        Expr having = pos.readIf("HAVING") ? exp.expr() : null;
        Map<String, WindowDefinition> windows = pos.readIf("WINDOW") ? exp.windows.windowClause() : Map.of();
        List<OrderItem> orderBy = List.of();
        boolean orderByAll = false;
        boolean orderByAllDesc = false;
        if (pos.readIf("ORDER")) {
            pos.expect("BY");
            if (pos.tok.is("ALL") && !allIsColumn(from)) {
                Token save = pos.tok;
                pos.advance();
                if (pos.tok.isOp(",") || pos.tok.isOp(".") || pos.tok.isOp("(")) {
                    pos.tok = save;
                } else {
                    orderByAll = true;
                    orderByAllDesc = pos.readIf("DESC") || pos.readIf("DESCENDING");
                    if (!orderByAllDesc) {
                        if (!pos.readIf("ASC")) {
                            pos.readIf("ASCENDING");
                        }
                    }
                }
            }
            if (!orderByAll) {
                orderBy = new ArrayList<>();
                do {
                    Expr e = exp.expr();
                    boolean desc = false;
                    if (pos.readIf("DESC") || pos.readIf("DESCENDING")) {
                        desc = true;
                    } else if (!pos.readIf("ASC")) {
                        pos.readIf("ASCENDING");
                    }
                    Boolean nullsFirst = null;
                    if (pos.readIf("NULLS")) {
                        nullsFirst = pos.readIf("FIRST");
                        if (!nullsFirst) {
                            pos.expect("LAST");
                        }
                    }
                    if (pos.readIf("COLLATE")) {
                        pos.advance();
                    }
                    Query.Fill fill = null;
                    if (pos.readIf("WITH", "FILL")) {
                        Expr fillFrom = pos.readIf("FROM") ? exp.expr() : null;
                        Expr fillTo = pos.readIf("TO") ? exp.expr() : null;
                        Expr fillStep = pos.readIf("STEP") ? exp.expr() : null;
                        fill = new Query.Fill(fillFrom, fillTo, fillStep);
                    }
                    orderBy.add(new OrderItem(e, desc, nullsFirst, fill));
                } while (pos.readOp(","));
            }
        }
        Expr limit = null;
        Expr offset = null;
        List<Expr> limitBy = null;
        Expr limitByCount = null;
        if (pos.readIf("LIMIT")) {
            Expr a = exp.expr();
            if (pos.readOp(",")) {
                offset = a;
                limit = exp.expr();
            } else if (pos.readIf("BY")) {
                limitByCount = a;
                limitBy = exp.exprList();
                if (pos.readIf("LIMIT")) {
                    limit = exp.expr();
                    if (pos.readIf("OFFSET")) {
                        offset = exp.expr();
                    }
                }
            } else {
                limit = a;
                if (pos.readIf("OFFSET")) {
                    offset = exp.expr();
                }
            }
        }
        if (offset == null && pos.readIf("OFFSET")) {
            offset = exp.expr();
            pos.readIf("ROWS");
            if (pos.readIf("FETCH")) {
                if (!pos.readIf("FIRST")) {
                    pos.expect("NEXT");
                }
                limit = exp.expr();
                if (!pos.readIf("ROWS")) {
                    pos.readIf("ROW");
                }
                pos.expect("ONLY");
            }
        }
        // each window function given its window, the named ones from the WINDOW clause
        items.replaceAll(i -> new SelectItem(ParserWindow.resolve(i.expr(), windows), i.alias(), i.text()));
        withItems.replaceAll(i -> new SelectItem(ParserWindow.resolve(i.expr(), windows), i.alias(), i.text()));
        orderBy = orderBy.stream().map(o -> new OrderItem(ParserWindow.resolve(o.expr(), windows), o.desc(), o.nullsFirst(), o.fill())).toList();
        where = where == null ? null : ParserWindow.resolve(where, windows);
        having = having == null ? null : ParserWindow.resolve(having, windows);
        groupBy = groupBy.stream().map(g -> ParserWindow.resolve(g, windows)).toList();
        java.util.Set<String> defined = new java.util.HashSet<>();
        for (SelectItem w : withItems) {
            defined.add(w.alias());
        }
        for (SelectItem i : items) {
            if (i.alias() != null) {
                defined.add(i.alias());
            }
        }
        // the aliases defined inside this SELECT's expressions are aliases of its scope, as WITH ones are
        List<SelectItem> inner = exp.innerAliases.subList(innerAliases, exp.innerAliases.size());
        for (SelectItem a : inner) {
            if (defined.add(a.alias())) {
                withItems.add(a);
            }
        }
        inner.clear();
        List<SelectItem> outer = new ArrayList<>();
        for (int i = ownScope - 1; i >= 0; i--) { // an enclosing WITH alias, unless this SELECT defines the name
            SelectItem w = withInScope.get(i);
            if (defined.add(w.alias())) {
                outer.add(new SelectItem(w.expr(), w.alias(), SelectItem.OUTER));
            }
        }
        if (!withItems.isEmpty() || !outer.isEmpty()) {
            List<SelectItem> all = new ArrayList<>();
            for (SelectItem w : withItems) {
                all.add(new SelectItem(w.expr(), w.alias(), SelectItem.WITH));
            }
            all.addAll(outer);
            all.addAll(items);
            items = all;
        }
        return new Select(distinct, items, from, where, groupBy, having, orderBy, orderByAll, orderByAllDesc, limit,
            offset, limitBy, limitByCount);
    }

    /**
     * A trailing comma is allowed in a select list: whether {@code t} ends the list there. A clause keyword does,
     * unless what follows it shows it is a column of that name ({@code SELECT id, format FROM t}) or the
     * function format.
     */
    private boolean endsSelectList(Token t) {
        if (t.kind() == Token.Kind.EOF || t.isOp(")") || t.isOp(";")) {
            return true;
        }
        for (String k : new String[] {"FROM", "WHERE", "PREWHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "OFFSET",
            "SETTINGS", "FORMAT", "UNION", "INTO", "WINDOW", "QUALIFY", "INTERSECT", "EXCEPT"}) {
            if (t.kind() == Token.Kind.IDENT && t.is(k)) {
                Token after = Lexer.next(pos.sql, t.end(), pos.end, t);
                // a FORMAT clause names a format, so FORMAT( is the function format
                return !(after.is("FROM") || after.isOp(",") || after.isOp(")") || after.isOp(";")
                    || after.kind() == Token.Kind.EOF || t.is("FORMAT") && after.isOp("("));
            }
        }
        return false;
    }

    private boolean allIsColumn(From from) {
        return false;
    }
}
