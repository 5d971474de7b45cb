package dev.chdedup.stub.access;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.sql.Statement;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * The server's users, roles, settings profiles and grants: the users the server was started with (storage
 * {@code users_xml}, read-only) and those that CREATE USER / ROLE / SETTINGS PROFILE made (storage
 * {@code local_directory}, whose statements are kept in {@code access/statements.log} under the data directory and
 * replayed at start, so they survive a restart). It authenticates a user, and gives the settings
 * and constraints a user gets from its SETTINGS, its profiles and its roles. Grants are recorded and listed, not
 * enforced: the stub checks no privileges. Mirrors ClickHouse's AccessControl over a MultipleAccessStorage, with its
 * errors (UNKNOWN_USER, UNKNOWN_ROLE, THERE_IS_NO_PROFILE, ACCESS_ENTITY_ALREADY_EXISTS, ACCESS_STORAGE_READONLY).
 */
public final class AccessControl {
    static final String USERS_XML = "users_xml";
    static final String LOCAL = "local_directory";

    /** A user, role or settings profile; a user's {@code password} is what authentication compares, by {@code authType}. */
    record Entity(UUID id, String kind, String name, String storage, String authType, String password,
                  List<Statement.SettingElement> settings, List<String> assignees) {
    }

    /** One GRANT: a privilege (without its columns) on a target, or a role, given to a user or role. */
    record GrantEntry(String grantee, String privileges, String on, String role) {
    }

    /** kind (USER, ROLE, SETTINGS PROFILE) -> name -> entity, in creation order. Guarded by this. */
    private final Map<String, Map<String, Entity>> entities = new LinkedHashMap<>();
    /** user -> its default roles as SET DEFAULT ROLE last gave them (absent: ALL). Guarded by this. */
    private final Map<String, Statement.SetRole> defaultRoles = new java.util.HashMap<>();
    /** Every grant in force, in the order given. Guarded by this. */
    private final List<GrantEntry> grants = new ArrayList<>();

    public AccessControl(Map<String, String> configuredUsers) {
        for (String kind : List.of("USER", "ROLE", "SETTINGS PROFILE")) {
            entities.put(kind, new LinkedHashMap<>());
        }
        configuredUsers.forEach((name, password) -> entities.get("USER").put(name, new Entity(UUID.nameUUIDFromBytes(name.getBytes(
            StandardCharsets.UTF_8)), "USER", name, USERS_XML, password.isEmpty() ? "no_password" : "plaintext_password", password, List.of(), null)));
    }

    /** Where the statements that changed local_directory go, once the server has a data directory. */
    private volatile AccessStatementsLog log;

    /** Replays the access statements logged under {@code dataDir}, and logs the next ones there. */
    public void persistIn(java.nio.file.Path dataDir) throws java.io.IOException {
        AccessStatementsLog l = new AccessStatementsLog(dataDir);
        l.replay(this);
        this.log = l;
    }

    /** Records a statement that changed local_directory, run by {@code user} (CURRENT_USER of a GRANT). */
    public void logged(String user, String sql) {
        AccessStatementsLog l = log;
        if (l != null) {
            l.append(user, sql);
        }
    }

    /** True when {@code user} exists and {@code password} is its password. */
    public synchronized boolean authenticate(String user, String password) {
        Entity e = entities.get("USER").get(user);
        if (e == null) {
            return false;
        }
        switch (e.authType()) {
            case "no_password": return true;
            case "sha256_hash": return sha256(password).equalsIgnoreCase(e.password());
            default: return e.password().equals(password);
        }
    }

    private static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The roles granted to {@code user} directly, which exist, in name order. */
    private java.util.TreeSet<String> grantedRoles(String user) {
        java.util.TreeSet<String> granted = new java.util.TreeSet<>();
        for (GrantEntry g : grants) {
            if (g.role() != null && g.grantee().equals(user) && entities.get("ROLE").containsKey(g.role())) {
                granted.add(g.role());
            }
        }
        return granted;
    }

    /** The granted roles of {@code user} that its default roles (SET DEFAULT ROLE; ALL unless set) take in. */
    private java.util.TreeSet<String> defaultRolesOf(String user) {
        java.util.TreeSet<String> out = grantedRoles(user);
        Statement.SetRole d = defaultRoles.get(user);
        if (d != null) {
            out.removeIf(r -> d.mode().equals("NONE") || d.mode().equals("LIST") && !d.roles().contains(r)
                || d.mode().equals("ALL") && d.except().contains(r));
        }
        return out;
    }

    /**
     * The roles of {@code user}: current are the session's ({@code sessionRoles}, of SET ROLE, still granted) or, when
     * null, its default roles; enabled are those with the roles granted to them in turn; default its default roles.
     */
    public synchronized dev.chdedup.stub.exec.QueryContext.Roles rolesOf(String user, List<String> sessionRoles) {
        java.util.TreeSet<String> defaults = defaultRolesOf(user);
        java.util.TreeSet<String> current;
        if (sessionRoles == null) {
            current = defaults;
        } else {
            current = grantedRoles(user);
            current.retainAll(sessionRoles);
        }
        java.util.TreeSet<String> enabled = new java.util.TreeSet<>();
        java.util.ArrayDeque<String> todo = new java.util.ArrayDeque<>(current);
        while (!todo.isEmpty()) {
            String r = todo.pop();
            if (enabled.add(r)) {
                todo.addAll(grantedRoles(r));
            }
        }
        return new dev.chdedup.stub.exec.QueryContext.Roles(List.copyOf(current), List.copyOf(enabled), List.copyOf(defaults));
    }

    /** The roles of {@code user} without a SET ROLE: its default ones. */
    public dev.chdedup.stub.exec.QueryContext.Roles rolesOf(String user) {
        return rolesOf(user, null);
    }

    /**
     * The current roles SET ROLE gives {@code user}, as InterpreterSetRoleQuery::setRole: null for DEFAULT (its
     * default roles), none, all its granted roles but the EXCEPT ones, or the roles listed, each of which must exist
     * (UNKNOWN_ROLE) and be granted to it (SET_NON_GRANTED_ROLE).
     */
    public synchronized List<String> setRole(String user, Statement.SetRole st) {
        switch (st.mode()) {
            case "DEFAULT":
                return null;
            case "NONE":
                return List.of();
            case "ALL": {
                requireRoles(st.except());
                java.util.TreeSet<String> all = grantedRoles(user);
                all.removeAll(st.except());
                return List.copyOf(all);
            }
            default: {
                requireRoles(st.roles());
                java.util.TreeSet<String> granted = grantedRoles(user);
                for (String r : st.roles()) {
                    if (!granted.contains(r)) {
                        throw new ChException(ErrorCode.SET_NON_GRANTED_ROLE, "Role should be granted to set current");
                    }
                }
                return List.copyOf(new java.util.LinkedHashSet<>(st.roles()));
            }
        }
    }

    /**
     * SET DEFAULT ROLE ... TO users, as InterpreterSetRoleQuery::setDefaultRole: every role named must exist, every user
     * too, and a listed role be granted to each user (SET_NON_GRANTED_ROLE); a configured user cannot change.
     */
    public synchronized void setDefaultRole(Statement.SetRole st, String currentUser) {
        requireRoles(st.roles());
        requireRoles(st.except());
        List<String> users = new ArrayList<>();
        for (String u : st.toUsers()) {
            String n = u.equals("CURRENT_USER") ? currentUser : u;
            Entity e = entities.get("USER").get(n);
            if (e == null) {
                throw notFound("USER", n);
            }
            checkReadonly(e, "update", "in", "USER", n);
            users.add(n);
        }
        for (String u : users) {
            java.util.TreeSet<String> granted = grantedRoles(u);
            for (String r : st.roles()) {
                if (!granted.contains(r)) {
                    throw new ChException(ErrorCode.SET_NON_GRANTED_ROLE, "Role should be granted to set default");
                }
            }
        }
        for (String u : users) {
            defaultRoles.put(u, st);
        }
    }

    private void requireRoles(List<String> roles) {
        for (String r : roles) {
            if (!entities.get("ROLE").containsKey(r)) {
                throw notFound("ROLE", r);
            }
        }
    }

    /**
     * The GRANT statements SHOW GRANTS lists for {@code user}: a configured user has every privilege, which the engine
     * shows as it shows its own default user's; a created one its privileges grouped by target, then its roles.
     */
    public synchronized List<String> showGrants(String user) {
        Entity u = entities.get("USER").get(user);
        Entity role = entities.get("ROLE").get(user);
        if (u == null && role == null) {
            throw new ChException(ErrorCode.UNKNOWN_ROLE, "There is no role `" + user + "` in `user directories`");
        }
        String to = " TO " + AccessSystemTables.quoteName(user);
        List<String> out = new ArrayList<>();
        if (u != null && u.storage().equals(USERS_XML)) {
            for (String g : AccessSystemTables.CONFIGURED_USER_GRANTS) {
                out.add(g + to);
            }
            return out;
        }
        Map<String, List<String>> byTarget = new LinkedHashMap<>();
        List<String> roles = new ArrayList<>();
        for (GrantEntry g : grants) {
            if (!g.grantee().equals(user)) {
                continue;
            }
            if (g.role() != null) {
                roles.add(AccessSystemTables.quoteName(g.role()));
            } else {
                byTarget.computeIfAbsent(g.on(), k -> new ArrayList<>()).add(g.privileges());
            }
        }
        byTarget.forEach((on, privileges) -> out.add("GRANT " + String.join(", ", privileges) + " ON " + on + to));
        if (!roles.isEmpty()) {
            out.add("GRANT " + String.join(", ", roles) + to);
        }
        return out;
    }

    /** The setting elements {@code user} gets, in the order they apply: profiles TO it, its roles', its own. */
    public synchronized SettingsProfileElements settingsOf(String user) {
        SettingsProfileElements out = new SettingsProfileElements();
        Entity u = entities.get("USER").get(user);
        if (u == null) {
            return out;
        }
        for (Entity p : entities.get("SETTINGS PROFILE").values()) {
            if (p.assignees() != null && (p.assignees().contains("ALL") || p.assignees().contains(user))) {
                addProfile(out, p.name(), 0);
            }
        }
        for (GrantEntry g : grants) {
            if (g.role() != null && g.grantee().equals(user) && entities.get("ROLE").containsKey(g.role())) {
                addElements(out, entities.get("ROLE").get(g.role()).settings(), 1);
            }
        }
        addElements(out, u.settings(), 1); // a login never fails for a profile dropped since
        return out;
    }

    /** The values and constraints of settings profile {@code name} (SET profile = 'name'). */
    public synchronized SettingsProfileElements profile(String name) {
        SettingsProfileElements out = new SettingsProfileElements();
        addProfile(out, name, 0);
        return out;
    }

    /** Adds profile {@code name}'s elements; a profile dropped since an entity named it is skipped below the top. */
    private void addProfile(SettingsProfileElements out, String name, int depth) {
        Entity p = entities.get("SETTINGS PROFILE").get(name);
        if (p == null) {
            if (depth > 0) {
                return;
            }
            throw notFound("SETTINGS PROFILE", name);
        }
        if (depth < 16) { // a profile inheriting itself stops here
            addElements(out, p.settings(), depth + 1);
        }
    }

    private void addElements(SettingsProfileElements out, List<Statement.SettingElement> elements, int depth) {
        for (Statement.SettingElement e : elements) {
            if (e.profile() != null) {
                addProfile(out, e.profile(), depth);
            } else {
                out.add(e);
            }
        }
    }

    /** Runs CREATE / ALTER / DROP of a user, role or settings profile. */
    public synchronized void execute(Statement.AccessEntity st) {
        Map<String, Entity> of = entities.get(st.kind());
        for (String name : st.names()) {
            Entity old = of.get(name);
            switch (st.verb()) {
                case "CREATE": {
                    if (old != null && st.ifNotExists()) {
                        continue;
                    }
                    if (old != null && !st.orReplace()) {
                        throw new ChException(ErrorCode.ACCESS_ENTITY_ALREADY_EXISTS, typeWithName(st.kind(), name) + ": cannot insert because "
                            + typeWithName(st.kind(), name) + " already exists in `" + old.storage() + "`");
                    }
                    checkReadonly(old, "insert", "to", st.kind(), name);
                    checkProfiles(st.settings());
                    of.put(name, new Entity(UUID.randomUUID(), st.kind(), name, LOCAL, authType(st), st.password() == null ? "" : st.password(),
                        st.settings() == null ? List.of() : st.settings(), assignees(st.assignees())));
                    break;
                }
                case "ALTER": {
                    if (old == null) {
                        if (st.ifExists()) {
                            continue;
                        }
                        throw notFound(st.kind(), name);
                    }
                    checkReadonly(old, "update", "in", st.kind(), name);
                    checkProfiles(st.settings());
                    of.put(name, new Entity(old.id(), old.kind(), name, LOCAL, st.authType() != null ? st.authType() : old.authType(),
                        st.password() != null ? st.password() : old.password(), st.settings() != null ? st.settings() : old.settings(),
                        st.assignees() != null ? assignees(st.assignees()) : old.assignees()));
                    break;
                }
                default: {
                    if (old == null) {
                        if (st.ifExists()) {
                            continue;
                        }
                        throw notFound(st.kind(), name);
                    }
                    checkReadonly(old, "remove", "from", st.kind(), name);
                    of.remove(name);
                    grants.removeIf(g -> g.grantee().equals(name) && !st.kind().equals("SETTINGS PROFILE")
                        || st.kind().equals("ROLE") && name.equals(g.role()));
                    if (st.kind().equals("USER")) {
                        defaultRoles.remove(name);
                    }
                }
            }
        }
    }

    private static String authType(Statement.AccessEntity st) {
        if (st.authType() == null) {
            return st.kind().equals("USER") ? "no_password" : "";
        }
        return st.authType().equals("sha256_password") || st.authType().equals("double_sha1_password") ? "plaintext_password" : st.authType();
    }

    private List<String> assignees(List<String> names) {
        if (names == null) {
            return null;
        }
        for (String n : names) {
            if (!n.equals("ALL") && !n.equals("CURRENT_USER")) {
                requireUserOrRole(n);
            }
        }
        return names;
    }

    /** Every setting named is a known one with a valid value and bounds, every profile named exists. */
    private void checkProfiles(List<Statement.SettingElement> settings) {
        if (settings != null) {
            for (Statement.SettingElement e : settings) {
                if (e.name() != null) {
                    dev.chdedup.stub.exec.KnownSettings.check(e.name());
                    for (String v : new String[] {e.value(), e.min(), e.max()}) {
                        if (v != null) {
                            dev.chdedup.stub.exec.KnownSettings.validate(e.name(), v);
                        }
                    }
                }
                if (e.profile() != null && !entities.get("SETTINGS PROFILE").containsKey(e.profile())) {
                    throw notFound("SETTINGS PROFILE", e.profile());
                }
            }
        }
    }

    private static void checkReadonly(Entity old, String verb, String preposition, String kind, String name) {
        if (old != null && old.storage().equals(USERS_XML)) {
            throw new ChException(ErrorCode.ACCESS_STORAGE_READONLY, "Cannot " + verb + " " + typeWithName(kind, name) + " " + preposition + " "
                + USERS_XML + " because this storage is readonly");
        }
    }

    /** Runs GRANT or REVOKE; {@code currentUser} is who CURRENT_USER names. */
    public synchronized void execute(Statement.Grant st, String currentUser) {
        List<String> grantees = new ArrayList<>();
        for (String g : st.grantees()) {
            if (g.equals("ALL")) {
                grantees.addAll(entities.get("USER").keySet());
                grantees.addAll(entities.get("ROLE").keySet());
            } else {
                String n = g.equals("CURRENT_USER") ? currentUser : g;
                requireUserOrRole(n);
                grantees.add(n);
            }
        }
        List<String> roles = st.roles() == null ? List.of() : st.roles();
        for (String r : roles) {
            if (!entities.get("ROLE").containsKey(r)) {
                throw notFound("ROLE", r);
            }
        }
        for (String g : grantees) {
            if (st.revoke()) {
                List<String> revoked = st.roles() != null ? List.of() : AccessSystemTables.privileges(st.privileges().toUpperCase(Locale.ROOT));
                grants.removeIf(e -> e.grantee().equals(g) && (st.roles() != null ? roles.contains(e.role())
                    : e.role() == null && (revoked.contains("ALL") || e.on().equals(st.on()) && revoked.contains(e.privileges()))));
            } else if (st.roles() != null) {
                for (String r : roles) {
                    GrantEntry e = new GrantEntry(g, null, null, r);
                    if (!grants.contains(e)) {
                        grants.add(e);
                    }
                }
            } else {
                for (String privilege : AccessSystemTables.privileges(st.privileges())) { // granting twice is granting once
                    GrantEntry e = new GrantEntry(g, privilege.toUpperCase(Locale.ROOT), st.on(), null);
                    if (!grants.contains(e)) {
                        grants.add(e);
                    }
                }
            }
        }
    }

    private void requireUserOrRole(String name) {
        if (!entities.get("USER").containsKey(name) && !entities.get("ROLE").containsKey(name)) {
            throw new ChException(ErrorCode.UNKNOWN_ROLE, "There is no role `" + name + "` in `user directories`");
        }
    }

    static String typeWithName(String kind, String name) {
        return kind.toLowerCase(Locale.ROOT) + " `" + name + "`";
    }

    static ChException notFound(String kind, String name) {
        ErrorCode code = kind.equals("USER") ? ErrorCode.UNKNOWN_USER : kind.equals("ROLE") ? ErrorCode.UNKNOWN_ROLE
            : ErrorCode.THERE_IS_NO_PROFILE;
        return new ChException(code, "There is no " + typeWithName(kind, name) + " in `user directories`");
    }

    /** A copy of the entities of {@code kind}, for the system tables. */
    synchronized List<Entity> list(String kind) {
        return List.copyOf(entities.get(kind).values());
    }

    /** A copy of the grants, for the system tables. */
    synchronized List<GrantEntry> grants() {
        return List.copyOf(grants);
    }
}
