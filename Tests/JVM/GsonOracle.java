// The Android apps' path configuration classes, ported to Java line for line,
// read by the real Gson: the oracle GsonOracleTests compares libpathconfig's
// Android profiles with. One JVM run reads every document.
//
// hotwire-native-android a49cb9b: core/src/main/kotlin/dev/hotwire/core/turbo/
//   config/PathConfigurationData.kt, PathConfigurationRule.kt,
//   PathConfiguration.kt (applyLoadedState), PathConfigurationHistoricalLocations.kt,
//   util/CoreExtensions.kt (the Gson: LONG_OR_DOUBLE).
// turbo-android daceb0a: turbo/src/main/kotlin/dev/hotwire/turbo/config/
//   TurboPathConfiguration.kt, TurboPathConfigurationRule.kt,
//   util/TurboExtensions.kt (a plain Gson).
//
// Kotlin's classes as Gson sees them: PathConfigurationData's parameters all
// have defaults, so Kotlin adds a no-argument constructor (kept here); the
// rule classes and TurboPathConfiguration(context) have none, so Gson
// allocates them without a constructor (JDK Unsafe), their fields null.
//
// Input (standard input): a first line of probe URLs (tab-separated), then one
// document per line, base64. Output: per document and app, one line
//   app <TAB> outcome <TAB> detail
// where outcome is refused, ignored, crash-startup, crash-latent or ok; for
// ok, detail is {"settings": ..., "settings_null": bool, "lookups": [...]}
// (a lookup is the merged properties, or "NPE" when it throws).
import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.ToNumberPolicy;
import com.google.gson.TypeAdapter;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonWriter;
import com.google.gson.annotations.SerializedName;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

public class GsonOracle {
    // hotwire-native-android: data class PathConfigurationData(rules = emptyList(), settings = PathConfigurationSettings())
    static final class HotwireData {
        @SerializedName("rules") private final List<HotwireRule> rules;
        @SerializedName("settings") private final HashMap<String, Object> settings;
        HotwireData() { this(Collections.emptyList(), new HashMap<>()); }
        HotwireData(List<HotwireRule> rules, HashMap<String, Object> settings) { this.rules = rules; this.settings = settings; }
    }

    static final class HotwireRule {
        @SerializedName("patterns") private final List<String> patterns;
        @SerializedName("properties") private final HashMap<String, Object> properties;
        HotwireRule(List<String> patterns, HashMap<String, Object> properties) { this.patterns = patterns; this.properties = properties; }
    }

    // turbo-android: class TurboPathConfiguration(context: Context), its fields as Gson binds them.
    static final class TurboConfiguration {
        private final HashMap<String, HashMap<String, String>> cachedProperties = new HashMap<>();
        @SerializedName("rules") List<TurboRule> rules = Collections.emptyList();
        @SerializedName("settings") HashMap<String, String> settings = new HashMap<>();
        TurboConfiguration(Object context) {}
    }

    static final class TurboRule {
        @SerializedName("patterns") private final List<String> patterns;
        @SerializedName("properties") private final HashMap<String, String> properties;
        TurboRule(List<String> patterns, HashMap<String, String> properties) { this.patterns = patterns; this.properties = properties; }
    }

    static final Gson hotwireGson = new GsonBuilder().setObjectToNumberStrategy(ToNumberPolicy.LONG_OR_DOUBLE).create();
    static final Gson turboGson = new Gson();
    // Writes a double that is not finite (lenient Gson reads 1e400 as Infinity) as {"$double": "Infinity"}.
    static final Gson writer = new GsonBuilder().serializeNulls().disableHtmlEscaping()
        .registerTypeAdapter(Double.class, new TypeAdapter<Double>() {
            @Override public void write(JsonWriter out, Double d) throws IOException {
                if (d == null) out.nullValue();
                else if (d.isNaN() || d.isInfinite()) out.beginObject().name("$double").value(d.toString()).endObject();
                else out.value(d);
            }
            @Override public Double read(JsonReader in) { throw new UnsupportedOperationException(); }
        }).create();

    static final List<HotwireRule> historical = Arrays.asList(
        historicalRule("/recede_historical_location", "POP"),
        historicalRule("/resume_historical_location", "NONE"),
        historicalRule("/refresh_historical_location", "REFRESH"));

    static HotwireRule historicalRule(String pattern, String presentation) {
        HashMap<String, Object> p = new HashMap<>();
        p.put("presentation", presentation);
        p.put("context", "DEFAULT");
        p.put("historical_location", true);
        return new HotwireRule(Collections.singletonList(pattern), p);
    }

    // PathConfigurationRule.numberOfMatches: Regex(p, IGNORE_CASE) is CASE_INSENSITIVE | UNICODE_CASE; Regex(null) throws.
    static boolean matches(List<String> patterns, String path) {
        for (String p : patterns) {  // a null list throws here
            if (p == null) throw new NullPointerException("Regex(null)");
            try {
                if (Pattern.compile(p, Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE).matcher(path).find()) return true;
            } catch (PatternSyntaxException e) {
                // a release build logs it and counts no match
            }
        }
        return false;
    }

    static String path(URL url) {
        return url.getQuery() == null ? url.getPath() : url.getPath() + "?" + url.getQuery();
    }

    static Object hotwireLookup(HotwireData d, String location) {
        try {
            HashMap<String, Object> properties = new HashMap<>();
            String path;
            try { path = path(new URL(location)); } catch (MalformedURLException e) { path = ""; }
            List<HotwireRule> all = new ArrayList<>(d.rules);  // rules + historicalLocationRules
            all.addAll(historical);
            for (HotwireRule rule : all) {
                if (matches(rule.patterns, path)) properties.putAll(rule.properties);
            }
            return properties;
        } catch (NullPointerException e) {
            return "NPE";
        }
    }

    static Object turboLookup(TurboConfiguration c, String location) {
        try {
            HashMap<String, String> properties = new HashMap<>();
            String path = path(new URL(location));
            for (TurboRule rule : c.rules) {
                if (matches(rule.patterns, path)) properties.putAll(rule.properties);
            }
            return properties;
        } catch (NullPointerException e) {
            return "NPE";
        } catch (MalformedURLException e) {
            return "MalformedURLException";
        }
    }

    /** What a null in the loaded classes will crash on, or null. */
    static String latentNull(List<?> rules, boolean hotwire) {
        if (rules == null) return "rules";
        for (Object o : rules) {
            if (o == null) return "rule";
            List<String> patterns = hotwire ? ((HotwireRule) o).patterns : ((TurboRule) o).patterns;
            Object properties = hotwire ? ((HotwireRule) o).properties : ((TurboRule) o).properties;
            if (patterns == null) return "patterns";
            if (patterns.contains(null)) return "pattern";
            if (properties == null) return "properties";
        }
        return null;
    }

    static void line(String app, String outcome, String detail) {
        StringBuilder out = new StringBuilder(app + "\t" + outcome + "\t");
        for (int i = 0; i < detail.length(); i++) {
            char c = detail.charAt(i);
            boolean paired = Character.isHighSurrogate(c) ? i + 1 < detail.length() && Character.isLowSurrogate(detail.charAt(i + 1))
                : Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(detail.charAt(i - 1));
            if (Character.isSurrogate(c) && !paired) out.append(String.format("\\u%04X", (int) c));  // as libpathconfig writes one
            else out.append(c == '\n' || c == '\t' ? ' ' : c);
        }
        System.out.println(out);
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        System.out.println("java " + System.getProperty("java.specification.version"));
        List<String> probes = Arrays.asList(in.readLine().split("\t"));
        for (String encoded; (encoded = in.readLine()) != null; ) {
            byte[] bytes = Base64.getDecoder().decode(encoded);
            // A bundled asset: String(bytes), UTF-8.
            String json = new String(bytes, StandardCharsets.UTF_8);

            HotwireData d = null;
            String refusal = null;
            try {
                d = hotwireGson.fromJson(json, HotwireData.class);
            } catch (Exception e) {  // PathConfigurationLoader.load catches Exception: the file is ignored
                refusal = String.valueOf(e);
            }
            if (refusal != null) {
                line("hotwire-android", "refused", refusal);
            } else if (d == null) {
                line("hotwire-android", "ignored", "fromJson returned null");
            } else {
                String startup = null;
                try {
                    // PathConfiguration.applyLoadedState logs rules.size and settings.size.
                    int unused = d.rules.size() + d.settings.size();
                } catch (NullPointerException e) {
                    startup = d.rules == null ? "rules" : "settings";
                }
                if (startup != null) {
                    line("hotwire-android", "crash-startup", startup);
                } else {
                    HotwireData loaded = d;
                    report("hotwire-android", d.settings, false, latentNull(d.rules, true), probes, p -> hotwireLookup(loaded, p));
                }
            }

            TurboConfiguration parsed = null;
            refusal = null;
            try {
                parsed = turboGson.fromJson(json, TurboConfiguration.class);
            } catch (Exception e) {  // TurboPathConfigurationRepository.parseFromJson catches Exception
                refusal = String.valueOf(e);
            }
            if (refusal != null) {
                line("turbo-android", "refused", refusal);
            } else if (parsed == null) {
                line("turbo-android", "ignored", "fromJson returned null");
            } else {
                // TurboPathConfiguration.load: rules = it.rules; settings = it.settings (the fields, unchecked).
                TurboConfiguration real = new TurboConfiguration(null);
                real.rules = parsed.rules;
                real.settings = parsed.settings;
                report("turbo-android", real.settings, real.settings == null, latentNull(real.rules, false), probes, p -> turboLookup(real, p));
            }
        }
    }


    interface Lookup { Object at(String location); }

    static void report(String app, Map<String, ?> settings, boolean settingsNull, String latent, List<String> probes, Lookup lookup) {
        List<Object> lookups = new ArrayList<>();
        for (String p : probes) lookups.add(lookup.at(p));
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("settings", settings);
        detail.put("settings_null", settingsNull);
        detail.put("latent", latent);
        detail.put("lookups", lookups);
        line(app, latent != null ? "crash-latent" : "ok", writer.toJson(detail));
    }
}
