package dev.chdedup.stub.junit;

import dev.chdedup.stub.cluster.StubCluster;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/** Backs {@link WithStubCluster}: the annotated topology started per test, kept in the test's extension store. */
final class StubClusterAnnotationExtension implements BeforeEachCallback, AfterEachCallback, ParameterResolver {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(StubClusterAnnotationExtension.class);

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        WithStubCluster a = context.getRequiredTestClass().getAnnotation(WithStubCluster.class);
        StubCluster.Builder b = StubCluster.builder();
        if (a != null) {
            b.shards(a.shards()).replicas(a.replicas()).cluster(a.cluster());
        }
        context.getStore(NS).put("cluster", b.build().start());
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        StubCluster c = context.getStore(NS).remove("cluster", StubCluster.class);
        if (c != null) {
            c.close();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == StubCluster.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return extensionContext.getStore(NS).get("cluster", StubCluster.class);
    }
}
