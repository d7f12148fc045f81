extension Sequence where Element: Hashable {
    /// The elements, each once, at its first place (methods, `--profile`s, keys).
    package func uniqued() -> [Element] {
        var seen: Set<Element> = []
        return filter { seen.insert($0).inserted }
    }
}

extension Sequence {
    /// The elements grouped by `key`: the groups in the order of their first
    /// element, each group's elements in their order.
    package func grouped<Key: Hashable>(by key: (Element) -> Key) -> [(key: Key, members: [Element])] {
        let elements = Array(self)
        return elements.map(key).uniqued().map { k in (key: k, members: elements.filter { key($0) == k }) }
    }
}
