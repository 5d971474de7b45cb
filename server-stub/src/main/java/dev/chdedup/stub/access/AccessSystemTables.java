package dev.chdedup.stub.access;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.TableSource;
import dev.chdedup.stub.sql.Statement;
import dev.chdedup.stub.system.SystemTables;
import dev.chdedup.stub.types.DataTypes;
import java.util.ArrayList;
import java.util.List;

/**
 * system.users, system.roles, system.settings_profiles, system.settings_profile_elements, system.grants and
 * system.role_grants over {@link AccessControl}, with ClickHouse's column names (the columns the stub can fill).
 */
public final class AccessSystemTables implements SystemTables.Extra {
    private final AccessControl access;

    public AccessSystemTables(AccessControl access) {
        this.access = access;
    }

    @Override
    public List<String> names() {
        return List.of("grants", "role_grants", "roles", "settings_profile_elements", "settings_profiles", "users");
    }

    private static Column c(String n, String type) {
        return new Column(n, DataTypes.parse(type));
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
        List<Object[]> rows = new ArrayList<>();
        switch (name) {
            case "users":
                for (AccessControl.Entity e : access.list("USER")) {
                    rows.add(new Object[] {e.name(), e.id(), e.storage(), e.authType()});
                }
                return SystemTables.snapshot(List.of(c("name", "String"), c("id", "UUID"), c("storage", "String"), c("auth_type", "String")), rows);
            case "roles":
                for (AccessControl.Entity e : access.list("ROLE")) {
                    rows.add(new Object[] {e.name(), e.id(), e.storage()});
                }
                return SystemTables.snapshot(List.of(c("name", "String"), c("id", "UUID"), c("storage", "String")), rows);
            case "settings_profiles":
                for (AccessControl.Entity e : access.list("SETTINGS PROFILE")) {
                    List<String> to = e.assignees() == null ? List.of() : e.assignees();
                    rows.add(new Object[] {e.name(), e.id(), e.storage(), (long) e.settings().size(), to.contains("ALL") ? 1L : 0L,
                        to.stream().filter(n -> !n.equals("ALL")).toList()});
                }
                return SystemTables.snapshot(List.of(c("name", "String"), c("id", "UUID"), c("storage", "String"), c("num_elements", "UInt64"),
                    c("apply_to_all", "UInt8"), c("apply_to_list", "Array(String)")), rows);
            case "settings_profile_elements":
                for (String kind : List.of("SETTINGS PROFILE", "USER", "ROLE")) {
                    for (AccessControl.Entity e : access.list(kind)) {
                        long index = 0;
                        for (Statement.SettingElement s : e.settings()) {
                            rows.add(new Object[] {kind.equals("SETTINGS PROFILE") ? e.name() : null, kind.equals("USER") ? e.name() : null,
                                kind.equals("ROLE") ? e.name() : null, index++, s.name(), s.value(), s.min(), s.max(), s.writability(), s.profile()});
                        }
                    }
                }
                return SystemTables.snapshot(List.of(c("profile_name", "Nullable(String)"), c("user_name", "Nullable(String)"),
                    c("role_name", "Nullable(String)"), c("index", "UInt64"), c("setting_name", "Nullable(String)"), c("value", "Nullable(String)"),
                    c("min", "Nullable(String)"), c("max", "Nullable(String)"), c("writability", "Nullable(String)"),
                    c("inherit_profile", "Nullable(String)")), rows);
            case "grants":
            case "role_grants": {
                boolean roleGrants = name.equals("role_grants");
                List<String> roles = access.list("ROLE").stream().map(AccessControl.Entity::name).toList();
                for (AccessControl.GrantEntry g : access.grants()) {
                    if ((g.role() != null) != roleGrants) {
                        continue;
                    }
                    boolean toRole = roles.contains(g.grantee());
                    String user = toRole ? null : g.grantee();
                    String role = toRole ? g.grantee() : null;
                    if (roleGrants) {
                        rows.add(new Object[] {user, role, g.role()});
                    } else {
                        String[] on = g.on().split("\\.", 2);
                        String db = on.length == 2 ? on[0] : null;
                        String table = on.length == 2 ? on[1] : on[0];
                        rows.add(new Object[] {user, role, g.privileges(), "*".equals(db) ? null : db, "*".equals(table) ? null : table});
                    }
                }
                return roleGrants
                    ? SystemTables.snapshot(List.of(c("user_name", "Nullable(String)"), c("role_name", "Nullable(String)"),
                        c("granted_role_name", "String")), rows)
                    : SystemTables.snapshot(List.of(c("user_name", "Nullable(String)"), c("role_name", "Nullable(String)"),
                        c("access_type", "String"), c("database", "Nullable(String)"), c("table", "Nullable(String)")), rows);
            }
            default:
                return null;
        }
    }
}
