package tankard.engine.worldinfo;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;
import java.util.regex.Pattern;

/**
 * Leaves one entry of each inclusion group among the entries a scan step activated (ST:
 * public/scripts/world-info.js, filterByInclusionGroups, filterGroupsByTimedEffects and filterGroupsByScoring).
 */
final class InclusionGroups {
    private static final Pattern GROUP_SEPARATOR = Pattern.compile(",[\\t\\n\\u000B\\f\\r \\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF]*");

    private final List<WorldInfoEntry> newEntries;
    private final WorldInfoBuffer buffer;
    private final WorldInfoBuffer.ScanState state;
    private final TimedEffects timed;
    private final boolean useGroupScoring;
    private final RandomGenerator random;

    private InclusionGroups(List<WorldInfoEntry> newEntries, WorldInfoBuffer buffer, WorldInfoBuffer.ScanState state,
                            TimedEffects timed, boolean useGroupScoring, RandomGenerator random) {
        this.newEntries = newEntries;
        this.buffer = buffer;
        this.state = state;
        this.timed = timed;
        this.useGroupScoring = useGroupScoring;
        this.random = random;
    }

    /** Removes the losers of every group from {@code newEntries}, in place. */
    static void filter(List<WorldInfoEntry> newEntries, Collection<WorldInfoEntry> allActivated, WorldInfoBuffer buffer,
                       WorldInfoBuffer.ScanState state, TimedEffects timed, boolean useGroupScoring,
                       RandomGenerator random) {
        Map<String, List<WorldInfoEntry>> grouped = group(newEntries);
        if (!grouped.isEmpty()) {
            new InclusionGroups(newEntries, buffer, state, timed, useGroupScoring, random).filter(grouped, allActivated);
        }
    }

    /** The entries by group name, in the order JavaScript enumerates the object ST builds. */
    private static Map<String, List<WorldInfoEntry>> group(List<WorldInfoEntry> entries) {
        Map<String, List<WorldInfoEntry>> byName = new HashMap<>();
        List<String> names = new ArrayList<>();
        for (WorldInfoEntry entry : entries) {
            for (String name : GROUP_SEPARATOR.split(entry.group())) {
                if (!name.isEmpty()) {
                    byName.computeIfAbsent(name, key -> {
                        names.add(key);
                        return new ArrayList<>();
                    }).add(entry);
                }
            }
        }
        Map<String, List<WorldInfoEntry>> grouped = new LinkedHashMap<>();
        JsOrder.keys(names).forEach(name -> grouped.put(name, byName.get(name)));
        return grouped;
    }

    private void filter(Map<String, List<WorldInfoEntry>> grouped, Collection<WorldInfoEntry> allActivated) {
        Map<String, Boolean> hasSticky = filterByTimedEffects(grouped);
        filterByScoring(grouped, hasSticky);
        for (Map.Entry<String, List<WorldInfoEntry>> group : grouped.entrySet()) {
            List<WorldInfoEntry> members = group.getValue();
            if (hasSticky.get(group.getKey())) {
                continue;
            }
            // A group that already activated in an earlier step admits none of its entries now.
            if (allActivated.stream().anyMatch(entry -> entry.group().equals(group.getKey()))) {
                removeAllBut(members, null);
                continue;
            }
            if (members.size() <= 1) {
                continue;
            }
            List<WorldInfoEntry> prios = new ArrayList<>(members.stream().filter(entry -> entry.flag("groupOverride")).toList());
            if (!prios.isEmpty()) {
                JsOrder.sort(prios, WorldInfoEntry::byOrder);
                removeAllBut(members, prios.get(0));
                continue;
            }
            WorldInfoEntry winner = rollWinner(members);
            if (winner != null) {
                removeAllBut(members, winner);
            }
        }
    }

    /** A weighted random pick by {@code groupWeight}. */
    private WorldInfoEntry rollWinner(List<WorldInfoEntry> members) {
        double totalWeight = 0;
        for (WorldInfoEntry entry : members) {
            totalWeight += entry.numberOr("groupWeight", WorldInfoEntry.DEFAULT_WEIGHT);
        }
        double roll = random.nextDouble() * totalWeight;
        double currentWeight = 0;
        for (WorldInfoEntry entry : members) {
            currentWeight += entry.numberOr("groupWeight", WorldInfoEntry.DEFAULT_WEIGHT);
            if (roll <= currentWeight) {
                return entry;
            }
        }
        return null;
    }

    /** Sticky entries win their group; entries on cooldown or delayed leave it. */
    private Map<String, Boolean> filterByTimedEffects(Map<String, List<WorldInfoEntry>> grouped) {
        Map<String, Boolean> hasSticky = new HashMap<>();
        for (Map.Entry<String, List<WorldInfoEntry>> group : grouped.entrySet()) {
            List<WorldInfoEntry> members = group.getValue();
            hasSticky.put(group.getKey(), false);
            List<WorldInfoEntry> sticky = members.stream().filter(timed::isSticky).toList();
            if (!sticky.isEmpty()) {
                members.stream().filter(entry -> !sticky.contains(entry)).forEach(this::remove);
                hasSticky.put(group.getKey(), true);
            }
            members.stream().filter(timed::isCooldown).forEach(this::remove);
            members.stream().filter(timed::isDelay).forEach(this::remove);
        }
        return hasSticky;
    }

    /** Only the entries with the best key score stay in a group that uses scoring. */
    private void filterByScoring(Map<String, List<WorldInfoEntry>> grouped, Map<String, Boolean> hasSticky) {
        for (Map.Entry<String, List<WorldInfoEntry>> group : grouped.entrySet()) {
            List<WorldInfoEntry> members = group.getValue();
            if (!useGroupScoring && members.stream().noneMatch(entry -> entry.flag("useGroupScoring"))
                    || hasSticky.get(group.getKey())) {
                continue;
            }
            List<Integer> scores = new ArrayList<>(members.stream().map(entry -> buffer.getScore(entry, state)).toList());
            int maxScore = scores.stream().mapToInt(Integer::intValue).max().orElseThrow();
            for (int i = 0; i < members.size(); i++) {
                WorldInfoEntry entry = members.get(i);
                boolean scored = entry.get("useGroupScoring") == null || entry.get("useGroupScoring").isNull()
                        ? useGroupScoring : entry.flag("useGroupScoring");
                if (scored && scores.get(i) < maxScore) {
                    remove(entry);
                    members.remove(i);
                    scores.remove(i);
                    i--;
                }
            }
        }
    }

    private void removeAllBut(List<WorldInfoEntry> members, WorldInfoEntry chosen) {
        for (WorldInfoEntry entry : members) {
            if (entry != chosen) {
                remove(entry);
            }
        }
    }

    /**
     * ST's {@code newEntries.splice(newEntries.indexOf(entry), 1)}: an entry already removed gives index -1, which
     * removes the last entry instead. Ported as is, since it decides which entries reach the prompt.
     */
    private void remove(WorldInfoEntry entry) {
        int index = newEntries.indexOf(entry);
        if (index >= 0) {
            newEntries.remove(index);
        } else if (!newEntries.isEmpty()) {
            newEntries.remove(newEntries.size() - 1);
        }
    }
}
