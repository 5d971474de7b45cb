package dev.chdedup.stub.replicated;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.mergetree.TableColumn;
import dev.chdedup.stub.mergetree.TableDefinition;
import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.sql.ExpressionFormatter;
import dev.chdedup.stub.sql.Parser;
import dev.chdedup.stub.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;

/**
 * ALTER of a replicated table's schema, as ClickHouse's {@code StorageReplicatedMergeTree::alter} and
 * {@code executeMetadataAlter} make it. The replica that runs the ALTER writes, in one multi, the table's new
 * {@code columns} and {@code metadata} nodes (the metadata node's version checked, so two ALTERs cannot interleave)
 * and an ALTER_METADATA entry into the shared log, whose alter version is the metadata node's version after it. Each
 * replica, its own included, executes the entry from its queue: it sets its replica's {@code columns},
 * {@code metadata} and {@code metadata_version} nodes, makes the texts its local definition and opens the table again
 * over its parts (the server's {@link ReplicationContext#setMetadataApplier applier}). A mutation that rewrites the
 * parts (a type change, DROP or CLEAR COLUMN) follows the entry; a replica runs none of its parts' mutations while an
 * ALTER_METADATA entry waits in its queue, so every replica rewrites a part with the same columns.
 * The texts are the engine's: {@code columns format version: 1}, a line per column with its default, comment and
 * codec after tabs (escaped), and the metadata's {@code sorting key:} and {@code indices:} lines when the table has them.
 */
final class ReplicatedMergeTreeAlter {
    private ReplicatedMergeTreeAlter() {
    }

    /** The {@code columns} text of a definition, as ClickHouse's ColumnsDescription writes it. */
    static String columnsText(TableDefinition def) {
        List<TableColumn> all = def.allColumns();
        StringBuilder sb = new StringBuilder("columns format version: 1\n").append(all.size()).append(" columns:\n");
        for (TableColumn c : all) {
            StringBuilder line = new StringBuilder();
            line.append('`').append(c.name().replace("\\", "\\\\").replace("`", "\\`")).append("` ").append(escape(c.type().name()));
            if (c.defaultKind() != null && c.defaultSql() != null) {
                line.append('\t').append(c.defaultKind()).append('\t').append(escape(formatted(c.defaultSql())));
            }
            String comment = def.clauseSql().get(Statement.COLUMN_COMMENT + c.name());
            if (comment != null && !comment.isEmpty()) {
                StringBuilder literal = new StringBuilder();
                dev.chdedup.stub.types.StringType.quote(comment, literal);
                line.append("\tCOMMENT ").append(escape(literal.toString()));
            }
            String codec = def.clauseSql().get(Statement.COLUMN_CODEC + c.name());
            if (codec != null) {
                line.append('\t').append(escape(codec));
            }
            String ttl = def.clauseSql().get(Statement.COLUMN_TTL + c.name());
            if (ttl != null) {
                line.append("\tTTL ").append(escape(formatted(ttl)));
            }
            sb.append(line).append('\n');
        }
        return sb.toString();
    }

    private static String formatted(String sql) {
        try {
            return ExpressionFormatter.format(sql);
        } catch (RuntimeException e) {
            return sql;
        }
    }

    /** The columns of a {@code columns} text, as a CREATE's column list. */
    static List<Statement.ColumnDef> parseColumns(String text) {
        String[] lines = text.split("\n");
        if (lines.length < 2 || !lines[0].equals("columns format version: 1") || !lines[1].endsWith(" columns:")) {
            throw new ChException(ErrorCode.CORRUPTED_DATA, "Cannot parse the columns of a replicated table: " + lines[0]);
        }
        List<Statement.ColumnDef> out = new ArrayList<>();
        for (int i = 2; i < lines.length; i++) {
            String l = lines[i];
            if (l.isEmpty()) {
                continue;
            }
            int end = 1;
            StringBuilder name = new StringBuilder();
            while (l.charAt(end) != '`') {
                if (l.charAt(end) == '\\') {
                    end++;
                }
                name.append(l.charAt(end++));
            }
            String[] parts = l.substring(end + 2).split("\t", -1);
            String type = ReplicatedMergeTreeMutationEntry.unescape(parts[0]);
            String kind = null;
            String defaultSql = null;
            String comment = null;
            String codec = null;
            String ttl = null;
            int p = 1;
            if (p + 1 < parts.length && List.of("DEFAULT", "MATERIALIZED", "ALIAS", "EPHEMERAL").contains(parts[p])) {
                kind = parts[p];
                defaultSql = ReplicatedMergeTreeMutationEntry.unescape(parts[p + 1]);
                p += 2;
            }
            for (; p < parts.length; p++) {
                String v = ReplicatedMergeTreeMutationEntry.unescape(parts[p]);
                if (v.startsWith("COMMENT ")) {
                    Expr e = new Parser(v.substring("COMMENT ".length())).standaloneExpr();
                    comment = String.valueOf(((Expr.Literal) e).value());
                } else if (v.startsWith("CODEC(")) {
                    codec = v;
                } else if (v.startsWith("TTL ")) {
                    ttl = v.substring("TTL ".length());
                }
            }
            Expr expr = defaultSql == null ? null : new Parser(defaultSql).standaloneExpr();
            out.add(new Statement.ColumnDef(name.toString(), type, kind, expr, defaultSql, comment, codec, ttl));
        }
        return out;
    }

    /** The lines a {@code metadata} text has beyond the CREATE's keys: {@code sorting key:} and {@code indices:}. */
    static String metadataExtras(TableDefinition def) {
        Map<String, String> cl = def.clauseSql();
        StringBuilder sb = new StringBuilder();
        if (cl.containsKey("PRIMARY KEY") && cl.containsKey("ORDER BY")) {
            sb.append("sorting key: ").append(keyList(cl.get("ORDER BY"))).append('\n');
        }
        if (cl.containsKey("TTL")) {
            sb.append("ttl: ").append(ExpressionFormatter.formatTtl(cl.get("TTL"))).append('\n');
        }
        List<String> indices = new ArrayList<>();
        for (Map.Entry<String, String> e : cl.entrySet()) {
            if (e.getKey().startsWith("INDEX ")) {
                indices.add(e.getKey().substring("INDEX ".length()) + " " + e.getValue());
            }
        }
        if (!indices.isEmpty()) {
            sb.append("indices: ").append(String.join(", ", indices)).append('\n');
        }
        return sb.toString();
    }

    /** A key as the metadata text writes it: its elements without the tuple's parentheses, nothing for an empty tuple. */
    static String keyList(String sql) {
        if (sql.isBlank()) {
            return "";
        }
        String f = formatted(sql);
        if (f.equals("tuple()")) {
            return "";
        }
        return f.startsWith("(") && f.endsWith(")") ? f.substring(1, f.length() - 1) : f;
    }

    /** The value of a {@code name: value} line of a metadata text, or null. */
    static String metadataLine(String metadata, String name) {
        for (String l : metadata.split("\n")) {
            if (l.startsWith(name + ": ")) {
                return l.substring(name.length() + 2);
            }
        }
        return null;
    }

    /**
     * The local CREATE statement after an ALTER_METADATA entry: {@code local} with the entry's columns (with their
     * defaults, comments and codecs), sorting key and skip indices; the rest (engine, partition key, settings, the
     * table's comment) stays.
     */
    static Statement.CreateTable applied(Statement.CreateTable local, ReplicatedMergeTreeLogEntry.AlterMetadata alter) {
        List<Statement.ColumnDef> cols = parseColumns(alter.columns());
        Map<String, String> clauses = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : local.clauseSql().entrySet()) {
            String k = e.getKey();
            if (!k.startsWith(Statement.COLUMN_COMMENT) && !k.startsWith(Statement.COLUMN_CODEC) && !k.startsWith(Statement.COLUMN_TTL)
                && !k.startsWith("INDEX ")) {
                clauses.put(k, e.getValue());
            }
        }
        for (Statement.ColumnDef c : cols) {
            if (c.comment() != null) {
                clauses.put(Statement.COLUMN_COMMENT + c.name(), c.comment());
            }
            if (c.codec() != null) {
                clauses.put(Statement.COLUMN_CODEC + c.name(), c.codec());
            }
            if (c.ttl() != null) {
                clauses.put(Statement.COLUMN_TTL + c.name(), c.ttl());
            }
        }
        String ttl = metadataLine(alter.metadata(), "ttl");
        if (ttl != null) {
            clauses.put("TTL", ttl);
        } else {
            clauses.remove("TTL");
        }
        String indices = metadataLine(alter.metadata(), "indices");
        if (indices != null) {
            for (String index : splitTopLevel(indices)) {
                int space = index.indexOf(' ');
                clauses.put("INDEX " + index.substring(0, space), index.substring(space + 1));
            }
        }
        Expr orderBy = local.orderBy();
        Expr primaryKey = local.primaryKey();
        String sorting = metadataLine(alter.metadata(), "sorting key");
        if (sorting != null) {
            String primary = metadataLine(alter.metadata(), "primary key");
            String orderSql = sorting.contains(",") ? "(" + sorting + ")" : sorting;
            String primarySql = primary == null ? null : primary.isEmpty() ? "tuple()" : primary.contains(",") ? "(" + primary + ")" : primary;
            orderBy = new Parser(orderSql).standaloneExpr();
            clauses.put("ORDER BY", orderSql);
            if (primarySql != null) {
                primaryKey = new Parser(primarySql).standaloneExpr();
                clauses.put("PRIMARY KEY", primarySql);
            }
        }
        return new Statement.CreateTable(local.database(), local.table(), false, false, cols, local.engine(), local.engineArgs(),
            local.partitionBy(), orderBy, primaryKey, local.settings(), clauses, null, null, null);
    }

    /** {@code a, b(c, d), e} split at its top-level commas. */
    private static List<String> splitTopLevel(String s) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        boolean quoted = false;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && quoted) {
                i++;
            } else if (c == '\'') {
                quoted = !quoted;
            } else if (!quoted && (c == '(' || c == '[')) {
                depth++;
            } else if (!quoted && (c == ')' || c == ']')) {
                depth--;
            } else if (!quoted && depth == 0 && c == ',') {
                out.add(s.substring(start, i).strip());
                start = i + 1;
            }
        }
        out.add(s.substring(start).strip());
        return out;
    }

    /**
     * Runs an ALTER of the schema from this replica: the table's {@code columns} and {@code metadata} nodes and the
     * ALTER_METADATA log entry in one multi, checked against the metadata node's version read before. With
     * {@code mutationCommands} (a type change, DROP or RENAME COLUMN) the mutation that rewrites the parts is written
     * with the entry's alter version before that multi, at block numbers taken in every partition, and removed again
     * when the multi fails; no replica mutates a part for it before it has applied the ALTER. Returns the alter version,
     * which this replica's queue reaches when it has applied the ALTER, and the mutation's name (null without one).
     */
    static StorageReplicatedMergeTree.AlterStarted alter(StorageReplicatedMergeTree table, TableDefinition newDefinition, String newMetadata, boolean haveMutation,
                         String mutationCommands) {
        ZooKeeperClient zk = table.zk();
        String columns = columnsText(newDefinition);
        try {
            Stat stat = new Stat();
            zk.curator().getData().storingStatIn(stat).forPath(table.paths().node("metadata"));
            int version = stat.getVersion() + 1;
            ReplicatedMergeTreeLogEntry entry = ReplicatedMergeTreeLogEntry.alterMetadata(table.replicaName(),
                new ReplicatedMergeTreeLogEntry.AlterMetadata(version, haveMutation, columns, newMetadata));
            List<CuratorOp> ops = new ArrayList<>();
            ops.add(zk.op().setData().withVersion(stat.getVersion()).forPath(table.paths().node("metadata"), ZooKeeperClient.bytes(newMetadata)));
            ops.add(zk.op().setData().forPath(table.paths().node("columns"), ZooKeeperClient.bytes(columns)));
            ops.add(zk.op().create().withMode(CreateMode.PERSISTENT_SEQUENTIAL).forPath(table.paths().log() + "/log-",
                ZooKeeperClient.bytes(entry.toText())));
            ReplicatedMergeTreeMutations mutations = table.mutations();
            List<String> locks = mutationCommands == null ? List.of() : mutations.takeBlockNumbers();
            String mutation = null;
            try {
                mutation = mutationCommands == null ? null : mutations.createEntry(mutationCommands, locks, version);
                zk.multi(ops);
            } catch (org.apache.zookeeper.KeeperException.BadVersionException concurrent) {
                if (mutation != null) {
                    mutations.forget(mutation);
                }
                throw new ChException(ErrorCode.CANNOT_ASSIGN_ALTER, "Metadata on replica is not up to date with common metadata in"
                    + " Zookeeper. It means that this replica still not applied some of previous alters. Probably too many alters"
                    + " executing concurrently (highly not recommended). You can retry this error");
            } finally {
                mutations.releaseBlockNumbers(locks);
            }
            table.queue().wakeUp();
            return new StorageReplicatedMergeTree.AlterStarted(version, mutation);
        } catch (ChException e) {
            throw e;
        } catch (Exception e) {
            throw StorageReplicatedMergeTree.zookeeperError("altering the table's metadata", e);
        }
    }

    /**
     * Executes an ALTER_METADATA entry on this replica: what its replica nodes become ({@code columns},
     * {@code metadata}, {@code metadata_version}), committed with the entry's removal; the local definition is
     * changed after that commit ({@link ReplicationContext#applyMetadata}).
     */
    static List<CuratorOp> execute(StorageReplicatedMergeTree table, ReplicatedMergeTreeLogEntry e) throws Exception {
        ReplicatedMergeTreeLogEntry.AlterMetadata alter = e.alter();
        ZooKeeperClient zk = table.zk();
        String current = zk.get(table.paths().replicaNode("metadata_version"));
        if (current != null && !current.isEmpty() && Integer.parseInt(current.strip()) >= alter.alterVersion()) {
            return List.of(); // applied before a restart: the local definition is the entry's already
        }
        List<CuratorOp> ops = new ArrayList<>();
        ops.add(zk.op().setData().forPath(table.paths().replicaNode("columns"), ZooKeeperClient.bytes(alter.columns())));
        ops.add(zk.op().setData().forPath(table.paths().replicaNode("metadata"), ZooKeeperClient.bytes(alter.metadata())));
        String versionNode = table.paths().replicaNode("metadata_version");
        ops.add(zk.exists(versionNode) == null
            ? zk.op().create().forPath(versionNode, ZooKeeperClient.bytes(Integer.toString(alter.alterVersion())))
            : zk.op().setData().forPath(versionNode, ZooKeeperClient.bytes(Integer.toString(alter.alterVersion()))));
        table.pendingAlter(alter);
        return ops;
    }

    private static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\' -> sb.append("\\\\");
                case '\t' -> sb.append("\\t");
                case '\n' -> sb.append("\\n");
                case '\'' -> sb.append("\\'");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }
}
