// java.util.regex itself, for pathconfig-fuzz-dialect (Tests/DialectFuzzing/JDKOracle.swift):
// compiled once by javac (or run as `java DialectOracle.java`, which a JDK 17
// runs without compiling). Reads one question a line from standard input:
// the pattern and its subjects, each as the hex of its UTF-8 bytes ("-" for
// the empty string), separated by spaces. Each pattern is compiled as
// Kotlin's Regex(pattern, IGNORE_CASE) compiles it on Android
// (CASE_INSENSITIVE | UNICODE_CASE) and searched for with find() in each
// subject. Writes "java " and java.specification.version, then one line a
// question: "E " and the PatternSyntaxException's description; "R " and the
// exception's name when find() throws on a subject, a probe, or, for a class
// with "&&", on some character (JDK 17 compiles some classes it cannot run:
// [[b]a&&] throws a NullPointerException, which Tests/JVM/RegexProbe.java
// counts as a rejection too); "X " and why when that cannot be told; else
// one character a subject: 1 found, 0 not, X when find() overflowed the stack.
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.regex.*;

public class DialectOracle {
    // The probes RegexProbe's random classes run on: a class that throws
    // when searched throws on one of these.
    static final String[] PROBES = {"a", "b", "c", "d", "k", "x", "&", "-", "^", "]", "!", "[", "1", "K", "\u212A", ""};

    // The JDK's Pattern compiles and matches recursively: a pattern at the
    // 16 KB limit overflows the main thread's stack, so the questions run on
    // a thread with a larger one (as Tests/JVM/RegexOracle.java does).
    public static void main(String[] args) throws Exception {
        Throwable[] failure = new Throwable[1];
        Thread worker = new Thread(null, () -> {
            try { answer(); } catch (Throwable t) { failure[0] = t; }
        }, "oracle", 1L << 30);
        worker.start();
        worker.join();
        if (failure[0] != null) {
            failure[0].printStackTrace();
            System.exit(1);
        }
    }

    static void answer() throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII), 1 << 16);
        PrintStream out = new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16), false, StandardCharsets.US_ASCII);
        out.println("java " + System.getProperty("java.specification.version"));
        for (String line; (line = in.readLine()) != null; ) {
            String[] f = line.split(" ", -1);
            Pattern pattern;
            try {
                pattern = Pattern.compile(unhex(f[0]), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
            } catch (PatternSyntaxException e) {
                out.println("E " + e.getDescription().replace('\n', ' ').replace('\r', ' '));
                continue;
            } catch (RuntimeException | StackOverflowError e) {
                out.println("X " + e.getClass().getSimpleName() + " from compile()");
                continue;
            }
            String thrown = unsearchable(pattern, unhex(f[0]));
            if (thrown != null && thrown.isEmpty()) {
                out.println("X a class throws under some of the flags it may stand under, not all");
                continue;
            }
            StringBuilder row = new StringBuilder(f.length);
            for (int i = 1; i < f.length && thrown == null; i++) {
                try {
                    row.append(pattern.matcher(unhex(f[i])).find() ? '1' : '0');
                } catch (RuntimeException e) {
                    thrown = e.getClass().getSimpleName();
                } catch (StackOverflowError e) {
                    row.append('X');
                }
            }
            out.println(thrown != null ? "R " + thrown + " from find()" : row.toString());
        }
        out.flush();
    }

    // Whether find() throws on the probes, or, for a pattern with "&&", a
    // class in it (not nested in another) throws on some character of the
    // BMP (JDK 17 compiles [[b]a&&] into a class that throws wherever [b]a
    // holds, so a pattern that holds one throws only when a search reaches
    // the class there): the exception's name, or null. A class is compiled
    // alone, out of its place, so it is tried case-insensitively and not
    // (the flags decide what goes into its bit set: `[\Di&&]` throws, and
    // `(?i)[\Di&&]` does not), and, where the pattern turns free spacing on
    // anywhere, with it and without (`(?x)[[b]a&& ]` throws, `[[b]a&& ]`
    // does not), each that compiles it (free spacing makes `#` start a
    // comment, so `[(?x)#b&&]` compiles only without it); "" when some of
    // these throw and others do not, or when one throws in such a pattern,
    // where it may be in a comment (`(?x)#[[b]a&&]`).
    static String unsearchable(Pattern pattern, String text) {
        for (String probe : PROBES) {
            try {
                pattern.matcher(probe).find();
            } catch (RuntimeException e) {
                return e.getClass().getSimpleName();
            } catch (StackOverflowError e) {
                return null;
            }
        }
        if (!text.contains("&&")) return null;
        boolean spaced = FREE_SPACING.matcher(text).find();
        int[] modes = spaced ? SPACED_FLAGS : FLAGS;
        for (int i = 0; i < text.length(); i++) {
            // An escaped character, or text quoted to \E (or the end), is no class.
            if (text.charAt(i) == '\\') {
                int quoteEnd = text.startsWith("Q", i + 1) ? text.indexOf("\\E", i + 2) : i;
                i = quoteEnd < 0 ? text.length() : quoteEnd + 1;
                continue;
            }
            if (text.charAt(i) != '[') continue;
            for (int j = text.indexOf(']', i + 1); j >= 0; j = text.indexOf(']', j + 1)) {
                String thrown = null;
                int throwing = 0, compiled = 0;
                for (int flags : modes) {
                    try {
                        String name = throwsOnBMP(Pattern.compile(text.substring(i, j + 1), flags));
                        compiled++;
                        if (name != null && throwing++ == 0) thrown = name;
                    } catch (RuntimeException e) {
                        // No class ends here under these flags: free spacing
                        // makes `#` start a comment (`[(?x)#b&&]`).
                    }
                }
                if (compiled == 0) continue;
                // In a pattern that turns free spacing on, the class may
                // stand in a # comment, which the JDK never compiles.
                if (throwing == modes.length && !spaced) return thrown;
                if (throwing > 0) return "";
                // Under the flags it did not compile with, it may end later.
                if (compiled < modes.length) continue;
                // A class nested in this one is searched only as this one
                // asks (`[b&&a&&[[k]+&&]]` never throws, `[[k]+&&]` does).
                i = j;
                break;
            }
        }
        return null;
    }

    static final int CASELESS = Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
    static final int[] FLAGS = {CASELESS, 0};
    static final int[] SPACED_FLAGS = {CASELESS, 0, CASELESS | Pattern.COMMENTS, Pattern.COMMENTS};
    // A flag group that turns free spacing on: `(?x)`, `(?i-s:x`, `(?ix:`.
    static final Pattern FREE_SPACING = Pattern.compile("\\(\\?[a-wyzA-Z]*x");

    static final String BMP;
    static {
        StringBuilder b = new StringBuilder(0x10000);
        for (int c = 0; c < 0x10000; c++) if (c < 0xD800 || c > 0xDFFF) b.append((char) c);
        BMP = b.toString();
    }

    // The exception's name when a search of every BMP character throws, or null.
    static String throwsOnBMP(Pattern c) {
        try {
            for (Matcher m = c.matcher(BMP); m.find(); ) {}
            return null;
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName();
        }
    }

    static String unhex(String s) {
        if (s.equals("-")) return "";
        byte[] b = new byte[s.length() / 2];
        for (int i = 0; i < b.length; i++) b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        return new String(b, StandardCharsets.UTF_8);
    }
}
