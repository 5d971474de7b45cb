package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.sql.Query;
import java.util.List;

/**
 * The table function {@code file(path [, format [, structure [, compression_method]]])}: its constant arguments, as
 * ClickHouse's TableFunctionFile takes them, handed to the catalog's StorageFile (which reads the server's user_files
 * directory and the formats, above this layer). A structure of {@code auto} (or none) is left to be inferred.
 */
final class TableFunctionFile {
    private TableFunctionFile() {
    }

    static SelectExecutor.Stream source(Query.TableFunction tf, ExprCompiler c, Catalog catalog, int maxBlock) {
        List<Expr> args = tf.args();
        if (args.isEmpty() || args.size() > 4) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "The signature of table function file shall be the following:\n"
                + " - filename\n - filename, format\n - filename, format, structure\n - filename, format, structure, compression_method\n");
        }
        String name = Functions.constString(c.compile(args.get(0)));
        String format = args.size() > 1 ? Functions.constString(c.compile(args.get(1))) : "auto";
        String structure = args.size() > 2 ? Functions.constString(c.compile(args.get(2))) : "auto";
        String compression = args.size() > 3 ? Functions.constString(c.compile(args.get(3))) : "auto";
        List<Column> columns = structure.equalsIgnoreCase("auto") ? null : TableFunctions.structure(structure);
        return catalog.file(name, format, columns, compression, maxBlock);
    }
}
