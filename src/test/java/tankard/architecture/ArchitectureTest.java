package tankard.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tankard's main code keeps the floor plan; the rules themselves catch a deliberate violation. */
class ArchitectureTest {
    private static final JavaClasses TANKARD = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("tankard");
    private static final String FIXTURE = "tankard.architecture.fixture";

    @Test
    void noPackageImportsAnotherThatImportsItBack() {
        FloorPlan.noPackageCycles("tankard").check(TANKARD);
    }

    @Test
    void onlyTheRouteClassesAndTheHttpSurfaceUseHttp() {
        FloorPlan.httpOnlyInRouteClasses("tankard").check(TANKARD);
    }

    @Test
    void onlyTheFileStoresAndTheNodesOwnFilesUseTheUsersFolders() {
        FloorPlan.userFoldersOnlyInFileStores("tankard").check(TANKARD);
    }

    @Test
    void aFeatureReadingAUsersFolderIsReportedButAFileStoreIsNot() {
        String root = FIXTURE + ".folders";
        String report = FloorPlan.userFoldersOnlyInFileStores(root).evaluate(fixture(root)).getFailureReport().toString();
        assertTrue(report.contains("SpriteFeature"), report);
        assertFalse(report.contains("FileChatStore"), report);
    }

    @Test
    void aCycleBetweenTwoPackagesIsReported() {
        EvaluationResult result = FloorPlan.noPackageCycles(FIXTURE + ".cycle").evaluate(fixture(FIXTURE + ".cycle"));
        assertTrue(result.hasViolation());
        String report = result.getFailureReport().toString();
        assertTrue(report.contains("left") && report.contains("right"), report);
    }

    @Test
    void aServiceUsingHttpIsReportedButItsRouteClassIsNot() {
        EvaluationResult result = FloorPlan.httpOnlyInRouteClasses(FIXTURE + ".layered")
                .evaluate(fixture(FIXTURE + ".layered"));
        String report = result.getFailureReport().toString();
        assertTrue(report.contains("ChatService"), report);
        assertFalse(report.contains("ChatFeature"), report);
    }

    private static JavaClasses fixture(String root) {
        return new ClassFileImporter().importPackages(root);
    }
}
