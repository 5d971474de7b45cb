package dev.chdedup.driver;

import dev.chdedup.driver.journal.JournalEntry;
import dev.chdedup.driver.journal.JournalResender;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;

/**
 * The driver's Connection: statements it creates are wrapped so that INSERTs go through the
 * {@link InsertExecutor}; a PreparedStatement is classified once, when prepared, and only an INSERT gets the
 * recording wrapper. It also serves journal replays ({@link JournalResender}). Every other call goes straight to the
 * official driver's connection.
 */
final class ConnectionHandler implements InvocationHandler {
    private final Connection delegate;
    private final InsertExecutor executor;
    private Connection self;

    private ConnectionHandler(Connection delegate, InsertExecutor executor) {
        this.delegate = delegate;
        this.executor = executor;
    }

    static Connection wrap(Connection delegate, InsertExecutor executor) {
        ConnectionHandler h = new ConnectionHandler(delegate, executor);
        h.self = Proxies.create(Connection.class, new Class<?>[] {JournalResender.class}, h);
        return h.self;
    }

    @Override
    public Object invoke(Object proxy, Method m, Object[] args) throws Throwable {
        if (Proxies.isCommon(m)) {
            return Proxies.common(proxy, delegate, m, args, "DedupConnection");
        }
        switch (m.getName()) {
            case "createStatement": {
                Statement s = (Statement) Proxies.invoke(delegate, m, args);
                return StatementHandler.wrap(s, self, executor);
            }
            case "prepareStatement": {
                String sql = (String) args[0];
                SqlText.Kind kind = SqlText.classify(sql);
                if (kind != SqlText.Kind.OTHER && executor.config().enabled()) {
                    return PreparedInsertHandler.wrap(sql, kind, self, executor);
                }
                PreparedStatement ps = (PreparedStatement) Proxies.invoke(delegate, m, args);
                return PassThroughHandler.wrap(ps, PreparedStatement.class, self);
            }
            case "journalTableInfo":
                return executor.tableInfo((JournalEntry) args[0]);
            case "journalResend":
                return executor.resend((JournalEntry) args[0]);
            case "close":
                executor.close();
                return Proxies.invoke(delegate, m, args);
            default:
                return Proxies.invoke(delegate, m, args);
        }
    }
}
