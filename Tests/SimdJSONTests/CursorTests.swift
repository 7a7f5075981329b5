import CSimdJSON
import Testing

/// The bridge's cursor validates every value whatever its caller does: a value moved past unread is validated
/// then, and a step out of order does nothing (it never reads a stale value).
@Suite struct CursorTests {
    /// Runs `steps` on a cursor over `text` and returns the walk's status and syntax error.
    private func walk(_ text: String, _ steps: (OpaquePointer) -> Void) -> (status: Int, syntax: Int) {
        var bytes = Array(text.utf8)
        let length = bytes.count
        bytes += [UInt8](repeating: 0, count: Int(CSimdJSON_PADDING))
        let parser = CSimdJSON_ParserCreate()!
        defer { CSimdJSON_ParserDestroy(parser) }
        return bytes.withUnsafeBufferPointer { buffer in
            if CSimdJSON_CursorBegin(parser, buffer.baseAddress, length, buffer.count, 0, 100, 0) != 0 { steps(parser) }
            let result = CSimdJSON_CursorFinish(parser).pointee
            return (Int(result.status), Int(result.syntax))
        }
    }

    /// Moves through the root object's members without reading any value.
    private func passEveryMember(_ parser: OpaquePointer) {
        #expect(Int(CSimdJSON_CursorRoot(parser, nil)) == CSimdJSON_FoundObject)
        #expect(CSimdJSON_CursorEnter(parser, 0) == 0)
        var name: UnsafePointer<UInt8>?
        var length = 0
        var offset: Int64 = 0
        while CSimdJSON_CursorNextMember(parser, &name, &length, &offset, nil) != 0 {}
        CSimdJSON_CursorRequireEnd(parser)
    }

    @Test(arguments: [
        (#"{"a": [1, 2, 01]}"#, CSimdJSON_SyntaxNumber),
        (#"{"a": {"b": tru}}"#, CSimdJSON_SyntaxLiteral),
        (#"{"a": "\x"}"#, CSimdJSON_SyntaxString),
    ])
    func valuesMovedPastUnreadAreValidated(text: String, syntax: Int) {
        let outcome = walk(text, passEveryMember)
        #expect(outcome.status == CSimdJSON_StatusSyntax)
        #expect(outcome.syntax == syntax)
    }

    @Test func aValidDocumentMovedPastIsValid() {
        #expect(walk(#"{"a": [1, {"b": null}], "c": "d"}"#, passEveryMember).status == CSimdJSON_StatusOK)
    }

    @Test func stepsOutOfOrderDoNothing() {
        let outcome = walk(#"{"a": [1, 2]}"#) { parser in
            CSimdJSON_CursorSkip(parser)  // before the root: nothing to skip
            #expect(CSimdJSON_CursorEnter(parser, 0) == -1)
            #expect(Int(CSimdJSON_CursorRoot(parser, nil)) == CSimdJSON_FoundObject)
            #expect(CSimdJSON_CursorNextElement(parser, nil) == 0)  // nothing entered yet
            #expect(CSimdJSON_CursorEnter(parser, 0) == 0)
            #expect(CSimdJSON_CursorNextElement(parser, nil) == 0)  // an object, not an array
            var name: UnsafePointer<UInt8>?
            var length = 0
            var offset: Int64 = 0
            #expect(CSimdJSON_CursorNextMember(parser, &name, &length, &offset, nil) != 0)
            CSimdJSON_CursorSkip(parser)
            CSimdJSON_CursorSkip(parser)  // skipped already: nothing more
            #expect(CSimdJSON_CursorNextMember(parser, &name, &length, &offset, nil) == 0)
            CSimdJSON_CursorRequireEnd(parser)
        }
        #expect(outcome.status == CSimdJSON_StatusOK)
    }
}
