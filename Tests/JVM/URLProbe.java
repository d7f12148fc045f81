// What java.net.URL makes of strings, for JavaURLDifferentialTests: run as
// `java URLProbe.java` (a JDK 17 runs one source file without compiling).
//
// Reads lines of hex (the UTF-8 bytes of one input each) from standard input
// and writes one line per input:
//   N              MalformedURLException "no protocol"
//   R <message>    any other MalformedURLException
//   0              a URL whose getPath() is null
//   A <path> <query>  getPath() and getQuery() as hex of their UTF-8, "-" for
//                  a null query
// The first line written is "java " and java.specification.version; then
// "letters" and the ranges of chars Character.isLetter takes ("41-5a 61-7a
// ..."), and "digits" and each char Character.digit(c, 10) reads with its
// value ("30=0 31=1 ..."): what URL reads a protocol and a port with.
//
// Android registers handlers for http, https, ftp, file and jar only
// (libcore's URL.getURLStreamHandler); OpenJDK also has mailto, jmod and jrt.
// A stream handler factory refuses every overridable protocol but http,
// https, ftp and jar, and jrt (which cannot be overridden) is refused after
// the fact, at the top level only: inputs must not wrap a jrt: URL in jar:.
import java.io.*;
import java.net.*;
import java.nio.charset.StandardCharsets;

public class URLProbe {
    public static void main(String[] args) throws IOException {
        URL.setURLStreamHandlerFactory(protocol -> {
            switch (protocol) {
                case "http": case "https": case "ftp": case "jar": return null;
                default: return new URLStreamHandler() {
                    protected URLConnection openConnection(URL u) { throw new UnsupportedOperationException(); }
                    protected void parseURL(URL u, String spec, int start, int limit) {
                        throw new IllegalArgumentException("unknown protocol: " + protocol + " (no handler on Android)");
                    }
                };
            }
        });
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        PrintStream out = new PrintStream(new BufferedOutputStream(System.out), false, StandardCharsets.US_ASCII);
        out.println("java " + System.getProperty("java.specification.version"));
        StringBuilder letters = new StringBuilder("letters"), digits = new StringBuilder("digits");
        for (int c = 0; c <= 0xFFFF; c++) {
            if (Character.isLetter((char) c) && (c == 0 || !Character.isLetter((char) (c - 1)))) {
                int end = c;
                while (end < 0xFFFF && Character.isLetter((char) (end + 1))) end++;
                letters.append(' ').append(Integer.toHexString(c)).append('-').append(Integer.toHexString(end));
            }
            int digit = Character.digit((char) c, 10);
            if (digit >= 0) digits.append(' ').append(Integer.toHexString(c)).append('=').append(digit);
        }
        out.println(letters);
        out.println(digits);
        String line;
        while ((line = in.readLine()) != null) {
            String input = new String(unhex(line), StandardCharsets.UTF_8);
            try {
                URL url = new URL(input);
                if (url.getProtocol().equals("jrt")) {
                    out.println("R unknown protocol: jrt (no handler on Android)");
                } else if (url.getPath() == null) {
                    out.println("0");
                } else {
                    out.println("A " + hex(url.getPath()) + " " + (url.getQuery() == null ? "-" : hex(url.getQuery())));
                }
            } catch (MalformedURLException e) {
                String message = String.valueOf(e.getMessage());
                out.println(message.startsWith("no protocol") ? "N" : "R " + message.replace('\n', ' ').replace('\r', ' '));
            }
        }
        out.flush();
    }

    static byte[] unhex(String s) {
        byte[] b = new byte[s.length() / 2];
        for (int i = 0; i < b.length; i++) b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        return b;
    }

    static String hex(String s) {
        StringBuilder sb = new StringBuilder("x");
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) sb.append(String.format("%02x", b & 0xff));
        return sb.toString();
    }
}
