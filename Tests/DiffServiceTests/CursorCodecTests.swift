@testable import DiffService
import PropertyBased
import Testing
import Waterfall

/// Random continuations across the whole range ``Continuation/init(bytes:)`` accepts.
private let continuationGenerator = zip(
    Gen.uint64(), Gen.int(in: 0...(1 << 40)), Gen.int(in: 0...63), Gen.int(in: 0...(1 << 52)).array(of: 1...8)
).map { fingerprint, index, column, heights in
    Continuation(fingerprint: fingerprint, nextIndex: index, nextColumn: column % heights.count, columnHeights: heights)
}

/// A continuation far past any real section, as a forger would write it (issue 14: `firstIndex` 2^40).
private let forged = Continuation(fingerprint: 0x0123_4567_89AB_CDEF, nextIndex: 1 << 40, nextColumn: 0, columnHeights: [0, 0])

/// Sealing, opening, keys and rotation of layout cursors (issue 14, item 5).
@Suite struct CursorCodecTests {
    @Test func sealsAnyContinuationIntoCanonicalBase64URLThatOpensToIt() async {
        let codec = CursorCodec()
        await propertyCheck(input: continuationGenerator) { continuation in
            let cursor = codec.seal(continuation)
            #expect(Base64URL.decode(cursor.utf8).map(Base64URL.encode) == cursor)
            let opened = try codec.open(cursor)
            #expect(opened == continuation)
        }
    }

    @Test func refusesAnyFlippedBitAndAnyUnusedLowBitOfTheLastCharacter() async {
        let codec = CursorCodec()
        await propertyCheck(count: 50, input: continuationGenerator) { continuation in
            let cursor = Array(codec.seal(continuation).utf8)
            let bytes = try #require(Base64URL.decode(cursor))
            for index in bytes.indices {
                for bit in 0..<8 {
                    var altered = bytes
                    altered[index] ^= 1 << bit
                    #expect(throws: CursorCodec.Failure.self) { try codec.open(Base64URL.encode(altered)) }
                }
            }
            let unusedBits = [0, 0, 0b1111, 0b11][cursor.count % 4]
            let last = try #require(Base64URL.value(of: cursor[cursor.count - 1]))
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
            for low in 1..<(unusedBits + 1) {
                let altered = String(decoding: cursor.dropLast() + [alphabet[last | low]], as: UTF8.self)
                #expect(throws: CursorCodec.Failure.malformed("not canonical base64url")) { try codec.open(altered) }
            }
        }
    }

    @Test(arguments: ["=", "A=", "==", "+", "/", ".", " ", "\n", "é"])
    func refusesPaddingAndCharactersOutsideTheAlphabet(_ text: String) throws {
        let codec = CursorCodec(secret: "a secret of sixteen+")
        let cursor = codec.seal(forged)
        for position in [0, cursor.count / 2, cursor.count] {
            var altered = cursor
            altered.insert(contentsOf: text, at: altered.index(altered.startIndex, offsetBy: position))
            #expect(throws: CursorCodec.Failure.self) { try codec.open(altered) }
        }
        #expect(throws: CursorCodec.Failure.malformed("not base64url")) { try codec.open(cursor + text) }
    }

    /// A key read from the source (the former built-in one included) or guessed does not make a cursor the
    /// service without `SNAPDIFF_CURSOR_KEY` accepts.
    @Test(arguments: ["snapdiff: set SNAPDIFF_CURSOR_KEY to a secret of your own", "", "test", "0123456789abcdef"])
    func cursorForgedWithAnyFixedKeyIsRefusedUnderTheRandomKey(_ key: String) {
        let cursor = CursorCodec(secret: key).seal(forged)
        #expect(throws: CursorCodec.Failure.tampered) { try ServiceConfiguration().makeCursorCodec().open(cursor) }
    }

    @Test func processesWithoutAKeyRefuseEachOthersCursors() throws {
        // Within a process, every codec without secrets shares the process's key; another process draws its own.
        #expect(try CursorCodec().open(ServiceConfiguration().makeCursorCodec().seal(forged)) == forged)
        let first = ServiceConfiguration().makeCursorCodec()
        let second = CursorCodec(randomKey: ())
        #expect(try first.open(first.seal(forged)) == forged)
        #expect(throws: CursorCodec.Failure.tampered) { try second.open(first.seal(forged)) }
        #expect(throws: CursorCodec.Failure.tampered) { try first.open(second.seal(forged)) }
    }

    @Test func rotatedKeysOpenCursorsOfTheOldKeyAndSealWithTheNewOne() throws {
        let old = CursorCodec(secret: "the-old-secret-of-32-characters.")
        let new = CursorCodec(secret: "the-new-secret-of-32-characters.")
        var configuration = ServiceConfiguration()
        configuration.cursorSecrets = try ServiceConfiguration.cursorSecrets(
            parsing: "the-new-secret-of-32-characters., the-old-secret-of-32-characters.")
        let rotated = configuration.makeCursorCodec()
        #expect(try rotated.open(old.seal(forged)) == forged)
        #expect(try rotated.open(new.seal(forged)) == forged)
        #expect(rotated.seal(forged) == new.seal(forged), "the first key seals")
        #expect(throws: CursorCodec.Failure.tampered) { try old.open(rotated.seal(forged)) }
        #expect(throws: CursorCodec.Failure.tampered) { try rotated.open(CursorCodec(secret: "a third secret of 32 characters").seal(forged)) }
    }

    @Test func keyListIsCommaSeparatedWithEveryKeyOfSixteenCharactersOrMore() throws {
        #expect(try ServiceConfiguration.cursorSecrets(parsing: "0123456789abcdef") == ["0123456789abcdef"])
        #expect(
            try ServiceConfiguration.cursorSecrets(parsing: " 0123456789abcdef ,\tfedcba9876543210+/=")
                == ["0123456789abcdef", "fedcba9876543210+/="])
        for list in ["", "0123456789abcde", "0123456789abcdef,", ",0123456789abcdef", "0123456789abcdef,short"] {
            #expect(throws: ServiceConfiguration.Invalid.self, "\(list)") { try ServiceConfiguration.cursorSecrets(parsing: list) }
        }
        var configuration = ServiceConfiguration()
        configuration.cursorSecrets = ["0123456789abcdef", "short"]
        #expect(throws: ServiceConfiguration.Invalid.self) { try configuration.validate() }
    }
}
