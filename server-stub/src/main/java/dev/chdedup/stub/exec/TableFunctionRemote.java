package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.sql.Query;
import dev.chdedup.stub.types.StringType;
import java.util.List;

/**
 * The arguments of {@code remote}, {@code remoteSecure}, {@code cluster} and {@code clusterAllReplicas}, read as
 * ClickHouse's {@code TableFunctionRemote::parseArguments} reads them, with its errors:
 * <pre>
 * remote('addresses' | cluster_identifier [, db.table | 'db', 'table'] [, 'user' [, 'password']] [, sharding_key])
 * cluster(['cluster' [, db.table | 'db', 'table'] [, sharding_key]])
 * </pre>
 * A user or password must be a string literal (anything else is the sharding key); the table defaults to
 * {@code system.one}, the cluster of {@code cluster()} to {@code default}. What the arguments name is read by the
 * server's {@link RemoteTables}.
 */
final class TableFunctionRemote {
    private TableFunctionRemote() {
    }

    static boolean handles(String lowerName) {
        return switch (lowerName) {
            case "remote", "remotesecure", "cluster", "clusterallreplicas" -> true;
            default -> false;
        };
    }

    /** The table {@code tf} names, as the catalog's {@link RemoteTables} reads it. */
    static TableSource storage(Query.TableFunction tf, ExprCompiler c, Catalog catalog, QueryContext ctx) {
        if (tf.name().equals("clusterallreplicas") && RemoteTables.legacy(ctx)) {
            throw new ChException(ErrorCode.UNKNOWN_FUNCTION, "Unknown table function clusterAllReplicas");
        }
        return catalog.remoteTables().table(parse(tf, c), ctx);
    }

    static RemoteTables.Arguments parse(Query.TableFunction tf, ExprCompiler c) {
        String lower = tf.name();
        boolean isCluster = lower.startsWith("cluster");
        String name = lower.equals("cluster") ? "cluster" : lower.equals("clusterallreplicas") ? "clusterAllReplicas" : "remote";
        boolean secure = lower.equals("remotesecure");
        String help = "Table function '" + name + "' requires from " + (isCluster ? 0 : 1) + " to " + (isCluster ? 4 : 6) + " parameters: "
            + (isCluster ? "[<cluster name or default if not specified>, [<database.table> | [<name of remote database>, <name of remote table>]"
                + " | <table function>]] [, sharding_key]"
                : "<addresses pattern> [, <name of remote database>, <name of remote table>] [, username[, password], sharding_key]");
        List<Expr> args = tf.args();
        if (!isCluster && args.isEmpty() || args.size() > (isCluster ? 4 : 6)) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, help);
        }
        String clusterName = null;
        String addresses = null;
        String database = "system";
        String table = "one"; // the table of one row, for a query naming none
        String user = "default";
        String password = "";
        Expr shardingKey = null;
        int n = 0;
        if (isCluster) {
            clusterName = args.isEmpty() ? "default" : literalString(args.get(0), "cluster_name", c);
        } else if (args.get(0) instanceof Expr.Ident id) {
            clusterName = id.joined();
        } else {
            addresses = stringLiteral(args.get(0));
            if (addresses == null) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Hosts pattern must be string literal (in single quotes).");
            }
        }
        n = args.isEmpty() ? 0 : 1;
        if (n < args.size()) {
            Expr a = args.get(n);
            if (a instanceof Expr.Call call && isTableFunction(call.name())) {
                throw new ChException(ErrorCode.NOT_IMPLEMENTED, "The stub's " + name + "() reads tables, not table function " + call.name());
            }
            String qualified = databaseName(a, c);
            n++;
            int dot = qualified.indexOf('.');
            if (dot == 0 || dot >= 0 && (dot == qualified.length() - 1 || qualified.indexOf('.', dot + 1) >= 0)) {
                throw new ChException(ErrorCode.SYNTAX_ERROR, "Invalid qualified name: " + qualified);
            }
            if (dot < 0) {
                if (n >= args.size()) {
                    throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Table name was not found in function arguments. " + help);
                }
                database = qualified;
                table = literalString(args.get(n++), "table", c);
            } else {
                database = qualified.substring(0, dot);
                table = qualified.substring(dot + 1);
            }
            if (isCluster && n < args.size()) {
                shardingKey = args.get(n++);
            }
        }
        if (!isCluster) {
            if (n < args.size()) {
                String u = stringLiteral(args.get(n));
                if (u == null) {
                    shardingKey = args.get(n);
                } else {
                    user = u;
                }
                n++;
            }
            if (n < args.size() && shardingKey == null) {
                String p = stringLiteral(args.get(n));
                if (p == null) {
                    shardingKey = args.get(n);
                } else {
                    password = p;
                }
                n++;
            }
            if (n < args.size()) {
                if (shardingKey != null) {
                    throw new ChException(ErrorCode.BAD_ARGUMENTS, "Arguments `user` and `password` should be string literals (in single quotes)");
                }
                shardingKey = args.get(n++);
            }
        }
        if (n < args.size()) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, help);
        }
        if (table.isEmpty()) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "The name of remote table cannot be empty");
        }
        return new RemoteTables.Arguments(name, clusterName, addresses, secure, database, table, user, password, shardingKey);
    }

    private static boolean isTableFunction(String name) {
        String lower = name.toLowerCase(java.util.Locale.ROOT);
        return TableFunctions.handles(lower) || handles(lower) || lower.equals("numbers") || lower.equals("numbers_mt")
            || lower.equals("dictionary");
    }

    /** The value of a string literal, or null for any other argument. */
    private static String stringLiteral(Expr e) {
        return e instanceof Expr.Literal l && l.value() instanceof String s ? dev.chdedup.stub.types.ByteStrings.toText(s) : null;
    }

    /** An identifier's name, or a constant expression's value, which must be a String (the engine's Bad get otherwise). */
    private static String databaseName(Expr e, ExprCompiler c) {
        if (e instanceof Expr.Ident id) {
            return id.joined();
        }
        Evaluator v = c.compile(e);
        if (!(TypeRules.stripNullable(v.type()) instanceof StringType) || !v.constant()) {
            throw new ChException(ErrorCode.BAD_GET, "Bad get: has " + fieldType(v) + ", requested String");
        }
        return Functions.constString(v);
    }

    /** An identifier's name, or a constant String expression's value: BAD_ARGUMENTS naming {@code what} otherwise. */
    private static String literalString(Expr e, String what, ExprCompiler c) {
        if (e instanceof Expr.Ident id) {
            return id.joined();
        }
        Evaluator v = c.compile(e);
        if (!(TypeRules.stripNullable(v.type()) instanceof StringType) || !v.constant()) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Argument '" + what + "' must be a literal with type String, got " + fieldType(v));
        }
        return Functions.constString(v);
    }

    /** The type of a constant's value as the engine's Field names it (every integer literal a UInt64 or Int64). */
    private static String fieldType(Evaluator v) {
        Object o = v.constant() ? v.eval(new Object[0]) : null;
        if (o instanceof Long || o instanceof java.math.BigInteger) {
            return ((Number) o).doubleValue() < 0 ? "Int64" : "UInt64";
        }
        if (o instanceof Double || o instanceof Float) {
            return "Float64";
        }
        return o == null ? "Null" : v.type().name();
    }
}
