package tankard.engine.worldinfo;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToDoubleBiFunction;

/** The orders JavaScript gives: Array.prototype.sort's and an object's own keys'. */
final class JsOrder {
    private JsOrder() {
    }

    /**
     * Array.prototype.sort with a comparator that answers a number, as V8 sorts: stable; below 64 elements one run
     * made by V8's TimSort (its first run, then binary insertion), so that even a comparator answering NaN (entries
     * without an {@code order}) gives V8's order. Longer lists are merge sorted, which agrees with V8 whenever the
     * comparator is consistent.
     */
    static <T> void sort(List<T> list, ToDoubleBiFunction<T, T> compare) {
        if (list.size() < 2) {
            return;
        }
        if (list.size() >= 64) {
            List<T> sorted = mergeSort(new ArrayList<>(list), compare);
            for (int i = 0; i < sorted.size(); i++) {
                list.set(i, sorted.get(i));
            }
            return;
        }
        binaryInsertionSort(list, countAndMakeRun(list, compare), compare);
    }

    /** V8's CountAndMakeRun: the length of the leading run, a strictly descending one reversed in place. */
    private static <T> int countAndMakeRun(List<T> list, ToDoubleBiFunction<T, T> compare) {
        boolean descending = compare.applyAsDouble(list.get(1), list.get(0)) < 0;
        int runLength = 2;
        for (int i = 2; i < list.size(); i++) {
            double order = compare.applyAsDouble(list.get(i), list.get(i - 1));
            if (descending ? order >= 0 : order < 0) {
                break;
            }
            runLength++;
        }
        if (descending) {
            Collections.reverse(list.subList(0, runLength));
        }
        return runLength;
    }

    /** V8's BinaryInsertionSort of the elements from {@code start} into the sorted prefix. */
    private static <T> void binaryInsertionSort(List<T> list, int start, ToDoubleBiFunction<T, T> compare) {
        for (; start < list.size(); start++) {
            T pivot = list.get(start);
            int left = 0;
            int right = start;
            while (left < right) {
                int middle = left + ((right - left) >> 1);
                if (compare.applyAsDouble(pivot, list.get(middle)) < 0) {
                    right = middle;
                } else {
                    left = middle + 1;
                }
            }
            list.remove(start);
            list.add(left, pivot);
        }
    }

    private static <T> List<T> mergeSort(List<T> list, ToDoubleBiFunction<T, T> compare) {
        if (list.size() < 2) {
            return list;
        }
        int middle = list.size() / 2;
        List<T> left = mergeSort(new ArrayList<>(list.subList(0, middle)), compare);
        List<T> right = mergeSort(new ArrayList<>(list.subList(middle, list.size())), compare);
        List<T> merged = new ArrayList<>(list.size());
        int l = 0;
        int r = 0;
        while (l < left.size() && r < right.size()) {
            merged.add(compare.applyAsDouble(right.get(r), left.get(l)) < 0 ? right.get(r++) : left.get(l++));
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
