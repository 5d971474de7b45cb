package dev.chdedup.it.real;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.it.real.DistributedScenarios.Kind;
import dev.chdedup.it.real.DistributedScenarios.Scenario;
import dev.chdedup.it.real.DistributedScenarios.Step;
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
 * to send (18.16 has no SYSTEM FLUSH DISTRIBUTED). A crash of the reference is told apart (its process is gone) and is not
 * a difference. Skips where the packages are not installed. {@code -Ddistributed.differential.seed} and {@code .scenarios}
 * choose the run; {@code .twice} scenarios are also played twice on the reference alone, which proves the generator
 * deterministic there (a difference between two runs of the reference is the generator's fault, not the stub's).
 */
class DebianDistributedDifferentialTest {
    private static final long SEED = Long.getLong("distributed.differential.seed", 20261206L);
    private static final int SCENARIOS = Integer.getInteger("distributed.differential.scenarios", 200);
    private static final int TWICE = Integer.getInteger("distributed.differential.twice", 12);
    private static final Duration SEND_WAIT = Duration.ofSeconds(60);

    private static DebianClickHouse clickhouse;
    private static StubShards stub;

    @BeforeAll
    static void start() throws Exception {
        clickhouse = DebianClickHouse.startShardsOrSkip(2);
        stub = StubShards.start(DebianClickHouse.CLUSTER, "18.16");
    }

    @AfterAll
    static void stop() throws Exception {
        DebianClickHouse.closeAll(clickhouse, stub);
    }

    /** A side of the comparison: the server of each shard, and where it queues a Distributed table's background sends. */
    interface Side {
        String url(int node);

        /** Whether the server still runs (a crash of the reference is told from a wrong answer by this). */
        boolean alive(int node);

        /** The directory a Distributed table of the {@code default} database keeps its files to send in, on {@code node}. */
        Path distributedDirectory(int node, String table);
    }

    /** The reference crashed (its process is gone) while running a scenario. */
    private static final class ReferenceCrash extends Exception {
        ReferenceCrash(String message) {
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
            public Path distributedDirectory(int node, String table) {
                return clickhouse.tableData(node, "default", table);
            }
        };
    }

    @Test
    void theStubPlaying1816AgreesWithARealTwoShardCluster() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(stubHasTheDistributedEngine(),
            "Skipped until the stub's Distributed engine (issue 39) lands: CREATE TABLE ... ENGINE = Distributed over its shards fails");
        List<String> differences = new ArrayList<>();
        List<String> crashes = new ArrayList<>();
        long started = System.nanoTime();
        for (int n = 0; n < SCENARIOS; n++) {
            Scenario scenario = DistributedScenarios.generate(SEED, n, "dd");
            // the two sides are independent: the stub plays while the reference does
            CompletableFuture<List<String>> emulatedRun = playAsync(stub, scenario, false);
            List<String> expected;
            try {
                expected = play(real(), scenario, true);
            } catch (ReferenceCrash e) {
                emulatedRun.join();
                crashes.add(scenario.number() + ": " + e.getMessage());
                restartCrashedReference();
                continue;
            }
            String diff = differences(scenario, expected, emulatedRun.join());
            if (!diff.isEmpty()) {
                differences.add(scenario + diff);
            }
        }
        System.out.printf("DISTRIBUTED-DIFFERENTIAL ClickHouse %s two shards vs the stub's --shards 2 --emulate 18.16: %d scenarios (seed %d)"
                + " in %d s, %d differences, %d reference crashes%n", clickhouse.query(0, "SELECT version()").strip(), SCENARIOS, SEED,
            (System.nanoTime() - started) / 1_000_000_000L, differences.size(), crashes.size());
        crashes.forEach(c -> System.out.println("  reference crash in scenario " + c));
        differences.stream().limit(10).forEach(System.out::println);
        assertTrue(differences.isEmpty(), differences.size() + " of " + SCENARIOS + " scenarios differ; the first:\n"
            + (differences.isEmpty() ? "" : differences.get(0)));
    }

    /**
     * Whether the stub creates a Distributed table over its two shards: the engine of issue 39 is being built, and until
     * it is there every scenario would differ at its first CREATE. This gate goes once the engine is in main.
     */
    private static boolean stubHasTheDistributedEngine() throws Exception {
        String probe = "dd_probe_" + System.nanoTime();
        String created = StatementOutcomes.outcome(stub.url(0), "CREATE TABLE default." + probe + " (k UInt64) ENGINE = Distributed("
            + DebianClickHouse.CLUSTER + ", default, " + probe + "_local, k)", Map.of());
        return created.equals("Ok.");
    }

    /** The generator's scenarios answer the same twice on the reference: the differences the other test finds are the stub's. */
    @Test
    void theReferenceAnswersEveryScenarioTheSameTwice() throws Exception {
        List<String> differences = new ArrayList<>();
        int crashed = 0;
        for (int n = 0; n < TWICE; n++) {
            Scenario first = DistributedScenarios.generate(SEED, n, "dt1");
            Scenario second = DistributedScenarios.generate(SEED, n, "dt2");
            try {
                String diff = differences(first, play(real(), first, true), play(real(), second, true));
                if (!diff.isEmpty()) {
                    differences.add(first + diff);
                }
            } catch (ReferenceCrash e) {
                crashed++;
                restartCrashedReference();
            }
        }
        System.out.printf("DISTRIBUTED-DIFFERENTIAL ClickHouse 18.16 against itself: %d scenarios (seed %d) played twice, %d differ,"
            + " %d reference crashes%n", TWICE, SEED, differences.size(), crashed);
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
            outcomes.add(StatementOutcomes.comparable(outcome).replace('\n', '|'));
            if (step.kind() == Kind.BACKGROUND_INSERT && outcome.equals("Ok.")) {
                awaitSends(side, scenario.table(), reference);
            }
        }
        for (int s = 0; s < 2; s++) {
            outcomes.add("shard " + (s + 1) + ": " + outcome(side, s, "SELECT k, v FROM default." + scenario.local() + " ORDER BY k, v",
                Map.of(), reference).replace('\n', '|'));
        }
        return outcomes;
    }

    /**
     * Polls both servers until neither has a file of {@code table} left to send (the files of a send are deleted once the
     * shard took the block; a broken file is set aside in {@code broken/}, which a difference in rows then shows).
     */
    private static void awaitSends(Side side, String table, boolean reference) throws Exception {
        long deadline = System.nanoTime() + SEND_WAIT.toNanos();
        for (int node = 0; node < 2; node++) {
            Path dir = side.distributedDirectory(node, table);
            while (!pendingFiles(dir).isEmpty()) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError((reference ? "the reference" : "the stub") + " did not send " + pendingFiles(dir) + " of " + table);
                }
                Thread.sleep(20); // polling another process's background sends, with a deadline
            }
        }
    }

    /** The files waiting to be sent under a Distributed table's directory (one directory per shard or replica). */
    static List<Path> pendingFiles(Path dir) throws IOException {
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
                throw new ReferenceCrash("@s" + (node + 1) + " " + sql + ": " + e + "; " + clickhouse.errorLogTail(node, 5));
            }
            return "no answer (" + e.getClass().getSimpleName() + ")";
        }
    }
}
