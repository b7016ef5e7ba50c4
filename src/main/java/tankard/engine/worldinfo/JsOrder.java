package tankard.engine.worldinfo;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToDoubleBiFunction;

/** The orders JavaScript gives: Array.prototype.sort's and an object's own keys'. */
final class JsOrder {
    private JsOrder() {
    }

    /**
     * Array.prototype.sort with a comparator that answers a number: stable, NaN counts as equal. A merge sort
     * that never checks the comparator's consistency (entries without an {@code order} compare as NaN).
     */
    static <T> void sort(List<T> list, ToDoubleBiFunction<T, T> compare) {
        Comparator<T> comparator = (a, b) -> {
            double result = compare.applyAsDouble(a, b);
            return result < 0 ? -1 : result > 0 ? 1 : 0;
        };
        List<T> sorted = mergeSort(new ArrayList<>(list), comparator);
        for (int i = 0; i < sorted.size(); i++) {
            list.set(i, sorted.get(i));
        }
    }

    private static <T> List<T> mergeSort(List<T> list, Comparator<T> comparator) {
        if (list.size() < 2) {
            return list;
        }
        int middle = list.size() / 2;
        List<T> left = mergeSort(new ArrayList<>(list.subList(0, middle)), comparator);
        List<T> right = mergeSort(new ArrayList<>(list.subList(middle, list.size())), comparator);
        List<T> merged = new ArrayList<>(list.size());
        int l = 0;
        int r = 0;
        while (l < left.size() && r < right.size()) {
            merged.add(comparator.compare(right.get(r), left.get(l)) < 0 ? right.get(r++) : left.get(l++));
        }
        merged.addAll(left.subList(l, left.size()));
        merged.addAll(right.subList(r, right.size()));
        return merged;
    }

    /** Object.keys: array-index keys in ascending order first, then the others in insertion order. */
    static List<String> keys(ObjectNode object) {
        return keys(object::fieldNames);
    }

    /** Keys in the order JavaScript enumerates them, for a map built from names in insertion order. */
    static List<String> keys(Iterable<String> insertionOrder) {
        List<String> indexes = new ArrayList<>();
        List<String> others = new ArrayList<>();
        for (String name : insertionOrder) {
            (isArrayIndex(name) ? indexes : others).add(name);
        }
        indexes.sort(Comparator.comparingLong(Long::parseLong));
        indexes.addAll(others);
        return indexes;
    }

    private static boolean isArrayIndex(String name) {
        if (name.isEmpty() || name.length() > 10 || name.length() > 1 && name.charAt(0) == '0') {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            if (name.charAt(i) < '0' || name.charAt(i) > '9') {
                return false;
            }
        }
        return Long.parseLong(name) < 4294967295L;
    }
}
