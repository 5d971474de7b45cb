package dev.chdedup.stub.format;

import dev.chdedup.stub.types.DataType;

/**
 * The SQL engine's hook for the Values format: a value that is not a plain literal (a function call such as
 * {@code fromUnixTimestamp64Nano(...)} or {@code unhex('..')}, arithmetic, a cast) is handed over as SQL text
 * and evaluated to a value of the target type.
 */
public interface ValueExpressions {
    Object evaluate(String expressionSql, DataType target);
}
