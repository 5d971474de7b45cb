package dev.chdedup.stub.exec;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The registry of scalar functions, as ClickHouse's FunctionFactory: a name (case-insensitive where the engine says so,
 * aliases included) maps to a builder, and each family registers itself from its own file ({@code register(factory)},
 * after ClickHouse's registerFunctionsString and the like) with the category system.functions shows, so that
 * system.functions is generated from what is registered. {@link Functions#compile} asks the registry first; the
 * families written before it keep their own dispatch there until they move.
 */
public final class FunctionFactory {
    /** Builds a function for its arguments: checks their types and count, as ClickHouse's getReturnTypeImpl. */
    @FunctionalInterface
    public interface Builder {
        Evaluator build(List<Evaluator> args, QueryContext ctx);
    }

    /** A registered name: the function it builds, or for an alias the name it stands for. */
    public record Registered(String name, String category, boolean caseInsensitive, String aliasTo, Builder builder) {
    }

    private static final FunctionFactory INSTANCE = withFamilies();

    private final Map<String, Registered> byName = new LinkedHashMap<>();
    private final Map<String, Registered> byLowerCase = new HashMap<>();

    private FunctionFactory() {
    }

    public static FunctionFactory instance() {
        return INSTANCE;
    }

    private static FunctionFactory withFamilies() {
        FunctionFactory f = new FunctionFactory();
        // each family registers its functions here, one line a family
        FunctionsNull.register(f);
        FunctionsHashing.register(f);
        FunctionsCodingIP.register(f);
        FunctionsCodingUUID.register(f);
        return f;
    }

    /** Registers a function whose name is case-sensitive. */
    public void register(String name, String category, Builder builder) {
        add(new Registered(name, category, false, "", builder));
    }

    /** Registers a function callable in any case (the SQL-standard spellings). */
    public void registerCaseInsensitive(String name, String category, Builder builder) {
        add(new Registered(name, category, true, "", builder));
    }

    /** Registers {@code alias} for the registered {@code name}. */
    public void registerAlias(String alias, String name, boolean caseInsensitive) {
        Registered target = byName.get(name);
        if (target == null) {
            throw new IllegalArgumentException("alias " + alias + " of an unregistered function " + name);
        }
        add(new Registered(alias, target.category(), caseInsensitive, name, target.builder()));
    }

    private void add(Registered r) {
        if (byName.putIfAbsent(r.name(), r) != null) {
            throw new IllegalArgumentException("function " + r.name() + " registered twice");
        }
        if (r.caseInsensitive()) {
            byLowerCase.put(r.name().toLowerCase(Locale.ROOT), r);
        }
    }

    /** The function called {@code name} in a query, or null. */
    public Registered get(String name) {
        Registered r = byName.get(name);
        return r != null ? r : byLowerCase.get(name.toLowerCase(Locale.ROOT));
    }

    /** Every registered name, in the order of registration. */
    public Collection<Registered> all() {
        return new ArrayList<>(byName.values());
    }
}
