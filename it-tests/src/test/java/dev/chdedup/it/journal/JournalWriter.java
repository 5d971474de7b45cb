package dev.chdedup.it.journal;

import dev.chdedup.driver.DedupStatement;
import dev.chdedup.driver.journal.DedupJournal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.Random;
import java.util.UUID;

/**
 * The writer process of {@link JournalCrashTest}: connects through the driver with a journal (which re-sends what
 * an earlier, killed writer left pending before the connection is handed out), then inserts numbered batches of
 * {@value #ROWS} rows (ids {@code batch * ROWS + i}) forever, alternating PreparedStatement batches and plain
 * Statements, each with a token {@code batch-<n>-<uuid>}. Before about half the batches it arms one fault through the
 * stub's failpoint SQL (a lost acknowledgement after commit, an unknown-outcome error before it, or a 503), so
 * that batches are retried. Prints {@code READY}, {@code START n} before executing batch n, {@code JOURNALED n} once
 * its journal entry is durable, and {@code DONE n}. Arguments: our URL, the raw URL, the table, the journal
 * directory, the first batch, a seed. With {@code hold} as the only argument after the directory it just holds the
 * journal (for the lock test): prints {@code HOLDING} and waits to be killed.
 */
public final class JournalWriter {
    static final int ROWS = 10;
    private static final String[] FAULTS = {"stub_insert_drop_after_commit", "stub_insert_error", "stub_insert_http_503"};

    private JournalWriter() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[1].equals("hold")) {
            DedupJournal.open(Path.of(args[0]));
            System.out.println("HOLDING");
            System.out.flush();
            Thread.sleep(Long.MAX_VALUE);
            return;
        }
        if (args.length == 4 && args[3].equals("one-batch")) {
            oneBatch(args[0], args[1], args[2]);
            return;
        }
        String ours = args[0];
        String raw = args[1];
        String table = args[2];
        Path dir = Path.of(args[3]);
        long first = Long.parseLong(args[4]);
        Random random = new Random(Long.parseLong(args[5]));
        Class.forName("dev.chdedup.driver.DedupDriver");
        try (Connection c = DriverManager.getConnection(ours); Connection admin = DriverManager.getConnection(raw);
             Statement adminSt = admin.createStatement();
             PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (id, s) VALUES (?, ?)");
             Statement st = c.createStatement()) {
            DedupJournal.open(dir).setAppendListener(e -> say("JOURNALED " + e.token().split("-")[1]));
            say("READY");
            for (long n = first; ; n++) {
                if (random.nextBoolean()) {
                    String f = FAULTS[random.nextInt(FAULTS.length)];
                    adminSt.execute("SYSTEM ENABLE FAILPOINT " + f + " FOR 1 INSERTS ON TABLE " + table
                        + (f.equals("stub_insert_error") ? " CODE 319" : ""));
                }
                say("START " + n);
                String token = "batch-" + n + "-" + UUID.randomUUID();
                if (n % 2 == 0) {
                    for (int i = 0; i < ROWS; i++) {
                        ps.setLong(1, n * ROWS + i);
                        ps.setString(2, "b" + n);
                        ps.addBatch();
                    }
                    ps.unwrap(DedupStatement.class).setNextToken(token);
                    ps.executeBatch();
                } else {
                    StringBuilder sql = new StringBuilder("INSERT INTO " + table + " (id, s) VALUES ");
                    for (int i = 0; i < ROWS; i++) {
                        sql.append(i == 0 ? "" : ", ").append('(').append(n * ROWS + i).append(", 'b").append(n).append("')");
                    }
                    st.unwrap(DedupStatement.class).setNextToken(token);
                    st.executeUpdate(sql.toString());
                }
                say("DONE " + n);
            }
        }
    }

    /**
     * One PreparedStatement batch of {@value #ROWS} rows (ids 0..ROWS-1) whose acknowledgement the stub drops after the
     * commit, so that the writer waits to retry it (the test kills it there). Arguments: our URL (with the journal), the
     * raw URL, the table, {@code one-batch}.
     */
    private static void oneBatch(String ours, String raw, String table) throws Exception {
        Class.forName("dev.chdedup.driver.DedupDriver");
        try (Connection c = DriverManager.getConnection(ours); Connection admin = DriverManager.getConnection(raw);
             Statement adminSt = admin.createStatement();
             PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (id, s) VALUES (?, ?)")) {
            adminSt.execute("SYSTEM ENABLE FAILPOINT stub_insert_drop_after_commit FOR 1 INSERTS ON TABLE " + table);
            for (int i = 0; i < ROWS; i++) {
                ps.setLong(1, i);
                ps.setString(2, "one-" + i);
                ps.addBatch();
            }
            say("START 0");
            ps.executeBatch();
            say("DONE 0");
        }
    }

    private static synchronized void say(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
