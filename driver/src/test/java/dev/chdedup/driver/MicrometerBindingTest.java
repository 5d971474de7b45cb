package dev.chdedup.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class MicrometerBindingTest {
    @Test
    void countersFollowTheDriverMetrics() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        MicrometerBinding.bindTo(registry);
        FunctionCounter retries = registry.find("chdedup.retries").functionCounter();
        assertNotNull(retries);
        double before = retries.count();
        DedupMetrics.INSTANCE.retries.increment();
        assertEquals(before + 1, retries.count(), 0.0);
        assertNotNull(registry.find("chdedup.giveups").functionCounter());
        assertNotNull(registry.find("chdedup.token.fallbacks").functionCounter());
    }
}
