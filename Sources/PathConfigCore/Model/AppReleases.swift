/// Every release line of every app, oldest first: the facts behind
/// `Profile.App.releases`, each read from the app's own history at the
/// commit named (docs/app-versions.md says what each line changed, with the
/// code it changed).
enum AppReleases {
    static let table: [Profile.App: [AppRelease]] = [
        .hotwireIOS: hotwireIOS,
        .turboIOS: turboIOS,
        .hotwireAndroid: hotwireAndroid,
        .turboAndroid: turboAndroid,
        .siesta: siesta,
    ]

    // MARK: hotwire-native-ios

    /// `url.path` (decoded, no trailing slash) with `?query` on by default,
    /// values as `JSONSerialization` leaves them, read with `as?`.
    private static let iosDecoded = AppRelease.Behaviour(
        subject: .foundationDecodedPath, matchesQueryStringsByDefault: true, builtIns: .none, gson: nil, typedReading: .foundation)

    static let hotwireIOS: [AppRelease] = [
        AppRelease(name: "1.0", tags: ["1.0.0", "1.0.1", "1.1.0", "1.1.1", "1.1.2", "1.1.3"], commit: "b8b9614",
                   change: "The first release: Turbo iOS 7.1's path configuration, matching `url.path` (percent-decoded, trailing slash dropped) "
                       + "and `?query`, on by default (`Hotwire.config.pathConfiguration.matchQueryStrings`).",
                   isStable: true, behaviour: iosDecoded),
        AppRelease(name: "1.2", tags: ["1.2.0", "1.2.1", "1.2.2", "1.3.0-beta"], commit: "48c5135",
                   change: "The historical-location rules (`/recede_historical_location` and its siblings) are appended after the file's rules.",
                   isStable: true, behaviour: with(iosDecoded) { $0.builtIns = .lowerCase }),
        AppRelease(name: "main", tags: [], commit: "38631e2",
                   change: "The path is `url.pathPreservingSlash` (`URL.path()` on iOS 16 and later): still percent-encoded, trailing slash kept "
                       + "(e7cee26, pull request #211).",
                   isStable: false, behaviour: with(iosDecoded) { $0.builtIns = .lowerCase; $0.subject = .foundationEncodedPath }),
    ]

    // MARK: turbo-ios

    static let turboIOS: [AppRelease] = [
        AppRelease(name: "7.0", tags: ["7.0.0-beta.1", "7.0.0-rc.1", "7.0.0-rc.2", "7.0.0-rc.3", "7.0.0-rc.4", "7.0.0-rc.5", "7.0.0-rc.6",
                                       "7.0.0-rc.7", "7.0.0-rc.8", "7.0.0-rc.9", "7.0.0-rc.10", "7.0.0-rc.11", "7.0.0", "7.0.1", "7.0.2"],
                   commit: "f881a1f",
                   change: "The first release: `url.path` (percent-decoded, trailing slash dropped), never the query.",
                   isStable: true,
                   behaviour: with(iosDecoded) { $0.matchesQueryStringsByDefault = false }),
        AppRelease(name: "7.1", tags: ["7.1.0"], commit: "90227d6",
                   change: "`Turbo.config.pathConfiguration.matchQueryStrings` (off by default) appends `?query`.",
                   isStable: true,
                   behaviour: with(iosDecoded) { $0.matchesQueryStringsByDefault = false }),
        AppRelease(name: "main", tags: [], commit: "f920639", change: "As 7.1.0.", isStable: false,
                   behaviour: with(iosDecoded) { $0.matchesQueryStringsByDefault = false }),
    ]

    // MARK: hotwire-native-android

    /// 0.1: `java.net.URL`'s path and `?query`, a URL it rejects crashing
    /// the lookup; every value a string (`HashMap<String, String>`), read
    /// with `toBoolean()`; no built-ins.
    private static let androidStrings = AppRelease.Behaviour(
        subject: .javaPathCrashingOnRejected, matchesQueryStringsByDefault: true, builtIns: .none, gson: .hotwireAndroid01,
        typedReading: .kotlinStringsWithFragmentURI)

    static let hotwireAndroid: [AppRelease] = [
        AppRelease(name: "0.1", tags: ["0.1", "0.1.1", "0.1.2"], commit: "3172ece",
                   change: "The first release: `java.net.URL`'s path and `?query`, matched case-insensitively; every value kept as a string "
                       + "(`HashMap<String, String>`), booleans read with `toBoolean()`; a URL `java.net.URL` rejects crashes the lookup; "
                       + "a null `settings` crashes the app where it reads `screenshots_enabled`.",
                   isStable: false, behaviour: androidStrings),
        AppRelease(name: "0.1.3", tags: ["0.1.3", "1.0.0", "1.0.1", "1.0.2", "1.1.0", "1.1.1", "1.1.2", "1.1.3"], commit: "ee60177",
                   change: "The app no longer reads `screenshots_enabled` from the settings, so a null `settings` is kept and never read "
                       + "(ee60177, pull request #44); `uri` has no default (63d9e2b), where 0.1 read `turbo://fragment/web`. "
                       + "1.1.3 adds the `animated` accessor (deaf5dd).",
                   isStable: true, behaviour: with(androidStrings) { $0.gson = .hotwireAndroidStrings; $0.typedReading = .kotlinStrings }),
        AppRelease(name: "1.2", tags: ["1.2.0", "1.2.1", "1.2.2", "1.2.3", "1.2.4", "1.2.5", "1.2.6"], commit: "a38460f",
                   change: "Values are kept as Gson leaves them (`HashMap<String, Any>`, `ToNumberPolicy.LONG_OR_DOUBLE`) and booleans are read "
                       + "with `as Boolean`, which throws `ClassCastException` on `\"true\"` or a number (ebb7d26, pull request #114; deb5dec); "
                       + "the historical-location rules are appended, values upper-case (42dc703, pull request #119); Gson 2.12.1 refuses "
                       + "nesting past 255 levels; a null `rules` crashes at start-up.",
                   isStable: true,
                   behaviour: with(androidStrings) { $0.gson = .hotwireAndroidMaps; $0.typedReading = .kotlinCasts; $0.builtIns = .upperCase }),
        AppRelease(name: "1.2.7", tags: ["1.2.7", "1.2.8", "1.3.0"], commit: "f6b0d0f",
                   change: "Gson fills `PathConfigurationData`, whose loading logs the sizes of `rules` and `settings`: a null `settings` "
                       + "crashes at start-up too (f6b0d0f, pull request #195).",
                   isStable: true,
                   behaviour: with(androidStrings) { $0.gson = .hotwireAndroid; $0.typedReading = .kotlinCasts; $0.builtIns = .upperCase }),
        AppRelease(name: "1.3.1", tags: ["1.3.1"], commit: "819b686",
                   change: "A URL `java.net.URL` rejects is matched as `\"\"` instead of crashing the lookup (819b686, pull request #205).",
                   isStable: true, behaviour: androidObjects),
        AppRelease(name: "main", tags: [], commit: "a49cb9b", change: "As 1.3.1 (main is tagged 1.3.1).", isStable: false, behaviour: androidObjects),
    ]

    /// 1.3.1: what main reads.
    private static let androidObjects = AppRelease.Behaviour(
        subject: .javaPath, matchesQueryStringsByDefault: true, builtIns: .upperCase, gson: .hotwireAndroid, typedReading: .kotlinCasts)

    // MARK: turbo-android

    private static let turboAndroidStrings = AppRelease.Behaviour(
        subject: .javaPathCrashingOnRejected, matchesQueryStringsByDefault: true, builtIns: .none, gson: .turboAndroid,
        typedReading: .turboKotlinStrings)

    /// turbo-android before 7.1.4: a document Gson cannot read crashes the app.
    private static let turboAndroidUncaught = with(turboAndroidStrings) { $0.gson = .turboAndroidUncaught }

    static let turboAndroid: [AppRelease] = [
        AppRelease(name: "7.0.0-beta01", tags: (1...11).map { "7.0.0-beta" + ($0 < 10 ? "0" : "") + String($0) }, commit: "8fb001a",
                   change: "The first release: as hotwire-android 0.1, with no `settings` or `rules` defaults (a missing one is null), "
                       + "`uri` read with `Uri.parse`, which throws when it is missing; no `query_string_presentation` accessor; "
                       + "a document Gson cannot read crashes the app.",
                   isStable: false, behaviour: turboAndroidUncaught),
        AppRelease(name: "7.0.0-beta12", tags: ["7.0.0-beta12", "7.0.0-beta13"] + (1...12).map { "7.0.0-rc\($0)" }, commit: "3761c50",
                   change: "The `query_string_presentation` accessor (3761c50, pull request #178).",
                   isStable: false, behaviour: turboAndroidUncaught),
        AppRelease(name: "7.0", tags: (13...18).map { "7.0.0-rc\($0)" } + ["7.0.0-test", "7.0.0-test2", "7.0.0", "7.0.1", "7.0.2", "7.0.3",
                                                                           "7.1.0", "7.1.1", "7.1.2", "7.1.3"],
                   commit: "9ab46c6",
                   change: "Enumerations are upper-cased with `uppercase()` (the root locale) rather than the device's locale; Gson 2.10 "
                       + "(pull request #249).",
                   isStable: true, behaviour: turboAndroidUncaught),
        AppRelease(name: "7.1.4", tags: ["7.1.4", "7.1.5", "7.1.6-beta1", "7.1.6-beta2", "7.1.6-beta3"], commit: "e152d6e",
                   change: "A document Gson cannot read is ignored rather than crashing the app (e152d6e, pull request #342).",
                   isStable: true, behaviour: turboAndroidStrings),
        AppRelease(name: "main", tags: [], commit: "daceb0a", change: "As 7.1.6-beta3 (main is tagged 7.1.6-beta3).", isStable: false,
                   behaviour: turboAndroidStrings),
    ]

    // MARK: siesta

    static let siesta: [AppRelease] = [
        AppRelease(name: "1.5", tags: ["1.5.0", "1.5.1", "1.5.2"], commit: "43f3404",
                   change: "Siesta's configuration patterns (`Service.configure`), as 1.5.2 reads them.", isStable: true,
                   behaviour: with(iosDecoded) { $0.subject = .foundationAbsoluteString }),
        AppRelease(name: "main", tags: [], commit: "4fcc942", change: "As 1.5.2.", isStable: false,
                   behaviour: with(iosDecoded) { $0.subject = .foundationAbsoluteString }),
    ]

    /// `behaviour` changed by `change`: each line is written as what it
    /// changed from the one before.
    private static func with(_ behaviour: AppRelease.Behaviour, _ change: (inout AppRelease.Behaviour) -> Void) -> AppRelease.Behaviour {
        var b = behaviour
        change(&b)
        return b
    }
}
