package dev.chdedup.stub.exec;

import dev.chdedup.stub.exec.geo.FunctionsGeometryWKB;
import dev.chdedup.stub.exec.geo.FunctionsH3;
import dev.chdedup.stub.exec.geo.FunctionsMVTBoundingBox;
import dev.chdedup.stub.exec.geo.FunctionsUTM;
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
        FunctionsGeo.register(f);
        dev.chdedup.stub.exec.geo.FunctionsPolygon.register(f);
        FunctionsUnconfigured.register(f);
        FunctionsIntrospection.register(f);
        FunctionsFinancial.register(f);
        FunctionsArray.register(f);
        ArrayJoinFunction.register(f);
        FunctionsArrayMapped.register(f);
        FunctionsArraySet.register(f);
        FunctionsTuple.register(f);
        FunctionsDistance.register(f);
        FunctionsDistanceTransposed.register(f);
        FunctionsArrayStats.register(f);
        FunctionArrayReduce.register(f);
        FunctionsURL.register(f);
        FunctionsStringSearch.register(f);
        FunctionsStringSearchRegexp.register(f);
        FunctionsStringSimilarity.register(f);
        FunctionsStringSplitting.register(f);
        Tokenizers.register(f);
        FunctionsLike.register(f);
        FunctionsJSON.register(f);
        FunctionsJSONPath.register(f);
        FunctionsVisitParam.register(f);
        FunctionsJSONTransform.register(f);
        FunctionsTypeConversion.register(f);
        FunctionBar.register(f);
        FunctionsMath.register(f);
        FunctionsBit.register(f);
        FunctionsDivision.register(f);
        FunctionsArithmetic.register(f);
        FunctionsRound.register(f);
        FunctionsComparison.register(f);
        FunctionsFormatReadable.register(f);
        FunctionsOther.register(f);
        FunctionsMiscellaneous.register(f);
        FunctionProportionsZTest.register(f);
        FunctionsServerIntrospection.register(f);
        FunctionsTableIntrospection.register(f);
        FunctionsIcebergTransform.register(f);
        FunctionsBlock.register(f);
        FunctionsAggregateState.register(f);
        FunctionPartitionId.register(f);
        FunctionsQueryText.register(f);
        FunctionsTypeIntrospection.register(f);
        FunctionStructureToFormatSchema.register(f);
        FunctionJoinGet.register(f);
        FunctionsColorConversion.register(f);
        FunctionsConditional.register(f);
        FunctionsString.register(f);
        FunctionLeftRight.register(f);
        FunctionPadString.register(f);
        FunctionsStringUTF8.register(f);
        FunctionsStringDistance.register(f);
        FunctionsBinaryRepresentation.register(f);
        FunctionsBitToArray.register(f);
        FunctionChar.register(f);
        FunctionsBaseConversion.register(f);
        FunctionsCRC.register(f);
        FunctionsStringReplacement.register(f);
        FunctionPrintf.register(f);
        FunctionsRegexpExtract.register(f);
        FunctionsConvert.register(f);
        FunctionsHTML.register(f);
        FunctionDecodeHTMLComponent.register(f);
        FunctionNested.register(f);
        FunctionsAES.register(f);
        FunctionHMAC.register(f);
        FunctionSqid.register(f);
        FunctionsNumericIndexedVector.register(f);
        FunctionsLloydMaxQuantization.register(f);
        FunctionFormatRow.register(f);
        FunctionsSpaceFillingCurve.register(f);
        FunctionsSparseGrams.register(f);
        FunctionsHashing.register(f);
        FunctionsCodingIP.register(f);
        FunctionsCodingUUID.register(f);
        dev.chdedup.stub.exec.timeseries.FunctionsTimeSeriesTags.register(f);
        dev.chdedup.stub.exec.timeseries.FunctionsTimeSeriesGrid.register(f);
        FunctionsH3.register(f);
        FunctionsUTM.register(f);
        FunctionsMVTBoundingBox.register(f);
        FunctionsGeometryWKB.register(f);
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

    /** Registers {@code alias} for the registered {@code name}; an alias has no category, as system.functions shows. */
    public void registerAlias(String alias, String name, boolean caseInsensitive) {
        Registered target = byName.get(name);
        if (target == null) {
            throw new IllegalArgumentException("alias " + alias + " of an unregistered function " + name);
        }
        // the engine lists an alias without a category
        add(new Registered(alias, "", caseInsensitive, name, target.builder()));
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
