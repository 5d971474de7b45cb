package dev.chdedup.stub.conformance;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A golden case in the format of the shared conformance runner ({@code conformance/run.py}), parsed and replayed
 * the same way: {@code # comment}; {@code > STATEMENT} with {@code >>} continuation lines; {@code > SET k = v} is
 * not sent but becomes a URL setting of every later statement; plain lines after a statement are its expected
 * TabSeparated output; {@code !ERR NAME} means it must fail with NAME in the error text; {@code !ROWS} means an
 * empty result; {@code > @r2 STATEMENT} goes to the second replica's client; {@code $DATABASE} in a statement is the
 * case's database. Part names in results become P1, P2, ... in order of first appearance within each result. A case
 * runs in a fresh database of the same name on every replica, passed as the {@code database} URL parameter, dropped
 * afterwards.
 */
public final class CaseFile {
    static final Pattern PART = Pattern.compile("^[A-Za-z0-9-]+_\\d+_\\d+_\\d+(_\\d+)?$");
    static final Pattern SET = Pattern.compile("(?is)^SET\\s+(\\w+)\\s*=\\s*(.+?)\\s*;?\\s*$");
    static final Pattern REPLICA = Pattern.compile("(?s)^@r(\\d+)\\s+(.*)$");

    /** One statement with what it must give. */
    record Step(StringBuilder sql, int replica, List<String> expect, String[] err, boolean[] check) {
        String text() {
            return sql.toString();
        }
    }

    private final List<Step> steps;

    private CaseFile(List<Step> steps) {
        this.steps = steps;
    }

    public static CaseFile read(Path path) throws IOException {
        return parse(Files.readString(path, StandardCharsets.UTF_8));
    }

    public static CaseFile parse(String text) {
        List<Step> steps = new ArrayList<>();
        Step cur = null;
        for (String line : text.replace("\r\n", "\n").split("\n", -1)) {
            if (line.startsWith(">>")) {
                cur.sql.append('\n').append(line.substring(2).strip());
            } else if (line.startsWith("> ")) {
                String sql = line.substring(2).strip();
                int replica = 1;
                Matcher r = REPLICA.matcher(sql);
                if (r.matches()) {
                    replica = Integer.parseInt(r.group(1));
                    sql = r.group(2);
                }
                cur = new Step(new StringBuilder(sql), replica, new ArrayList<>(), new String[1], new boolean[1]);
                steps.add(cur);
            } else if (line.startsWith("#") || line.isBlank() && cur == null) {
                continue;
            } else if (line.startsWith("!ERR ")) {
                cur.err[0] = line.substring(5).strip();
                cur.check[0] = true;
            } else if (line.strip().equals("!ROWS")) {
                cur.check[0] = true;
            } else if (line.isBlank()) {
                continue;
            } else {
                cur.expect.add(line);
                cur.check[0] = true;
            }
        }
        return new CaseFile(steps);
    }

    public int statements() {
        return steps.size();
    }

    /** The number of replicas the case addresses (its highest {@code @rN}). */
    public int replicas() {
        return steps.stream().mapToInt(Step::replica).max().orElse(1);
    }

    /** Replays the case; returns the problems found, empty when it passes. */
    public List<String> run(ConformanceClient client) {
        return run(List.of(client));
    }

    /** Replays the case against the replicas of a cluster, r1 first. */
    public List<String> run(List<ConformanceClient> replicas) {
        return run(replicas, false);
    }

    /** {@code INSERT INTO t SETTINGS a = 1, b = 'x' VALUES ...}: the table, the settings, the rest. */
    static final Pattern INSERT_SETTINGS = Pattern.compile("(?is)^(INSERT\\s+INTO\\s+\\S+(?:\\s*\\([^)]*\\))?)\\s+SETTINGS\\s+(.+?)\\s+((?:VALUES|FORMAT|SELECT)\\b.*)$");

    /**
     * Replays the case against the replicas of a cluster, r1 first; {@code oldServer} plays it on a release without
     * {@code INSERT ... SETTINGS} (18.16): those settings go as URL parameters of that statement, and an expected error
     * NAME matches the text or, as such a server names no error, {@code Code: N} of its number.
     */
    public List<String> run(List<ConformanceClient> replicas, boolean oldServer) {
        if (replicas() > replicas.size()) {
            return List.of("needs " + replicas() + " replicas (given " + replicas.size() + ")");
        }
        String db = "conf_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        for (ConformanceClient c : replicas) {
            ConformanceClient.Reply created = c.send("CREATE DATABASE " + db);
            if (created.status() != 200) {
                return List.of("cannot create database: " + created.status() + " " + created.body().strip());
            }
        }
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("database", db);
        List<String> problems = new ArrayList<>();
        try {
            for (int i = 1; i <= steps.size(); i++) {
                Step st = steps.get(i - 1);
                Matcher m = SET.matcher(st.text());
                if (m.matches()) {
                    settings.put(m.group(1), strip(m.group(2).strip(), '\''));
                    continue;
                }
                String sql = stripTrailing(st.text().stripTrailing(), ';').replace("$DATABASE", db);
                Map<String, String> params = settings;
                Matcher inline = INSERT_SETTINGS.matcher(sql);
                if (oldServer && inline.matches()) {
                    params = new LinkedHashMap<>(settings);
                    for (String kv : inline.group(2).split(",")) {
                        String[] p = kv.split("=", 2);
                        params.put(p[0].strip(), strip(p[1].strip(), '\''));
                    }
                    sql = inline.group(1) + " " + inline.group(3);
                }
                ConformanceClient.Reply r = replicas.get(st.replica() - 1).send(sql, params);
                if (st.err[0] != null) {
                    if (r.status() == 200 || !r.body().contains(st.err[0]) && !(oldServer && r.body().startsWith("Code: " + codeOf(st.err[0]) + ","))) {
                        problems.add("statement " + i + " should fail with " + st.err[0] + ", got " + r.status() + ": " + brief(r.body(), 300));
                    }
                    continue;
                }
                if (r.status() != 200) {
                    problems.add("statement " + i + " failed: " + r.status() + " " + brief(r.body(), 400) + "\n      sql: " + brief(sql, 200));
                    break;
                }
                if (st.check[0]) {
                    List<String> got = canon(r.body());
                    if (!got.equals(st.expect)) {
                        problems.add("statement " + i + ": " + brief(sql.replace('\n', ' '), 160) + "\n      want: " + st.expect
                            + "\n      got:  " + got);
                    }
                }
            }
        } finally {
            for (ConformanceClient c : replicas) {
                c.send("DROP DATABASE IF EXISTS " + db);
            }
        }
        return problems;
    }

    private static String codeOf(String errorName) {
        try {
            return String.valueOf(dev.chdedup.stub.error.ErrorCode.valueOf(errorName).code);
        } catch (IllegalArgumentException e) {
            return "?";
        }
    }

    /** The result's non-empty lines with part names replaced by P1, P2, ... in order of first appearance. */
    static List<String> canon(String body) {
        Map<String, String> names = new LinkedHashMap<>();
        List<String> out = new ArrayList<>();
        for (String line : body.split("\n", -1)) {
            if (line.isEmpty()) {
                continue;
            }
            String[] cells = line.split("\t", -1);
            for (int c = 0; c < cells.length; c++) {
                if (PART.matcher(cells[c]).matches()) {
                    cells[c] = names.computeIfAbsent(cells[c], k -> "P" + (names.size() + 1));
                }
            }
            out.add(String.join("\t", cells));
        }
        return out;
    }

    private static String strip(String s, char c) {
        int a = 0;
        int b = s.length();
        while (a < b && s.charAt(a) == c) {
            a++;
        }
        while (b > a && s.charAt(b - 1) == c) {
            b--;
        }
        return s.substring(a, b);
    }

    private static String stripTrailing(String s, char c) {
        int b = s.length();
        while (b > 0 && s.charAt(b - 1) == c) {
            b--;
        }
        return s.substring(0, b);
    }

    private static String brief(String s, int max) {
        String t = s.strip();
        return t.length() <= max ? t : t.substring(0, max);
    }
}
