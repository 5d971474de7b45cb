package dev.chdedup.stub.sql;

/** A lexical token with its kind, text (unescaped for strings, unquoted for quoted identifiers) and offset. */
public record Token(Kind kind, String text, int pos, int end) {
    public enum Kind { IDENT, QUOTED_IDENT, NUMBER, STRING, OP, EOF }

    public boolean is(String keyword) {
        return kind == Kind.IDENT && text.equalsIgnoreCase(keyword);
    }

    public boolean isOp(String op) {
        return kind == Kind.OP && text.equals(op);
    }

    @Override
    public String toString() {
        return kind == Kind.EOF ? "end of query" : text;
    }
}
