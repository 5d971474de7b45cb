package dev.chdedup.driver;

import com.clickhouse.jdbc.StatementImpl;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.sql.BatchUpdateException;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Calendar;
import java.util.List;

/**
 * The driver's PreparedStatement for an INSERT. It records parameters itself and renders each row as literals
 * when it is added, so a batch is kept as the text it will be sent as (memory close to the batch's own size) and
 * a retry re-sends exactly the same bytes even after the connection broke. An {@code INSERT ... VALUES (?, ...)}
 * batch goes out as one statement with one tuple per row, like the official driver does; any other
 * parameterized INSERT goes out once per batch entry. Statements are sent through an official-driver Statement
 * of the same connection, via the {@link InsertExecutor}. A batch of the form {@code INSERT INTO t [(cols)] VALUES (?, ...)}
 * whose columns all have a {@link RowBinaryEncoder} is recorded as RowBinary instead ({@link RowBinaryBatch}), each row
 * encoded at {@code addBatch}, and sent as {@code INSERT INTO t (cols) FORMAT RowBinary} under the same token, settings,
 * framing and journal; the choice is made at a batch's first row and kept for the whole batch.
 */
final class PreparedInsertHandler implements InvocationHandler {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(PreparedInsertHandler.class);
    /**
     * The names of PreparedStatement's parameter setters ({@code setXxx(int parameterIndex, ...)}), found once, so that
     * the hot path tells a setter by one set lookup (Statement's own setters, such as setFetchSize, are not among them).
     */
    private static final java.util.Set<String> PARAMETER_SETTERS = parameterSetters();

    private static java.util.Set<String> parameterSetters() {
        java.util.Set<String> statementSetters = new java.util.HashSet<>();
        for (Method m : Statement.class.getMethods()) {
            statementSetters.add(m.getName());
        }
        java.util.Set<String> out = new java.util.HashSet<>();
        for (Method m : PreparedStatement.class.getMethods()) {
            if (m.getName().startsWith("set") && m.getParameterCount() >= 1 && m.getParameterTypes()[0] == int.class
                && !statementSetters.contains(m.getName())) {
                out.add(m.getName());
            }
        }
        return java.util.Set.copyOf(out);
    }
    private final String sql;
    /**
     * {@code sql} with its JDBC escapes ({@code {fn ..}}, {@code {ts ..}}) converted once, as the official driver converts
     * a whole statement. The sender statement's own escape processing is off: run over the rendered text it would also
     * rewrite parameter values (the string {@code "{fn now()}"} would arrive as {@code now()}).
     */
    private final String text;
    private final SqlText.Kind kind;
    private final Connection connection;
    private final InsertExecutor executor;
    /** The SQL split at its placeholders: {@code pieces.size() - 1} parameters. */
    private final List<String> pieces;
    /** Where the VALUES tuple starts for a batchable INSERT ... VALUES (?, ...), else -1. */
    private final int tupleStart;
    private Object[] params;
    private boolean[] set;
    /** The recorded batch: the rendered tuples joined by ',' (VALUES form), or whole statements (other forms). */
    private final StringBuilder tuples = new StringBuilder();
    private int batchRows;
    private final List<String> statements = new ArrayList<>();
    private Statement sender;
    private PreparedStatement prepared;
    private boolean closed;
    private long lastCount = -1;
    private final StatementTokens tokens = new StatementTokens();
    /**
     * Per placeholder, the column it fills as date and time values are rendered for it; read from the table's facts at
     * the first such value and kept for the statement's life (null: not read yet, or unread because the facts were not
     * available, so the next batch asks again).
     */
    private TemporalLiterals.Target[] targets;
    private boolean targetsUnread;
    /** The shape of a statement that may be recorded as RowBinary, or null (it always takes the text path). */
    private final RowBinaryInsert shape;
    /** Per placeholder, the encoder of the column it fills; null until the table's columns were read and all are encodable. */
    private RowBinaryEncoder[] encoders;
    /** Why this statement's batches take the text path for good (null: they may go as RowBinary). */
    private String textReason;
    private String rowBinaryStatement;
    /** The batch being recorded as RowBinary (null: not yet needed); used while {@link #rowBinary} is true. */
    private RowBinaryBatch binary;
    /** Whether the current batch is recorded as RowBinary, decided at its first row. */
    private boolean rowBinary;

    private PreparedInsertHandler(String sql, SqlText.Kind kind, Connection connection, InsertExecutor executor) {
        this.sql = sql;
        this.text = StatementImpl.escapedSQLToNative(sql);
        this.kind = kind;
        this.connection = connection;
        this.executor = executor;
        this.pieces = SqlText.splitPlaceholders(text);
        int start = SqlText.valuesTupleStart(text);
        this.tupleStart = kind == SqlText.Kind.INSERT_VALUES && start >= 0 && pieces.size() > 1 ? start : -1;
        this.params = new Object[pieces.size() - 1];
        this.set = new boolean[params.length];
        this.shape = tupleStart >= 0 ? RowBinaryInsert.of(text) : null;
        this.textReason = tupleStart < 0 ? null : !executor.config().rowBinary() ? "dedup.rowBinary=false"
            : shape == null ? "the statement is not INSERT INTO t [(columns)] VALUES (?, ..., ?)" : null;
        if (textReason != null) {
            LOG.debug("Batches of [{}] take the text path: {}", sql, textReason);
        }
    }

    static PreparedStatement wrap(String sql, SqlText.Kind kind, Connection connection, InsertExecutor executor) {
        return Proxies.create(PreparedStatement.class, new Class<?>[] {DedupStatement.class},
            new PreparedInsertHandler(sql, kind, connection, executor));
    }

    private Statement sender() throws SQLException {
        if (sender == null) {
            sender = executor.delegate().createStatement();
            sender.setEscapeProcessing(false);
        }
        return sender;
    }

    @Override
    public Object invoke(Object proxy, Method m, Object[] args) throws Throwable {
        if (Proxies.isCommon(m)) {
            Object target = m.getName().equals("unwrap") || m.getName().equals("isWrapperFor") ? sender() : sender;
            return Proxies.common(proxy, target, m, args, "DedupPreparedStatement[" + sql + "]");
        }
        String name = m.getName();
        if (name.equals("close")) {
            closed = true;
            if (sender != null) {
                sender.close();
            }
            if (prepared != null) {
                prepared.close();
            }
            return null;
        }
        if (name.equals("isClosed")) {
            return closed;
        }
        if (closed) {
            throw new SQLException("The statement is closed", "HY010");
        }
        if (args != null && PARAMETER_SETTERS.contains(name) && m.getParameterCount() >= 1 && args[0] instanceof Integer) {
            setParameter(name, args);
            return null;
        }
        if (tokens.handles(name)) {
            return tokens.answer(name, args);
        }
        switch (name) {
            case "getConnection":
                return connection;
            case "setEscapeProcessing":
                // no effect on a prepared statement (its escapes were converted when it was prepared), as JDBC allows
                return null;
            case "clearParameters":
                Arrays.fill(params, null);
                Arrays.fill(set, false);
                return null;
            case "addBatch":
                if (args != null && args.length == 1) {
                    throw new SQLException("addBatch(String) is not allowed on a PreparedStatement", "HY000");
                }
                addBatch();
                return null;
            case "clearBatch":
                tuples.setLength(0);
                statements.clear();
                batchRows = 0;
                if (binary != null) {
                    binary.clear();
                }
                rowBinary = false;
                return null;
            case "execute":
            case "executeUpdate":
            case "executeLargeUpdate": {
                if (args != null && args.length > 0) {
                    throw new SQLException(name + "(String) is not allowed on a PreparedStatement", "HY000");
                }
                long n = run(render(), 1);
                lastCount = n;
                if (name.equals("execute")) {
                    return false;
                }
                return name.equals("executeUpdate") ? (Object) (int) Math.min(Integer.MAX_VALUE, n) : (Object) n;
            }
            case "executeBatch":
            case "executeLargeBatch": {
                long[] counts = executeBatch();
                return name.equals("executeLargeBatch") ? counts : Proxies.narrow(counts);
            }
            case "getUpdateCount":
                return (int) Math.min(Integer.MAX_VALUE, lastCount);
            case "getLargeUpdateCount":
                return lastCount;
            case "getResultSet":
            case "getMetaData":
                return null;
            case "getMoreResults":
                lastCount = -1;
                return false;
            case "getParameterMetaData":
                if (prepared == null) {
                    prepared = executor.delegate().prepareStatement(sql);
                }
                return prepared.getParameterMetaData();
            default:
                return Proxies.invoke(sender(), m, args);
        }
    }

    private void setParameter(String name, Object[] args) throws SQLException {
        int i = (Integer) args[0];
        if (i < 1 || i > params.length) {
            throw new SQLException("Parameter index " + i + " is out of range (1.." + params.length + ")", "07009");
        }
        Object v = args.length > 1 ? args[1] : null;
        switch (name) {
            case "setNull":
                v = null;
                break;
            case "setTimestamp":
                if (args.length > 2 && args[2] != null && v != null) {
                    v = withCalendar((Timestamp) v, (Calendar) args[2]);
                }
                break;
            case "setAsciiStream": case "setUnicodeStream": case "setCharacterStream": case "setNCharacterStream": case "setClob":
            case "setNClob":
                v = readText(v);
                break;
            case "setBinaryStream": case "setBlob":
                v = readBytes(v);
                break;
            default:
                break;
        }
        params[i - 1] = v;
        set[i - 1] = true;
    }

    private static Object withCalendar(Timestamp ts, Calendar cal) {
        java.time.LocalDateTime local = ts.toLocalDateTime();
        return local.atZone(cal.getTimeZone().toZoneId()).toInstant();
    }

    private static Object readText(Object v) throws SQLException {
        try {
            if (v instanceof Reader) {
                StringBuilder sb = new StringBuilder();
                char[] buf = new char[8192];
                int n;
                while ((n = ((Reader) v).read(buf)) > 0) {
                    sb.append(buf, 0, n);
                }
                return sb.toString();
            }
            if (v instanceof Clob) {
                return ((Clob) v).getSubString(1, (int) ((Clob) v).length());
            }
            if (v instanceof InputStream) {
                return new String(((InputStream) v).readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            }
            return v;
        } catch (IOException e) {
            throw new SQLException("Cannot read the parameter stream: " + e.getMessage(), "HY000", e);
        }
    }

    private static Object readBytes(Object v) throws SQLException {
        try {
            if (v instanceof InputStream) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                ((InputStream) v).transferTo(out);
                return out.toByteArray();
            }
            if (v instanceof Blob) {
                return ((Blob) v).getBytes(1, (int) ((Blob) v).length());
            }
            return v;
        } catch (IOException e) {
            throw new SQLException("Cannot read the parameter stream: " + e.getMessage(), "HY000", e);
        }
    }

    private void checkAllSet() throws SQLException {
        for (int i = 0; i < set.length; i++) {
            if (!set[i]) {
                throw new SQLException("Parameter " + (i + 1) + " is not set", "07001");
            }
        }
    }

    /** The whole statement with the current parameters inlined. */
    private String render() throws SQLException {
        checkAllSet();
        StringBuilder sb = new StringBuilder(text.length() + params.length * 8);
        for (int i = 0; i < params.length; i++) {
            sb.append(pieces.get(i));
            Literals.render(params[i], target(i), sb);
        }
        sb.append(pieces.get(params.length));
        return sb.toString();
    }

    /** What parameter {@code i} goes into, where its value is a date or time (other values need no target). */
    private TemporalLiterals.Target target(int i) {
        Object v = params[i];
        if (v == null || v instanceof CharSequence || v instanceof Number || v instanceof Boolean || v instanceof byte[]) {
            return null;
        }
        if (targets == null) {
            TableInfo info = executor.tableInfo(text);
            TemporalLiterals.Target[] read = new TemporalLiterals.Target[params.length];
            InsertColumns columns = InsertColumns.of(text, params.length);
            for (int p = 0; p < read.length; p++) {
                String type = columns.typeOf(p, info.columnTypes());
                read[p] = type != null ? TemporalLiterals.Target.of(type, info.serverZone())
                    : TemporalLiterals.Target.unknownColumn(info.serverZone());
            }
            targets = read;
            targetsUnread = info.serverZone() == null;
        }
        return targets[i];
    }

    private void addBatch() throws SQLException {
        if (tupleStart < 0) {
            statements.add(render());
            return;
        }
        checkAllSet();
        if (batchRows == 0 && (binary == null || binary.rows() == 0)) {
            rowBinary = rowBinaryPossible();
        }
        if (rowBinary && addRowBinary()) {
            return;
        }
        if (batchRows > 0) {
            tuples.append(',');
        }
        // the tuple: the template from its '(' with each placeholder replaced by the parameter's literal
        int offset = 0;
        for (int i = 0; i < params.length; i++) {
            String piece = pieces.get(i);
            int pieceEnd = offset + piece.length();
            if (pieceEnd > tupleStart) {
                tuples.append(piece, Math.max(0, tupleStart - offset), piece.length());
            }
            Literals.render(params[i], target(i), tuples);
            offset = pieceEnd + 1;
        }
        String last = pieces.get(params.length);
        tuples.append(last, Math.max(0, tupleStart - offset), trimEnd(last));
        batchRows++;
    }

    /**
     * Whether this statement's batch can be recorded as RowBinary: its shape is the simple one and every column it fills
     * has an encoder (read once from the table's columns; a table whose columns could not be read is asked again at the
     * next batch). The reason for the text path is logged at debug level once per statement.
     */
    private boolean rowBinaryPossible() {
        if (textReason != null) {
            return false;
        }
        if (encoders != null) {
            return true;
        }
        TableInfo info = executor.tableInfo(text);
        if (info.columnTypes().isEmpty() || info.serverZone() == null) {
            LOG.debug("Batch of [{}] takes the text path: the columns of {} could not be read", sql, info.describe());
            return false;
        }
        List<String> columns = shape.columns() != null ? shape.columns() : new ArrayList<>(info.columnTypes().keySet());
        RowBinaryEncoder[] found = new RowBinaryEncoder[params.length];
        StringBuilder target = new StringBuilder(shape.quotedTable()).append(" (");
        if (columns.size() != params.length) {
            return textFor("the table has " + columns.size() + " insertable columns for " + params.length + " placeholders");
        }
        for (int i = 0; i < params.length; i++) {
            String column = columns.get(i);
            String type = info.columnTypes().get(column);
            if (type == null) {
                return textFor("column " + column + " is not an insertable column of " + info.describe());
            }
            found[i] = RowBinaryEncoder.of(type, info.serverZone());
            if (found[i] == null) {
                return textFor("column " + column + " has type " + type + ", which RowBinary batches do not take");
            }
            target.append(i == 0 ? "" : ", ").append(RowBinaryInsert.quote(column));
        }
        rowBinaryStatement = RowBinarySender.statement(target.append(')').toString());
        encoders = found;
        LOG.debug("Batches of [{}] are recorded as RowBinary: {}", sql, rowBinaryStatement);
        return true;
    }

    private boolean textFor(String reason) {
        textReason = reason;
        LOG.debug("Batches of [{}] take the text path: {}", sql, reason);
        return false;
    }

    /**
     * Encodes the current parameters as one RowBinary row. A value the column cannot take fails the row: on the batch's
     * first row the batch takes the text path instead (false), on a later one addBatch fails and the row is not added.
     */
    private boolean addRowBinary() throws SQLException {
        if (binary == null) {
            binary = new RowBinaryBatch();
        }
        binary.beginRow();
        int i = 0;
        try {
            for (; i < params.length; i++) {
                encoders[i].encode(params[i], binary);
            }
        } catch (RowBinaryEncoder.Unencodable e) {
            binary.rollback();
            String what = "parameter " + (i + 1) + ": " + e.getMessage();
            if (binary.rows() == 0) {
                rowBinary = false;
                LOG.debug("Batch of [{}] takes the text path: {}", sql, what);
                return false;
            }
            throw new SQLException("Cannot add the row to a RowBinary batch, " + what + " (the batch's earlier rows took this column"
                + " as RowBinary; execute them, then add this row)", e.getSQLState(), e);
        }
        binary.endRow();
        return true;
    }

    private static int trimEnd(String s) {
        int e = s.length();
        while (e > 0 && (Character.isWhitespace(s.charAt(e - 1)) || s.charAt(e - 1) == ';')) {
            e--;
        }
        return e;
    }

    private long run(String statement, long rows) throws SQLException {
        if (targetsUnread) {
            targets = null;
        }
        InsertExecutor.Outcome o = tokens.execute(executor, sender(), statement, kind, rows);
        return Math.max(0, o.landedRows(rows));
    }

    private long[] executeBatch() throws SQLException {
        if (rowBinary && binary != null && binary.rows() > 0) {
            int rows = binary.rows();
            rowBinary = false;
            try {
                DedupMetrics.INSTANCE.rowBinaryBatches.increment();
                InsertExecutor.Outcome o = tokens.executeRowBinary(executor, rowBinaryStatement, binary);
                long written = Math.max(0, o.landedRows(rows));
                long[] counts = new long[rows];
                Arrays.fill(counts, written == rows ? 1 : Statement.SUCCESS_NO_INFO);
                return counts;
            } catch (SQLException e) {
                long[] failed = new long[rows];
                Arrays.fill(failed, Statement.EXECUTE_FAILED);
                throw new BatchUpdateException(e.getMessage(), e.getSQLState(), e.getErrorCode(), failed, e);
            } finally {
                binary.clear();
            }
        }
        if (tupleStart >= 0) {
            if (batchRows > 0) {
                DedupMetrics.INSTANCE.textBatches.increment();
            }
            int rows = batchRows;
            if (rows == 0) {
                return new long[0];
            }
            String statement = text.substring(0, tupleStart) + tuples;
            tuples.setLength(0);
            batchRows = 0;
            try {
                long written = run(statement, rows);
                long[] counts = new long[rows];
                Arrays.fill(counts, written == rows ? 1 : Statement.SUCCESS_NO_INFO);
                return counts;
            } catch (SQLException e) {
                long[] failed = new long[rows];
                Arrays.fill(failed, Statement.EXECUTE_FAILED);
                throw new BatchUpdateException(e.getMessage(), e.getSQLState(), e.getErrorCode(), failed, e);
            }
        }
        List<String> entries = new ArrayList<>(statements);
        statements.clear();
        long[] counts = new long[entries.size()];
        for (int i = 0; i < entries.size(); i++) {
            try {
                counts[i] = run(entries.get(i), -1);
            } catch (SQLException e) {
                throw new BatchUpdateException(e.getMessage(), e.getSQLState(), e.getErrorCode(), Arrays.copyOf(counts, i), e);
            }
        }
        return counts;
    }
}
