package dev.chdedup.stub.sql;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Parses CREATE, ALTER and DROP of a USER, ROLE or SETTINGS PROFILE, as ClickHouse's ParserCreateUserQuery,
 * ParserCreateRoleQuery, ParserCreateSettingsProfileQuery and ParserDropAccessEntityQuery do (src/Parsers/Access),
 * in one class as the stub keeps them in one {@link Statement.AccessEntity}; with their parts that GRANT shares, a
 * user or role name ({@link #accessName}, ParserUserNameWithHost) and a list of them ({@link #granteeList},
 * ParserRolesOrUsersSet). Clauses the stub does not apply (HOST, VALID UNTIL, IN, GRANTEES) are skipped.
 */
final class ParserAccessEntityQuery {
    /** The keywords that start a clause: where a skipped clause ends. */
    private static final java.util.Set<String> USER_CLAUSES = java.util.Set.of("IDENTIFIED", "NOT", "SETTINGS", "DEFAULT", "HOST",
        "VALID", "IN", "GRANTEES", "TO", "ON", "RENAME", "ADD", "DROP", "FORMAT");

    private final TokenIterator pos;
    private final ParserSetQuery parserSettings;

    ParserAccessEntityQuery(TokenIterator pos) {
        this.pos = pos;
        this.parserSettings = new ParserSetQuery(pos);
    }

    /** Whether the current token starts USER, ROLE, PROFILE or SETTINGS PROFILE, the object of an access statement. */
    boolean atAccessEntity() {
        return pos.tok.is("USER") || pos.tok.is("ROLE") || pos.tok.is("PROFILE") || pos.tok.is("SETTINGS") && pos.peekIs("PROFILE");
    }

    /** CREATE | ALTER | DROP USER | ROLE | SETTINGS PROFILE, after the verb (and OR REPLACE). */
    Statement parse(String verb, boolean orReplace) {
        String kind = pos.readIf("USER") ? "USER" : pos.readIf("ROLE") ? "ROLE" : "SETTINGS PROFILE";
        if (kind.equals("SETTINGS PROFILE")) {
            pos.readIf("SETTINGS");
            pos.expect("PROFILE");
        }
        boolean ifExists = !verb.equals("CREATE") && pos.readIf("IF", "EXISTS");
        boolean ifNotExists = verb.equals("CREATE") && pos.readIf("IF", "NOT") && pos.expectThen("EXISTS");
        List<String> names = new ArrayList<>();
        do {
            names.add(accessName());
        } while (pos.readOp(","));
        String authType = null;
        String password = null;
        List<Statement.SettingElement> settings = null;
        List<String> assignees = null;
        while (pos.tok.kind() != Token.Kind.EOF && !pos.tok.isOp(";") && !pos.tok.is("FORMAT")) {
            if (verb.equals("DROP")) {
                if (pos.readIf("ON", "CLUSTER") || pos.readIf("FROM")) {
                    accessName();
                    continue;
                }
                throw pos.error("end of query");
            }
            if (pos.readIf("ON", "CLUSTER")) {
                accessName();
            } else if (kind.equals("USER") && pos.readIf("NOT")) {
                pos.expect("IDENTIFIED");
                authType = "no_password";
                password = "";
            } else if (kind.equals("USER") && pos.readIf("IDENTIFIED")) {
                authType = "plaintext_password";
                if (pos.readIf("WITH")) {
                    authType = pos.identifier().toLowerCase(Locale.ROOT);
                }
                password = authType.equals("no_password") ? "" : null;
                if (pos.readIf("BY")) {
                    password = pos.stringLiteral();
                } else if (!authType.equals("no_password")) {
                    throw pos.error("BY");
                }
            } else if (pos.readIf("SETTINGS")) {
                settings = new ArrayList<>();
                if (!pos.readIf("NONE")) {
                    do {
                        settings.add(settingElement());
                    } while (pos.readOp(","));
                }
            } else if (kind.equals("SETTINGS PROFILE") && pos.readIf("TO")) {
                assignees = granteeList();
            } else if (kind.equals("USER") && pos.readIf("DEFAULT")) {
                if (pos.readIf("DATABASE")) {
                    accessName();
                } else {
                    pos.expect("ROLE");
                    granteeList();
                }
            } else if (pos.readIf("RENAME")) {
                throw new ChException(ErrorCode.NOT_IMPLEMENTED, "RENAME of a " + kind.toLowerCase(Locale.ROOT) + " is not supported by the stub");
            } else if (pos.tok.is("HOST") || pos.tok.is("VALID") || pos.tok.is("IN") || pos.tok.is("GRANTEES")) {
                // access restrictions the stub does not apply: skipped up to the next clause
                pos.advance();
                while (pos.tok.kind() != Token.Kind.EOF && !pos.tok.isOp(";") && !USER_CLAUSES.contains(pos.tok.text().toUpperCase(Locale.ROOT))) {
                    if (pos.readOp("(")) {
                        pos.skipBalanced();
                    } else {
                        pos.advance();
                    }
                }
            } else {
                throw pos.error(kind.equals("USER") ? "IDENTIFIED, SETTINGS, DEFAULT ROLE, HOST or end of query" : "SETTINGS or end of query");
            }
        }
        return pos.withFormat(new Statement.AccessEntity(verb, kind, List.copyOf(names), ifExists, ifNotExists, orReplace, authType, password,
            settings == null ? null : List.copyOf(settings), assignees), pos.trailingFormat());
    }

    /** A user, role or profile name: an identifier or a string, a user's optionally followed by {@code @'host'}. */
    String accessName() {
        String name = pos.tok.kind() == Token.Kind.STRING ? pos.stringLiteral() : pos.identifier();
        if (pos.readOp("@")) {
            if (pos.tok.kind() == Token.Kind.STRING) {
                pos.stringLiteral();
            } else {
                pos.identifier();
            }
        }
        return name;
    }

    /** {@code name [= value] [MIN [=] v] [MAX [=] v] [CONST|READONLY|WRITABLE|CHANGEABLE_IN_READONLY]} or {@code PROFILE 'p'}. */
    private Statement.SettingElement settingElement() {
        if (pos.readIf("PROFILE") || pos.readIf("INHERIT")) {
            return new Statement.SettingElement(null, null, null, null, null, accessName());
        }
        String name = pos.identifier();
        String value = null;
        String min = null;
        String max = null;
        String writability = null;
        if (pos.readOp("=")) {
            value = parserSettings.settingValue();
        } else if (pos.tok.kind() == Token.Kind.NUMBER || pos.tok.kind() == Token.Kind.STRING) {
            value = parserSettings.settingValue();
        }
        while (true) {
            if (pos.readIf("MIN")) {
                pos.readOp("=");
                min = parserSettings.settingValue();
            } else if (pos.readIf("MAX")) {
                pos.readOp("=");
                max = parserSettings.settingValue();
            } else if (pos.tok.is("CONST") || pos.tok.is("READONLY") || pos.tok.is("WRITABLE") || pos.tok.is("CHANGEABLE_IN_READONLY")) {
                writability = pos.tok.text().toUpperCase(Locale.ROOT);
                pos.advance();
            } else {
                break;
            }
        }
        return new Statement.SettingElement(name, value, min, max, writability, null);
    }

    /** {@code name [, ...] | ALL | NONE | CURRENT_USER [EXCEPT ...]}: the names (ALL as "ALL"). */
    List<String> granteeList() {
        List<String> out = new ArrayList<>();
        do {
            if (pos.readIf("EXCEPT")) {
                do {
                    accessName();
                } while (pos.readOp(","));
                break;
            }
            if (pos.readIf("NONE")) {
                continue;
            }
            out.add(pos.tok.is("ALL") || pos.tok.is("CURRENT_USER") ? pos.tok.text().toUpperCase(Locale.ROOT) : null);
            if (out.get(out.size() - 1) != null) {
                pos.advance();
            } else {
                out.set(out.size() - 1, accessName());
            }
        } while (pos.readOp(",") || pos.tok.is("EXCEPT"));
        return List.copyOf(out);
    }
}
