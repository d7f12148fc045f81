/// Which apps read each key of the typed catalog (`TypedKey`) at all.
///
/// The catalog gives every key a reading and a default on both platforms,
/// so that every host can ask for any key; but an app acts only on the keys
/// it has an accessor for. A key an app never reads cannot make it behave
/// differently, so comparing it across apps (`pathconfig diff --compare
/// typed`) is noise: `view_controller` is `"web"` on iOS by default and
/// nothing on Android, which has no view controllers to route to.
///
/// The apps' own sources say which keys they read:
/// - hotwire-android and turbo-android: no `.kt` file of any tag reads
///   `modal_style`, `modal_dismiss_gesture_enabled` or `view_controller`;
///   turbo-android has no `animated` and no `historical_location` accessor
///   either (Tests/JVM/ReleaseOracle.java, `accessor(_:_:)`, ports each
///   line's readers and records both);
/// - hotwire-ios and turbo-ios: their `PathProperties` accessors read
///   `context`, `presentation`, `modal_style`, `pull_to_refresh_enabled`,
///   `modal_dismiss_gesture_enabled`, `view_controller`, `animated`,
///   `historical_location` and `query_string_presentation`: never `title`,
///   `uri` or `fallback_uri`, which only the Android apps read;
/// - siesta, an API client, has no typed accessor: it reads none of them.
///
/// As for the catalog's readings (docs/app-versions.md, "Known
/// differences"), an accessor that only some releases of an app have is
/// counted as read by every release (hotwire-android before 1.1.3 has no
/// `animated`).
///
/// This is the catalog's one record of who reads what, beside `TypedKey`.
extension Profile {
    /// The keys of the catalog this profile's app never reads, in catalog order.
    public var unreadTypedKeys: [TypedKey] {
        switch app {
        case .hotwireIOS, .turboIOS: return [.title, .uri, .fallbackURI]
        case .hotwireAndroid: return [.modalStyle, .modalDismissGestureEnabled, .viewController]
        case .turboAndroid: return [.modalStyle, .modalDismissGestureEnabled, .viewController, .animated, .historicalLocation]
        case .siesta: return TypedKey.allCases
        }
    }

    /// Whether this profile's app reads `key` through an accessor.
    public func reads(_ key: TypedKey) -> Bool { !unreadTypedKeys.contains(key) }
}
