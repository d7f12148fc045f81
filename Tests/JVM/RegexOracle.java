// java.util.regex itself, for the Swift suite's JavaOracle (WordBoundaryTests):
// run as `java RegexOracle.java` (a JDK 17 runs one source file without
// compiling). Reads one question a line from standard input, strings as code
// points in hex (`61,301`; `-` for the empty string):
//   F <ci> <pattern> <subject>   does find() succeed (1 or 0); ci 1 compiles
//                                with CASE_INSENSITIVE | UNICODE_CASE
//   S 0 <pattern> <subject>      the start of each match find() returns, in code points
//   U 0 <pattern> <subject>      the same in UTF-16 units
//   T 0 - <text>                 Character.getType of each code point
// Writes "java " and java.specification.version, then one answer a line.
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.*;
import java.util.regex.*;

public class RegexOracle {
    static String text(String hex) {
        if (hex.equals("-")) return "";
        StringBuilder b = new StringBuilder();
        for (String h : hex.split(",")) b.appendCodePoint(Integer.parseInt(h, 16));
        return b.toString();
    }

    // The JDK's Pattern compiles and matches recursively, a frame or more a
    // node: a pattern at the 16 KB limit (16,384 `.`) overflows the main
    // thread's stack, so the questions run on a thread with a larger one.
    public static void main(String[] args) throws Exception {
        Throwable[] failure = new Throwable[1];
        Thread worker = new Thread(null, () -> {
            try { answer(); } catch (Throwable t) { failure[0] = t; }
        }, "oracle", 1L << 30);
        worker.start();
        worker.join();
        if (failure[0] instanceof Exception) throw (Exception) failure[0];
        if (failure[0] != null) throw new RuntimeException(failure[0]);
    }

    static void answer() throws Exception {
        StringBuilder out = new StringBuilder("java " + System.getProperty("java.specification.version") + "\n");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        for (String line; (line = in.readLine()) != null; ) {
            String[] f = line.split(" ");
            String subject = text(f[3]);
            switch (f[0]) {
            case "F": {
                int flags = f[1].equals("1") ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0;
                out.append(Pattern.compile(text(f[2]), flags).matcher(subject).find() ? "1" : "0");
                break;
            }
            case "S": {
                Matcher m = Pattern.compile(text(f[2])).matcher(subject);
                StringJoiner starts = new StringJoiner(" ");
                int index = 0, count = 0;
                while (m.find()) {
                    count += subject.codePointCount(index, m.start());
                    index = m.start();
                    starts.add(Integer.toString(count));
                }
                out.append(starts.toString());
                break;
            }
            case "U": {
                Matcher m = Pattern.compile(text(f[2])).matcher(subject);
                StringJoiner starts = new StringJoiner(" ");
                while (m.find()) starts.add(Integer.toString(m.start()));
                out.append(starts.toString());
                break;
            }
            case "T": {
                StringJoiner types = new StringJoiner(" ");
                subject.codePoints().forEach(c -> types.add(Integer.toString(Character.getType(c))));
                out.append(types.toString());
                break;
            }
            }
            out.append('\n');
        }
        System.out.print(out);
    }
}
