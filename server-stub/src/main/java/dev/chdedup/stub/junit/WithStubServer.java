package dev.chdedup.stub.junit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The simple case: a test class annotated with this gets a stub server with the default options for each test,
 * injected as a {@code StubServer} parameter. Use {@link StubServerExtension} with {@code @RegisterExtension} for
 * a server per class or other options.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(StubServerAnnotationExtension.class)
public @interface WithStubServer {
}
