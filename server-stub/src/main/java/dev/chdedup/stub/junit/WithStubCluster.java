package dev.chdedup.stub.junit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The simple case of a cluster: a test class annotated with this gets a {@code StubCluster} of {@link #shards} shards
 * of {@link #replicas} replicas, named {@link #cluster}, for each test, injected as a {@code StubCluster} parameter.
 * Use {@link StubClusterExtension} with {@code @RegisterExtension} for a cluster per class or other options.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(StubClusterAnnotationExtension.class)
public @interface WithStubCluster {
    int shards() default 1;

    int replicas() default 2;

    String cluster() default "default";
}
