package dev.chdedup.stub.replicated;

import dev.chdedup.stub.mergetree.MergeTreeSettings;
import dev.chdedup.stub.mergetree.TableDefinition;
import java.util.Map;

/**
 * The text of a replicated table's {@code metadata} nodes (the table's and each replica's, and the one an
 * ALTER_METADATA entry carries), after ClickHouse's {@code ReplicatedMergeTreeTableMetadata::write}: the fixed lines,
 * the partition key, then {@code sorting key:}, {@code ttl:} and {@code indices:} when the table has them. 26.7 adds
 * {@code granularity bytes:} (the table's {@code index_granularity_bytes}, absent when 0: no adaptive granularity) and
 * {@code merge parameters format version: 2}; 18.16 wrote neither (clickhouse-observed/02a-create.txt), so a server
 * emulating it leaves them out.
 */
final class ReplicatedMergeTreeTableMetadata {
    /** ClickHouse's REPLICATED_MERGE_TREE_METADATA_WITH_ALL_MERGE_PARAMETERS, the version 26.7 writes. */
    static final int MERGE_PARAMETERS_FORMAT_VERSION = 2;

    private ReplicatedMergeTreeTableMetadata() {
    }

    static String text(TableDefinition def, Map<String, String> settings, boolean legacyLayout) {
        Map<String, String> cl = def.clauseSql();
        String primary = cl.containsKey("PRIMARY KEY") ? cl.get("PRIMARY KEY") : cl.getOrDefault("ORDER BY", "");
        StringBuilder sb = new StringBuilder("metadata format version: 1\ndate column: \nsampling expression: \nindex granularity: ")
            .append(settings.getOrDefault("index_granularity", "8192")).append("\nmode: 0\nsign column: \nprimary key: ")
            .append(ReplicatedMergeTreeAlter.keyList(primary)).append("\ndata format version: 1\npartition key: ")
            .append(ReplicatedMergeTreeAlter.keyList(cl.getOrDefault("PARTITION BY", ""))).append('\n')
            .append(ReplicatedMergeTreeAlter.metadataExtras(def));
        if (!legacyLayout) {
            long granularityBytes = MergeTreeSettings.getLong(settings, "index_granularity_bytes");
            if (granularityBytes != 0) {
                sb.append("granularity bytes: ").append(granularityBytes).append('\n');
            }
            sb.append("merge parameters format version: ").append(MERGE_PARAMETERS_FORMAT_VERSION).append('\n');
        }
        return sb.toString();
    }
}
