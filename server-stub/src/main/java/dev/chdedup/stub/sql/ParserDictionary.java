package dev.chdedup.stub.sql;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Parses the rest of CREATE [OR REPLACE] DICTIONARY after the keyword, as ClickHouse's ParserCreateDictionaryQuery and
 * ParserDictionary do (src/Parsers/ParserCreateQuery.cpp, ParserDictionary.cpp, ParserDictionaryAttributeDeclaration.cpp):
 * the attributes in parentheses, PRIMARY KEY first, then SOURCE, LIFETIME, LAYOUT, RANGE and SETTINGS each at most once
 * in any order, then COMMENT. A DEFAULT is a literal; EXPRESSION any expression. What the clauses mean is checked when
 * the dictionary is created (dictionaries.DictionaryStructure), as the engine checks it.
 */
final class ParserDictionary {
    private final TokenIterator pos;
    private final ParserExpression exp;

    ParserDictionary(ParserExpression exp) {
        this.pos = exp.pos;
        this.exp = exp;
    }

    /** After CREATE [OR REPLACE] DICTIONARY. */
    Statement.CreateDictionary parse(boolean orReplace, QueryWithOnCluster onCluster) {
        boolean ine = pos.readIf("IF", "NOT") && pos.expectThen("EXISTS");
        int nameAt = pos.tok.pos();
        String[] n = pos.qualifiedName();
        if (n[0] == null) {
            onCluster.unqualifiedNameAt = nameAt;
        }
        onCluster.parse();
        List<Statement.DictionaryAttributeDeclaration> attributes = new ArrayList<>();
        pos.expectOp("(");
        do {
            attributes.add(attribute());
        } while (pos.readOp(","));
        pos.expectOp(")");
        List<String> primaryKey = new ArrayList<>();
        if (pos.readIf("PRIMARY")) {
            pos.expect("KEY");
            boolean parens = pos.readOp("(");
            do {
                primaryKey.add(pos.identifier());
            } while (pos.readOp(","));
            if (parens) {
                pos.expectOp(")");
            }
        }
        Statement.KeyValueFunction source = null;
        Statement.KeyValueFunction layout = null;
        Long lifetimeMin = null;
        Long lifetimeMax = null;
        String rangeMin = null;
        String rangeMax = null;
        Map<String, String> settings = null;
        while (true) {
            if (source == null && pos.readIf("SOURCE")) {
                pos.expectOp("(");
                source = keyValueFunction();
                pos.expectOp(")");
            } else if (layout == null && pos.readIf("LAYOUT")) {
                pos.expectOp("(");
                layout = keyValueFunction();
                pos.expectOp(")");
            } else if (lifetimeMax == null && pos.readIf("LIFETIME")) {
                pos.expectOp("(");
                if (pos.tok.kind() == Token.Kind.NUMBER) {
                    lifetimeMin = 0L;
                    lifetimeMax = number();
                } else {
                    for (int i = 0; i < 2; i++) {
                        if (lifetimeMin == null && pos.readIf("MIN")) {
                            lifetimeMin = number();
                        } else if (lifetimeMax == null && pos.readIf("MAX")) {
                            lifetimeMax = number();
                        } else {
                            throw pos.error(lifetimeMin == null ? "MIN" : "MAX");
                        }
                    }
                }
                pos.expectOp(")");
            } else if (rangeMin == null && pos.readIf("RANGE")) {
                pos.expectOp("(");
                for (int i = 0; i < 2; i++) {
                    if (rangeMin == null && pos.readIf("MIN")) {
                        rangeMin = pos.identifier();
                    } else if (rangeMax == null && pos.readIf("MAX")) {
                        rangeMax = pos.identifier();
                    } else {
                        throw pos.error(rangeMin == null ? "MIN" : "MAX");
                    }
                }
                pos.expectOp(")");
            } else if (settings == null && pos.readIf("SETTINGS")) {
                pos.expectOp("(");
                settings = new LinkedHashMap<>();
                if (!pos.tok.isOp(")")) {
                    do {
                        String name = pos.identifier();
                        pos.expectOp("=");
                        settings.put(name, literalText());
                    } while (pos.readOp(","));
                }
                pos.expectOp(")");
            } else {
                break;
            }
        }
        String comment = pos.readIf("COMMENT") ? pos.stringLiteral() : null;
        return new Statement.CreateDictionary(n[0], n[1], ine, orReplace, attributes, primaryKey, source, layout, lifetimeMin,
            lifetimeMax, rangeMin, rangeMax, settings == null ? Map.of() : settings, comment);
    }

    private Statement.DictionaryAttributeDeclaration attribute() {
        String name = pos.identifier();
        String type = pos.typeText();
        Expr defaultValue = null;
        Expr expression = null;
        String expressionSql = null;
        boolean hierarchical = false;
        boolean bidirectional = false;
        boolean injective = false;
        boolean isObjectId = false;
        while (true) {
            if (defaultValue == null && pos.readIf("DEFAULT")) {
                int at = pos.tok.pos();
                defaultValue = exp.expr();
                if (!isLiteral(defaultValue)) {
                    pos.tok = Lexer.next(pos.sql, at, pos.end, null);
                    throw pos.error("literal");
                }
            } else if (expression == null && pos.readIf("EXPRESSION")) {
                int at = pos.tok.pos();
                expression = exp.expr();
                expressionSql = pos.sql.substring(at, pos.prev.end());
            } else if (!hierarchical && pos.readIf("HIERARCHICAL")) {
                hierarchical = true;
            } else if (!bidirectional && pos.readIf("BIDIRECTIONAL")) {
                bidirectional = true;
            } else if (!injective && pos.readIf("INJECTIVE")) {
                injective = true;
            } else if (!isObjectId && pos.readIf("IS_OBJECT_ID")) {
                isObjectId = true;
            } else {
                break;
            }
        }
        return new Statement.DictionaryAttributeDeclaration(name, type, defaultValue, expression, expressionSql, hierarchical,
            bidirectional, injective, isObjectId);
    }

    /** A literal, a negative number, or an array or tuple of them: what a dictionary attribute's DEFAULT may be. */
    private static boolean isLiteral(Expr e) {
        if (e instanceof Expr.Literal) {
            return true;
        }
        if (e instanceof Expr.Call c && (c.name().equals("array") || c.name().equals("tuple"))) {
            return c.args().stream().allMatch(ParserDictionary::isLiteral);
        }
        return false;
    }

    /** {@code NAME(KEY value ...)} or a bare {@code NAME}, the names upper-cased as the engine writes them back. */
    private Statement.KeyValueFunction keyValueFunction() {
        String name = pos.identifier().toUpperCase(Locale.ROOT);
        Map<String, String> args = new LinkedHashMap<>();
        Map<String, Expr> expressions = new LinkedHashMap<>();
        boolean brackets = pos.readOp("(");
        if (brackets) {
            while (!pos.tok.isOp(")")) {
                String key = pos.identifier().toUpperCase(Locale.ROOT);
                if (pos.tok.kind() == Token.Kind.IDENT && pos.peekIsOpenParen()) {
                    // a function as the value: CREATE evaluates it to a constant
                    Expr e = exp.expr();
                    args.put(key, ColumnNames.of(e));
                    expressions.put(key, e);
                    continue;
                }
                args.put(key, pos.tok.kind() == Token.Kind.IDENT || pos.tok.kind() == Token.Kind.QUOTED_IDENT ? pos.identifier()
                    : literalText());
            }
            pos.expectOp(")");
        }
        return new Statement.KeyValueFunction(name, args, brackets, expressions);
    }

    /** A literal (a string, a number with its sign) as the engine formats it. */
    private String literalText() {
        int at = pos.tok.pos();
        Expr e = exp.expr();
        if (!(e instanceof Expr.Literal)) {
            pos.tok = Lexer.next(pos.sql, at, pos.end, null);
            throw pos.error("literal");
        }
        return ColumnNames.of(e);
    }

    private long number() {
        if (pos.tok.kind() != Token.Kind.NUMBER) {
            throw pos.error("number");
        }
        long v = Long.parseLong(pos.tok.text());
        pos.advance();
        return v;
    }
}
