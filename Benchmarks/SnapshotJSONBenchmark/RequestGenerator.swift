import TestSupport

/// Generates a deterministic diff request: string UUID-like ids, items with a title, likes, a size and tags,
/// spread over sections of 1,000 items; the new snapshot edits, drops and adds some items.
struct RequestGenerator {
    let itemsPerSnapshot: Int
    private static let tags = ["travel", "food", "city", "night", "portrait", "nature", "street", "art"]

    func body() -> [UInt8] {
        var generator = SplitMix(seed: 42)
        let ids = (0 ..< itemsPerSnapshot + itemsPerSnapshot / 10).map { _ in uuid(&generator) }
        var json = #"{"old":"#
        snapshot(ids: ids[0 ..< itemsPerSnapshot], edit: false, into: &json, &generator)
        json += #","new":"#
        snapshot(ids: ids[itemsPerSnapshot / 10 ..< ids.count], edit: true, into: &json, &generator)
        json += #","options":{"renderings":["staged","sequential"],"duplicates":"reject"}}"#
        return Array(json.utf8)
    }

    private func snapshot(ids: ArraySlice<String>, edit: Bool, into json: inout String, _ generator: inout SplitMix) {
        json += #"{"sections":["#
        for (index, id) in ids.enumerated() {
            if index % 1000 == 0 {
                if index > 0 { json += "]}," }
                json += #"{"id":"section-\#(index / 1000)","title":"Section \#(index / 1000)","items":["#
            } else {
                json += ","
            }
            let likes = Int(generator.next() % 100_000) + (edit && index % 50 == 0 ? 1 : 0)
            let width = 320 + Int(generator.next() % 1600), height = 240 + Int(generator.next() % 1200)
            let tagCount = 1 + Int(generator.next() % 3)
            let tags = (0 ..< tagCount).map { _ in "\"\(Self.tags[Int(generator.next() % 8)])\"" }.joined(separator: ",")
            json += #"{"id":"\#(id)","title":"Photo \#(index) #\#(generator.next() % 10_000)","likes":\#(likes),"#
            json += #""width":\#(width),"height":\#(height),"tags":[\#(tags)]}"#
        }
        json += "]}]}"
    }

    private func uuid(_ generator: inout SplitMix) -> String {
        let hex = Array("0123456789abcdef")
        var characters: [Character] = []
        for index in 0 ..< 32 {
            if [8, 12, 16, 20].contains(index) { characters.append("-") }
            characters.append(hex[Int(generator.next() & 15)])
        }
        return String(characters)
    }
}
