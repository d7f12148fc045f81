// What java.util.regex finds, for JavaCaseDifferentialTests: run as
// `java RegexProbe.java` (a JDK 17 runs one source file without compiling).
//
// Reads lines of hex (the UTF-8 bytes of one string each) from standard
// input: the subjects, a line "-", then the patterns. Each pattern is
// compiled as Kotlin's Regex(pattern, IGNORE_CASE) compiles it
// (CASE_INSENSITIVE | UNICODE_CASE) and searched for in every subject
// (find(), as the apps' Regex.find does). Writes, after a first line "java "
// and java.specification.version and a second "map" line listing every code
// point that Character.toUpperCase(int) or toLowerCase(int) changes, as
// "c:upper:lower" in hex, one line per pattern: "E" and the
// PatternSyntaxException's description, or one character per subject, 1
// where the pattern is found and 0 where not. (A pattern whose search throws,
// as JDK 17's does for some classes, is an "E" line too, naming the exception.)
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.*;

public class RegexProbe {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        PrintStream out = new PrintStream(new BufferedOutputStream(System.out), false, StandardCharsets.US_ASCII);
        out.println("java " + System.getProperty("java.specification.version"));
        StringBuilder map = new StringBuilder("map");
        for (int c = 0; c <= Character.MAX_CODE_POINT; c++) {
            int u = Character.toUpperCase(c), l = Character.toLowerCase(c);
            if (u != c || l != c) map.append(' ').append(Integer.toHexString(c)).append(':').append(Integer.toHexString(u)).append(':').append(Integer.toHexString(l));
        }
        out.println(map);
        List<String> subjects = new ArrayList<>();
        String line;
        while ((line = in.readLine()) != null && !line.equals("-")) subjects.add(unhex(line));
        while ((line = in.readLine()) != null) {
            Pattern pattern;
            try {
                pattern = Pattern.compile(unhex(line), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
            } catch (PatternSyntaxException e) {
                out.println("E " + e.getDescription().replace('\n', ' '));
                continue;
            }
            StringBuilder row = new StringBuilder(subjects.size());
            try {
                for (String subject : subjects) row.append(pattern.matcher(subject).find() ? '1' : '0');
            } catch (RuntimeException e) {
                // JDK 17 compiles some classes it cannot run: [[b]a&&]
                // throws a NullPointerException when a search tries it.
                row = new StringBuilder("E " + e.getClass().getSimpleName() + " from find()");
            }
            out.println(row);
        }
        out.flush();
    }

    static String unhex(String s) {
        byte[] b = new byte[s.length() / 2];
        for (int i = 0; i < b.length; i++) b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        return new String(b, StandardCharsets.UTF_8);
    }
}
