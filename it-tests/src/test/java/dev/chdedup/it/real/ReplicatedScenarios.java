package dev.chdedup.it.real;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A seeded generator of short scenarios on one ReplicatedMergeTree with two replicas, for the differential test against a
 * real 18.16 pair: inserts on either replica (split into one-row blocks or not, deduplicated or not, with a quorum of
 * both), retries of an earlier insert on the other replica, fetches stopped and started again, SYNC REPLICA, OPTIMIZE
 * FINAL, DROP PARTITION, ALTER DELETE and TRUNCATE, under {@code replicated_deduplication_window} 1, 2 or the default.
 *
 * <p>The reference's own defects are listed in {@link #REFERENCE_DEFECTS}: the generator keeps away from those it can,
 * and the one it cannot (an answer) is recognised by its text, so a difference is always the stub's.
 */
final class ReplicatedScenarios {
    /**
     * The defects of the real 18.16 that the stub does not copy; the generator does not write the statements that meet
     * them. Each entry: what 18.16 does, and the rule that keeps it out.
     */
    static final List<String> REFERENCE_DEFECTS = List.of(
        "OPTIMIZE FINAL that assigns no merge answers Code 49 'Unknown log entry type: 0': that answer is not compared"
            + " (the stub answers Ok., and the rows are compared as ever)",
        "a mutation of the part of the last satisfied quorum never finishes: no ALTER DELETE in a scenario with a quorum insert",
        "a TRUNCATE (or DROP PARTITION) right after the other replica's insert can hang for good: both replicas are synced first",
        "a replica can crash in ReplicatedMergeTreeQueue::tryFinalizeMutations after an ALTER DELETE right after inserts: both"
            + " replicas are synced first and the mutation is awaited before the next statement",
        "the cleanup a DROP_RANGE wakes applies the deduplication window a moment later, racing the next insert (seen both"
            + " ways in scenario 43 of seed 20261202); the stub applies it before the drop returns: both replicas are synced"
            + " after DROP PARTITION and TRUNCATE, which gives the woken cleanup its moment");

    /** One statement on one replica (0 or 1), with the settings it sends as URL parameters. */
    record Step(int replica, String sql, Map<String, String> settings, Kind kind) {
        @Override
        public String toString() {
            return "@r" + (replica + 1) + " " + sql + (settings.isEmpty() ? "" : " " + settings);
        }
    }

    enum Kind { CREATE, INSERT, CONTROL, SYNC, MUTATION, DDL }

    record Scenario(int number, String table, String partitionBy, Integer window, List<Step> steps) {
        @Override
        public String toString() {
            StringBuilder s = new StringBuilder("scenario " + number + " (" + table + (partitionBy.isEmpty() ? "" : ", PARTITION BY "
                + partitionBy) + (window == null ? "" : ", window " + window) + "):");
            for (Step st : steps) {
                s.append("\n  ").append(st);
            }
            return s.toString();
        }
    }

    private ReplicatedScenarios() {
    }

    static Scenario generate(long seed, int number) {
        Random rnd = new Random(seed * 1_000_003L + number);
        String table = "rd_" + seed + "_" + number;
        String partitionBy = rnd.nextBoolean() ? "k % 3" : "";
        Integer window = switch (rnd.nextInt(4)) {
            case 0 -> 1;
            case 1 -> 2;
            default -> null;
        };
        boolean quorumScenario = rnd.nextInt(3) == 0;
        List<Step> steps = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            steps.add(new Step(r, "CREATE TABLE default." + table + " (k UInt64, v String) ENGINE = ReplicatedMergeTree('/clickhouse/tables/rd/"
                + table + "', 'r" + (r + 1) + "')" + (partitionBy.isEmpty() ? "" : " PARTITION BY " + partitionBy) + " ORDER BY k"
                + (window == null ? "" : " SETTINGS replicated_deduplication_window = " + window), Map.of(), Kind.CREATE));
        }
        List<Step> inserts = new ArrayList<>();
        boolean[] fetchesStopped = new boolean[2];
        int stepCount = 3 + rnd.nextInt(7);
        for (int i = 0; i < stepCount; i++) {
            int what = rnd.nextInt(20);
            int r = rnd.nextInt(2);
            boolean anyStopped = fetchesStopped[0] || fetchesStopped[1];
            if (what < 10) {
                StringBuilder values = new StringBuilder();
                int rows = 1 + rnd.nextInt(4);
                for (int j = 0; j < rows; j++) {
                    values.append(j == 0 ? "" : ", ").append('(').append(rnd.nextInt(6)).append(", '").append((char) ('a' + rnd.nextInt(2))).append("')");
                }
                Map<String, String> settings = new LinkedHashMap<>();
                if (rnd.nextInt(3) == 0) {
                    settings.put("max_insert_block_size", "1");
                    settings.put("min_insert_block_size_rows", "0");
                    settings.put("min_insert_block_size_bytes", "0");
                }
                if (rnd.nextInt(6) == 0) {
                    settings.put("insert_deduplicate", "0");
                }
                if (quorumScenario && rnd.nextInt(2) == 0) {
                    settings.put("insert_quorum", "2");
                    // short only where it is meant to time out: a fetch on a busy machine must not
                    settings.put("insert_quorum_timeout", fetchesStopped[1 - r] ? "1000" : "60000");
                }
                Step s = new Step(r, "INSERT INTO default." + table + " VALUES " + values, settings, Kind.INSERT);
                steps.add(s);
                inserts.add(s);
            } else if (what < 13 && !inserts.isEmpty()) {
                Step earlier = inserts.get(rnd.nextInt(inserts.size()));
                Map<String, String> settings = new LinkedHashMap<>(earlier.settings());
                if (settings.containsKey("insert_quorum")) {
                    settings.put("insert_quorum_timeout", fetchesStopped[earlier.replica()] ? "1000" : "60000");
                }
                steps.add(new Step(1 - earlier.replica(), earlier.sql(), settings, Kind.INSERT));
            } else if (what < 15) {
                if (fetchesStopped[r]) {
                    steps.add(new Step(r, "SYSTEM START FETCHES default." + table, Map.of(), Kind.CONTROL));
                    fetchesStopped[r] = false;
                    steps.add(new Step(r, "SYSTEM SYNC REPLICA default." + table, Map.of(), Kind.SYNC));
                } else if (!fetchesStopped[1 - r]) {
                    steps.add(new Step(r, "SYSTEM STOP FETCHES default." + table, Map.of(), Kind.CONTROL));
                    fetchesStopped[r] = true;
                }
            } else if (what < 16 && !fetchesStopped[r]) {
                steps.add(new Step(r, "SYSTEM SYNC REPLICA default." + table, Map.of(), Kind.SYNC));
            } else if (!anyStopped) {
                syncBoth(steps, table);
                int kind = rnd.nextInt(4);
                if (kind == 0) {
                    steps.add(new Step(r, "OPTIMIZE TABLE default." + table + " FINAL", Map.of(), Kind.DDL));
                } else if (kind == 1 && !partitionBy.isEmpty()) {
                    steps.add(new Step(r, "ALTER TABLE default." + table + " DROP PARTITION " + rnd.nextInt(3), Map.of(), Kind.DDL));
                    syncBoth(steps, table); // the cleanup the drop woke has run (see REFERENCE_DEFECTS)
                } else if (kind == 2 && !quorumScenario) {
                    steps.add(new Step(r, "ALTER TABLE default." + table + " DELETE WHERE k = " + rnd.nextInt(6), Map.of(), Kind.MUTATION));
                } else {
                    steps.add(new Step(r, "TRUNCATE TABLE default." + table, Map.of(), Kind.DDL));
                    syncBoth(steps, table);
                }
            }
        }
        for (int r = 0; r < 2; r++) {
            if (fetchesStopped[r]) {
                steps.add(new Step(r, "SYSTEM START FETCHES default." + table, Map.of(), Kind.CONTROL));
            }
        }
        syncBoth(steps, table);
        return new Scenario(number, table, partitionBy, window, steps);
    }

    /** SYSTEM SYNC REPLICA on both replicas, unless nothing happened since both were synced (a SYNC of 18.16 is slow). */
    private static void syncBoth(List<Step> steps, String table) {
        boolean[] synced = new boolean[2];
        for (int i = steps.size() - 1; i >= 0; i--) {
            Step s = steps.get(i);
            if (s.kind() == Kind.CREATE || synced[0] && synced[1]) {
                return;
            }
            if (s.kind() != Kind.SYNC) {
                break;
            }
            synced[s.replica()] = true;
        }
        for (int r = 0; r < 2; r++) {
            steps.add(new Step(r, "SYSTEM SYNC REPLICA default." + table, Map.of(), Kind.SYNC));
        }
    }
}
