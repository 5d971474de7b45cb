package dev.chdedup.it.migrations;

import java.util.List;
import java.util.Map;
import liquibase.Scope;
import liquibase.database.Database;
import liquibase.exception.DatabaseException;
import liquibase.exception.LockException;
import liquibase.executor.Executor;
import liquibase.executor.ExecutorService;
import liquibase.ext.clickhouse.lockservice.ClickHouseLockService;
import liquibase.statement.core.LockDatabaseChangeLogStatement;
import liquibase.statement.core.SelectFromDatabaseChangeLogLockStatement;
import liquibase.statement.core.UnlockDatabaseChangeLogStatement;
import liquibase.util.NetUtil;

/**
 * Liquibase's change log lock for liquibase-clickhouse over the official JDBC driver. The extension takes and
 * releases the lock with {@code ALTER TABLE DATABASECHANGELOGLOCK UPDATE ... WHERE ID = 1 AND LOCKED = 0}, and
 * the extension's lock service (Liquibase's StandardLockService) holds the lock taken only when the statement reports one row updated: the legacy
 * ru.yandex driver the extension was written for answered 1 to any executeUpdate, the official driver answers the
 * rows the server reports written, which for a mutation is 0, so the standard service never gets the lock, against
 * the stub or a real server alike. This service runs the same statements and reads the lock row back instead
 * (the stub applies the mutation before it answers; on a real server add {@code mutations_sync = 2} to the
 * connection). Found by LiquibaseMigrationsTest; registered through META-INF/services for the tests only.
 */
public final class ClickHouseMutationLockService extends ClickHouseLockService {
    /** Before the extension's own service, whose table checks it keeps. */
    @Override
    public int getPriority() {
        return super.getPriority() + 1;
    }

    @Override
    public boolean supports(Database database) {
        return "clickhouse".equals(database.getShortName());
    }

    private Executor executor() {
        return Scope.getCurrentScope().getSingleton(ExecutorService.class).getExecutor("jdbc", database);
    }

    @Override
    public boolean acquireLock() throws LockException {
        if (hasChangeLogLock) {
            return true;
        }
        try {
            init();
            executor().update(new LockDatabaseChangeLogStatement());
            List<Map<String, ?>> rows = executor().queryForList(new SelectFromDatabaseChangeLogLockStatement("LOCKED", "LOCKEDBY"));
            Map<String, ?> row = rows.isEmpty() ? Map.of() : rows.get(0);
            Object locked = row.get("LOCKED");
            Object by = row.get("LOCKEDBY");
            hasChangeLogLock = (Boolean.TRUE.equals(locked) || locked instanceof Number && ((Number) locked).intValue() == 1)
                && by != null && by.toString().startsWith(NetUtil.getLocalHostName());
            database.setCanCacheLiquibaseTableInfo(hasChangeLogLock);
            return hasChangeLogLock;
        } catch (DatabaseException e) {
            throw new LockException(e);
        }
    }

    @Override
    public void releaseLock() throws LockException {
        try {
            if (hasDatabaseChangeLogLockTable()) {
                executor().update(new UnlockDatabaseChangeLogStatement());
            }
            hasChangeLogLock = false;
            database.setCanCacheLiquibaseTableInfo(false);
        } catch (DatabaseException e) {
            throw new LockException(e);
        }
    }
}
