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

    /**
     * A user's data is reached through the stores: only the file stores ({@code File*Store}, {@code root.store}) and
     * the wiring in {@code root} itself use the user's folders in the data root ({@code root.user.UserDirs}), besides
     * what stays on the node in every storage: thumbnails ({@code root.thumbnail}), extensions ({@code
     * root.extension}, and their files as {@code root.userfiles.UserFilesFeature} serves them), the node's copies of
     * card images ({@code root.character.CardImages}) and the folder skeleton ST expects of a user, which accounts make
     * and delete ({@code root.account.AccountService}).
     */
    static ArchRule userFoldersOnlyInFileStores(String root) {
        return noClasses().that().resideOutsideOfPackages(root, root + ".store..", root + ".user..",
                        root + ".thumbnail..", root + ".extension..")
                .and(DescribedPredicate.not(fileStoreOr(root + ".userfiles.UserFilesFeature",
                        root + ".character.CardImages", root + ".account.AccountService")))
                .should().dependOnClassesThat().haveFullyQualifiedName(root + ".user.UserDirs");
    }

    private static DescribedPredicate<JavaClass> fileStoreOr(String... nodeFileClasses) {
        return DescribedPredicate.describe("file stores (File*Store) or the node's own files", type -> {
            String name = outer(type.getName());
            return name.substring(name.lastIndexOf('.') + 1).matches("File.*Store")
                    || java.util.Arrays.asList(nodeFileClasses).contains(name);
        });
    }

    private static String outer(String name) {
        int nested = name.indexOf('$');
        return nested < 0 ? name : name.substring(0, nested);
    }

    private static DescribedPredicate<JavaClass> routeClass() {
        return DescribedPredicate.describe("route classes (*Feature)", type -> outer(type.getName()).endsWith("Feature"));
    }
}
