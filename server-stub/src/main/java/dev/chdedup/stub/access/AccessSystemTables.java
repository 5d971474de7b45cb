package dev.chdedup.stub.access;

import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.TableSource;
import dev.chdedup.stub.sql.Statement;
import dev.chdedup.stub.system.SystemTable;
import dev.chdedup.stub.system.SystemTables;
import java.util.ArrayList;
import java.util.List;

/**
 * system.users, system.roles, system.settings_profiles, system.settings_profile_elements, system.grants,
 * system.role_grants, system.current_roles and system.enabled_roles (of the query's user and session) over
 * {@link AccessControl}, with ClickHouse's column names (the columns the stub can fill), and system.quotas, with the
 * engine's columns and no rows (the stub has no quotas).
 */
public final class AccessSystemTables implements SystemTables.Extra {
    private final AccessControl access;

    public AccessSystemTables(AccessControl access) {
        this.access = access;
    }

    @Override
    public List<String> names() {
        return List.of("current_roles", "enabled_roles", "grants", "quotas", "role_grants", "roles", "settings_profile_elements",
            "settings_profiles", "users");
    }

    /**
     * The GRANT statements (without their TO) SHOW GRANTS lists for a user of the server's configuration, who may do
     * everything: those the 26.7 engine lists for its own default user.
     */
    static final List<String> CONFIGURED_USER_GRANTS = List.of(
        "GRANT SOURCES ON *.*",
        "GRANT TABLE ENGINE ON *",
        "GRANT CHECK, SHOW, SELECT, INSERT, ALTER, CREATE, DROP, UNDROP TABLE, TRUNCATE, OPTIMIZE, BACKUP, KILL QUERY, KILL TRANSACTION,"
            + " MOVE PARTITION BETWEEN SHARDS, SYSTEM, dictGet, displaySecretsInShowAndSelect, INTROSPECTION, CLUSTER, FILE, URL, REMOTE,"
            + " MONGO, REDIS, MYSQL, POSTGRES, SQLITE, ODBC, JDBC, HDFS, S3, HIVE, AZURE, KAFKA, NATS, RABBITMQ, YTSAURUS, ARROW FLIGHT,"
            + " SOURCES ON *.*",
        "GRANT SET DEFINER ON *",
        "GRANT ALTER NAMED COLLECTION, CREATE NAMED COLLECTION, DROP NAMED COLLECTION, SHOW NAMED COLLECTIONS, NAMED COLLECTION ON *");

    /** A user or role name as a GRANT statement shows it: bare when it is a plain word, else back-quoted. */
    static String quoteName(String name) {
        return name.matches("[A-Za-z_][A-Za-z0-9_]*") ? name : "`" + name.replace("\\", "\\\\").replace("`", "\\`") + "`";
    }

    /** The privileges of a list as written, each without its column list: {@code SELECT(a, b), INSERT} is SELECT, INSERT. */
    static List<String> privileges(String list) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        int depth = 0;
        for (char ch : (list + ",").toCharArray()) {
            if (ch == '(') {
                depth++;
            } else if (ch == ')') {
                depth--;
            } else if (ch == ',' && depth == 0) {
                out.add(cur.toString().strip().replaceAll("\\s+", " "));
                cur.setLength(0);
            } else if (depth == 0) {
                cur.append(ch);
            }
        }
        return out;
    }

    @Override
    public TableSource table(String name, QueryContext ctx) {
        SystemTable t = SystemTable.of(name);
        switch (name) {
            case "users":
                for (AccessControl.Entity e : access.list("USER")) {
                    String auth = e.authType().equals("sha256_hash") ? "sha256_password" : e.authType();
                    t.add().set("name", e.name()).set("id", e.id()).set("storage", e.storage()).set("auth_type", List.of(auth))
                        .set("host_ip", List.of("::/0")).set("default_roles_all", 1L);
                }
                return t.source();
            case "current_roles":
            case "enabled_roles": {
                QueryContext.Roles roles = ctx.roles();
                boolean enabled = name.equals("enabled_roles");
                for (String r : enabled ? roles.enabled() : roles.current()) {
                    SystemTable.Row row = t.add().set("role_name", r).set("with_admin_option", 0L)
                        .set("is_default", roles.defaults().contains(r) ? 1L : 0L);
                    if (enabled) {
                        row.set("is_current", roles.current().contains(r) ? 1L : 0L);
                    }
                }
                return t.source();
            }
            case "quotas":
                return t.source();
            case "roles":
                for (AccessControl.Entity e : access.list("ROLE")) {
                    t.add().set("name", e.name()).set("id", e.id()).set("storage", e.storage());
                }
                return t.source();
            case "settings_profiles":
                for (AccessControl.Entity e : access.list("SETTINGS PROFILE")) {
                    List<String> to = e.assignees() == null ? List.of() : e.assignees();
                    t.add().set("name", e.name()).set("id", e.id()).set("storage", e.storage()).set("num_elements", (long) e.settings().size())
                        .set("apply_to_all", to.contains("ALL")).set("apply_to_list", to.stream().filter(n -> !n.equals("ALL")).toList());
                }
                return t.source();
            case "settings_profile_elements":
                for (String kind : List.of("SETTINGS PROFILE", "USER", "ROLE")) {
                    for (AccessControl.Entity e : access.list(kind)) {
                        long index = 0;
                        for (Statement.SettingElement s : e.settings()) {
                            String writability = "READONLY".equals(s.writability()) ? "CONST" : s.writability();
                            t.add().set("profile_name", kind.equals("SETTINGS PROFILE") ? e.name() : null)
                                .set("user_name", kind.equals("USER") ? e.name() : null).set("role_name", kind.equals("ROLE") ? e.name() : null)
                                .set("index", index++).set("setting_name", s.name()).set("value", s.value()).set("min", s.min())
                                .set("max", s.max()).set("writability", writability).set("inherit_profile", s.profile());
                        }
                    }
                }
                return t.source();
            case "grants":
            case "role_grants": {
                boolean roleGrants = name.equals("role_grants");
                List<AccessControl.Entity> roles = access.list("ROLE");
                for (AccessControl.GrantEntry g : access.grants()) {
                    if ((g.role() != null) != roleGrants) {
                        continue;
                    }
                    boolean toRole = roles.stream().anyMatch(r -> r.name().equals(g.grantee()));
                    String user = toRole ? null : g.grantee();
                    String role = toRole ? g.grantee() : null;
                    if (roleGrants) {
                        SystemTable.Row row = t.add().set("user_name", user).set("role_name", role).set("granted_role_name", g.role())
                            .set("granted_role_is_default", 1L);
                        roles.stream().filter(r -> r.name().equals(g.role())).findFirst().ifPresent(r -> row.set("granted_role_id", r.id()));
                    } else {
                        String privilege = g.privileges().toUpperCase(java.util.Locale.ROOT);
                        if (!ACCESS_TYPES.contains(privilege)) {
                            continue; // a privilege this version has no name for: ClickHouse would have refused the GRANT
                        }
                        String[] on = g.on().split("\\.", 2);
                        String db = on.length == 2 ? on[0] : null;
                        String table = on.length == 2 ? on[1] : on[0];
                        t.add().set("user_name", user).set("role_name", role).set("access_type", privilege)
                            .set("database", "*".equals(db) ? null : db).set("table", "*".equals(table) ? null : table);
                    }
                }
                return t.source();
            }
            default:
                return null;
        }
    }

    /** The privilege names system.grants' access_type enum has. */
    private static final java.util.Set<String> ACCESS_TYPES = accessTypes();

    private static java.util.Set<String> accessTypes() {
        java.util.Set<String> out = new java.util.HashSet<>();
        for (dev.chdedup.stub.system.SystemTableSchema.ColumnDef d : dev.chdedup.stub.system.SystemTableSchema.of("grants")) {
            if (d.name().equals("access_type")) {
                dev.chdedup.stub.types.EnumType e = (dev.chdedup.stub.types.EnumType) d.type().unwrap();
                try {
                    for (long code = 0; ; code++) {
                        out.add(e.nameOf(code));
                    }
                } catch (dev.chdedup.stub.error.ChException end) {
                    // the codes run from 0 without gaps; the first missing one ends the list
                }
            }
        }
        return out;
    }
}
