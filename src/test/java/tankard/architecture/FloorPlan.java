package tankard.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchRule;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/** The rules of docs/architecture.md, for a code base rooted at a package (Tankard's, or a test fixture's). */
final class FloorPlan {
    private FloorPlan() {
    }

    /** No two packages under {@code root} import each other, directly or through others. */
    static ArchRule noPackageCycles(String root) {
        return slices().matching(root + ".(**)").should().beFreeOfCycles();
    }

    /**
     * Only the HTTP surface knows HTTP: outside {@code root.http} and the wiring in {@code root} itself, only the
     * route classes ({@code *Feature}, with their nested and anonymous classes) may use it.
     */
    static ArchRule httpOnlyInRouteClasses(String root) {
        return noClasses().that().resideOutsideOfPackages(root, root + ".http..")
                .and(DescribedPredicate.not(routeClass()))
                .should().dependOnClassesThat().resideInAPackage(root + ".http..");
    }

    private static DescribedPredicate<JavaClass> routeClass() {
        return DescribedPredicate.describe("route classes (*Feature)", type -> {
            String name = type.getName();
            int nested = name.indexOf('$');
            return (nested < 0 ? name : name.substring(0, nested)).endsWith("Feature");
        });
    }
}
