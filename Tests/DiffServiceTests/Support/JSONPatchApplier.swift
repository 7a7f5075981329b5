/// A test's own RFC 6902 applier over ``JSON`` (add, remove, replace, move), strict about every pointer: a
/// second implementation beside the service's writer (the CI's `scripts/jsonpatch-check` uses PyPI's
/// `jsonpatch`, a third).
enum JSONPatchApplier {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Applies `operations` (the answer's `jsonPatch`) to `document`.
    static func apply(_ operations: JSON, to document: JSON) throws -> JSON {
        guard case .array(let list) = operations else { throw Failure(description: "not a list: \(operations)") }
        var document = document
        for operation in list {
            guard case .string(let op)? = operation["op"], case .string(let path)? = operation["path"] else {
                throw Failure(description: "no op or path: \(operation)")
            }
            let pointer = try tokens(path)
            switch op {
            case "add": try insert(operation["value"] ?? .null, at: pointer[...], in: &document, replacing: false)
            case "replace": try insert(operation["value"] ?? .null, at: pointer[...], in: &document, replacing: true)
            case "remove": _ = try remove(pointer[...], from: &document)
            case "move":
                guard case .string(let from)? = operation["from"] else { throw Failure(description: "no from") }
                let value = try remove(try tokens(from)[...], from: &document)
                try insert(value, at: pointer[...], in: &document, replacing: false)
            default: throw Failure(description: "unknown op \(op)")
            }
        }
        return document
    }

    private static func tokens(_ pointer: String) throws -> [String] {
        guard pointer.hasPrefix("/") else { throw Failure(description: "bad pointer \(pointer)") }
        return pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
            .map { String($0).replacing("~1", with: "/").replacing("~0", with: "~") }
    }

    private static func insert(_ value: JSON, at pointer: ArraySlice<String>, in document: inout JSON, replacing: Bool) throws {
        guard let token = pointer.first else { throw Failure(description: "empty pointer") }
        let rest = pointer.dropFirst()
        switch document {
        case .object(var members):
            if rest.isEmpty {
                if replacing && members[token] == nil { throw Failure(description: "replace of missing \(token)") }
                members[token] = value
            } else {
                guard var child = members[token] else { throw Failure(description: "no member \(token)") }
                try insert(value, at: rest, in: &child, replacing: replacing)
                members[token] = child
            }
            document = .object(members)
        case .array(var elements):
            guard let index = Int(token), index >= 0, index <= elements.count - (rest.isEmpty && !replacing ? 0 : 1) else {
                throw Failure(description: "index \(token) outside \(elements.count)")
            }
            if !rest.isEmpty {
                try insert(value, at: rest, in: &elements[index], replacing: replacing)
            } else if replacing {
                elements[index] = value
            } else {
                elements.insert(value, at: index)
            }
            document = .array(elements)
        default:
            throw Failure(description: "\(token) into a scalar")
        }
    }

    private static func remove(_ pointer: ArraySlice<String>, from document: inout JSON) throws -> JSON {
        guard let token = pointer.first else { throw Failure(description: "empty pointer") }
        let rest = pointer.dropFirst()
        switch document {
        case .object(var members):
            guard var child = members[token] else { throw Failure(description: "no member \(token)") }
            let removed: JSON
            if rest.isEmpty {
                removed = child
                members[token] = nil
            } else {
                removed = try remove(rest, from: &child)
                members[token] = child
            }
            document = .object(members)
            return removed
        case .array(var elements):
            guard let index = Int(token), index >= 0, index < elements.count else {
                throw Failure(description: "index \(token) outside \(elements.count)")
            }
            let removed = rest.isEmpty ? elements.remove(at: index) : try remove(rest, from: &elements[index])
            document = .array(elements)
            return removed
        default:
            throw Failure(description: "\(token) from a scalar")
        }
    }
}
