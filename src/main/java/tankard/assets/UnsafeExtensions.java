package tankard.assets;

import java.util.Set;

/** ST's UNSAFE_EXTENSIONS: file types an asset download may not be saved as (executables, scripts, documents). */
final class UnsafeExtensions {
    private static final Set<String> UNSAFE = Set.of(".php", ".exe", ".com", ".dll", ".pif", ".application", ".gadget",
            ".msi", ".jar", ".cmd", ".bat", ".reg", ".sh", ".py", ".js", ".jse", ".jsp", ".pdf", ".html", ".htm", ".hta",
            ".vb", ".vbs", ".vbe", ".cpl", ".msc", ".scr", ".sql", ".iso", ".img", ".dmg", ".ps1", ".ps1xml", ".ps2",
            ".ps2xml", ".psc1", ".psc2", ".msh", ".msh1", ".msh2", ".mshxml", ".msh1xml", ".msh2xml", ".scf", ".lnk",
            ".inf", ".doc", ".docm", ".docx", ".dot", ".dotm", ".dotx", ".xls", ".xlsm", ".xlsx", ".xlt", ".xltm",
            ".xltx", ".xlam", ".ppt", ".pptm", ".pptx", ".pot", ".potm", ".potx", ".ppam", ".ppsx", ".ppsm", ".pps",
            ".sldx", ".sldm", ".ws");

    private UnsafeExtensions() {
    }

    /** Whether the lower-case extension (with its dot) is unsafe. */
    static boolean is(String extension) {
        return UNSAFE.contains(extension);
    }
}
