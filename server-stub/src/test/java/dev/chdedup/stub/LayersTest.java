package dev.chdedup.stub;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The stub's packages are layers that only point down (docs/architecture.md, "Layers"): no package import cycle,
 * and each package depends only on the packages listed before it in {@link #LAYERS}.
 */
class LayersTest {
    private static final String ROOT = "dev.chdedup.stub.";

    /** Bottom to top, as in docs/architecture.md. A package may depend only on packages listed before it. */
    static final List<String> LAYERS = List.of(
        "error", "http", "common", "compat", "compress", "hash",
        "types", "data", "sql", "exec", "format", "fault",
        "mergetree", "storages", "dedup", "mv", "async", "replicated", "distributed", "system", "dictionaries", "access",
        "server", "cluster", "cli", "junit", "conformance");

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.chdedup.stub");
    }

    static String layerOf(JavaClass c) {
        String p = c.getPackageName();
        if (!p.startsWith(ROOT)) {
            return null;
        }
        String rest = p.substring(ROOT.length());
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }

    @Test
    void everyPackageIsALayer() {
        Set<String> unlisted = new TreeSet<>();
        for (JavaClass c : classes) {
            String l = layerOf(c);
            if (l != null && !LAYERS.contains(l)) {
                unlisted.add(l);
            }
        }
        assertEquals(Set.of(), unlisted, "packages missing from LayersTest.LAYERS and docs/architecture.md");
    }

    @Test
    void layersOnlyPointDown() {
        Map<String, Set<String>> upward = new TreeMap<>();
        for (JavaClass c : classes) {
            String from = layerOf(c);
            if (from == null || !LAYERS.contains(from)) {
                continue;
            }
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                String to = layerOf(d.getTargetClass());
                if (to != null && LAYERS.contains(to) && LAYERS.indexOf(to) > LAYERS.indexOf(from)) {
                    upward.computeIfAbsent(from + "->" + to, k -> new TreeSet<>())
                        .add(c.getSimpleName() + " -> " + d.getTargetClass().getSimpleName());
                }
            }
        }
        StringBuilder report = new StringBuilder();
        upward.forEach((edge, uses) -> report.append('\n').append(edge).append(": ").append(uses));
        assertEquals("", report.toString(), "dependencies pointing up the layers");
    }

    @Test
    void noPackageCycles() {
        slices().matching("dev.chdedup.stub.(*)..").should().beFreeOfCycles().check(classes);
    }
}
