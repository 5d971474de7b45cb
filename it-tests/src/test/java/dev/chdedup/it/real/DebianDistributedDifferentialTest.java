package dev.chdedup.it.real;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.it.real.DistributedScenarios.Kind;
import dev.chdedup.it.real.DistributedScenarios.Scenario;
import dev.chdedup.it.real.DistributedScenarios.Step;
import dev.chdedup.stub.cluster.StubCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The stub's Distributed engine against a real one: seeded scenarios of {@link DistributedScenarios} (a Distributed table
 * over a local table on each of two shards; inserts through it foreground and background, repeats, subsets and supersets
 * of them, inserts into one shard's local table, reads over the Distributed table, statements 18.16 refuses) play on a
 * real ClickHouse 18.16 cluster of two shards (Debian's packages, {@link DebianClickHouse.Layout#SHARDS}) and on the
 * stub's two shards playing 18.16. Every statement's outcome (Ok., a read's rows, or an error's code) and every shard's
 * rows at the end must agree. A background insert is followed by a wait until neither server has a file of the table left
 * to send (18.16 has no SYSTEM FLUSH DISTRIBUTED). A scenario the reference cannot answer (its process is gone, or its
 * ZooKeeper session is: code 999, seen on a machine loaded many times over) is counted apart and is not a difference.
 * Skips where the packages are not installed. {@code -Ddistributed.differential.seed} and {@code .scenarios} choose the
 * run, {@code .budgetSeconds} bounds it; {@code .twice} scenarios are also played twice on the reference alone, which
 * proves the generator deterministic there (a difference between two runs of the reference is the generator's fault).
 */
class DebianDistributedDifferentialTest {
    private static final long SEED = Long.getLong("distributed.differential.seed", 20261206L);
    private static final int SCENARIOS = Integer.getInteger("distributed.differential.scenarios", 200);
    private static final int TWICE = Integer.getInteger("distributed.differential.twice", 12);
    /** No scenario starts after this long (a loaded machine runs fewer; the count run is printed). */
    private static final Duration BUDGET = Duration.ofSeconds(Long.getLong("distributed.differential.budgetSeconds", 600));
    private static final Duration SEND_WAIT = Duration.ofSeconds(60);
    /** How many differing scenarios are shrunk to a minimal reproduction, and for how long each at most. */
    private static final int SHRINK = Integer.getInteger("distributed.differential.shrink", 3);
    private static final Duration SHRINK_TIME = Duration.ofSeconds(90);

    private static DebianClickHouse clickhouse;
    private static StubCluster stub;

    @BeforeAll
    static void start() throws Exception {
        clickhouse = DebianClickHouse.startShardsOrSkip(2);
        stub = StubCluster.builder().shards(2).replicas(1).cluster(DebianClickHouse.CLUSTER).emulate("18.16").build().start();
    }

    @AfterAll
    static void stop() throws Exception {
        DebianClickHouse.closeAll(clickhouse, stub);
    }

    /** A side of the comparison: the server of each shard by URL, whether it still runs, where it keeps a table's files. */
    private interface Side {
        String url(int node);

        /** Whether the server still runs (a crash of the reference is told from a wrong answer by this). */
        boolean alive(int node);

        /** The directory of table {@code table} of the database {@code default} on {@code node}: a Distributed table's queue. */
        Path tableDirectory(int node, String table);
    }

    /** The reference could not answer: it crashed (its process is gone), or lost its ZooKeeper session (code 999). */
    private static final class ReferenceUnavailable extends Exception {
        ReferenceUnavailable(String message) {
            super(message);
        }
    }

    private static Side real() {
        return new Side() {
            @Override
            public String url(int node) {
                return clickhouse.httpUrl(node);
            }

            @Override
            public boolean alive(int node) {
                return clickhouse.alive(node);
            }

            @Override
            public Path tableDirectory(int node, String table) {
                return clickhouse.tableData(node, "default", table);
            }
        };
    }

    private static Side emulated() {
        return new Side() {
            @Override
            public String url(int node) {
                return stub.replica(node + 1, 1).httpUrl();
            }

            @Override
            public boolean alive(int node) {
                return true;
            }

            @Override
            public Path tableDirectory(int node, String table) {
                return stub.replica(node + 1, 1).dataDir().resolve("data").resolve("default").resolve(table);
            }
        };
    }

    @Test
    void theStubPlaying1816AgreesWithARealTwoShardCluster() throws Exception {
        List<String> differences = new ArrayList<>();
        List<String> crashes = new ArrayList<>();
        List<String> shrunk = new ArrayList<>();
        long started = System.nanoTime();
        int played = 0;
        for (int n = 0; n < SCENARIOS && System.nanoTime() - started < BUDGET.toNanos(); n++, played++) {
            Scenario scenario = DistributedScenarios.generate(SEED, n, "dd");
            try {
                String diff = compare(scenario);
                if (!diff.isEmpty()) {
                    differences.add(scenario + diff);
                    if (shrunk.size() < SHRINK) {
                        shrunk.add(shrink(scenario));
                    }
                }
            } catch (ReferenceUnavailable e) {
                crashes.add(scenario.number() + ": " + e.getMessage());
                restartCrashedReference();
            }
        }
        System.out.printf("DISTRIBUTED-DIFFERENTIAL ClickHouse %s two shards vs the stub's --shards 2 --emulate 18.16: %d of %d scenarios"
                + " (seed %d) in %d s, %d differences, %d unanswered by the reference%n", clickhouse.query(0, "SELECT version()").strip(), played, SCENARIOS, SEED,
            (System.nanoTime() - started) / 1_000_000_000L, differences.size(), crashes.size());
        crashes.forEach(c -> System.out.println("  unanswered by the reference: scenario " + c));
        differences.stream().limit(10).forEach(System.out::println);
        shrunk.forEach(s -> System.out.println("shrunk to a minimal reproduction: " + s));
        assertTrue(differences.isEmpty(), differences.size() + " of " + played + " scenarios differ; the first, shrunk:\n"
            + (differences.isEmpty() ? "" : shrunk.get(0) + "\nin full:\n" + differences.get(0)));
    }

    /** The differences between the reference's and the stub's answers to {@code scenario}, each side playing its own servers. */
    private static String compare(Scenario scenario) throws Exception {
        // the two sides are independent: the stub plays while the reference does
        CompletableFuture<List<String>> emulatedRun = playAsync(emulated(), scenario, false);
        List<String> expected;
        try {
            expected = play(real(), scenario, true);
        } catch (ReferenceUnavailable e) {
            emulatedRun.join();
            throw e;
        }
        return differences(scenario, expected, emulatedRun.join());
    }

    /**
     * A differing scenario with every step dropped (CREATEs aside) whose absence leaves a difference, replayed on fresh
     * tables until no step can go or {@link #SHRINK_TIME} is spent: the reproduction a report gives.
     */
    private static String shrink(Scenario scenario) throws Exception {
        long deadline = System.nanoTime() + SHRINK_TIME.toNanos();
        Scenario smallest = scenario;
        String diff = "";
        int replay = 0;
        boolean dropped = true;
        while (dropped && System.nanoTime() < deadline) {
            dropped = false;
            for (int i = smallest.steps().size() - 1; i >= 0 && System.nanoTime() < deadline; i--) {
                if (smallest.steps().get(i).kind() == Kind.CREATE) {
                    continue;
                }
                Scenario candidate = smallest.without(i).renamed("dm" + (replay++) + "_" + scenario.table());
                try {
                    String d = compare(candidate);
                    if (!d.isEmpty()) {
                        smallest = candidate;
                        diff = d;
                        dropped = true;
                    }
                } catch (ReferenceUnavailable e) {
                    restartCrashedReference(); // not shown to differ without the step: it stays
                }
            }
        }
        return diff.isEmpty() ? scenario + " (no step could go)" : smallest + diff;
    }

    /** The generator's scenarios answer the same twice on the reference: the differences the other test finds are the stub's. */
    @Test
    void theReferenceAnswersEveryScenarioTheSameTwice() throws Exception {
        List<String> differences = new ArrayList<>();
        int crashed = 0;
        int played = 0;
        long started = System.nanoTime();
        for (int n = 0; n < TWICE && System.nanoTime() - started < BUDGET.toNanos(); n++, played++) {
            Scenario first = DistributedScenarios.generate(SEED, n, "dt1");
            Scenario second = DistributedScenarios.generate(SEED, n, "dt2");
            try {
                String diff = differences(first, play(real(), first, true), play(real(), second, true));
                if (!diff.isEmpty()) {
                    differences.add(first + diff);
                }
            } catch (ReferenceUnavailable e) {
                crashed++;
                restartCrashedReference();
            }
        }
        System.out.printf("DISTRIBUTED-DIFFERENTIAL ClickHouse 18.16 against itself: %d scenarios (seed %d) played twice in %d s, %d differ,"
            + " %d unanswered%n", played, SEED, (System.nanoTime() - started) / 1_000_000_000L, differences.size(), crashed);
        differences.stream().limit(5).forEach(System.out::println);
        assertTrue(differences.isEmpty(), "the reference answers a scenario differently on a second run:\n"
            + (differences.isEmpty() ? "" : differences.get(0)));
    }

    private static void restartCrashedReference() throws IOException, InterruptedException {
        for (int r = 0; r < 2; r++) {
            if (!clickhouse.alive(r)) {
                clickhouse.restartCrashed(r);
            }
        }
    }

    private static CompletableFuture<List<String>> playAsync(Side side, Scenario scenario, boolean reference) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return play(side, scenario, reference);
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        });
    }

    /** The steps where two runs of a scenario answered differently, each with both answers; empty when they agree. */
    private static String differences(Scenario scenario, List<String> expected, List<String> actual) {
        StringBuilder diff = new StringBuilder();
        for (int i = 0; i < expected.size(); i++) {
            if (!expected.get(i).equals(actual.get(i))) {
                diff.append("\n  at ").append(i < scenario.steps().size() ? scenario.steps().get(i) : "the end")
                    .append("\n    real:     ").append(expected.get(i)).append("\n    emulated: ").append(actual.get(i));
            }
        }
        return diff.toString();
    }

    /** Each statement's outcome (Ok., a read's rows or "Code N"), then each shard's local rows. */
    private static List<String> play(Side side, Scenario scenario, boolean reference) throws Exception {
        List<String> outcomes = new ArrayList<>();
        for (Step step : scenario.steps()) {
            String outcome = outcome(side, step.node(), step.sql(), step.settings(), reference);
            if (reference && outcome.startsWith("Code 999 ")) {
                throw new ReferenceUnavailable(step + ": " + outcome);
            }
            outcomes.add(StatementOutcomes.comparable(outcome).replace('\n', '|'));
            if (step.kind() == Kind.BACKGROUND_INSERT && outcome.equals("Ok.")) {
                String unsent = awaitSends(side, scenario.table());
                if (unsent != null && reference) {
                    throw new AssertionError("the reference did not send " + unsent);
                } else if (unsent != null) {
                    outcomes.set(outcomes.size() - 1, "Ok. but not sent in " + SEND_WAIT.toSeconds() + " s: " + unsent);
                }
            }
        }
        for (int s = 0; s < 2; s++) {
            outcomes.add("shard " + (s + 1) + ": " + outcome(side, s, "SELECT k, v FROM default." + scenario.local() + " ORDER BY k, v",
                Map.of(), reference).replace('\n', '|'));
        }
        return outcomes;
    }

    /**
     * Polls both servers until neither has a file of {@code table} left to send in the table's directory (the files of a
     * send are deleted once the shard took the block; a broken file is set aside in {@code broken/}, which a difference in
     * rows then shows): null, or what is still unsent after {@link #SEND_WAIT}.
     */
    private static String awaitSends(Side side, String table) throws Exception {
        long deadline = System.nanoTime() + SEND_WAIT.toNanos();
        for (int node = 0; node < 2; node++) {
            Path dir = side.tableDirectory(node, table);
            if (!Files.isDirectory(dir.getParent())) {
                throw new AssertionError("no database directory " + dir.getParent() + ": where are " + table + "'s files to send?");
            }
            while (!pendingFiles(dir).isEmpty()) {
                if (System.nanoTime() > deadline) {
                    return pendingFiles(dir).size() + " files of " + table + " on s" + (node + 1);
                }
                Thread.sleep(20); // polling another process's background sends, with a deadline
            }
        }
        return null;
    }

    /** The files waiting to be sent under a Distributed table's directory (one directory per shard or replica). */
    private static List<Path> pendingFiles(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".bin"))
                .filter(p -> !p.getParent().getFileName().toString().equals("broken") && !p.getParent().getFileName().toString().equals("tmp"))
                .toList();
        } catch (IOException | java.io.UncheckedIOException e) {
            return List.of(dir); // a file went while listing: look again
        }
    }

    private static String outcome(Side side, int node, String sql, Map<String, String> settings, boolean reference) throws Exception {
        try {
            return StatementOutcomes.outcome(side.url(node), sql, settings);
        } catch (IOException e) {
            if (reference && !side.alive(node)) {
                throw new ReferenceUnavailable("@s" + (node + 1) + " " + sql + ": " + e + "; " + clickhouse.errorLogTail(node, 5));
            }
            return "no answer (" + e.getClass().getSimpleName() + ")";
        }
    }
}
