package tankard.testing;

import org.junit.jupiter.api.Tag;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test that looks at ST's files in the data root, so it runs on the file store only: the surefire execution
 * that runs HTTP tests on PostgreSQL (pom.xml) leaves out this tag.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag("file-layout")
public @interface FileLayout {
}
