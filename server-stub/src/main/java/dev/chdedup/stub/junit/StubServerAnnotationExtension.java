package dev.chdedup.stub.junit;

import dev.chdedup.stub.server.StubServer;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/** Backs {@link WithStubServer}: a default server per test, kept in the test's extension store. */
final class StubServerAnnotationExtension implements BeforeEachCallback, AfterEachCallback, ParameterResolver {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(StubServerAnnotationExtension.class);

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        context.getStore(NS).put("server", StubServer.builder().port(0).build().start());
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        StubServer s = context.getStore(NS).remove("server", StubServer.class);
        if (s != null) {
            s.close();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == StubServer.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return extensionContext.getStore(NS).get("server", StubServer.class);
    }
}
