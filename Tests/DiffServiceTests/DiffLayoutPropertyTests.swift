@testable import DiffService
import Testing
import TestSupport

/// `options.layouts` of `/diff` over random requests: however a snapshot is written (bare or in sections, the two
/// snapshots in either form, members in any order at every level, whitespace anywhere, content members, ids
/// repeated under keepFirst), a section's layout is the `/layout` answer for the items the diff keeps of it, and its
/// `changedFrames` are the ids on that page whose frame differs from their frame in the old section's whole layout.
@Suite struct DiffLayoutPropertyTests {
    private static let settings = #"{"containerWidth": 375, "columns": 3, "columnSpacing": 4, "itemSpacing": 2}"#
    private static let cursors = CursorCodec(secret: "diff-layout-property-test-key")

    /// An item as written: its id and its object's text.
    private struct Item {
        let id: Int
        let text: String
    }

    private static func space(_ random: inout SplitMix) -> String {
        ["", "", "", " ", "\n", "\t", "\r\n  "][Int.random(in: 0 ..< 7, using: &random)]
    }

    /// An object of `members` (name and value texts) in a random order, with random whitespace.
    private static func object(_ members: [(String, String)], _ random: inout SplitMix) -> String {
        "{" + members.shuffled(using: &random).map { name, value in
            space(&random) + "\"\(name)\"" + space(&random) + ":" + space(&random) + value + space(&random)
        }.joined(separator: ",") + "}"
    }

    private static func item(_ id: Int, _ random: inout SplitMix) -> Item {
        var members = [("id", "\(id)")]
        switch Int.random(in: 0 ..< 3, using: &random) {
        case 0: members.append(("aspectRatio", ["1", "0.5", "1.25", "2", "1e0"][Int.random(in: 0 ..< 5, using: &random)]))
        case 1: members.append(("fixedHeight", ["10", "33.5", "120"][Int.random(in: 0 ..< 3, using: &random)]))
        default: members += [("width", "\(Int.random(in: 1 ... 9, using: &random))"), ("height", "\(Int.random(in: 1 ... 9, using: &random))")]
        }
        if Bool.random(using: &random) { members.append(("extraHeight", "\(Int.random(in: 0 ... 20, using: &random))")) }
        if Int.random(in: 0 ..< 8, using: &random) == 0 { members.append(("fullWidth", "true")) }
        if Bool.random(using: &random) { members.append(("title", #""t\n\#(id)""#)) }
        return Item(id: id, text: object(members, &random))
    }

    /// Up to 14 items with ids from `base` to `base + 17` (some repeated).
    private static func items(base: Int, _ random: inout SplitMix) -> [Item] {
        (0 ..< Int.random(in: 0 ... 14, using: &random)).map { _ in item(base + Int.random(in: 0 ..< 18, using: &random), &random) }
    }

    private static func array(_ items: [Item], _ random: inout SplitMix) -> String {
        "[" + space(&random) + items.map { space(&random) + $0.text + space(&random) }.joined(separator: ",") + "]"
    }

    /// A snapshot's text and the items of the section `target` (`nil` for a bare list), if it has one.
    private static func snapshot(bare: Bool, target: String?, _ random: inout SplitMix) -> (text: String, items: [Item]?) {
        if bare {
            let items = items(base: 0, &random)
            return (object([("items", array(items, &random))], &random), items)
        }
        var targetItems: [Item]?
        let ids = ["a", "b", "c", "d"].shuffled(using: &random).prefix(Int.random(in: 1 ... 4, using: &random))
        let sections = ids.map { id in
            // (Each section's ids its own: keepFirst keeps the first item of an id over the whole snapshot.)
            let items = items(base: 100 * Int(id.unicodeScalars.first!.value), &random)
            if id == target { targetItems = items }
            var members = [("id", "\"\(id)\""), ("items", array(items, &random))]
            if Bool.random(using: &random) { members.append(("title", #"{"text": "\#(id)", "n": [1, 2]}"#)) }
            return object(members, &random)
        }
        return (object([("sections", "[" + sections.joined(separator: ",") + "]")], &random), targetItems)
    }

    /// The items the diff keeps: the first of each id.
    private static func kept(_ items: [Item]) -> [Item] {
        var seen: Set<Int> = []
        return items.filter { seen.insert($0.id).inserted }
    }

    private static func layout(_ items: [Item], pageSize: Int?) throws -> JSON {
        let page = pageSize.map { #", "pageSize": \#($0)"# } ?? ""
        let body = #"{"settings": \#(settings), "items": [\#(items.map(\.text).joined(separator: ","))]\#(page)}"#
        let response = LayoutEndpoint.respond(to: Array(body.utf8), cursors: cursors)
        #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
        return try JSON(parsing: response.body)
    }

    @Test(arguments: 0 ..< 200) func aSectionsLayoutIsTheLayoutOfItsKeptItems(seed: Int) throws {
        var random = SplitMix(seed: UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1)
        let bare = seed % 4 == 0
        let target: String? = bare ? nil : ["a", "b", "c", "d"][Int.random(in: 0 ..< 4, using: &random)]
        // (Now and then the old snapshot in the other form: no section of it is the laid-out one.)
        let oldIsBare = seed % 7 == 3 ? !bare : bare
        let old = Self.snapshot(bare: oldIsBare, target: oldIsBare == bare ? target : "none", &random)
        var new = Self.snapshot(bare: bare, target: target, &random)
        while new.items == nil { new = Self.snapshot(bare: bare, target: target, &random) }
        let pageSize: Int? = Bool.random(using: &random) ? Int.random(in: 1 ... 10, using: &random) : nil
        let section = target.map { "\"\($0)\"" } ?? "null"
        let page = pageSize.map { #", "pageSize": \#($0)"# } ?? ""
        let options = #"{"duplicates": "keepFirst", "layouts": [{"section": \#(section), "settings": \#(Self.settings)\#(page)}]}"#
        let body = Self.object([("old", old.text), ("new", new.text), ("options", options)], &random)
        let response = DiffEndpoint.respond(to: Array(body.utf8), cursors: Self.cursors)
        #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
        let laidOut = try #require(try JSON(parsing: response.body)["layouts"]?[0])

        let expected = try Self.layout(Self.kept(new.items ?? []), pageSize: pageSize)
        #expect(laidOut.removing("section").removing("changedFrames") == expected, "\(body)")
        // The old section is laid out whole; an item on the new page whose frame there differs has changed.
        var oldFrames: [Int: JSON] = [:]
        if oldIsBare == bare, let oldItems = old.items {
            for placed in try Self.layout(Self.kept(oldItems), pageSize: nil)["items"]?.array ?? [] {
                oldFrames[try #require(placed["id"]?.int)] = placed["frame"]
            }
        }
        let changed = (expected["items"]?.array ?? []).compactMap { placed -> JSON? in
            guard let id = placed["id"]?.int, let before = oldFrames[id], before != placed["frame"] else { return nil }
            return .integer(id)
        }
        #expect(laidOut["changedFrames"] == .array(changed), "\(body)")
    }
}
