package tankard.engine.worldinfo;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;

class JsOrderTest {
    /** The indexes of the orders after {@code sort((a, b) => b.order - a.order)}; null is a missing order (NaN). */
    private static List<Integer> sortByOrder(Double... orders) {
        List<Integer> indexes = new ArrayList<>(IntStream.range(0, orders.length).boxed().toList());
        JsOrder.sort(indexes, (a, b) -> value(orders[b]) - value(orders[a]));
        return indexes;
    }

    private static double value(Double order) {
        return order == null ? Double.NaN : order;
    }

    @Test
    void missingOrdersSortAsV8SortsThem() {
        // What node answers for [3, undefined, 1, 5] and the others.
        assertEquals(List.of(0, 1, 3, 2), sortByOrder(3.0, null, 1.0, 5.0));
        assertEquals(List.of(0, 1, 2, 3, 4), sortByOrder(1.0, null, 5.0, 3.0, 2.0));
        assertEquals(List.of(0, 1, 2, 3), sortByOrder(null, 2.0, null, 4.0));
    }

    @Test
    void sortIsStableAndDescendingByOrder() {
        assertEquals(List.of(1, 3, 0, 2), sortByOrder(1.0, 5.0, 1.0, 5.0));
        Double[] many = IntStream.range(0, 100).mapToObj(i -> (double) (i % 3)).toArray(Double[]::new);
        List<Integer> sorted = sortByOrder(many);
        assertEquals(List.of(2, 5, 8), sorted.subList(0, 3));
        assertEquals(List.of(93, 96, 99), sorted.subList(97, 100));
    }

    @Test
    void objectKeysPutArrayIndexesFirstInNumericOrder() {
        assertEquals(List.of("2", "10", "b", "01", "a"), JsOrder.keys(List.of("b", "10", "01", "2", "a")));
    }
}
