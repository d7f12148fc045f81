// The Android apps' path configuration classes at every release era, ported
// to Java line for line and read by the real Gson (Debian's 2.10): the oracle
// AndroidReleaseOracleTests compares libpathconfig's versioned Android
// profiles (`hotwire-android@<tag>`, `turbo-android@<tag>`) with. One JVM run
// reads every document under every era asked for.
//
// hotwire-native-android (core/src/main/kotlin/dev/hotwire/core/turbo/):
//   H1 0.1 .. 0.1.2 (3172ece): config/PathConfiguration.kt (the class Gson binds,
//      HashMap<String, String>, the accessors), config/PathConfigurationRule.kt,
//      config/PathConfigurationLoader.kt (load(json)), util/TurboExtensions.kt (the Gson),
//      nav/TurboNav*Presentation*.kt (enums); `uri` defaults to the default fragment
//      destination's (HotwireWebFragment, @HotwireDestination(uri = "turbo://fragment/web")).
//   H2 0.1.3 .. 1.1.2 (fcac560): as H1 but `uri` has no default (63d9e2b, PR #51) and the
//      settings accessor screenshots_enabled is gone (ee60177, PR #44); util/CoreExtensions.kt,
//      nav/{Presentation,PresentationContext,QueryStringPresentation}.kt.
//   H3 1.1.3 (3d2b7a8): the `animated` accessor, toBoolean(), default true (deaf5dd, PR #110).
//   H4 1.2.0 .. 1.2.6 (fa6e5b0): HashMap<String, Any> of Gson's leaves, booleans `as Boolean`,
//      strings toString() (ebb7d26, b763f64, PR #114); ToNumberPolicy.LONG_OR_DOUBLE (deb5dec,
//      PR #131); config/PathConfigurationHistoricalLocations.kt appended when a file loads
//      (42dc703, PR #119); Gson 2.12.1's nesting limit 255 (56b3bf1, PR #132).
//   H5 1.2.7 .. 1.3.0 (167c04b): config/PathConfigurationData.kt is the class Gson binds;
//      PathConfiguration.applyLoadedState logs rules.size and settings.size; the historical
//      rules are appended on every lookup (f6b0d0f, 9a2910a, PR #195).
//   H6 1.3.1 = main a49cb9b: PathConfigurationData.path() maps MalformedURLException to ""
//      (819b686, PR #205).
// turbo-android (turbo/src/main/kotlin/dev/hotwire/turbo/):
//   T1 7.0.0-beta01 .. beta11 (8fb001a): config/TurboPathConfiguration.kt (the class Gson
//      binds, no no-argument constructor), config/TurboPathConfigurationRule.kt,
//      config/TurboPathConfigurationLoader.kt (load(json), no try), util/TurboExtensions.kt,
//      nav/TurboNav*Presentation*.kt; no query_string_presentation; toUpperCase() (default locale).
//   T2 7.0.0-beta12 .. rc12 (7833d14): the query_string_presentation accessor (3761c50, PR #178).
//   T3 7.0.0-rc13 .. 7.1.3 (31569a0): uppercase() (Locale.ROOT) (87d1272) and Gson 2.10
//      (1a54c9a), PR #249.
//   T4 7.1.4 .. 7.1.6-beta3 = main daceb0a (52cdc35): config/TurboPathConfigurationRepository.kt
//      parseFromJson catches: a document Gson cannot read (or reads as null) is ignored
//      (e152d6e, PR #342).
//
// As Gson sees Kotlin's classes: PathConfiguration (H1-H4) and PathConfigurationData (H5, H6)
// have a no-argument constructor, so missing keys keep their initialisers; the rule classes
// and TurboPathConfiguration(context) have none, so Gson allocates them (JDK Unsafe) with
// every field null. A bundled asset is String(bytes), UTF-8.
//
// java.net.URL: Android registers handlers for http, https, ftp, file and jar only, as in
// URLProbe.java: a stream handler factory refuses every other overridable protocol
// (mailto, ...), and jrt is refused after the fact. `path()` returns `url.path`, a platform
// type, from a function declared `: String`: Kotlin's null check there throws
// NullPointerException for a URL whose getPath() is null.
//
// Input (standard input): a first line of the eras to run (comma-separated: H1..H6, T1..T4),
// a tab, then the probe URLs (tab-separated); then one document per line, base64.
// Output: per document and era, one line
//   <document index> <TAB> <era> <TAB> <outcome> <TAB> <detail>
// outcome: ok; ignored (fromJson returned null and the app keeps what it had); refused (Gson
// threw and the app caught it, keeping what it had); crash-startup (the exception escapes the
// bundled load, or the load callback throws). For ok, detail is
//   {"settings": {..} | null, "latent": null | "rules" | "rule" | "patterns" | "pattern" | "properties",
//    "lookups": [ {"throws": "<exception class>"}
//               | {"properties": {..}, "typed": {"<key>": {"value": v} | {"throws": c[, "from": class]} | "n/a"}} ]}
// Values: String as a JSON string, Boolean, Long as an integer, Double as Double.toString
// (finite) or {"$double": "Infinity"}, Gson's LinkedTreeMap and ArrayList as objects and arrays;
// enums by name, Uri by its string. "latent" names the first null in the bound classes that a
// lookup can throw on (NullPointerException, reported per URL).
import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonSyntaxException;
import com.google.gson.ToNumberPolicy;
import com.google.gson.annotations.SerializedName;
import com.google.gson.reflect.TypeToken;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import com.google.gson.stream.MalformedJsonException;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLConnection;
import java.net.URLStreamHandler;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

public class ReleaseOracle {
    enum Era {
        H1, H2, H3, H4, H5, H6, T1, T2, T3, T4;
        boolean hotwire() { return name().startsWith("H"); }
        /** H4..H6 keep Gson's leaves (HashMap<String, Any>); every other era keeps Strings. */
        boolean leaves() { return this == H4 || this == H5 || this == H6; }
        boolean atLeast(Era e) { return hotwire() == e.hotwire() && ordinal() >= e.ordinal(); }
    }

    // nav/ enums, identical in every tag of both apps (TurboNav* names in H1 and turbo, plain names from 0.1.3).
    enum Presentation { DEFAULT, PUSH, POP, REPLACE, CLEAR_ALL, REPLACE_ROOT, REFRESH, NONE }
    enum PresentationContext { DEFAULT, MODAL }
    enum QueryStringPresentation { DEFAULT, REPLACE }

    /** android.content.Context: abstract, as Gson sees it (a "loader" key reaches it). */
    static abstract class Context {}

    /** android.net.Uri as far as the accessors go: Uri.parse (and toUri()) throws only on null. */
    static final class Uri {
        final String uriString;
        private Uri(String s) { uriString = s; }
        static Uri parse(String uriString) {
            if (uriString == null) throw new NullPointerException("uriString");  // Uri.StringUri(String)
            return new Uri(uriString);
        }
    }

    // ---------------------------------------------------------------- rules

    // data class PathConfigurationRule(patterns: List<String>, properties: PathConfigurationProperties)
    // (turbo: TurboPathConfigurationRule): no defaults, so no no-arg constructor; Gson allocates it.
    // H1-H3 and turbo: HashMap<String, String>.
    static final class StringRule {
        @SerializedName("patterns") private final List<String> patterns;
        @SerializedName("properties") private final HashMap<String, String> properties;
        StringRule(List<String> patterns, HashMap<String, String> properties) { this.patterns = patterns; this.properties = properties; }
    }

    // H4-H6: typealias PathConfigurationProperties = HashMap<String, Any>.
    static final class LeafRule {
        @SerializedName("patterns") private final List<String> patterns;
        @SerializedName("properties") private final HashMap<String, Object> properties;
        LeafRule(List<String> patterns, HashMap<String, Object> properties) { this.patterns = patterns; this.properties = properties; }
    }

    // PathConfigurationRule.matches / TurboPathConfigurationRule.matches, every tag:
    //   fun matches(path: String) = patterns.any { numberOfMatches(path, it) > 0 }
    //   Regex(patternRegex, RegexOption.IGNORE_CASE).find(path)?.groups?.size ?: 0
    //   catch (e: PatternSyntaxException) { if (BuildConfig.DEBUG) throw e else 0 }  -- a release AAR
    static boolean matches(List<String> patterns, String path) {
        for (String it : patterns) {  // a null list throws here
            if (numberOfMatches(path, it) > 0) return true;
        }
        return false;
    }

    static int numberOfMatches(String path, String patternRegex) {
        try {
            // Regex(null) throws NullPointerException (Kotlin's parameter check).
            if (patternRegex == null) throw new NullPointerException("Parameter specified as non-null is null: pattern");
            java.util.regex.Matcher m = Pattern.compile(patternRegex, Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE).matcher(path);
            return m.find() ? m.groupCount() + 1 : 0;
        } catch (PatternSyntaxException e) {
            return 0;
        }
    }

    // ---------------------------------------------------------------- the classes Gson binds

    // H1-H3, H4: PathConfigurationRepository (private val cacheFile = "turbo") inside
    // PathConfigurationLoader(val context: Context), a field of PathConfiguration Gson sees as "loader".
    static final class PathConfigurationRepository { private final String cacheFile = "turbo"; }
    static final class PathConfigurationLoader {
        private final Context context;
        PathConfigurationRepository repository = new PathConfigurationRepository();
        PathConfigurationLoader(Context context) { this.context = context; }
    }

    // H1-H3 (0.1 .. 1.1.3) config/PathConfiguration.kt: class PathConfiguration, HashMap<String, String>.
    static final class StringPathConfiguration {
        private final HashMap<String, HashMap<String, String>> cachedProperties = new HashMap<>();
        PathConfigurationLoader loader = null;
        @SerializedName("rules") List<StringRule> rules = Collections.emptyList();
        @SerializedName("settings") HashMap<String, String> settings = new HashMap<>();
        StringPathConfiguration() {}
    }

    // H4 (1.2.0 .. 1.2.6) config/PathConfiguration.kt: the same class, HashMap<String, Any>.
    static final class LeafPathConfiguration {
        private final HashMap<String, HashMap<String, Object>> cachedProperties = new HashMap<>();
        PathConfigurationLoader loader = null;
        @SerializedName("rules") List<LeafRule> rules = Collections.emptyList();
        @SerializedName("settings") HashMap<String, Object> settings = new HashMap<>();
        LeafPathConfiguration() {}
    }

    // H5, H6 (1.2.7 .. 1.3.1) config/PathConfigurationData.kt:
    // data class PathConfigurationData internal constructor(rules = emptyList(), settings = PathConfigurationSettings())
    // -- every parameter defaulted, so Kotlin emits a no-argument constructor, which Gson uses.
    static final class PathConfigurationData {
        @SerializedName("rules") private final List<LeafRule> rules;
        @SerializedName("settings") private final HashMap<String, Object> settings;
        PathConfigurationData() { this(Collections.emptyList(), new HashMap<>()); }
        PathConfigurationData(List<LeafRule> rules, HashMap<String, Object> settings) { this.rules = rules; this.settings = settings; }
    }

    // turbo, every tag: TurboPathConfigurationRepository / TurboPathConfigurationLoader(context).
    static final class TurboPathConfigurationRepository { private final String cacheFile = "turbo"; }
    static final class TurboPathConfigurationLoader {
        private final Context context;
        TurboPathConfigurationRepository repository = new TurboPathConfigurationRepository();
        TurboPathConfigurationLoader(Context context) { this.context = context; }
    }

    // turbo, every tag, config/TurboPathConfiguration.kt: class TurboPathConfiguration(context: Context).
    // No no-argument constructor: the instance Gson parses is allocated without one (initialisers do
    // not run; missing keys are null).
    static final class TurboPathConfiguration {
        private final HashMap<String, HashMap<String, String>> cachedProperties = new HashMap<>();
        final TurboPathConfigurationLoader loader;
        @SerializedName("rules") List<StringRule> rules = Collections.emptyList();
        @SerializedName("settings") HashMap<String, String> settings = new HashMap<>();
        TurboPathConfiguration(Context context) { loader = new TurboPathConfigurationLoader(context); }
    }

    // ---------------------------------------------------------------- Gson per era

    // H1 util/TurboExtensions.kt, H2/H3 util/CoreExtensions.kt, turbo util/TurboExtensions.kt (every tag):
    //   GsonBuilder().registerTypeAdapter(VisitAction::class.java, VisitActionAdapter()).create()
    static final Gson plainGson = new GsonBuilder().create();
    // H4-H6 util/CoreExtensions.kt: ... .setObjectToNumberStrategy(ToNumberPolicy.LONG_OR_DOUBLE).create()  (deb5dec)
    static final Gson longOrDoubleGson = new GsonBuilder().setObjectToNumberStrategy(ToNumberPolicy.LONG_OR_DOUBLE).create();

    /**
     * Gson 2.12.0+ (H4..H6 ship 2.12.1) refuses a 256th nested array or object ("Nesting limit 255
     * reached"); Debian's 2.10 has no limit, so the depth of the value the adapters read is measured
     * first (as /tmp/oracle-android's Report.maxDepth). -1 where the walk fails (Gson will then throw).
     */
    static int maxDepth(String json) {
        try {
            JsonReader r = new JsonReader(new StringReader(json));
            r.setLenient(true);
            int depth = 0, max = 0;
            do {
                JsonToken t = r.peek();
                switch (t) {
                    case BEGIN_ARRAY: r.beginArray(); max = Math.max(max, ++depth); break;
                    case BEGIN_OBJECT: r.beginObject(); max = Math.max(max, ++depth); break;
                    case END_ARRAY: r.endArray(); depth--; break;
                    case END_OBJECT: r.endObject(); depth--; break;
                    case NAME: r.nextName(); break;
                    case END_DOCUMENT: return max;
                    default: r.skipValue();
                }
            } while (depth > 0);
            return max;
        } catch (Exception e) {
            return -1;
        }
    }

    // ---------------------------------------------------------------- a loaded configuration, per era

    /** What the app holds after a successful load: its rules as the lookup iterates them, and settings. */
    static final class Loaded {
        final Era era;
        List<?> rules;                 // StringRule or LeafRule elements (H4: already + historicalLocationRules)
        Map<String, ?> settings;
        Loaded(Era era) { this.era = era; }
    }

    static String failure;

    /** Loads `json` as `era` does; sets `failure` and returns null where the document does not load. */
    static Object load(Era era, String json, String[] outcome) {
        switch (era) {
            case H1: case H2: case H3: {
                // PathConfigurationLoader.load(json): try { json.toObject(TypeToken<PathConfiguration>) } catch (e: Exception) { null }
                StringPathConfiguration it;
                try {
                    it = plainGson.fromJson(json, new TypeToken<StringPathConfiguration>() {}.getType());
                } catch (Exception e) {
                    outcome[0] = "refused"; failure = String.valueOf(e); return null;
                }
                if (it == null) { outcome[0] = "ignored"; failure = "fromJson returned null"; return null; }
                // load(): loader?.load(location) { cachedProperties.clear(); rules = it.rules; settings = it.settings } -- cannot throw
                Loaded real = new Loaded(era);
                real.rules = it.rules;
                real.settings = it.settings;
                outcome[0] = "ok";
                return real;
            }
            case H4: {
                LeafPathConfiguration it;
                try {
                    it = longOrDoubleGson.fromJson(json, new TypeToken<LeafPathConfiguration>() {}.getType());
                    if (it != null && maxDepth(json) > 255) {  // Gson 2.12.1's JsonReader would have thrown
                        throw new JsonSyntaxException(new MalformedJsonException("Nesting limit 255 reached (emulated Gson 2.12.1)"));
                    }
                } catch (Exception e) {
                    outcome[0] = "refused"; failure = String.valueOf(e); return null;
                }
                if (it == null) { outcome[0] = "ignored"; failure = "fromJson returned null"; return null; }
                // 1.2.0 PathConfiguration.kt load callback:
                //   cachedProperties.clear(); rules = it.rules + historicalLocationRules; settings = it.settings
                Loaded real = new Loaded(era);
                try {
                    real.rules = plus(it.rules, historicalLocationRules);
                } catch (NullPointerException e) {
                    outcome[0] = "crash-startup"; failure = e + " in the load callback (it.rules + historicalLocationRules)"; return null;
                }
                real.settings = it.settings;
                outcome[0] = "ok";
                return real;
            }
            case H5: case H6: {
                PathConfigurationData it;
                try {
                    it = longOrDoubleGson.fromJson(json, new TypeToken<PathConfigurationData>() {}.getType());
                    if (it != null && maxDepth(json) > 255) {
                        throw new JsonSyntaxException(new MalformedJsonException("Nesting limit 255 reached (emulated Gson 2.12.1)"));
                    }
                } catch (Exception e) {
                    outcome[0] = "refused"; failure = String.valueOf(e); return null;
                }
                if (it == null) { outcome[0] = "ignored"; failure = "fromJson returned null"; return null; }
                // 1.2.7 PathConfiguration.applyLoadedState: cachedProperties.clear(); _loadState.value = state;
                //   logEvent(..., "rules" to configuration.rules.size, "settings" to configuration.settings.size)
                try {
                    int unusedRules = it.rules.size();
                    int unusedSettings = it.settings.size();
                } catch (NullPointerException e) {
                    outcome[0] = "crash-startup"; failure = e + " in applyLoadedState (logs rules.size, settings.size)"; return null;
                }
                Loaded real = new Loaded(era);
                real.rules = it.rules;  // historicalLocationRules are appended per lookup (PathConfigurationData.properties)
                real.settings = it.settings;
                outcome[0] = "ok";
                return real;
            }
            default: {
                TurboPathConfiguration it;
                if (era == Era.T4) {
                    // 7.1.4 TurboPathConfigurationRepository.parseFromJson: try { json.toObject(...) } catch (e: Exception) { logError; null }
                    // loadBundledAssetConfiguration: repository.getBundledConfiguration(context, filePath)?.let { onCompletion(it) }
                    try {
                        it = plainGson.fromJson(json, new TypeToken<TurboPathConfiguration>() {}.getType());
                    } catch (Exception e) {
                        outcome[0] = "refused"; failure = String.valueOf(e); return null;
                    }
                    if (it == null) { outcome[0] = "ignored"; failure = "fromJson returned null"; return null; }
                } else {
                    // T1-T3 TurboPathConfigurationLoader.load(json) = json.toObject(object : TypeToken<TurboPathConfiguration>() {})
                    // -- no try; loadBundledAssetConfiguration: onCompletion(load(...)) on the main thread.
                    try {
                        it = plainGson.fromJson(json, new TypeToken<TurboPathConfiguration>() {}.getType());
                    } catch (RuntimeException e) {
                        outcome[0] = "crash-startup"; failure = String.valueOf(e); return null;
                    }
                    if (it == null) {  // the callback's it.rules on a null configuration
                        outcome[0] = "crash-startup"; failure = "java.lang.NullPointerException: fromJson returned null (it.rules)"; return null;
                    }
                }
                // load(location): loader.load(location) { cachedProperties.clear(); rules = it.rules; settings = it.settings }
                Loaded real = new Loaded(era);
                real.rules = it.rules;
                real.settings = it.settings;
                outcome[0] = "ok";
                return real;
            }
        }
    }

    // 1.2.0 .. 1.3.1 config/PathConfigurationHistoricalLocations.kt:
    //   PathConfigurationRule(patterns = listOf("/recede_historical_location"),
    //     properties = hashMapOf("presentation" to Presentation.POP.name, "context" to PresentationContext.DEFAULT.name,
    //                            "historical_location" to true)), resume -> NONE, refresh -> REFRESH
    static LeafRule historicalRule(String pattern, Presentation presentation) {
        HashMap<String, Object> p = new HashMap<>();
        p.put("presentation", presentation.name());
        p.put("context", PresentationContext.DEFAULT.name());
        p.put("historical_location", true);
        return new LeafRule(Collections.singletonList(pattern), p);
    }

    static final List<LeafRule> historicalLocationRules = Arrays.asList(
        historicalRule("/recede_historical_location", Presentation.POP),
        historicalRule("/resume_historical_location", Presentation.NONE),
        historicalRule("/refresh_historical_location", Presentation.REFRESH));

    /** Kotlin's Collection<T>.plus(Iterable<T>): a null receiver throws NullPointerException. */
    static <T> List<T> plus(Collection<T> self, Collection<T> elements) {
        ArrayList<T> result = new ArrayList<>(self.size() + elements.size());
        result.addAll(self);
        result.addAll(elements);
        return result;
    }

    // ---------------------------------------------------------------- the lookup

    // Every tag: private fun path(location: String): String {
    //     val url = URL(location)      -- H6 (819b686): try { URL(location) } catch (e: MalformedURLException) { return "" }
    //     return when (url.query) { null -> url.path; else -> "${url.path}?${url.query}" } }
    static String path(Era era, String location) throws MalformedURLException {
        URL url;
        if (era == Era.H6) {
            try {
                url = newURL(location);
            } catch (MalformedURLException e) {
                return "";
            }
        } else {
            url = newURL(location);
        }
        String p = url.getQuery() == null ? url.getPath() : url.getPath() + "?" + url.getQuery();
        if (p == null) throw new NullPointerException("url.path must not be null");  // Kotlin's check on the platform-typed return
        return p;
    }

    /** URL(location), with Android's protocol handlers (see the header). */
    static URL newURL(String location) throws MalformedURLException {
        URL url = new URL(location);
        if (url.getProtocol().equals("jrt")) throw new MalformedURLException("unknown protocol: jrt (no handler on Android)");
        return url;
    }

    // H1-H4, turbo: fun properties(location: String): PathConfigurationProperties {
    //     cachedProperties[location]?.let { return it }
    //     val properties = PathConfigurationProperties(); val path = path(location)
    //     for (rule in rules) { if (rule.matches(path)) properties.putAll(rule.properties) }   -- T1/T2: `when (rule.matches(path)) { true -> ... }`
    //     cachedProperties[location] = properties; return properties }
    // H5, H6 PathConfigurationData.properties: `for (rule in rules + historicalLocationRules)`.
    @SuppressWarnings("unchecked")
    static HashMap<String, Object> properties(Loaded real, String location) throws MalformedURLException {
        HashMap<String, Object> properties = new HashMap<>();
        String path = path(real.era, location);
        List<Object> rules = (List<Object>) real.rules;
        if (real.era == Era.H5 || real.era == Era.H6) rules = plus(rules, (List<Object>) (List<?>) historicalLocationRules);
        for (Object rule : rules) {  // a null `rules` throws here
            if (rule instanceof LeafRule || real.era.leaves()) {
                LeafRule r = (LeafRule) rule;  // a null rule throws on r.patterns
                if (matches(r.patterns, path)) properties.putAll(r.properties);
            } else {
                StringRule r = (StringRule) rule;
                if (matches(r.patterns, path)) properties.putAll(r.properties);
            }
        }
        return properties;
    }

    /** The first null a lookup can throw on, in document order, or null. */
    @SuppressWarnings("unchecked")
    static String latentNull(Loaded real) {
        if (real.rules == null) return "rules";
        for (Object o : real.rules) {
            if (o == null) return "rule";
            List<String> patterns = o instanceof LeafRule ? ((LeafRule) o).patterns : ((StringRule) o).patterns;
            Object properties = o instanceof LeafRule ? ((LeafRule) o).properties : ((StringRule) o).properties;
            if (patterns == null) return "patterns";
            if (patterns.contains(null)) return "pattern";
            if (properties == null) return "properties";
        }
        return null;
    }

    // ---------------------------------------------------------------- the typed accessors

    interface Accessor { Object get(Map<String, ?> p); }

    static <E extends Enum<E>> E valueOf(Class<E> type, String name) { return Enum.valueOf(type, name); }

    // The enum readers. H1-H3 (0.1 .. 1.1.3) PathConfiguration.kt:
    //   try { val value = get("presentation") ?: "default"; Presentation.valueOf(value.uppercase()) }
    //   catch (e: IllegalArgumentException) { Presentation.DEFAULT }
    // H4-H6 (1.2.0 .. 1.3.1): val value = get("presentation")?.toString() ?: "default"
    // T1, T2 (beta01 .. rc12) TurboPathConfiguration.kt: value.toUpperCase() (the default locale);
    // T3, T4 (rc13 .. daceb0a): value.uppercase() (Locale.ROOT, 87d1272).
    static <E extends Enum<E>> E enumRead(Era era, Map<String, ?> p, String key, Class<E> type, E fallback) {
        try {
            String value;
            if (era.leaves()) {
                Object o = p.get(key);
                value = o == null ? "default" : o.toString();
            } else {
                String s = (String) p.get(key);
                value = s == null ? "default" : s;
            }
            String upper = (era == Era.T1 || era == Era.T2) ? value.toUpperCase() : value.toUpperCase(Locale.ROOT);
            return valueOf(type, upper);
        } catch (IllegalArgumentException e) {
            return fallback;
        }
    }

    // uri. H1 (0.1 .. 0.1.2): get("uri")?.toUri() ?: HotwireDestination.from(Hotwire.defaultFragmentDestination).uri.toUri()
    //   (HotwireWebFragment: @HotwireDestination(uri = "turbo://fragment/web"))
    // H2, H3 (0.1.3 .. 1.1.3): get("uri")?.toUri()
    // H4-H6 (1.2.0 .. 1.3.1): get("uri")?.toString()?.toUri()
    // turbo, every tag: Uri.parse(get("uri"))  -- a missing or null uri throws NullPointerException
    static Uri uri(Era era, Map<String, ?> p) {
        Object o = p.get("uri");
        switch (era) {
            case H1: return o != null ? Uri.parse((String) o) : Uri.parse("turbo://fragment/web");
            case H2: case H3: return o == null ? null : Uri.parse((String) o);
            case H4: case H5: case H6: return o == null ? null : Uri.parse(o.toString());
            default: return Uri.parse((String) o);
        }
    }

    // fallbackUri. hotwire H1-H3: get("fallback_uri")?.toUri(); H4-H6: get("fallback_uri")?.toString()?.toUri();
    // turbo: get("fallback_uri")?.let { Uri.parse(it) }
    static Uri fallbackUri(Era era, Map<String, ?> p) {
        Object o = p.get("fallback_uri");
        if (o == null) return null;
        return Uri.parse(era.leaves() ? o.toString() : (String) o);
    }

    // title. H1-H3, turbo: get("title"); H4-H6: get("title")?.toString()
    static String title(Era era, Map<String, ?> p) {
        Object o = p.get("title");
        if (o == null) return null;
        return era.leaves() ? o.toString() : (String) o;
    }

    // Booleans. H1-H3, turbo: get(key)?.toBoolean() ?: default  (String.toBoolean() = equals("true", ignoreCase = true))
    // H4-H6: get(key)?.let { it as Boolean } ?: default  (checkcast java/lang/Boolean, then unboxing)
    static boolean flag(Era era, Map<String, ?> p, String key, boolean fallback) {
        Object o = p.get(key);
        if (o == null) return fallback;
        if (era.leaves()) return (Boolean) o;
        return "true".equalsIgnoreCase((String) o);
    }

    /** The accessor the era has for `key`, or null ("n/a"). */
    static Accessor accessor(Era era, String key) {
        switch (key) {
            case "presentation": return p -> enumRead(era, p, "presentation", Presentation.class, Presentation.DEFAULT);
            case "context": return p -> enumRead(era, p, "context", PresentationContext.class, PresentationContext.DEFAULT);
            // T1 (beta01 .. beta11) has no queryStringPresentation; T2 adds it (3761c50).
            case "query_string_presentation":
                return era == Era.T1 ? null
                    : p -> enumRead(era, p, "query_string_presentation", QueryStringPresentation.class, QueryStringPresentation.DEFAULT);
            case "uri": return p -> uri(era, p);
            case "fallback_uri": return p -> fallbackUri(era, p);
            case "title": return p -> title(era, p);
            case "pull_to_refresh_enabled": return p -> flag(era, p, "pull_to_refresh_enabled", false);
            // animated: 1.1.3 (deaf5dd) toBoolean() ?: true; 1.2.0+ as Boolean ?: true; none before 1.1.3 nor in turbo.
            case "animated": return era.atLeast(Era.H3) ? p -> flag(era, p, "animated", true) : null;
            // isHistoricalLocation: 1.2.0+ get("historical_location")?.let { it as Boolean } ?: false; none before, nor in turbo.
            case "historical_location": return era.atLeast(Era.H4) ? p -> flag(era, p, "historical_location", false) : null;
            // modal_style, modal_dismiss_gesture_enabled, view_controller: no .kt file of any tag reads them.
            default: return null;
        }
    }

    static final List<String> typedKeys = Arrays.asList("context", "presentation", "modal_style", "pull_to_refresh_enabled",
        "modal_dismiss_gesture_enabled", "view_controller", "animated", "query_string_presentation", "title", "uri",
        "fallback_uri", "historical_location");

    // ---------------------------------------------------------------- output

    static void json(StringBuilder out, Object v) {
        if (v == null) out.append("null");
        else if (v instanceof String) string(out, (String) v);
        else if (v instanceof Boolean) out.append(v);
        else if (v instanceof Long || v instanceof Integer) out.append(v);
        else if (v instanceof Double) {
            double d = (Double) v;
            if (Double.isNaN(d) || Double.isInfinite(d)) { out.append("{\"$double\":"); string(out, Double.toString(d)); out.append('}'); }
            else out.append(Double.toString(d));
        } else if (v instanceof Enum) string(out, ((Enum<?>) v).name());
        else if (v instanceof Uri) string(out, ((Uri) v).uriString);
        else if (v instanceof Map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                if (!first) out.append(',');
                first = false;
                string(out, String.valueOf(e.getKey()));
                out.append(':');
                json(out, e.getValue());
            }
            out.append('}');
        } else if (v instanceof List) {
            out.append('[');
            boolean first = true;
            for (Object o : (List<?>) v) {
                if (!first) out.append(',');
                first = false;
                json(out, o);
            }
            out.append(']');
        } else {
            throw new IllegalStateException("unexpected value class " + v.getClass().getName());
        }
    }

    static void string(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean paired = Character.isHighSurrogate(c) ? i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))
                : Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
            if (c == '"' || c == '\\') out.append('\\').append(c);
            else if (Character.isSurrogate(c) && !paired) {
                // A lone surrogate cannot be UTF-8: written as its escape's text, as libpathconfig holds one.
                out.append(String.format("\\\\u%04X", (int) c));
            } else if (c < 0x20 || c == 0x2028 || c == 0x2029 || Character.isSurrogate(c)) {
                out.append(String.format("\\u%04x", (int) c));  // a pair reads back as one character
            } else out.append(c);
        }
        out.append('"');
    }

    /** The exception `t` as {"throws": class[, "from": the class a ClassCastException names]}. */
    static void thrown(StringBuilder out, Throwable t, Object castValue) {
        out.append("{\"throws\":");
        string(out, t.getClass().getName());
        if (t instanceof ClassCastException && castValue != null) {
            out.append(",\"from\":");
            string(out, castValue.getClass().getName());
        }
        out.append('}');
    }

    public static void main(String[] args) throws Exception {
        // Android's handlers: http, https, ftp, jar (and file, which cannot be overridden); nothing else.
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
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        System.out.println("java " + System.getProperty("java.specification.version"));
        String[] head = in.readLine().split("\t", -1);
        List<Era> eras = new ArrayList<>();
        for (String e : head[0].split(",")) eras.add(Era.valueOf(e));
        List<String> probes = Arrays.asList(head).subList(1, head.length);
        int index = 0;
        for (String encoded; (encoded = in.readLine()) != null; index++) {
            String json = new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
            for (Era era : eras) {
                String[] outcome = new String[1];
                failure = null;
                Object loaded = load(era, json, outcome);
                if (loaded == null) {
                    line(index, era, outcome[0], failure);
                    continue;
                }
                Loaded real = (Loaded) loaded;
                StringBuilder d = new StringBuilder("{\"settings\":");
                json(d, real.settings);
                d.append(",\"latent\":");
                String latent = latentNull(real);
                json(d, latent);
                d.append(",\"lookups\":[");
                for (int i = 0; i < probes.size(); i++) {
                    if (i > 0) d.append(',');
                    HashMap<String, Object> p;
                    try {
                        p = properties(real, probes.get(i));
                    } catch (Exception e) {
                        thrown(d, e, null);
                        continue;
                    }
                    d.append("{\"properties\":");
                    json(d, p);
                    d.append(",\"typed\":{");
                    boolean first = true;
                    for (String key : typedKeys) {
                        if (!first) d.append(',');
                        first = false;
                        string(d, key);
                        d.append(':');
                        Accessor a = accessor(era, key);
                        if (a == null) { d.append("\"n/a\""); continue; }
                        try {
                            Object r = a.get(p);
                            d.append("{\"value\":");
                            json(d, r);
                            d.append('}');
                        } catch (RuntimeException e) {
                            thrown(d, e, p.get(key));
                        }
                    }
                    d.append("}}");
                }
                d.append("]}");
                line(index, era, "ok", d.toString());
            }
        }
    }

    static void line(int index, Era era, String outcome, String detail) {
        System.out.println(index + "\t" + era + "\t" + outcome + "\t" + String.valueOf(detail).replace('\n', ' ').replace('\t', ' ').replace('\r', ' '));
    }
}
