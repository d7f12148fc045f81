// How java.util.regex searches for a pattern, for JavaSyntaxDifferentialTests:
// run as `java --add-opens java.base/java.util.regex=ALL-UNNAMED
// SearchProbe.java` (a JDK 17 runs one source file without compiling).
//
// Reads lines of hex (the UTF-8 bytes of one pattern each) from standard
// input, compiles each as Kotlin's Regex(pattern, IGNORE_CASE) compiles it
// (CASE_INSENSITIVE | UNICODE_CASE), and writes, after a first line "java "
// and java.specification.version, one line per pattern: "E" where the JDK
// rejects it, else the class of the node its search starts from (the
// private field Pattern.root): "Start" tries every UTF-16 index, inside a
// surrogate pair too; "StartS" every code point; "Begin" only the start;
// "BnM" runs Boyer-Moore for a pattern of literals.
import java.io.*;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.regex.*;

public class SearchProbe {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        PrintStream out = new PrintStream(new BufferedOutputStream(System.out), false, StandardCharsets.US_ASCII);
        out.println("java " + System.getProperty("java.specification.version"));
        Field root = Pattern.class.getDeclaredField("root");
        root.setAccessible(true);
        String line;
        while ((line = in.readLine()) != null) {
            try {
                Pattern pattern = Pattern.compile(unhex(line), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
                out.println(root.get(pattern).getClass().getSimpleName());
            } catch (PatternSyntaxException e) {
                out.println("E");
            }
        }
        out.flush();
    }

    static String unhex(String s) {
        byte[] b = new byte[s.length() / 2];
        for (int i = 0; i < b.length; i++) b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        return new String(b, StandardCharsets.UTF_8);
    }
}
