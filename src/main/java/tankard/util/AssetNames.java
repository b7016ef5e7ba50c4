package tankard.util;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/** ST's rule for asset and data bank file names (ST: src/endpoints/assets.js, validateAssetFileName). */
public final class AssetNames {
    private static final Pattern ALLOWED = Pattern.compile("^[a-zA-Z0-9_\\-.]+$");
    private static final Set<String> UNSAFE_EXTENSIONS = Set.of(".php", ".exe", ".com", ".dll", ".pif", ".application",
            ".gadget", ".msi", ".jar", ".cmd", ".bat", ".reg", ".sh", ".py", ".js", ".jse", ".jsp", ".pdf", ".html",
            ".htm", ".hta", ".vb", ".vbs", ".vbe", ".cpl", ".msc", ".scr", ".sql", ".iso", ".img", ".dmg", ".ps1",
            ".ps1xml", ".ps2", ".ps2xml", ".psc1", ".psc2", ".msh", ".msh1", ".msh2", ".mshxml", ".msh1xml",
            ".msh2xml", ".scf", ".lnk", ".inf", ".doc", ".docm", ".docx", ".dot", ".dotm", ".dotx", ".xls", ".xlsm",
            ".xlsx", ".xlt", ".xltm", ".xltx", ".xlam", ".ppt", ".pptm", ".pptx", ".pot", ".potm", ".potx", ".ppam",
            ".ppsx", ".ppsm", ".pps", ".sldx", ".sldm", ".ws");

    private AssetNames() {
    }

    /** Why the name is refused, in ST's words, or null when it is a valid asset file name. */
    public static String problem(String name) {
        if (!ALLOWED.matcher(name).matches()) {
            return "Illegal character in filename; only alphanumeric, '_', '-' are accepted.";
        }
        if (UNSAFE_EXTENSIONS.contains(FileNames.ext(name).toLowerCase(Locale.ROOT))) {
            return "Forbidden file extension.";
        }
        if (name.startsWith(".")) {
            return "Filename cannot start with '.'";
        }
        if (!Sanitize.filename(name).equals(name)) {
            return "Reserved or long filename.";
        }
        return null;
    }
}
