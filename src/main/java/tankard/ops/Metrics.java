package tankard.ops;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.micrometer.Label;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;

import java.util.EnumSet;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;

/**
 * The Prometheus metrics of one node ({@code tankard.metrics.enabled}, docs/operations.md): Vert.x's own meters
 * (HTTP requests by route, method and status with their latencies; calls out; the database's and the workers'
 * pools, their waits and use; the JVM) and Tankard's, all in one registry that {@code /metrics} writes out.
 */
public final class Metrics {
    /** The Prometheus text format's content type. */
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    /** What Tankard's meters read: a meter holds it weakly, and a lambda nobody else holds would be collected. */
    private final List<LongSupplier> sources = new CopyOnWriteArrayList<>();

    /**
     * A Vert.x that reports to these metrics. Labelled by route, never by path (a path can name a user's files),
     * nor by remote address.
     */
    public Vertx newVertx() {
        MicrometerMetricsOptions options = new MicrometerMetricsOptions()
                .setEnabled(true)
                .setJvmMetricsEnabled(true)
                // Vert.x keeps a registry per name for the process: each node (a test runs several) its own
                .setRegistryName("tankard-" + UUID.randomUUID())
                .setLabels(EnumSet.of(Label.HTTP_ROUTE, Label.HTTP_METHOD, Label.HTTP_CODE, Label.POOL_TYPE,
                        Label.POOL_NAME));
        return Vertx.builder().with(new VertxOptions().setMetricsOptions(options))
                .withMetrics(new MicrometerMetricsFactory(registry)).build();
    }

    /** A value read when the metrics are read, such as the streams open now. */
    public void gauge(String name, String description, LongSupplier value) {
        sources.add(value);
        Gauge.builder(name, value, v -> v.getAsLong()).description(description).register(registry);
    }

    /** A count that only grows, read from its keeper when the metrics are read. */
    public void counter(String name, String description, String kind, LongSupplier value) {
        sources.add(value);
        FunctionCounter.builder(name, value, v -> v.getAsLong()).description(description).tag("kind", kind)
                .register(registry);
    }

    /** Every meter, in Prometheus's text format. */
    String scrape() {
        return registry.scrape();
    }
}
