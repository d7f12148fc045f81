import Synchronization

/// An object made on first use, once, by whichever thread gets there first
/// (a thread that loses the race drops its copy), and read after that with
/// one acquiring load: what `DeferredPattern` and `DeferredLiteralMatcher`
/// compile, a result's `Answer`, and what a host layer keeps with an answer.
/// It holds the object until it is itself destroyed.
struct MadeOnce<Object: AnyObject>: ~Copyable {
    /// The object (retained), once made.
    private let stored: Atomic<UnsafeRawPointer?>

    /// Nothing made yet.
    init() { stored = Atomic(nil) }

    /// `object`, made already.
    init(_ object: Object) { stored = Atomic(UnsafeRawPointer(Unmanaged.passRetained(object).toOpaque())) }

    deinit {
        if let made = stored.load(ordering: .acquiring) { Unmanaged<Object>.fromOpaque(made).release() }
    }

    /// The object, if made; unretained (it lives as long as this does).
    @inline(__always)
    var current: Unmanaged<Object>? { stored.load(ordering: .acquiring).map { Unmanaged.fromOpaque($0) } }

    /// Keeps `object` unless another thread kept one first, and returns the
    /// one kept, unretained.
    func publish(_ object: Object) -> Unmanaged<Object> {
        let mine = Unmanaged.passRetained(object)
        let (kept, existing) = stored.compareExchange(expected: nil, desired: UnsafeRawPointer(mine.toOpaque()),
                                                      ordering: .acquiringAndReleasing)
        if kept { return mine }
        mine.release()
        return Unmanaged.fromOpaque(existing!)
    }
}

/// Threads share what one made, so what is made must be shareable; the
/// address is only published and read atomically.
extension MadeOnce: @unchecked Sendable where Object: Sendable {}

/// A value as an object, for `MadeOnce` to hold.
final class Boxed<Value> {
    let value: Value
    init(_ value: Value) { self.value = value }
}
