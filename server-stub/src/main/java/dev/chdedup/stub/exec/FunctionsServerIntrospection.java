package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.BoolType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.StringType;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a query can ask of the server it runs on, from ClickHouse's "Other" category: the settings profiles of the
 * user (currentProfiles, enabledProfiles, defaultProfiles: the stub's users all have the profile {@code default}),
 * currentSchemas, authenticatedUser, getMacro (the stub's server has no macros), globalVariable (the MySQL
 * compatibility variables), hasThreadFuzzer, revision, getMaxTableNameLengthForDatabase, getClientHTTPHeader,
 * generateSerialID (which needs Keeper, which the server is not configured with), shardNum and shardCount (0 outside
 * a distributed query).
 */
final class FunctionsServerIntrospection {
    private static final String CATEGORY = "Other";
    /** ClickHouse's revision of the version the stub answers as (26.7). */
    static final long REVISION = 54513;
    /** The longest file name the engine allows, less the 42 bytes a table's metadata name needs beside its own. */
    private static final long TABLE_NAME_BUDGET = 255 - 42;
    /** The MySQL variables globalVariable knows, with their values; any other is 0. */
    private static final Map<String, Object> GLOBAL_VARIABLES = Map.of("max_allowed_packet", 67108864L, "version", "5.7.30");

    private FunctionsServerIntrospection() {
    }

    static void register(FunctionFactory f) {
        for (String name : List.of("currentProfiles", "enabledProfiles", "defaultProfiles")) {
            f.register(name, CATEGORY, (args, ctx) -> {
                Functions.arity(name, args, 0);
                return Evaluator.constant(DataTypes.array(DataTypes.STRING), List.of(ByteStrings.fromText("default")));
            });
        }
        f.register("currentSchemas", CATEGORY, (args, ctx) -> {
            Functions.arity("currentSchemas", args, 1);
            if (!(args.get(0).type() instanceof BoolType)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Argument for function currentSchemas must be bool");
            }
            return Evaluator.constant(DataTypes.array(DataTypes.STRING), List.of(ByteStrings.fromText(ctx.database())));
        });
        f.register("authenticatedUser", CATEGORY, (args, ctx) -> {
            Functions.arity("authenticatedUser", args, 0);
            return Evaluator.constant(DataTypes.STRING, ByteStrings.fromText(ctx.user()));
        });
        f.register("getMacro", CATEGORY, (args, ctx) -> getMacro(args));
        f.register("globalVariable", CATEGORY, (args, ctx) -> globalVariable(args));
        f.register("hasThreadFuzzer", CATEGORY, (args, ctx) -> {
            Functions.arity("hasThreadFuzzer", args, 0);
            return Evaluator.constant(DataTypes.UINT8, 0L);
        });
        f.register("revision", CATEGORY, (args, ctx) -> {
            Functions.arity("revision", args, 0);
            return Evaluator.constant(DataTypes.UINT32, REVISION);
        });
        f.register("getMaxTableNameLengthForDatabase", CATEGORY, (args, ctx) -> maxTableNameLength(args));
        f.register("getClientHTTPHeader", CATEGORY, (args, ctx) -> clientHttpHeader(args, ctx));
        f.register("generateSerialID", CATEGORY, (args, ctx) -> {
            Functions.argumentCount("generateSerialID", args, 1, 1);
            if (!(args.get(0).type() instanceof StringType)) {
                throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "series_identifier", "generateSerialID", "String",
                    args.get(0).type());
            }
            if (args.size() > 1 && !FunctionsMath.isNativeNumber(args.get(1).type())) {
                throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 2, "start_value", "generateSerialID", "UInt64",
                    args.get(1).type());
            }
            throw new ChException(ErrorCode.NO_ELEMENTS_IN_CONFIG, "Cannot get ZooKeeper");
        });
        for (String name : List.of("shardNum", "shardCount")) {
            f.register(name, CATEGORY, (args, ctx) -> {
                Functions.arity(name, args, 0);
                return Evaluator.constant(DataTypes.UINT32, 0L);
            });
        }
    }

    private static Evaluator getMacro(List<Evaluator> args) {
        Functions.arity("getMacro", args, 1);
        Evaluator a = args.get(0);
        if (!(a.type() instanceof StringType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "The argument of function getMacro must have String type");
        }
        if (!a.constant()) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "The argument of function getMacro must be constant String");
        }
        throw new ChException(ErrorCode.NO_ELEMENTS_IN_CONFIG, "No macro " + Functions.constString(a) + " in config");
    }

    private static Evaluator globalVariable(List<Evaluator> args) {
        Functions.arity("globalVariable", args, 1);
        Evaluator a = args.get(0);
        if (!(a.type() instanceof StringType) || !a.constant()) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Argument of function globalVariable must be constant string");
        }
        Object v = GLOBAL_VARIABLES.get(Functions.constString(a).toLowerCase(Locale.ROOT));
        if (v instanceof String s) {
            return Evaluator.constant(DataTypes.STRING, ByteStrings.fromText(s));
        }
        return Evaluator.constant(DataTypes.INT32, v == null ? 0L : v);
    }

    /** What remains of a file name for a table's name once the database's (escaped for a file name) takes its part. */
    private static Evaluator maxTableNameLength(List<Evaluator> args) {
        Functions.arity("getMaxTableNameLengthForDatabase", args, 1);
        Evaluator a = args.get(0);
        if (!(a.type() instanceof StringType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + a.type().name()
                + " of argument of function getMaxTableNameLengthForDatabase, expected String or FixedString");
        }
        if (!a.constant()) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "The argument of function getMaxTableNameLengthForDatabase must be constant");
        }
        String db = (String) a.eval(new Object[0]);
        if (db.isEmpty()) {
            throw new ChException(ErrorCode.INCORRECT_DATA, "Incorrect name for a database. It shouldn't be empty");
        }
        long escaped = 0;
        for (int i = 0; i < db.length(); i++) {
            char c = db.charAt(i);
            escaped += Character.isLetterOrDigit(c) && c < 0x80 || c == '_' ? 1 : 3;
        }
        return Evaluator.constant(DataTypes.UINT64, TABLE_NAME_BUDGET - escaped);
    }

    /** The named header of the HTTP request the query came in, of those the stub keeps (User-Agent, Referer); '' otherwise. */
    private static Evaluator clientHttpHeader(List<Evaluator> args, QueryContext ctx) {
        Functions.arity("getClientHTTPHeader", args, 1);
        if (!ctx.settings().getBool("allow_get_client_http_header")) {
            throw new ChException(ErrorCode.FUNCTION_NOT_ALLOWED,
                "The function getClientHTTPHeader requires setting `allow_get_client_http_header` to be enabled");
        }
        Evaluator a = args.get(0);
        DataType t = a.type();
        if (!(t instanceof StringType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "The argument of function getClientHTTPHeader must be String");
        }
        ClientInfo client = ctx.process() == null ? ClientInfo.NONE : ctx.process().client;
        return Evaluator.of(DataTypes.STRING, r -> {
            String name = ByteStrings.toText((String) a.eval(r)).toLowerCase(Locale.ROOT);
            String v = name.equals("user-agent") ? client.httpUserAgent() : name.equals("referer") ? client.httpReferer() : "";
            return ByteStrings.fromText(v == null ? "" : v);
        });
    }
}
